import XCTest
@testable import Cairn

/// A scripted scene whose draw list is asserted with the same literals by the wasm test
/// (web/test/scene-script.test.js): the module must draw what the native build draws.
final class SceneScriptTests: XCTestCase {
    func testScriptedSceneDrawsTheSharedLiterals() throws {
        let map = MapController.make(lat: 48.85, lng: 2.35, zoom: 12, bearing: 20, tilt: 30)
        let icon = try map.registerIcon(Icon(width: 30, height: 40, insets: EdgeInsets(top: 0, left: 0, bottom: 4, right: 0)))
        var a = MarkerProperties(latitude: 48.86, longitude: 2.34)
        a.icon = icon
        a.zIndex = 1
        a.collision = .requiredAndHidesOptional
        var b = MarkerProperties(latitude: 48.84, longitude: 2.36)
        b.flat = true
        b.rotation = 45
        var c = MarkerProperties(latitude: 48.8605, longitude: 2.3405)
        c.collision = .optionalAndHidesLowerPriority
        _ = try map.addMarkers([a, b, c])
        let m = try map.addClusterManager(.distance)
        _ = try map.addClusterItems(m, latitudes: [48.80, 48.801, 48.802, 48.803, 48.9],
                                    longitudes: [2.30, 2.301, 2.302, 2.303, 2.4], icons: [-1, -1, -1, -1, -1])
        try map.cluster(m)
        map.down(1, 400, 300, at: 0, kind: .mouse)
        map.move(1, 430, 310, at: 0.05)
        map.up(1, 430, 310, at: 0.3)
        map.frame(1)
        let drawn = map.scene.items.map { [Double($0.kind.rawValue), Double($0.id), $0.x, $0.y, $0.rotation, $0.scaleY] }
        XCTAssertEqual(drawn.count, SceneScriptLiterals.items.count)
        for (got, want) in zip(drawn, SceneScriptLiterals.items) {
            for k in 0..<6 { XCTAssertEqual(got[k], want[k], accuracy: 1e-6, "\(got) vs \(want)") }
        }
        XCTAssertEqual(map.scene.hiddenCount, 1)
    }
}

/// [kind, id, x, y, rotation, scaleY] per drawn item, bottom to top.
enum SceneScriptLiterals {
    static let items: [[Double]] = [
        [3, 5, 479.97899452732923, 112.29583726212834, 0, 1],                // the lone cluster item
        // flat: 45° − bearing 20° on the ground, squeezed by cos 30° up the screen
        [1, 1, 474.0910925357, 338.24289316590216, 28.30005243274795, 0.8914323018542589],
        [2, 8_589_934_592, 363.095907043208, 574.0750187823576, 0, 1],      // the cluster of four
        [1, 0, 387.43828981033084, 282.73160745564337, 0, 1],               // zIndex 1 on top; it hides marker 2
    ]
}
