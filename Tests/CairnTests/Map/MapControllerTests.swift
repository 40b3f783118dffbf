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

    func testLimitsNotGivenTakeTheDefaultsAndABadOneChangesNothing() throws {
        let map = MapController.make()
        try map.setLimits(minZoom: 2, maxZoom: 12, maxTilt: 30, maxTileZoom: 18)
        XCTAssertEqual(map.camera.limits, CameraLimits(minZoom: 2, maxZoom: 12, maxTilt: 30))
        XCTAssertEqual(map.maxTileZoom, 18)
        try map.setLimits(minZoom: nil, maxZoom: 7, maxTilt: nil, maxTileZoom: nil)
        XCTAssertEqual(map.camera.limits, CameraLimits(minZoom: CameraLimits.standard.minZoom, maxZoom: 7,
                                                       maxTilt: CameraLimits.standard.maxTilt), "not kept from before")
        XCTAssertEqual(map.maxTileZoom, MapController.defaultMaxTileZoom)
        try map.setLimits(minZoom: nil, maxZoom: nil, maxTilt: nil, maxTileZoom: nil)
        XCTAssertEqual(map.camera.limits, .standard)
        XCTAssertEqual(CameraLimits.standard, CameraLimits(minZoom: 0, maxZoom: 22, maxTilt: 60), "Google's")
        XCTAssertEqual(MapController.defaultMaxTileZoom, 22)
        for bad in [(5.0, 4.0, 60.0, 22), (0, 22, 60, 31), (0, 22, 60, -1), (0, 22, 80, 22)] {
            XCTAssertThrowsError(try map.setLimits(minZoom: bad.0, maxZoom: bad.1, maxTilt: bad.2, maxTileZoom: bad.3))
            XCTAssertEqual(map.camera.limits, .standard, "\(bad)")
            XCTAssertEqual(map.maxTileZoom, 22)
        }
    }

    func testProgrammaticMovesWithoutADurationOrEasingTakeTheDefaults() throws {
        let map = MapController.make(zoom: 10)
        map.frame(1)
        try map.animateCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 12))
        map.frame(1.01)
        map.frame(1.01 + MapController.defaultAnimationDuration / 2)
        XCTAssertTrue(map.camera.isAnimating)
        // Half way in time, an ease-in-out is half way in zoom too.
        XCTAssertEqual(map.zoom, 11, accuracy: 1e-9)
        map.frame(1.02 + MapController.defaultAnimationDuration)
        XCTAssertFalse(map.camera.isAnimating)
        XCTAssertEqual(map.zoom, 12)
        XCTAssertEqual(MapController.defaultAnimationDuration, 0.5)
        XCTAssertEqual(MapController.defaultEasing, .easeInOut)
        try map.zoom(by: -1)
        try map.showBounds(west: -1, south: -1, east: 1, north: 1)
        XCTAssertFalse(map.camera.isAnimating, "zoomBy and showBounds move at once by default")
        try map.setMyLocation(latitude: 1, longitude: 2)
        XCTAssertEqual(map.myLocation.accuracy, 0, "no accuracy: unknown")
    }

    func testKeysWithControlAltOrMetaAreNotTheMaps() {
        for command in [KeyCommand.panLeft, .panUp, .panRight, .panDown, .zoomIn, .zoomOut] {
            XCTAssertTrue(MapController.takesKey(command, modifiers: 0))
            XCTAssertTrue(MapController.takesKey(command, modifiers: Modifier.shift), "shift rotates and tilts")
            for m in [Modifier.control, Modifier.alt, Modifier.meta, Modifier.shift | Modifier.control] {
                XCTAssertFalse(MapController.takesKey(command, modifiers: m), "\(command) with \(m)")
            }
        }
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
