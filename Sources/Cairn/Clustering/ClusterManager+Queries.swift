/// Queries on a manager's clusters (SPEC C8): the items inside, paginated; the zoom at which a
/// cluster splits; and the box around its items. Cluster ids are those the frame's draw list
/// gives; a screen-space cluster's id stops being valid when the manager re-clusters.
extension ClusterManager {
    /// Item ids of a cluster, `offset` skipped, at most `limit`.
    public func leaves(of cluster: Int64, limit: Int, offset: Int) throws(CairnError) -> [Int64] {
        guard limit >= 0, offset >= 0 else { throw .invalidArgument }
        var out: [Int64] = []
        if let index, algorithm == .hierarchical {
            try index.forEachLeaf(of: cluster, limit: limit, offset: offset) { out.append(snapshot[Int($0.id)].id) }
            return out
        }
        let members = groups.members(of: try group(ofID: cluster))
        var k = 0
        for m in members {
            if out.count >= limit { break }
            if k >= offset { out.append(snapshot[Int(m)].id) }
            k += 1
        }
        return out
    }

    /// The camera zoom at which a cluster splits: the hierarchical expansion zoom, or one more
    /// than the zoom a screen-space cluster was made for.
    public func expansionZoom(of cluster: Int64) throws(CairnError) -> Int {
        if let index, algorithm == .hierarchical { return try index.expansionZoom(of: cluster) }
        _ = try group(ofID: cluster)
        return (groupsZoom ?? 0) + 1
    }

    /// The longitude/latitude box around a cluster's items (west > east when it crosses the
    /// antimeridian the short way).
    public func bounds(of cluster: Int64) throws(CairnError) -> (west: Double, south: Double, east: Double, north: Double) {
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        func add(_ i: Int) {
            minX = Swift.min(minX, snapshot[i].x)
            maxX = Swift.max(maxX, snapshot[i].x)
            minY = Swift.min(minY, snapshot[i].y)
            maxY = Swift.max(maxY, snapshot[i].y)
        }
        if let index, algorithm == .hierarchical {
            try index.forEachLeaf(of: cluster, limit: Int.max, offset: 0) { add(Int($0.id)) }
        } else {
            for m in groups.members(of: try group(ofID: cluster)) { add(Int(m)) }
        }
        guard minX <= maxX else { throw .unknownCluster(id: cluster) }
        return (WebMercator.longitude(x: minX), WebMercator.latitude(y: maxY),
                WebMercator.longitude(x: maxX), WebMercator.latitude(y: minY))
    }
}
