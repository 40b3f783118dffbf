@testable import Cairn

/// Short forms for scripting input in map tests.
extension MapController {
    static func make(lat: Double = 0, lng: Double = 0, zoom: Double = 10, bearing: Double = 0, tilt: Double = 0,
                     width: Double = 800, height: Double = 600) -> MapController {
        try! MapController(camera: CameraPosition(latitude: lat, longitude: lng, zoom: zoom, bearing: bearing, tilt: tilt),
                           viewport: Viewport(width: width, height: height))
    }

    func down(_ id: Int32, _ x: Double, _ y: Double, at t: Double, kind: PointerKind = .touch,
              button: Int32 = 0, modifiers: Int32 = 0) {
        try! handle(.pointerDown(id: id, kind: kind, x: x, y: y, button: button, modifiers: modifiers, time: t))
    }

    func move(_ id: Int32, _ x: Double, _ y: Double, at t: Double) {
        try! handle(.pointerMove(id: id, x: x, y: y, time: t))
    }

    func up(_ id: Int32, _ x: Double, _ y: Double, at t: Double) {
        try! handle(.pointerUp(id: id, x: x, y: y, time: t))
    }

    /// A mouse press and release 50 ms later at a screen point.
    func click(_ p: (x: Double, y: Double), at t: Double) {
        down(1, p.x, p.y, at: t, kind: .mouse)
        up(1, p.x, p.y, at: t + 0.05)
    }

    func frame(_ t: Double) {
        try! advance(to: t)
    }

    /// The ground coordinate under a screen point.
    func ground(_ x: Double, _ y: Double) -> (latitude: Double, longitude: Double) {
        projection.coordinate(screenX: x, screenY: y)!
    }

    var zoom: Double { camera.position.zoom }
    var bearing: Double { camera.position.bearing }
    var tilt: Double { camera.position.tilt }
}

extension IndoorBuilding {
    /// A square building of ±0.001° around a point, `levels` levels.
    static func square(lat: Double = 0, lng: Double = 0, levels: Int = 3, defaultLevel: Int = 1) throws -> IndoorBuilding {
        try IndoorBuilding(latitudes: [lat - 0.001, lat - 0.001, lat + 0.001, lat + 0.001],
                           longitudes: [lng - 0.001, lng + 0.001, lng + 0.001, lng - 0.001],
                           levelCount: levels, defaultLevel: defaultLevel)
    }
}

/// A marker at a position with Google's defaults, then edits.
func marker(_ lat: Double, _ lng: Double, _ edit: (inout MarkerProperties) -> Void = { _ in }) -> MarkerProperties {
    var m = MarkerProperties(latitude: lat, longitude: lng)
    edit(&m)
    return m
}
