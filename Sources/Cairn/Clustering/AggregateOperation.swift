/// How a cluster property combines its points' values (feature C9, MapLibre's
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
    /// What a cluster starts from before any value: 0 for sums and counts, ±∞ for min and max.
    var identity: Double {
        switch self {
        case .sum, .count, .mean: return 0
        case .min: return .infinity
        case .max: return -.infinity
        }
    }

    /// What a cluster reports from its running total (a sum, min, max or count; for `mean` the
    /// sum) and how many values it had: NaN without any (0 for `sum` and `count`).
    func report(_ total: Double, present: Double) -> Double {
        switch self {
        case .mean: return present > 0 ? total / present : .nan
        case .min, .max: return total.isInfinite ? .nan : total
        case .sum, .count: return total
        }
    }

    /// The operation over some points' values (NaN: no value), as a cluster of them reports it.
    func reduce(_ values: some Sequence<Double>) -> Double {
        var total = identity, present = 0.0
        for v in values where !v.isNaN {
            present += 1
            switch self {
            case .sum, .mean: total += v
            case .min: total = Swift.min(total, v)
            case .max: total = Swift.max(total, v)
            case .count: total += 1
            }
        }
        return report(total, present: present)
    }
}
