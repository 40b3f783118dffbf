/// Aggregated cluster properties (feature C9): sums, minimums, maximums, counts and means of one
/// number per point, for every cluster.
///
/// One pass, no recursion: points pour their values into their parents, then clusters into
/// theirs in creation order. That order has children first, because a cluster's children were
/// formed at higher zooms, which the build does earlier.
extension HierarchicalClusterIndex {
    /// Adds an aggregated property computed from `values` (one per point, in input order; NaN
    /// for "no value") and returns its column number. The index must be built.
    @discardableResult
    public func addAggregate(_ operation: AggregateOperation, values: UnsafeBufferPointer<Double>) throws(CairnError) -> Int {
        guard state == .built, !isWeighted else { throw .invalidState }
        let n = pointPositions.count
        guard values.count == n else { throw .invalidArgument }
        for i in 0..<n where values[i].isInfinite { throw .nonFiniteValue(index: i) }
        // Clusters in creation order, children first (an index with aggregates takes no edits).
        compactStorage()
        let clusters = clusterPositions.count
        var column = _AggregateColumn(operation: operation,
                                      values: [Double](repeating: operation.identity, count: clusters),
                                      counts: operation == .mean ? [Double](repeating: 0, count: clusters) : [])
        func pour(_ value: Double, _ present: Double, into parent: Int) {
            switch operation {
            case .sum: column.values[parent] += value
            case .count: column.values[parent] += present
            case .mean:
                column.values[parent] += value
                column.counts[parent] += present
            case .min: if value < column.values[parent] { column.values[parent] = value }
            case .max: if value > column.values[parent] { column.values[parent] = value }
            }
        }
        for i in 0..<n {
            let parent = Int(pointParent[i])
            if parent < 0 || values[i].isNaN { continue }
            pour(values[i], 1, into: parent - n)
        }
        for c in 0..<clusters {
            let parent = Int(clusterParent[c])
            if parent < 0 { continue }
            switch operation {
            case .count: pour(0, column.values[c], into: parent - n)
            case .mean: pour(column.values[c], column.counts[c], into: parent - n)
            default: pour(column.values[c], 0, into: parent - n)
            }
        }
        aggregates.append(column)
        return aggregates.count - 1
    }

    /// The value of aggregated property `column` for a cluster.
    public func aggregate(_ column: Int, of clusterID: Int64) throws(CairnError) -> Double {
        guard column >= 0 && column < aggregates.count else { throw .invalidArgument }
        let item = try clusterItem(publicID: clusterID)
        return aggregates[column].value(Int(item) - pointPositions.count)
    }

    /// The number of aggregated properties added.
    public var aggregateCount: Int { aggregates.count }
}
