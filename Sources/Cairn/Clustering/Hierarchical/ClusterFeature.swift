/// One thing a cluster query returns: a cluster, or a single input point.
public struct ClusterFeature: Equatable {
    /// A point's index in input order, or a cluster's id (always ≥ the index's point count).
    public var id: Int64
    /// Points inside: 1 for a single point.
    public var pointCount: Int
    public var isCluster: Bool
    /// World position (the unit square, see `WebMercator`): a point's exact projection or a
    /// cluster's weighted centroid.
    public var x: Double
    public var y: Double

    public init(id: Int64, pointCount: Int, isCluster: Bool, x: Double, y: Double) {
        self.id = id
        self.pointCount = pointCount
        self.isCluster = isCluster
        self.x = x
        self.y = y
    }

    public var longitude: Double { WebMercator.longitude(x: x) }
    public var latitude: Double { WebMercator.tabulatedLatitude(y: y) }
}
