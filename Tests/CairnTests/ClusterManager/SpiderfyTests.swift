import XCTest
@testable import Cairn

final class SpiderfyTests: XCTestCase {
    func tapFirstCluster(_ map: MapController, at t: Double) throws -> SceneItem {
        let c = try XCTUnwrap(map.scene.items.first { $0.kind == .cluster })
        map.down(1, c.x, c.y, at: t)
        map.up(1, c.x, c.y, at: t + 0.05)
        map.frame(t + 0.4)
        map.answerTap(consumed: false)
        map.frame(t + 0.5)
        return c
    }

    func testC10_CoincidentItemsSpreadOnACircleOrASpiralAndFoldBack() throws {
        for (count, algorithm) in [(5, ClusterAlgorithmKind.hierarchical), (12, .distance)] {
            let map = MapController.make(zoom: 10)
            let m = try map.addClusterManager(algorithm)
            _ = try map.addClusterItems(m, latitudes: [Double](repeating: 0.01, count: count),
                                        longitudes: [Double](repeating: 0.01, count: count),
                                        icons: [Int32](repeating: -1, count: count))
            try map.cluster(m)
            map.frame(0)
            let cluster = try tapFirstCluster(map, at: 1)
            XCTAssertEqual(map.zoom, 10, "no zoom: it could never split")
            let spread = map.scene.items.filter { $0.kind == .clusterItem }
            XCTAssertEqual(spread.count, count)
            XCTAssertTrue(spread.allSatisfy { $0.hasLeg && $0.legX == cluster.x && $0.legY == cluster.y })
            // Every item on its own spot, far enough apart to be tapped.
            for a in 0..<count {
                for b in (a + 1)..<count {
                    let d = ((spread[a].x - spread[b].x) * (spread[a].x - spread[b].x)
                             + (spread[a].y - spread[b].y) * (spread[a].y - spread[b].y)).squareRoot()
                    XCTAssertGreaterThan(d, 12, "\(count) items: \(a) and \(b)")
                }
            }
            // A tap on the map folds it back.
            map.down(1, 10, 10, at: 2)
            map.up(1, 10, 10, at: 2.05)
            map.frame(2.5)
            XCTAssertNil(try map.clusterManager(m).spiderfied)
            XCTAssertEqual(map.scene.items.filter { $0.kind == .cluster }.count, 1)
            // So does a zoom change.
            _ = try tapFirstCluster(map, at: 3)
            XCTAssertNotNil(try map.clusterManager(m).spiderfied)
            try map.zoom(by: 0.5)
            map.frame(4)
            XCTAssertNil(try map.clusterManager(m).spiderfied)
        }
    }

    func testC10_OffsetsCircleBelowNineSpiralFromNine() {
        let circle = Spiderfy.offsets(count: 8)
        let radii = circle.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }
        XCTAssertEqual(radii.max()! - radii.min()!, 0, accuracy: 1e-9, "one circle")
        let spiral = Spiderfy.offsets(count: 30).map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }
        XCTAssertEqual(spiral, spiral.sorted(), "the spiral widens")
        XCTAssertEqual(spiral[0], Spiderfy.spiralStart)
    }
}
