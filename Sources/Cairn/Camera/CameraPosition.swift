/// Where the camera looks from: the ground point at the centre of the (padded) view, the zoom,
/// the bearing (degrees clockwise from north that the top of the screen faces) and the tilt
/// (degrees away from straight down). The same four values as Google's `GMSCameraPosition`.
public struct CameraPosition: Equatable {
    public var latitude: Double
    public var longitude: Double
    public var zoom: Double
    public var bearing: Double
    public var tilt: Double

    public init(latitude: Double, longitude: Double, zoom: Double, bearing: Double = 0, tilt: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.zoom = zoom
        self.bearing = bearing
        self.tilt = tilt
    }

    /// Rejects what cannot be a camera (NaN or infinite values); everything finite is accepted
    /// and later clamped or wrapped by the camera's limits.
    func validated() throws(CairnError) -> CameraPosition {
        guard latitude.isFinite, longitude.isFinite, zoom.isFinite, bearing.isFinite, tilt.isFinite
        else { throw .invalidArgument }
        return self
    }
}

/// The camera in the engine's own terms: the target in world coordinates (the unit square of
/// `WebMercator`), so that panning and interpolation need no trigonometry.
struct _WorldCamera: Equatable {
    /// World x of the target, kept in 0..<1 (the world repeats east-west).
    var x: Double
    /// World y of the target, in 0...1.
    var y: Double
    var zoom: Double
    /// Degrees in 0..<360.
    var bearing: Double
    var tilt: Double

    init(x: Double, y: Double, zoom: Double, bearing: Double, tilt: Double) {
        self.x = x
        self.y = y
        self.zoom = zoom
        self.bearing = bearing
        self.tilt = tilt
    }

    init(_ position: CameraPosition) {
        self.init(x: WebMercator.x(longitude: WebMercator.wrapLongitude(position.longitude)),
                  y: WebMercator.y(latitude: WebMercator.clampLatitude(position.latitude)),
                  zoom: position.zoom, bearing: position.bearing, tilt: position.tilt)
    }

    var position: CameraPosition {
        CameraPosition(latitude: WebMercator.latitude(y: y),
                       longitude: WebMercator.wrapLongitude(WebMercator.longitude(x: x)),
                       zoom: zoom, bearing: bearing, tilt: tilt)
    }

    var isFinite: Bool { x.isFinite && y.isFinite && zoom.isFinite && bearing.isFinite && tilt.isFinite }

    /// Wraps x and bearing and clamps y, zoom and tilt into their ranges.
    mutating func normalize(_ limits: CameraLimits) {
        x = _wrapUnit(x)
        y = y < 0 ? 0 : (y > 1 ? 1 : y)
        zoom = limits.clampZoom(zoom)
        tilt = limits.clampTilt(tilt)
        bearing = _wrapDegrees(bearing)
    }
}

/// A number folded into 0..<1.
@inline(__always)
func _wrapUnit(_ x: Double) -> Double {
    if x >= 0 && x < 1 { return x }
    let r = x - _floor(x)
    return r >= 1 ? 0 : r
}

/// Degrees folded into 0..<360.
@inline(__always)
func _wrapDegrees(_ degrees: Double) -> Double {
    _wrapUnit(degrees / 360) * 360
}

/// The signed difference `to - from` in degrees taken the short way round (-180...180).
func _shortestTurn(from: Double, to: Double) -> Double {
    var d = _wrapDegrees(to - from)
    if d > 180 { d -= 360 }
    return d
}
