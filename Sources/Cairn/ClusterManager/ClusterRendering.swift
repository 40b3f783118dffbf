/// How clusters are drawn (features C3, C4).
public struct ClusterRendering: Equatable {
    /// Groups smaller than this are drawn as their items (GMU: 4).
    public var minimumClusterSize = 4
    /// Above this camera zoom everything is drawn as items (GMU: 20).
    public var maximumClusterZoom = 20.0
    public var buckets = ClusterIconBuckets.standard
    /// The host's measure of label text, which icon diameters grow with.
    public var labelMetrics = ClusterLabelMetrics.standard
    /// The hierarchical algorithm's options, supercluster's (C2a): radius, extent, the zooms
    /// clustered and the fewest points of a cluster. Other algorithms ignore them.
    public var hierarchy = ClusterOptions()
    /// The hierarchical radius, in supercluster's units (of the extent, 512 by default: 40 is 20 points on the
    /// map's 256-point tiles).
    public var radius: Double {
        get { hierarchy.radius }
        set { hierarchy.radius = newValue }
    }

    public init() {}

    func validated() throws(CairnError) -> ClusterRendering {
        guard minimumClusterSize >= 1, maximumClusterZoom.isFinite, radius.isFinite, radius > 0, radius <= 4096
        else { throw .invalidArgument }
        try hierarchy.validate()
        return self
    }
}
