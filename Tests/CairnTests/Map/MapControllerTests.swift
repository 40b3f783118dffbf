import XCTest
@testable import Cairn

final class MapControllerTests: XCTestCase {
    /// A scripted drag and pinch whose final camera is asserted with the same literals by the
    /// wasm test in web/test (engine/map-engine.test.js, script in support/map-script.js): the module
    /// must give the camera the native build gives.
    func testScriptedDragAndPinchEndAtTheSharedLiterals() {
        let map = MapController.make(lat: 40, lng: -74, zoom: 10)
        map.down(1, 400, 300, at: 0, kind: .mouse)
        map.move(1, 450, 320, at: 0.016)
        map.move(1, 500, 340, at: 0.033)
        map.up(1, 500, 340, at: 0.05)
        map.frame(2)
        map.down(2, 300, 300, at: 3)
        map.down(3, 500, 300, at: 3)
        map.move(2, 250, 280, at: 3.05)
        map.move(3, 550, 320, at: 3.05)
        map.move(2, 200, 260, at: 3.1)
        map.move(3, 600, 340, at: 3.1)
        map.up(2, 200, 260, at: 3.15)
        map.up(3, 600, 340, at: 3.15)
        map.frame(5)
        let c = map.camera.position
        XCTAssertEqual(c.latitude, ScriptLiterals.latitude, accuracy: 1e-9)
        XCTAssertEqual(c.longitude, ScriptLiterals.longitude, accuracy: 1e-9)
        XCTAssertEqual(c.zoom, ScriptLiterals.zoom, accuracy: 1e-9)
        XCTAssertEqual(c.bearing, ScriptLiterals.bearing, accuracy: 1e-9)
        XCTAssertEqual(c.tilt, ScriptLiterals.tilt, accuracy: 1e-9)
    }

    func testTheClockNeverRunsBackwards() throws {
        let map = MapController.make()
        map.frame(10)
        map.frame(5)
        XCTAssertEqual(map.time, 10)
        try map.animateCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 12), duration: 1, easing: .linear)
        map.frame(9)
        XCTAssertEqual(map.zoom, 10, "a late frame is the same instant, not a rewind")
        map.frame(10.5)
        XCTAssertEqual(map.zoom, 11, accuracy: 1e-12)
    }

    func testRemovedManagersFreeTheirSlotButNotTheirNumber() throws {
        let map = MapController.make(zoom: 10)
        let first = try map.addClusterManager(.grid)
        try map.removeClusterManager(first)
        let second = try map.addClusterManager(.grid)
        XCTAssertNotEqual(second, first)
        XCTAssertEqual(map.clusterManagers.count, 1, "the slot is used again")
        XCTAssertThrowsError(try map.clusterManager(first)) { XCTAssertEqual($0 as? CairnError, .invalidHandle) }
        XCTAssertThrowsError(try map.removeClusterManager(first))
        XCTAssertNoThrow(try map.clusterManager(second))
        // Items drawn carry the manager's number, and a tap names it.
        _ = try map.addClusterItems(second, latitudes: [0], longitudes: [0], icons: [-1])
        try map.cluster(second)
        map.frame(0)
        XCTAssertEqual(map.scene.items.first?.owner, second)
    }
}

/// The final camera of the script (native and wasm agree to the last few bits of libm).
enum ScriptLiterals {
    static let latitude = 40.31419591388263
    static let longitude = -75.02775563045753
    static let zoom = 11.028291764183184
    static let bearing = 358.4176460773814
    static let tilt = 0.0
}
