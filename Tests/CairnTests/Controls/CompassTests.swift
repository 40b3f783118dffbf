import XCTest
@testable import Cairn

/// The compass (G2), the my-location button and dot (G3), and padding moving them (G5).
final class ControlsTests: XCTestCase {
    func tap(_ map: MapController, _ p: (x: Double, y: Double), at t: Double) {
        map.down(1, p.x, p.y, at: t, kind: .mouse)
        map.up(1, p.x, p.y, at: t + 0.05)
    }

    func testTheCompassLifeCycle() throws {
        let map = MapController.make(zoom: 5)
        map.settings.compassButton = true
        map.frame(0)
        XCTAssertEqual(map.compass.opacity, 0, "never shown at bearing 0")
        XCTAssertNil(map.control(atX: map.compassCenter.x, y: map.compassCenter.y))
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 5, bearing: 30))
        map.frame(1)
        XCTAssertEqual(map.compass.opacity, 1)
        XCTAssertEqual(map.compass.rotation, -30)
        _ = map.drainEvents()
        tap(map, map.compassCenter, at: 2)
        XCTAssertEqual(map.drainEvents(), [.compassTapped, .cameraWillMove(.apiAnimation)])
        map.frame(2.25)
        XCTAssertGreaterThan(map.bearing, 0)
        XCTAssertEqual(map.compass.opacity, 1)
        map.frame(2.55)  // the tap ended at 2.05; the animation takes 0.5 s
        XCTAssertEqual(map.bearing, 0)
        XCTAssertEqual(map.compass.opacity, 1, "the fade starts when the bearing reaches 0")
        map.frame(2.675)
        XCTAssertEqual(map.compass.opacity, 0.5, accuracy: 1e-12)
        map.frame(2.8)
        XCTAssertEqual(map.compass.opacity, 0)
        XCTAssertNil(map.control(atX: map.compassCenter.x, y: map.compassCenter.y), "a faded compass is not a target")
        XCTAssertEqual(map.camera.position.zoom, 5, "only the bearing changed")
    }

    func testTheCompassIsHiddenWhenDisabledAndATapThereIsAMapTap() throws {
        let map = MapController.make(bearing: 45)
        map.frame(0)
        XCTAssertEqual(map.compass.opacity, 0)
        tap(map, map.compassCenter, at: 1)
        map.frame(2)
        XCTAssertEqual(map.bearing, 45)
        XCTAssertTrue(map.drainEvents().contains { if case .tap = $0 { return true } else { return false } })
    }

    func testPaddingMovesTheControls() throws {
        let map = MapController.make(width: 800, height: 600)
        XCTAssertEqual(map.compassCenter.x, 800 - 12 - 20)
        XCTAssertEqual(map.compassCenter.y, 12 + 20)
        XCTAssertEqual(map.myLocationButtonCenter.y, 600 - 12 - 20)
        try map.setViewport(Viewport(width: 800, height: 600, padding: EdgeInsets(top: 50, left: 0, bottom: 80, right: 30)))
        XCTAssertEqual(map.compassCenter.x, 800 - 30 - 32)
        XCTAssertEqual(map.compassCenter.y, 50 + 32)
        XCTAssertEqual(map.myLocationButtonCenter.x, 800 - 30 - 32)
        XCTAssertEqual(map.myLocationButtonCenter.y, 600 - 80 - 32)
    }

    func testMyLocationButtonAsksForALocationThenGoesThere() throws {
        let map = MapController.make(zoom: 12)
        map.settings.myLocationButton = true
        tap(map, map.myLocationButtonCenter, at: 1)
        XCTAssertEqual(map.drainEvents(), [.myLocationButtonTapped, .locationRequested])
        // The host answers long after the last frame: the flight starts with the next one.
        try map.setMyLocation(latitude: 59.33, longitude: 18.07, accuracy: 25)
        map.frame(30)
        XCTAssertEqual(map.camera.position.latitude, 0, accuracy: 1e-9, "the flight's first frame")
        map.frame(30.5)
        XCTAssertEqual(map.camera.position.latitude, 59.33, accuracy: 1e-9)
        XCTAssertEqual(map.camera.position.longitude, 18.07, accuracy: 1e-9)
        XCTAssertEqual(map.zoom, 12)
        // One change for each frame: the start, then the end.
        XCTAssertEqual(map.drainEvents(), [.cameraWillMove(.apiAnimation), .cameraChanged, .cameraChanged, .cameraIdle])
        let dot = try XCTUnwrap(map.locationDot)
        XCTAssertEqual(dot.x, 400, accuracy: 1e-6)
        XCTAssertEqual(dot.y, 300, accuracy: 1e-6)
        // 25 m at zoom 12 and 59.33° N: 25 × 2^20 / (40075016.69 × cos 59.33°) px.
        XCTAssertEqual(dot.radius, 25 * 1_048_576 / (CameraProjection.earthCircumference * _cos(59.33 * .pi / 180)),
                       accuracy: 1e-6)
        // Known location: a tap goes straight there.
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 12))
        tap(map, map.myLocationButtonCenter, at: 31)
        map.frame(32)
        map.frame(32.5)
        XCTAssertEqual(map.camera.position.latitude, 59.33, accuracy: 1e-9)
        XCTAssertFalse(map.drainEvents().contains(.locationRequested))
    }

    func testLocationsAreValidatedAndCanBeCleared() throws {
        let map = MapController.make()
        XCTAssertThrowsError(try map.setMyLocation(latitude: 91, longitude: 0, accuracy: 1))
        XCTAssertThrowsError(try map.setMyLocation(latitude: 0, longitude: .nan, accuracy: 1))
        XCTAssertThrowsError(try map.setMyLocation(latitude: 0, longitude: 0, accuracy: -1))
        XCTAssertNil(map.locationDot)
        try map.setMyLocation(latitude: 1, longitude: 370, accuracy: 0)
        XCTAssertEqual(map.myLocation.longitude, 10)
        XCTAssertNotNil(map.locationDot)
        map.clearMyLocation()
        XCTAssertNil(map.locationDot)
        XCTAssertFalse(map.myLocation.isKnown)
    }

    func testAPressOnAControlDoesNotPanTheMap() {
        let map = MapController.make()
        map.settings.myLocationButton = true
        let c = map.myLocationButtonCenter
        let before = map.camera.position
        map.down(1, c.x, c.y, at: 0)
        map.move(1, c.x - 200, c.y - 100, at: 0.1)
        map.up(1, c.x - 200, c.y - 100, at: 0.2)
        map.frame(1)
        XCTAssertEqual(map.camera.position, before)
        XCTAssertEqual(map.drainEvents(), [], "dragged off the button: no activation")
    }
}
