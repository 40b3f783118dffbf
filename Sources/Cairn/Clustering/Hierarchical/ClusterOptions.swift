/// The options of the hierarchical clustering (feature C2a), with supercluster's names and
/// defaults.
public struct ClusterOptions: Equatable {
    /// Cluster radius in pixels of a tile of `extent` pixels.
    public var radius: Double = 40
    /// Tile extent the radius is measured in.
    public var extent: Double = 512
    /// Lowest zoom at which clusters are generated.
    public var minZoom: Int = 0
    /// Highest zoom at which clusters are generated; above it every point stands alone.
    public var maxZoom: Int = 16
    /// Fewest points that form a cluster (1 behaves as 2, as in supercluster).
    public var minPoints: Int = 2

    /// Highest `maxZoom` accepted: cluster ids keep the zoom in five bits.
    public static let highestMaxZoom = 30

    /// Names the option an `invalidOption` error is about.
    public enum Field: Int32, Equatable {
        case radius = 0, extent, minZoom, maxZoom, minPoints
    }

    public init(radius: Double = 40, extent: Double = 512, minZoom: Int = 0, maxZoom: Int = 16,
                minPoints: Int = 2) {
        self.radius = radius
        self.extent = extent
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.minPoints = minPoints
    }

    /// Throws the first option that is out of range.
    public func validate() throws(CairnError) {
        if !(radius.isFinite && radius > 0) { throw .invalidOption(.radius) }
        if !(extent.isFinite && extent > 0) { throw .invalidOption(.extent) }
        if minZoom < 0 || minZoom > ClusterOptions.highestMaxZoom { throw .invalidOption(.minZoom) }
        if maxZoom < minZoom || maxZoom > ClusterOptions.highestMaxZoom { throw .invalidOption(.maxZoom) }
        if minPoints < 1 || minPoints > Int(Int32.max) { throw .invalidOption(.minPoints) }
    }

    /// The clustering radius at `zoom` in world units (the world is the unit square).
    func worldRadius(zoom: Int) -> Double {
        radius / (extent * Double(1 << zoom))
    }
}
