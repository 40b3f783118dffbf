import XCTest
@testable import Cairn

/// The compass (feature G2).
final class CompassTests: XCTestCase {
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
        map.click(map.compassCenter, at: 2)
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
        map.click(map.compassCenter, at: 1)
        map.frame(2)
        XCTAssertEqual(map.bearing, 45)
        XCTAssertTrue(map.drainEvents().contains { if case .tap = $0 { return true } else { return false } })
    }
}
