/// Items to cluster for the screen: world positions (the unit square of `WebMercator`) in
/// insertion order, which the algorithms of Google's utility library depend on.
public struct ClusterItemPositions {
    public private(set) var x: [Double] = []
    public private(set) var y: [Double] = []

    public init() {}

    /// Positions already in world coordinates (both arrays the same length).
    init(x: [Double], y: [Double]) {
        self.x = x
        self.y = y
    }

    public var count: Int { x.count }

    /// Appends an item; NaN or infinite coordinates and latitudes beyond ±90° are refused.
    public mutating func append(latitude: Double, longitude: Double) throws(CairnError) {
        guard latitude.isFinite, longitude.isFinite else { throw .nonFiniteCoordinate(index: count) }
        guard latitude >= -90, latitude <= 90 else { throw .latitudeOutOfRange(index: count) }
        x.append(WebMercator.x(longitude: WebMercator.wrapLongitude(longitude)))
        y.append(WebMercator.y(latitude: latitude))
    }

    public mutating func removeAll() {
        x.removeAll()
        y.removeAll()
    }
}
