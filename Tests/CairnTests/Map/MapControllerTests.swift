import XCTest
@testable import Cairn

/// A scripted drag and pinch whose final camera is asserted with the same literals by the
/// wasm test in web/test (map-engine.test.js, script in web/test/map-script.js): the module
/// must give the camera the native build gives.
final class MapControllerScriptTests: XCTestCase {
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
}

/// The final camera of the script (native and wasm agree to the last few bits of libm).
enum ScriptLiterals {
    static let latitude = 40.31419591388263
    static let longitude = -75.02775563045753
    static let zoom = 11.028291764183184
    static let bearing = 358.4176460773814
    static let tilt = 0.0
}
