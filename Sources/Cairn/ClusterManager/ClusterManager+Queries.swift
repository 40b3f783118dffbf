/// Queries on a manager's clusters (features C8, C9): what a cluster was formed from; the items
/// inside, paginated; the zoom at which a cluster splits; the box around its items; its
/// aggregated properties. Cluster ids are those the frame's draw list gives; a screen-space
/// cluster's id stops being valid when the manager re-clusters.
extension ClusterManager {
    /// How many `children(of:)` gives, without listing them.
    public func childCount(of cluster: Int64) throws(CairnError) -> Int {
        if let index, algorithm == .hierarchical {
            var n = 0
            try index.forEachChild(of: cluster) { _ in n += 1 }
            return n
        }
        return groups.size(of: try group(ofID: cluster))
    }

    /// The clusters and items a cluster was formed from: for the hierarchical index, those of the
    /// zoom above the one it first appears at (items with their item ids); a screen-space
    /// cluster is formed from its items.
    public func children(of cluster: Int64) throws(CairnError) -> [ClusterFeature] {
        if let index, algorithm == .hierarchical {
            return try index.children(of: cluster).map { c in
                var f = c
                if !c.isCluster { f.id = snapshot[Int(c.id)].id }
                return f
            }
        }
        return groups.members(of: try group(ofID: cluster)).map { m in
            let s = snapshot[Int(m)]
            return ClusterFeature(id: s.id, pointCount: 1, isCluster: false, x: s.x, y: s.y)
        }
    }

    /// A cluster's aggregated properties (C9), in the order `setAggregates` declared them.
    public func aggregates(of cluster: Int64) throws(CairnError) -> [Double] {
        if let index, algorithm == .hierarchical {
            var out: [Double] = []
            for c in 0..<aggregateOperations.count { out.append(try index.aggregate(c, of: cluster)) }
            return out
        }
        let g = try group(ofID: cluster), k = aggregateOperations.count
        return Array(groupAggregates[(g * k)..<(g * k + k)])
    }

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

    /// The camera zoom at which a cluster splits: the hierarchical expansion zoom; for a
    /// screen-space cluster, the first zoom above the one it was made for at which the
    /// manager's algorithm no longer groups its items as one (its items alone: the others may
    /// group differently there). Items that never part (one place) split where everything is
    /// drawn as items, above `maximumClusterZoom`.
    public func expansionZoom(of cluster: Int64) throws(CairnError) -> Int {
        if let index, algorithm == .hierarchical { return try index.expansionZoom(of: cluster) }
        let members = groups.members(of: try group(ofID: cluster))
        let all = snapshotPositions
        let positions = ClusterItemPositions(x: members.map { all.x[Int($0)] }, y: members.map { all.y[Int($0)] },
                                             mapX: members.map { all.mapX[Int($0)] }, mapY: members.map { all.mapY[Int($0)] })
        var from = (groupsZoom ?? 0) + 1
        let itemsFrom = Swift.max(from, Int(Swift.min(31, Swift.max(0, rendering.maximumClusterZoom))) + 1)
        // Skip the zooms that cannot part them: none when they lie in one place; for the
        // distance algorithm, those where their box fits in the ±100-point square of the first.
        let width = (positions.x.max() ?? 0) - (positions.x.min() ?? 0)
        let height = (positions.y.max() ?? 0) - (positions.y.min() ?? 0)
        let span = Swift.max(width, height)
        if span == 0 { return itemsFrom }
        if algorithm == .distance {
            // (Strictly within, by a margin: at the box's edge Google's rounding decides.)
            while from < itemsFrom && span * 256 * Double(Int64(1) << Int64(from)) < 99.999 { from += 1 }
        }
        var parts = ClusterGroups()
        for z in from..<itemsFrom {
            group(positions, zoom: z, into: &parts)
            if parts.count > 1 { return z }
        }
        return itemsFrom
    }

    /// The longitude/latitude box around a cluster's items. No algorithm groups items across the
    /// antimeridian (supercluster's and Google's do not wrap), so west ≤ east.
    public func bounds(of cluster: Int64) throws(CairnError) -> (west: Double, south: Double, east: Double, north: Double) {
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for m in try members(of: cluster) {
            let s = snapshot[Int(m)]
            minX = Swift.min(minX, s.x)
            maxX = Swift.max(maxX, s.x)
            minY = Swift.min(minY, s.y)
            maxY = Swift.max(maxY, s.y)
        }
        guard minX <= maxX else { throw .unknownCluster(id: cluster) }
        return (WebMercator.longitude(x: minX), WebMercator.latitude(y: maxY),
                WebMercator.longitude(x: maxX), WebMercator.latitude(y: minY))
    }
}
