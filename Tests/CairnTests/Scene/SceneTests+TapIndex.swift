import XCTest
@testable import Cairn

/// The tap index is filled when a tap first asks for it: a scene answers taps from the frame it
/// holds, whichever frame another copy of it holds, and in whatever order they are asked.
final class SceneTapIndexTests: XCTestCase {
    func testEachCopyOfASceneAnswersTapsFromItsOwnFrame() throws {
        let map = MapController.make(zoom: 10)
        let id = try map.addMarker(MarkerProperties(latitude: 0, longitude: 0))
        map.frame(1)
        let before = map.scene
        // 100 px east at zoom 10.
        try map.updateMarker(id, MarkerProperties(latitude: 0, longitude: 100 * 360 / 262_144))
        map.frame(2)
        func hitID(_ scene: Scene, _ x: Double, _ y: Double) -> Int64? {
            if case .item(let item)? = scene.hit(x: x, y: y) { return item.id }
            return nil
        }
        for _ in 0..<2 {
            XCTAssertEqual(hitID(map.scene, 500, 280), id)
            XCTAssertNil(hitID(map.scene, 400, 280))
            XCTAssertEqual(hitID(before, 400, 280), id, "the earlier frame's copy")
            XCTAssertNil(hitID(before, 500, 280))
        }
        // Items drawn in a frame before any tap are found when the tap comes.
        map.frame(3)
        XCTAssertEqual(hitID(map.scene, 500, 280), id)
    }
}
