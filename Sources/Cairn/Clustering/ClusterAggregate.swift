/// How a cluster property combines its points' values (SPEC C9, MapLibre's
/// `clusterProperties`): a cluster's value is the operation over every point inside it.
public enum AggregateOperation: Int32, Equatable {
    case sum = 0
    case min = 1
    case max = 2
    /// How many points inside have a value.
    case count = 3
    /// Sum divided by count.
    case mean = 4
}

extension AggregateOperation {
    /// The operation over some points' values (NaN: no value), as a cluster of them reports it:
    /// NaN without any value (0 for `sum` and `count`).
    func reduce(_ values: some Sequence<Double>) -> Double {
        var total = self == .min ? Double.infinity : (self == .max ? -Double.infinity : 0), present = 0.0
        for v in values where !v.isNaN {
            present += 1
            switch self {
            case .sum, .mean: total += v
            case .min: total = Swift.min(total, v)
            case .max: total = Swift.max(total, v)
            case .count: break
            }
        }
        switch self {
        case .count: return present
        case .mean: return present > 0 ? total / present : .nan
        case .min, .max: return total.isInfinite ? .nan : total
        case .sum: return total
        }
    }
}

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
        switch operation {
        case .mean: return counts[c] > 0 ? values[c] / counts[c] : .nan
        case .min, .max: return values[c].isInfinite ? .nan : values[c]
        case .sum, .count: return values[c]
        }
    }
}
