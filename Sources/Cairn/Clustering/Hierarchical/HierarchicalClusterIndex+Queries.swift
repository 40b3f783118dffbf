/// Queries on a built index, with supercluster's semantics, ids and result order:
/// `getClusters`, `getChildren`, `getLeaves`, `getClusterExpansionZoom` and `getTile`. Each has
/// a visitor form that builds no result array (for the WebAssembly boundary and hot paths;
/// `forEachLeaf` keeps a small list per cluster it descends into) and an array form for Swift
/// callers. The order comes from supercluster's tree of the zoom asked (`+SuperclusterOrder`),
/// laid out by the first query that needs it.
extension HierarchicalClusterIndex {
    /// The integer zoom whose clustering a (possibly fractional) zoom shows.
    public func limitZoom(_ zoom: Double) throws(CairnError) -> Int {
        guard !zoom.isNaN else { throw .invalidArgument }
        let top = Double(options.maxZoom + 1)
        let z = zoom < 0 ? 0 : (zoom > top ? top : _floor(zoom))
        return Int(z) < options.minZoom ? options.minZoom : Int(z)
    }

    func feature(_ item: Int32) -> ClusterFeature {
        let pos = reportedPosition(item)
        return ClusterFeature(id: publicID(ofItem: item), pointCount: pointCount(of: item),
                              isCluster: isCluster(item), x: pos.x, y: pos.y)
    }

    /// Visits the clusters and points visible at `zoom` inside a longitude/latitude box. Boxes
    /// that cross the antimeridian (west > east) and boxes 360° wide or wider are handled as
    /// supercluster handles them; latitudes are clamped to ±90.
    public func forEachCluster(west: Double, south: Double, east: Double, north: Double,
                               zoom: Double, _ body: (ClusterFeature) -> Void) throws(CairnError) {
        try forEachVisibleItem(west: west, south: south, east: east, north: north, zoom: zoom, ordered: true) {
            body(feature($0))
        }
    }

    /// Visits every item visible at `zoom`, in no particular order: what a caller reads to go
    /// on from that zoom elsewhere (see `+WeightedItems`), with exact world positions.
    public func forEachItem(zoom: Double, _ body: (ClusterFeature) -> Void) throws(CairnError) {
        try forEachVisibleItem(west: -180, south: -90, east: 180, north: 90, zoom: zoom) { body(feature($0)) }
    }

    /// `forEachCluster` with the index's own item numbers (points below `pointPositions.count`,
    /// then clusters), in no particular order unless `ordered`: for callers inside the module
    /// that draw every frame and would otherwise build a feature per item and turn its public id
    /// back into the item.
    func forEachVisibleItem(west: Double, south: Double, east: Double, north: Double,
                            zoom: Double, ordered: Bool = false, _ body: (Int32) -> Void) throws(CairnError) {
        guard state == .built else { throw .invalidState }
        guard !(west.isNaN || south.isNaN || east.isNaN || north.isNaN) else { throw .invalidArgument }
        let z = try limitZoom(zoom)
        var minLng = _fmod(_fmod(west + 180, 360) + 360, 360) - 180
        var maxLng = east == 180 ? 180 : _fmod(_fmod(east + 180, 360) + 360, 360) - 180
        let minLat = south < -90 ? -90 : (south > 90 ? 90 : south)
        let maxLat = north < -90 ? -90 : (north > 90 ? 90 : north)
        if east - west >= 360 {
            minLng = -180
            maxLng = 180
        } else if minLng > maxLng {
            visitBox(minLng, minLat, 180, maxLat, z, ordered, body)
            visitBox(-180, minLat, maxLng, maxLat, z, ordered, body)
            return
        }
        visitBox(minLng, minLat, maxLng, maxLat, z, ordered, body)
    }

    private func visitBox(_ minLng: Double, _ minLat: Double, _ maxLng: Double, _ maxLat: Double,
                          _ zoom: Int, _ ordered: Bool, _ body: (Int32) -> Void) {
        let minX = WebMercator.x(longitude: minLng), minY = WebMercator.y(latitude: maxLat)
        let maxX = WebMercator.x(longitude: maxLng), maxY = WebMercator.y(latitude: minLat)
        if ordered {
            forEachItemInOrder(minX: minX, minY: minY, maxX: maxX, maxY: maxY, zoom: zoom, body)
        } else {
            forEachItem(minX: minX, minY: minY, maxX: maxX, maxY: maxY, zoom: zoom, body)
        }
    }

    /// The clusters and points visible at `zoom` inside a longitude/latitude box.
    public func clusters(west: Double, south: Double, east: Double, north: Double,
                         zoom: Double) throws(CairnError) -> [ClusterFeature] {
        var out: [ClusterFeature] = []
        try forEachCluster(west: west, south: south, east: east, north: north, zoom: zoom) { out.append($0) }
        return out
    }

    /// Visits the children of a cluster: the clusters and points it was formed from, one zoom
    /// above the one it first appears at.
    public func forEachChild(of clusterID: Int64, _ body: (ClusterFeature) -> Void) throws(CairnError) {
        forEachChildItemInOrder(of: try clusterItem(publicID: clusterID)) { body(feature($0)) }
    }

    /// Visits the children of a cluster in the order supercluster's `reduce` folds them into
    /// the cluster's properties: the child the cluster grew from first, then the others.
    public func forEachChildInReduceOrder(of clusterID: Int64, _ body: (ClusterFeature) -> Void) throws(CairnError) {
        forEachChildItemInReduceOrder(of: try clusterItem(publicID: clusterID)) { body(feature($0)) }
    }

    public func children(of clusterID: Int64) throws(CairnError) -> [ClusterFeature] {
        var out: [ClusterFeature] = []
        try forEachChild(of: clusterID) { out.append($0) }
        return out
    }

    /// Visits the children of a cluster in no particular order, for counts and sets. Children
    /// lie within the radius of the cluster's seed, and the centroid within the radius of the
    /// seed too, so a box of twice the radius around the centroid holds them all.
    func forEachChildItem(of item: Int32, _ body: (Int32) -> Void) {
        let c = Int(item) - pointPositions.count
        let zoom = Int(clusterZoom[c])
        let reach = 2 * options.worldRadius(zoom: zoom) + 1.0 / 1_048_576
        let (x, y) = clusterPositions[c]
        forEachItem(minX: x - reach, minY: y - reach, maxX: x + reach, maxY: y + reach,
                    zoom: zoom + 1) { child in
            if parent(of: child) == item { body(child) }
        }
    }

    /// Visits the points inside a cluster, skipping `offset` of them and stopping after `limit`
    /// (supercluster's `getLeaves` order: depth first through the children).
    public func forEachLeaf(of clusterID: Int64, limit: Int, offset: Int,
                            _ body: (ClusterFeature) -> Void) throws(CairnError) {
        guard limit >= 0, offset >= 0 else { throw .invalidArgument }
        let item = try clusterItem(publicID: clusterID)
        if limit == 0 { return }
        var skipped = 0
        var found = 0
        appendLeaves(item, limit: limit, offset: offset, skipped: &skipped, found: &found, body)
    }

    /// Visits every point of a cluster in no particular order, for callers that need the set
    /// (a map drawing a cluster as its items), without laying out supercluster's trees.
    func forEachLeafItem(of item: Int32, _ body: (Int32) -> Void) {
        forEachChildItem(of: item) { child in
            if isCluster(child) { forEachLeafItem(of: child, body) } else { body(child) }
        }
    }

    public func leaves(of clusterID: Int64, limit: Int = 10, offset: Int = 0) throws(CairnError) -> [ClusterFeature] {
        var out: [ClusterFeature] = []
        try forEachLeaf(of: clusterID, limit: limit, offset: offset) { out.append($0) }
        return out
    }

    private func appendLeaves(_ item: Int32, limit: Int, offset: Int, skipped: inout Int,
                              found: inout Int, _ body: (ClusterFeature) -> Void) {
        var children: [Int32] = []
        forEachChildItemInOrder(of: item) { children.append($0) }
        for child in children {
            if isCluster(child) {
                let count = pointCount(of: child)
                if skipped + count <= offset {
                    skipped += count
                } else {
                    appendLeaves(child, limit: limit, offset: offset, skipped: &skipped, found: &found, body)
                }
            } else if skipped < offset {
                skipped += 1
            } else {
                body(feature(child))
                found += 1
            }
            if found == limit { return }
        }
    }

    /// The zoom at which a cluster splits into several children (supercluster's
    /// `getClusterExpansionZoom`). Every cluster here has at least two children, so this is
    /// the zoom above the one it was formed at; the loop mirrors supercluster's, which also
    /// handles single-child chains.
    public func expansionZoom(of clusterID: Int64) throws(CairnError) -> Int {
        var item = try clusterItem(publicID: clusterID)
        var zoom = Int(clusterZoom[Int(item) - pointPositions.count])
        while zoom <= options.maxZoom {
            var count = 0
            var only: Int32 = -1
            forEachChildItem(of: item) { child in
                count += 1
                only = child
            }
            zoom += 1
            if count != 1 || !isCluster(only) { break }
            item = only
        }
        return zoom
    }

    /// Visits the features of tile z/x/y: what `getClusters` shows at zoom z inside the tile,
    /// padded by `buffer`, plus the wrapped-around neighbours at x = 0 and x = 2^z - 1, with
    /// coordinates in tile units of `tileExtent` (the clustering's `extent` unless given: a vector
    /// tile's extent scales the coordinates). The padding is `buffer` tile units of `tileExtent`
    /// when given, else the radius / extent of a tile (a cluster's symbol at the edge is whole).
    public func forEachTileFeature(z: Int, x: Int, y: Int, tileExtent: Double? = nil, buffer: Double? = nil,
                                   _ body: (TileFeature) -> Void) throws(CairnError) {
        let (scale, p) = try tileScaleAndPadding(z: z, tileExtent: tileExtent, buffer: buffer)
        let size = 1 << z
        guard x >= 0, x < size, y >= 0, y < size else { throw .invalidArgument }
        let zoom = try limitZoom(Double(z))
        let z2 = Double(size)
        let top = (Double(y) - p) / z2
        let bottom = (Double(y) + 1 + p) / z2
        func add(_ minX: Double, _ maxX: Double, originX: Double) {
            forEachItemInOrder(minX: minX, minY: top, maxX: maxX, maxY: bottom, zoom: zoom) { item in
                let pos = reportedPosition(item)
                body(TileFeature(id: publicID(ofItem: item), pointCount: pointCount(of: item),
                                 isCluster: isCluster(item),
                                 x: _jsRound(scale * (pos.x * z2 - originX)),
                                 y: _jsRound(scale * (pos.y * z2 - Double(y)))))
            }
        }
        add((Double(x) - p) / z2, (Double(x) + 1 + p) / z2, originX: Double(x))
        if x == 0 { add(1 - p / z2, 1, originX: z2) }
        if x == size - 1 { add(0, p / z2, originX: -1) }
    }

    /// The checks a tile query makes of its zoom, extent and buffer (see `forEachTileFeature`),
    /// and what they give: the units of the tile's coordinates, and its padding in tiles.
    func tileScaleAndPadding(z: Int, tileExtent: Double?, buffer: Double?) throws(CairnError) -> (scale: Double, padding: Double) {
        guard state == .built else { throw .invalidState }
        guard z >= 0, z <= 30 else { throw .invalidArgument }
        if let tileExtent { guard tileExtent.isFinite, tileExtent > 0 else { throw .invalidArgument } }
        let scale = tileExtent ?? options.extent
        if let buffer { guard buffer.isFinite, buffer >= 0, buffer <= scale else { throw .invalidArgument } }
        return (scale, buffer.map { $0 / scale } ?? options.radius / options.extent)
    }

    public func tile(z: Int, x: Int, y: Int) throws(CairnError) -> [TileFeature] {
        var out: [TileFeature] = []
        try forEachTileFeature(z: z, x: x, y: y) { out.append($0) }
        return out
    }
}

/// JavaScript's `Math.round`: halves round up (towards +∞), unlike Swift's default. Clamped to
/// ±2^31 so absurd extents cannot overflow (and trap) the conversion.
@inline(__always)
func _jsRound(_ v: Double) -> Int {
    let f = _floor(v)
    let r = v - f >= 0.5 ? f + 1 : f
    let limit = 2_147_483_647.0
    return Int(r > limit ? limit : (r < -limit ? -limit : r))
}
