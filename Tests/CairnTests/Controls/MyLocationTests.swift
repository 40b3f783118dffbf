import XCTest
@testable import Cairn

/// The my-location button and dot (feature G3).
final class MyLocationTests: XCTestCase {
    func testMyLocationButtonAsksForALocationThenGoesThere() throws {
        let map = MapController.make(zoom: 12)
        map.settings.myLocationButton = true
        map.click(map.myLocationButtonCenter, at: 1)
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
        map.click(map.myLocationButtonCenter, at: 31)
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
}
