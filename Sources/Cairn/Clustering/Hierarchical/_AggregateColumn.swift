/// One aggregated property: a value per cluster, in cluster order. A point without a value (NaN)
/// counts for nothing; a cluster without any has NaN (0 for `sum` and `count`).
struct _AggregateColumn {
    let operation: AggregateOperation
    /// The sum, min, max or count per cluster; for `mean`, the sum.
    var values: [Double]
    /// For `mean`: how many points had a value.
    var counts: [Double]

    /// The value reported for cluster `c`.
    func value(_ c: Int) -> Double {
        operation.report(values[c], present: operation == .mean ? counts[c] : 1)
    }
}
