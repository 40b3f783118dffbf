/// Items to cluster for the screen, in insertion order (which the algorithms of Google's utility
/// library depend on): each item's world position (the unit square of `WebMercator`, where
/// clusters are drawn) and its Google map point (`GoogleMapPoint`, what the algorithms compute in).
public struct ClusterItemPositions {
    public private(set) var x: [Double] = []
    public private(set) var y: [Double] = []
    public private(set) var mapX: [Double] = []
    public private(set) var mapY: [Double] = []

    public init() {}

    /// Positions already projected (all four arrays the same length).
    init(x: [Double], y: [Double], mapX: [Double], mapY: [Double]) {
        self.x = x
        self.y = y
        self.mapX = mapX
        self.mapY = mapY
    }

    public var count: Int { x.count }

    /// Appends an item; NaN or infinite coordinates and latitudes beyond ±90° are refused.
    public mutating func append(latitude: Double, longitude: Double) throws(CairnError) {
        guard latitude.isFinite, longitude.isFinite else { throw .nonFiniteCoordinate(index: count) }
        guard latitude >= -90, latitude <= 90 else { throw .latitudeOutOfRange(index: count) }
        let lng = WebMercator.wrapLongitude(longitude)
        x.append(WebMercator.x(longitude: lng))
        y.append(WebMercator.y(latitude: latitude))
        mapX.append(GoogleMapPoint.x(longitude: lng))
        mapY.append(GoogleMapPoint.y(latitude: latitude))
    }

    public mutating func removeAll() {
        x.removeAll()
        y.removeAll()
        mapX.removeAll()
        mapY.removeAll()
    }
}
