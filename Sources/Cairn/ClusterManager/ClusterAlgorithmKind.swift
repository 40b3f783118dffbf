/// Which algorithm a cluster manager uses (feature C2).
public enum ClusterAlgorithmKind: Int32 {
    /// supercluster's greedy hierarchical clustering, precomputed for every zoom (C2a).
    case hierarchical = 0
    /// Google's non-hierarchical distance-based algorithm (C2b, GMU's default).
    case distance = 1
    case grid = 2
    case none = 3

    /// A manager's algorithm when the host names none: the hierarchical one, for large data.
    public static let standard = ClusterAlgorithmKind.hierarchical
}
