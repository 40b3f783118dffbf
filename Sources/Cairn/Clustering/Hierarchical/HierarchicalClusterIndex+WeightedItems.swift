/// Weighted items: an index whose "points" each stand for several points, such as the items
/// another index shows at some zoom, so that the zooms below can be clustered from those items
/// alone (a distributed run clusters its partitions down to a hand-over zoom, then the items
/// they leave there on one machine).
///
/// An item of weight 1 is a point: clustered at its float32 rounding, as every point is. An
/// item of weight w > 1 is a cluster of w points: neighbours are measured to its double centroid
/// and its float32 rounding, and it weighs w in the centroids and point counts of the clusters
/// it joins, exactly as the cluster it stands for does in the index it came from. Given in that
/// index's data order at its zoom (for minPoints 2, by the input index of each item's lowest
/// point), the items cluster as there, decision for decision; a centroid may differ in its last
/// bits where the two indexes add its members in another order, which the caller can bound
/// (the sums are the same terms).
///
/// Reported positions are the given ones; a weighted item is reported as a point whose point
/// count is its weight. Aggregates, edits and saving need points and refuse such an index.
extension HierarchicalClusterIndex {
    /// Whether the index holds weighted items.
    public var isWeighted: Bool { !pointWeights.isEmpty }

    /// Adds items from records `[x, y, weight]` in world coordinates (0...1, as `WebMercator`
    /// gives them), weights whole numbers from 1. Every record is checked first: on an error
    /// nothing is added, and `invalidRecord` names the first bad record by its index in the
    /// whole index. An index takes weighted items or points, not both; the total weight is at
    /// most `UInt32.max`.
    public func add(weightedItems records: UnsafeBufferPointer<Double>) throws(CairnError) {
        guard state == .adding, pointPositions.count == pointWeights.count else { throw .invalidState }
        guard records.count % 3 == 0 else { throw .invalidArgument }
        let first = pointPositions.count
        let n = records.count / 3
        try checkRoom(for: n)
        var total = UInt64(totalWeight)
        for i in 0..<n {
            let x = records[3 * i], y = records[3 * i + 1], w = records[3 * i + 2]
            // `!(a <= b)` also refuses NaN.
            guard x >= 0, x <= 1, y >= 0, y <= 1, w >= 1, w <= Double(UInt32.max), w == w.rounded(.down) else {
                throw .invalidRecord(index: first + i)
            }
            total += UInt64(w)
            guard total <= UInt64(UInt32.max) else { throw .tooManyPoints }
        }
        pointWeights.reserveCapacity(first + n)
        pointPositions.reserveCapacity(first + n)
        for i in 0..<n {
            pointPositions.append(records[3 * i], records[3 * i + 1])
            pointWeights.append(UInt32(records[3 * i + 2]))
        }
        totalWeight = Int(total)
    }

    /// Calls `body` with the points' weights (empty when every point counts one) and positions,
    /// for the build's raw access (`_ClusteringPositions`).
    func withPointWeights<R>(_ body: (UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<Double>) -> R) -> R {
        pointWeights.withUnsafeBufferPointer { w in
            pointPositions.xy.withUnsafeBufferPointer { xy in body(w, xy) }
        }
    }
}
