import XCTest
@testable import Cairn

final class ClusterTransitionTests: XCTestCase {
    func fourAt(_ map: MapController, latitude: Double = 0, longitude: Double = 0, spread: Double = 1) throws -> Int32 {
        let m = try map.addClusterManager(.distance)
        _ = try map.addClusterItems(m, latitudes: [1, 1, -1, -1].map { latitude + $0 * spread },
                                    longitudes: [1, -1, 1, -1].map { longitude + $0 * spread }, icons: [-1, -1, -1, -1])
        try map.cluster(m)
        return m
    }

    func testC5_ZoomingInItemsFlyOutOfTheirCluster() throws {
        let map = MapController.make(zoom: 4)
        _ = try fourAt(map)
        map.frame(0)
        let cluster = try XCTUnwrap(map.scene.items.first { $0.kind == .cluster })
        XCTAssertEqual(cluster.count, 4, "one cluster before zooming in")
        // 2° apart is 91 points at zoom 6 (still one group), 364 at zoom 8.
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 8))
        map.frame(1)
        map.frame(1.21)  // the zoom held 0.2 s: re-clustered, the transition starts here
        let p = map.projection
        let start = map.scene.items.filter { $0.kind == .clusterItem }
        XCTAssertEqual(start.count, 4)
        let from = p.screenPoint(worldX: WebMercator.x(longitude: 1), worldY: WebMercator.y(latitude: 1))!
        for item in start {
            XCTAssertEqual(item.x, from.x, accuracy: 1e-6, "all start where the cluster was (its seed, the first item)")
            XCTAssertEqual(item.y, from.y, accuracy: 1e-6)
        }
        map.frame(1.46)
        let mid = map.scene.items.filter { $0.kind == .clusterItem }
        let last = map.projection.screenPoint(latitude: -1, longitude: -1)!
        XCTAssertEqual(mid[3].x, from.x + (last.x - from.x) * 0.5, accuracy: 1e-6, "halfway at half time")
        XCTAssertTrue(mid.allSatisfy { abs($0.progress - 0.5) < 1e-9 }, "their progress is a half")
        map.frame(1.72)
        XCTAssertTrue(map.scene.items.allSatisfy { $0.progress == 1 }, "still again")
        XCTAssertNil(try map.clusterManager(0).transition)
        XCTAssertEqual(map.scene.items.filter { $0.kind == .clusterItem }[3].x, last.x, accuracy: 1e-6)
    }

    func testC5_ZoomingOutItemsFlyIntoTheClusterAndFade() throws {
        let map = MapController.make(zoom: 8)
        _ = try fourAt(map)
        map.frame(0)
        XCTAssertEqual(map.scene.items.filter { $0.kind == .clusterItem }.count, 4)
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 4))
        map.frame(1)
        map.frame(1.21)
        map.frame(1.46)
        let ghosts = map.scene.items.filter { $0.kind == .clusterItem }
        XCTAssertEqual(ghosts.count, 3, "the seed item is where the cluster is: it does not move")
        XCTAssertTrue(ghosts.allSatisfy { abs($0.opacity - 0.5) < 1e-9 })
        XCTAssertTrue(ghosts.allSatisfy { abs($0.progress - 0.5) < 1e-9 })
        XCTAssertEqual(map.scene.items.filter { $0.kind == .cluster }.count, 1)
        map.frame(1.72)
        XCTAssertEqual(map.scene.items.map(\.kind), [.cluster])
    }

    func testC5_SurvivingClustersDoNotMoveAndAnimationCanBeTurnedOff() throws {
        let map = MapController.make(zoom: 4)
        let m = try fourAt(map, spread: 0.1)
        map.frame(0)
        let before = try XCTUnwrap(map.scene.items.first { $0.kind == .cluster })
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 5))
        map.frame(1)
        map.frame(1.21)
        map.frame(1.3)
        let after = try XCTUnwrap(map.scene.items.first { $0.kind == .cluster })
        let expected = map.projection.screenPoint(latitude: 0.1, longitude: 0.1)!
        XCTAssertEqual(after.x, expected.x, accuracy: 1e-9, "the same cluster, still on its seed")
        XCTAssertEqual(after.count, before.count)
        try map.clusterManager(m).animatesClusters = false
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 12))
        map.frame(3)
        map.frame(3.22)
        XCTAssertNil(try map.clusterManager(m).transition)
        let settled = map.projection.screenPoint(latitude: -0.1, longitude: -0.1)!
        XCTAssertEqual(map.scene.items.filter { $0.kind == .clusterItem }[3].x, settled.x, accuracy: 1e-6)
    }

    /// Transitions find where a drawn cluster was (or goes) at the lower zoom from the cluster
    /// itself rather than from one of its points: both give the same place, for every cluster
    /// of every zoom.
    func testC5_LowerZoomPositionsFromTheDrawnClusterEqualThoseFromItsPoint() throws {
        let map = MapController.make(zoom: 2)
        let m = try map.addClusterManager(.hierarchical)
        var random = SeededRandom(seed: 8)
        var lats: [Double] = [], lngs: [Double] = []
        for _ in 0..<3000 {
            lats.append(40 + random.next() * 10)
            lngs.append(-100 + random.next() * 20)
        }
        _ = try map.addClusterItems(m, latitudes: lats, longitudes: lngs, icons: [Int32](repeating: -1, count: lats.count))
        try map.cluster(m)
        let manager = try map.clusterManager(m)
        let index = try XCTUnwrap(manager.index)
        let n = lats.count
        var clusters = 0
        for zoom in 1...16 {
            for lower in Swift.max(0, zoom - 3)..<zoom {
                let state = _DrawnClustering(zoom: lower, asClusters: true, minimumClusterSize: 2)
                try index.forEachVisibleItem(west: -180, south: -85, east: 180, north: 85, zoom: Double(zoom)) { item in
                    let c = Int(item) - n
                    guard c >= 0 else { return }
                    clusters += 1
                    let member = Int(manager.clusterMember[c])
                    let fromPoint = state.position(ofItem: member, manager: manager)
                    let fromCluster = state.position(ofItem: member, drawnAs: item, manager: manager)
                    XCTAssertTrue(fromPoint == fromCluster, "zoom \(zoom) → \(lower), cluster \(c)")
                }
            }
        }
        XCTAssertGreaterThan(clusters, 1000)
    }

    func testC5_HierarchicalZoomInFliesOutOfTheParentCluster() throws {
        let map = MapController.make(zoom: 2)
        let m = try map.addClusterManager(.hierarchical)
        _ = try map.addClusterItems(m, latitudes: [1, 1, -1, -1], longitudes: [1, -1, 1, -1], icons: [-1, -1, -1, -1])
        try map.cluster(m)
        map.frame(0)
        let cluster = try XCTUnwrap(map.scene.items.first { $0.kind == .cluster })
        try map.zoom(by: 3)
        map.frame(0.5)
        let items = map.scene.items.filter { $0.kind == .clusterItem }
        XCTAssertEqual(items.count, 4)
        let c = try XCTUnwrap(map.clusterManager(m).index).reportedPosition(
            try XCTUnwrap(map.clusterManager(m).index).clusterItem(publicID: cluster.id))
        let from = map.projection.screenPoint(worldX: c.x, worldY: c.y)!
        XCTAssertTrue(items.allSatisfy { abs($0.x - from.x) < 1e-6 && abs($0.y - from.y) < 1e-6 })
        map.frame(1.1)
        XCTAssertFalse(map.scene.items.filter { $0.kind == .clusterItem }.allSatisfy { abs($0.x - from.x) < 1e-6 })
    }
}
