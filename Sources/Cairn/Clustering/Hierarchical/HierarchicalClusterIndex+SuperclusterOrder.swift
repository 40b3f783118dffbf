/// supercluster's result order: the public queries list items as its k-d tree of each zoom
/// lists them (see `_SuperclusterTree`). The tree of a zoom is laid out the first time a query
/// needs it and kept until the index is freed; the zoom groups serve everything whose order
/// does not matter (drawing, counting), so a map that never asks pays nothing.
///
/// A tree starts from the zoom's data order. With minPoints 2 that is rank order (see
/// `+SuperclusterIDs`). With a larger minPoints, a seed with too few points to cluster moves
/// its neighbours right after itself, in the order its search lists them: the data order then
/// depends on the trees themselves, so the build lays out the tree of each zoom as it goes
/// (for the searches that order the moved items) and records every zoom's data order.
extension HierarchicalClusterIndex {
    /// Whether the build recorded the data order of every zoom (minPoints > 2).
    var recordsDataOrder: Bool { options.minPoints > 2 }

    /// Keeps the data order of the items visible at `zoom` (minPoints > 2).
    func recordDataOrder(_ order: [Int32], zoom: Int) {
        if superclusterDataOrder.isEmpty {
            superclusterDataOrder = [[Int32]](repeating: [], count: options.maxZoom - options.minZoom + 1)
        }
        superclusterDataOrder[zoom - options.minZoom] = order
    }

    /// The item at `position` in the data order of `zoom` (minPoints > 2).
    func dataOrderItem(zoom: Int, position: Int) -> Int32 {
        zoom > options.maxZoom ? Int32(position) : superclusterDataOrder[zoom - options.minZoom][position]
    }

    /// The tree of an integer zoom (already limited to minZoom...maxZoom+1), laid out on first use.
    func superclusterTree(zoom: Int) -> _SuperclusterTree {
        let slot = zoom - options.minZoom
        if superclusterTrees.isEmpty {
            superclusterTrees = [_SuperclusterTree?](repeating: nil, count: options.maxZoom - options.minZoom + 2)
        }
        if let tree = superclusterTrees[slot] { return tree }
        let tree = layOutTree(zoom: zoom)
        superclusterTrees[slot] = tree
        return tree
    }

    /// The items visible at `zoom` in data order (by rank), laid out.
    private func layOutTree(zoom: Int) -> _SuperclusterTree {
        let items = dataOrder(zoom: zoom)
        var coords = [Float](repeating: 0, count: 2 * items.count)
        for k in 0..<items.count {
            let p = indexPosition(items[k])
            coords[2 * k] = p.x
            coords[2 * k + 1] = p.y
        }
        return _SuperclusterTree(dataOrder: items, coords: coords)
    }

    /// How many items supercluster's tree of a zoom holds (laying the tree out if no query has).
    public func superclusterTreeCount(zoom: Double) throws(CairnError) -> Int {
        guard state == .built else { throw .invalidState }
        return superclusterTree(zoom: try limitZoom(zoom)).count
    }

    /// supercluster's tree of a zoom as it holds it, for code written against its fields: in
    /// the tree's layout order, each item's position in that zoom's data (its `ids`) and its
    /// float32 world position (its `coords`, x and y interleaved).
    public func superclusterTreeLayout(zoom: Double) throws(CairnError) -> (ids: [UInt32], coords: [Float]) {
        guard state == .built else { throw .invalidState }
        let z = try limitZoom(zoom)
        let tree = superclusterTree(zoom: z)
        var positionOf = [UInt32](repeating: 0, count: pointPositions.count + clusterPositions.count)
        for (position, item) in dataOrder(zoom: z).enumerated() { positionOf[Int(item)] = UInt32(position) }
        return (tree.items.map { positionOf[Int($0)] }, tree.coords)
    }

    /// The items visible at `zoom` in supercluster's data order of that zoom.
    private func dataOrder(zoom: Int) -> [Int32] {
        let n = pointPositions.count
        var items: [Int32]
        if zoom > options.maxZoom {
            // Every point, in input order (but those removed by edits).
            items = (0..<n).lazy.filter { !self.isRemoved($0) }.map { Int32($0) }
        } else if recordsDataOrder {
            items = superclusterDataOrder[zoom - options.minZoom]
        } else {
            var keys: [UInt64] = []
            var values: [UInt32] = []
            if let g = group(forZoom: zoom) {
                for item in g.ids where isVisible(item, zoom: zoom) {
                    keys.append(UInt64(rank(of: item)))
                    values.append(UInt32(bitPattern: item))
                }
            }
            RadixSort.sort(keys: &keys, values: &values, count: keys.count)
            items = values.map { Int32(bitPattern: $0) }
        }
        return items
    }

    /// Visits the items visible at `zoom` in a world rectangle, in supercluster's order.
    func forEachItemInOrder(minX: Double, minY: Double, maxX: Double, maxY: Double, zoom: Int,
                            _ body: (Int32) -> Void) {
        superclusterTree(zoom: zoom).forEach(minX: minX, minY: minY, maxX: maxX, maxY: maxY, body)
    }

    /// The child a cluster grew from: the one of its rank (a seed ranks before all it absorbs).
    func seed(ofCluster item: Int32) -> Int32 {
        let c = Int(item) - pointPositions.count
        if recordsDataOrder {
            return dataOrderItem(zoom: Int(clusterZoom[c]) + 1, position: Int(seedPosition(ofCluster: c)))
        }
        let r = rank(of: item)
        var found: Int32 = -1
        forEachChildItem(of: item) { child in
            if rank(of: child) == r { found = child }
        }
        return found
    }

    /// Visits a cluster's children in supercluster's order: its search of the seed's radius in
    /// the tree of the zoom the children are visible at.
    func forEachChildItemInOrder(of item: Int32, _ body: (Int32) -> Void) {
        let zoom = Int(clusterZoom[Int(item) - pointPositions.count])
        let seed = seed(ofCluster: item)
        let (x, y) = clusteringPosition(seed)
        superclusterTree(zoom: zoom + 1).forEach(within: options.worldRadius(zoom: zoom), of: x, y) { child in
            if parent(of: child) == item { body(child) }
        }
    }

    /// Visits a cluster's children in the order supercluster's `reduce` folds them: the seed
    /// first, then the others as its search found them.
    func forEachChildItemInReduceOrder(of item: Int32, _ body: (Int32) -> Void) {
        let seed = seed(ofCluster: item)
        body(seed)
        forEachChildItemInOrder(of: item) { child in
            if child != seed { body(child) }
        }
    }

    /// The position supercluster clusters an item at: a point's float32 position, a cluster's
    /// double centroid.
    func clusteringPosition(_ item: Int32) -> (x: Double, y: Double) {
        let i = Int(item)
        let n = pointPositions.count
        if i >= n { return clusterPositions[i - n] }
        let p = indexPosition(item)
        return (Double(p.x), Double(p.y))
    }
}
