/// The whole hierarchy in one pass: every item with the cluster that absorbed it. For callers
/// that read all of it at once, such as a distributed run that checks which of a partition's
/// clusters could depend on points outside it; one query per cluster would cross the module's
/// boundary a million times.
extension HierarchicalClusterIndex {
    /// Points and clusters together.
    public var itemCount: Int { pointPositions.count + clusterCount }

    /// Visits every item, the points in input order and then the clusters in the order they
    /// were formed, with its public id and its parent's (-1 for an item no cluster absorbed).
    /// A cluster's public id holds the zoom it was formed at (see `publicID(ofItem:)`).
    public func forEachParentLink(_ body: (_ id: Int64, _ parent: Int64) -> Void) throws(CairnError) {
        guard state == .built else { throw .invalidState }
        // Clusters in the order they were formed: zoom by zoom, as a build stores them.
        compactStorage()
        for item in 0..<itemCount {
            let p = parent(of: Int32(item))
            body(publicID(ofItem: Int32(item)), p >= 0 ? publicID(ofItem: p) : -1)
        }
    }
}
