import XCTest
@testable import Cairn

/// Where the controls sit, padding moving them (feature G5), and presses on them.
final class ControlLayoutTests: XCTestCase {
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
