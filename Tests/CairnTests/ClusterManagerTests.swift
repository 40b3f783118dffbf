import XCTest
@testable import Cairn

final class ClusterManagerTests: XCTestCase {
    func clusters(_ map: MapController) -> [SceneItem] { map.scene.items.filter { $0.kind == .cluster } }
    func items(_ map: MapController) -> [SceneItem] { map.scene.items.filter { $0.kind == .clusterItem } }

    func fourAroundTheOrigin(_ map: MapController, _ algorithm: ClusterAlgorithmKind) throws -> Int32 {
        let m = try map.addClusterManager(algorithm)
        _ = try map.addClusterItems(m, latitudes: [1, 1, -1, -1], longitudes: [1, -1, 1, -1], icons: [-1, -1, -1, -1])
        try map.cluster(m)
        return m
    }

    func testC2_GoogleCaseFourPointsAreOneClusterAtZoomFourAndFourItemsAtZoomFourteen() throws {
        // Google's case is for its distance algorithm; supercluster's 40/512 radius (20 px) is
        // smaller than the 23 px between the points at zoom 4, so it joins them at zoom 2.
        for (algorithm, zoom) in [(ClusterAlgorithmKind.distance, 4.0), (.hierarchical, 2)] {
            let map = MapController.make(zoom: zoom)
            _ = try fourAroundTheOrigin(map, algorithm)
            map.frame(0)
            XCTAssertEqual(clusters(map).map(\.count), [4], "\(algorithm)")
            XCTAssertEqual(items(map).count, 0)
            let far = MapController.make(zoom: 14)
            let m = try fourAroundTheOrigin(far, algorithm)
            try far.moveCamera(to: CameraPosition(latitude: 1, longitude: 1, zoom: 14))
            far.frame(0)
            XCTAssertEqual(clusters(far).count, 0)
            XCTAssertEqual(items(far).count, 1, "one of the four is in view")
            XCTAssertEqual(items(far)[0].owner, m)
        }
    }

    func testC1_ClusteringInStepsShowsTheOldClusteringUntilTheLastStepThenTheSameAsAtOnce() throws {
        let map = MapController.make(zoom: 2)
        let m = try fourAroundTheOrigin(map, .hierarchical)
        map.frame(0)
        XCTAssertEqual(clusters(map).map(\.count), [4])
        // Four more points far from the first four: a new cluster once the steps are done.
        _ = try map.addClusterItems(m, latitudes: [20, 20, 21, 21], longitudes: [20, 21, 20, 21], icons: [-1, -1, -1, -1])
        var left = try map.beginCluster(m)
        XCTAssertEqual(left, 16, "zooms 16 to 0: one done by beginCluster, 16 left")
        var steps = 0
        while left > 0 {
            XCTAssertTrue(try map.clusterManager(m).isClustering)
            map.frame(Double(steps + 1) * 0.01)
            XCTAssertEqual(clusters(map).map(\.count), [4], "the old clustering, step \(steps)")
            let next = try map.clusterStep(m)
            XCTAssertEqual(next, left - 1)
            left = next
            steps += 1
        }
        XCTAssertFalse(try map.clusterManager(m).isClustering)
        XCTAssertEqual(try map.clusterStep(m), 0, "nothing under way: a step does nothing")
        map.frame(1)
        let stepped = clusters(map).map(\.count).sorted()
        XCTAssertEqual(stepped, [4, 4])
        try map.cluster(m)
        map.frame(2)
        XCTAssertEqual(clusters(map).map(\.count).sorted(), stepped)
        // Items changed between steps wait for the next clustering: the one under way shows
        // the items it began with.
        let before = map.scene.items.count
        _ = try map.beginCluster(m)
        let extra = try map.addClusterItems(m, latitudes: [-30, -30.1], longitudes: [60, 60.1], icons: [-1, -1])
        try map.clusterManager(m).remove(1)
        while try map.clusterStep(m) > 0 {}
        map.frame(2.5)
        XCTAssertEqual(clusters(map).map(\.count).sorted(), [4, 4], "the eight items it began with")
        XCTAssertEqual(map.scene.items.count, before)
        XCTAssertFalse(map.scene.items.contains { $0.id == extra })
        try map.cluster(m)
        map.frame(2.6)
        XCTAssertEqual(clusters(map).map(\.count).sorted(), [4], "then the removal and the additions show")
        // clear() during steps ends them with nothing drawn.
        _ = try map.beginCluster(m)
        try map.clusterManager(m).clear()
        XCTAssertEqual(try map.clusterStep(m), 0)
        map.frame(3)
        XCTAssertEqual(map.scene.items.count, 0)
    }

    /// A batch larger than a manager holds is refused by its count, before any item is read (a
    /// host's bad count costs nothing, however large its buffer).
    func testMoreItemsThanAManagerHoldsAreRefusedBeforeAnyIsRead() throws {
        let map = try MapController(camera: CameraPosition(latitude: 0, longitude: 0, zoom: 2), viewport: Viewport(width: 400, height: 300))
        let manager = try map.clusterManager(try map.addClusterManager(.grid))
        let n = MarkerStore.capacity + 1
        // Allocated, not written: only the first item is set, and bad, to show it is not read.
        let pairs = UnsafeMutableBufferPointer<Double>.allocate(capacity: 2 * n)
        defer { pairs.deallocate() }
        pairs[0] = .nan
        XCTAssertThrowsError(try manager.add(lngLat: UnsafeBufferPointer(pairs), icon: -1)) {
            XCTAssertEqual($0 as? CairnError, .tooManyItems(limit: MarkerStore.capacity))
        }
        XCTAssertEqual(manager.count, 0)
    }

    func testC4_SmallGroupsAndHighZoomsDrawItems() throws {
        let map = MapController.make(zoom: 4)
        let m = try map.addClusterManager(.distance)
        _ = try map.addClusterItems(m, latitudes: [1, 1, -1], longitudes: [1, -1, 1], icons: [-1, -1, -1])
        try map.cluster(m)
        map.frame(0)
        XCTAssertEqual(clusters(map).count, 0, "3 < minimumClusterSize 4")
        XCTAssertEqual(items(map).count, 3)
        var rendering = ClusterRendering()
        rendering.maximumClusterZoom = 3
        let capped = try map.addClusterManager(.distance, rendering: rendering)
        _ = try map.addClusterItems(capped, latitudes: [1, 1, -1, -1], longitudes: [1, -1, 1, -1], icons: [-1, -1, -1, -1])
        try map.cluster(capped)
        map.frame(1)
        XCTAssertEqual(clusters(map).count, 0, "zoom 4 > maximumClusterZoom 3")
        XCTAssertEqual(items(map).count, 7)
        rendering.minimumClusterSize = 0
        XCTAssertThrowsError(try map.addClusterManager(.grid, rendering: rendering))
    }

    func testC1_MutationsWaitForClusterButClearIsImmediate() throws {
        let map = MapController.make(zoom: 4)
        let m = try fourAroundTheOrigin(map, .distance)
        let first = try map.addClusterItems(m, latitudes: [1.5], longitudes: [1.5], icons: [-1])
        map.frame(0)
        XCTAssertEqual(clusters(map).map(\.count), [4], "not drawn until cluster()")
        try map.cluster(m)
        map.frame(0.1)
        XCTAssertEqual(clusters(map).map(\.count), [5])
        let manager = try map.clusterManager(m)
        try manager.remove(first)
        XCTAssertThrowsError(try manager.remove(first))
        try manager.move(first - 1, latitude: 50, longitude: 50)
        map.frame(0.2)
        XCTAssertEqual(clusters(map).map(\.count), [5])
        try map.cluster(m)
        map.frame(0.3)
        XCTAssertEqual(clusters(map).count, 0, "3 left near the origin, one moved away")
        XCTAssertEqual(manager.count, 4)
        manager.clear()
        map.frame(0.4)
        XCTAssertTrue(map.scene.items.isEmpty)
    }

    func testC6_ScreenSpaceClustersFollowTheZoomAfterItHoldsFor200ms() throws {
        let map = MapController.make(zoom: 4)
        let m = try fourAroundTheOrigin(map, .distance)
        map.frame(0)
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 9))
        map.frame(1)
        XCTAssertEqual(clusters(map).map(\.count), [4], "still the zoom-4 clustering")
        map.frame(1.15)
        XCTAssertEqual(clusters(map).count, 1)
        map.frame(1.21)
        XCTAssertEqual(clusters(map).count, 0, "re-clustered for zoom 9")
        XCTAssertEqual(try map.clusterManager(m).groupsZoom, 9)
    }

    func testC7_AClusterTapZoomsToWhereItSplitsUnlessConsumed() throws {
        let map = MapController.make(zoom: 3)
        let m = try map.addClusterManager(.hierarchical)
        var random = SeededRandom(seed: 5)
        var lats: [Double] = [], lngs: [Double] = []
        for _ in 0..<500 {
            lats.append(random.next() * 2 + 40)
            lngs.append(random.next() * 2 - 74)
        }
        _ = try map.addClusterItems(m, latitudes: lats, longitudes: lngs, icons: [Int32](repeating: -1, count: 500))
        try map.cluster(m)
        try map.moveCamera(to: CameraPosition(latitude: 41, longitude: -73, zoom: 3))
        map.frame(0)
        let cluster = try XCTUnwrap(clusters(map).first)
        XCTAssertEqual(cluster.count, 500)
        XCTAssertEqual(cluster.icon, Int32(ClusterIconBuckets.standard.bucket(for: 500)))
        _ = map.drainEvents()
        map.down(1, cluster.x, cluster.y, at: 1)
        map.up(1, cluster.x, cluster.y, at: 1.05)
        map.frame(1.4)
        XCTAssertEqual(map.drainEvents(), [.clusterTapped(manager: m, cluster: cluster.id, count: 500)])
        map.answerTap(consumed: true)
        map.frame(2)
        XCTAssertEqual(map.zoom, 3)
        map.down(1, cluster.x, cluster.y, at: 3)
        map.up(1, cluster.x, cluster.y, at: 3.05)
        map.frame(3.4)
        map.answerTap(consumed: false)
        map.frame(5)
        map.frame(6)
        let index = try XCTUnwrap(try map.clusterManager(m).index)
        XCTAssertEqual(map.zoom, Double(try index.expansionZoom(of: cluster.id)))
        XCTAssertGreaterThan(clusters(map).count + items(map).count, 1, "the cluster split")
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

    func testC7_ItemTapsAreReportedWithTheirManagerAndStaleClusterIdsAreRefused() throws {
        let map = MapController.make(zoom: 14)
        let m = try map.addClusterManager(.grid)
        let id = try map.addClusterItems(m, latitudes: [0.001], longitudes: [0.001], icons: [-1])
        try map.cluster(m)
        map.frame(0)
        let item = try XCTUnwrap(items(map).first)
        map.down(1, item.x, item.y - 20, at: 1)
        map.up(1, item.x, item.y - 20, at: 1.05)
        map.frame(1.4)
        XCTAssertEqual(map.drainEvents(), [.clusterItemTapped(manager: m, item: id)])
        map.answerTap(consumed: false)
        map.frame(3)
        map.frame(4)
        XCTAssertEqual(map.camera.position.latitude, 0.001, accuracy: 1e-9, "centred on the item")
        let manager = try map.clusterManager(m)
        let old = manager.groupID(0)
        try map.cluster(m)
        XCTAssertThrowsError(try manager.expansion(of: old)) { XCTAssertEqual($0 as? CairnError, .unknownCluster(id: old)) }
        XCTAssertThrowsError(try map.addClusterItems(m, latitudes: [.nan], longitudes: [0], icons: [-1]))
        XCTAssertThrowsError(try map.addClusterItems(m, latitudes: [0, 0], longitudes: [0, 0], icons: [-1, 7])) {
            XCTAssertEqual($0 as? CairnError, .invalidMarkerInBatch(index: 1, field: MarkerProperties.Field.icon.rawValue))
        }
        XCTAssertThrowsError(try map.addClusterItems(m, latitudes: [0, 1], longitudes: [0], icons: [-1]))
        try map.removeClusterManager(m)
        XCTAssertThrowsError(try map.cluster(m))
        map.frame(4)
        XCTAssertTrue(map.scene.items.isEmpty)
    }

    func testC7M11_AnItemsTapOpensItsWindowWhichShowsWhileTheItemIsDrawnAndClosesWithIt() throws {
        let map = MapController.make(lat: 1, lng: 1, zoom: 14)
        let m = try fourAroundTheOrigin(map, .hierarchical)
        var titled = MarkerProperties(latitude: 1.001, longitude: 1.001)
        titled.hasTitle = true
        let marker = try map.addMarker(titled)
        try map.selectMarker(marker)
        map.frame(0)
        let item = try XCTUnwrap(items(map).first, "the item at (1, 1) is drawn on its own")
        _ = map.drainEvents()
        map.down(1, item.x, item.y - 20, at: 1)
        map.up(1, item.x, item.y - 20, at: 1.05)
        map.frame(1.4)
        XCTAssertEqual(map.drainEvents(), [.clusterItemTapped(manager: m, item: item.id)])
        map.answerTap(consumed: false)
        let owner = InfoWindowOwner.clusterItem(manager: m, item: item.id)
        XCTAssertEqual(Array(map.drainEvents().prefix(2)), [.infoWindowClosed(.marker(marker)), .infoWindowOpened(owner)],
                       "the marker's window closes, the item's opens (I3)")
        XCTAssertEqual(map.selectedInfoWindowOwner, owner)
        XCTAssertNil(map.selectedMarker)
        try map.setInfoWindowSize(width: 120, height: 50)
        map.frame(3)
        map.frame(4)
        let window = try XCTUnwrap(map.scene.infoWindow)
        let drawn = try XCTUnwrap(items(map).first { $0.id == item.id })
        XCTAssertEqual(window.owner, owner)
        XCTAssertEqual(window.anchorX, drawn.x, accuracy: 1e-9)
        XCTAssertEqual(window.anchorY, drawn.y - DefaultPin.height, accuracy: 1e-9, "the top centre of the pin")
        _ = map.drainEvents()
        map.down(1, window.anchorX, window.anchorY - 25, at: 5)
        map.up(1, window.anchorX, window.anchorY - 25, at: 5.05)
        map.frame(5.5)
        XCTAssertEqual(map.drainEvents(), [.infoWindowTapped(owner)])
        // Inside a cluster at a low zoom the window is not shown, and shows again with the item.
        // While its fading copy flies into the cluster, the window does not follow it.
        try map.removeMarker(marker)
        try map.moveCamera(to: CameraPosition(latitude: 1, longitude: 1, zoom: 2))
        map.frame(6)
        map.frame(6.2)
        let ghost = try XCTUnwrap(items(map).first { $0.id == item.id })
        XCTAssertTrue(ghost.isGhost)
        XCTAssertNil(map.scene.infoWindow)
        XCTAssertEqual(map.scene.hit(x: ghost.box.centerX, y: ghost.box.centerY), nil, "a ghost is not tapped")
        map.frame(7)
        XCTAssertEqual(items(map).count, 0, "the item flew into its cluster")
        XCTAssertNil(map.scene.infoWindow)
        XCTAssertEqual(map.selectedInfoWindowOwner, owner)
        try map.moveCamera(to: CameraPosition(latitude: 1, longitude: 1, zoom: 14))
        map.frame(8)
        map.frame(9)
        XCTAssertEqual(map.scene.infoWindow?.owner, owner)
        // The item's removal closes it, as does emptying or removing the manager.
        _ = map.drainEvents()
        try map.removeClusterItem(m, item: item.id)
        XCTAssertEqual(map.drainEvents(), [.infoWindowClosed(owner)])
        XCTAssertThrowsError(try map.selectClusterItem(manager: m, item: item.id)) {
            XCTAssertEqual($0 as? CairnError, .unknownMarker(id: item.id))
        }
        let other = item.id + 1
        try map.selectClusterItem(manager: m, item: other)
        try map.clearClusterItems(m)
        let twice = InfoWindowOwner.clusterItem(manager: m, item: other)
        XCTAssertEqual(map.drainEvents(), [.infoWindowOpened(twice), .infoWindowClosed(twice)])
        let last = try map.addClusterItems(m, latitudes: [0, 0], longitudes: [0, 0], icons: [-1, -1])
        // Removed on the manager itself, past the map: the next frame closes the window.
        try map.selectClusterItem(manager: m, item: last)
        try map.clusterManager(m).remove(last)
        _ = map.drainEvents()
        map.frame(10)
        XCTAssertEqual(map.drainEvents().first, .infoWindowClosed(.clusterItem(manager: m, item: last)))
        try map.selectClusterItem(manager: m, item: last + 1)
        _ = map.drainEvents()
        try map.removeClusterManager(m)
        XCTAssertNil(map.selectedInfoWindowOwner)
        XCTAssertEqual(map.drainEvents(), [.infoWindowClosed(.clusterItem(manager: m, item: last + 1))])
        XCTAssertThrowsError(try map.selectClusterItem(manager: m, item: last + 1))
    }
}

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
                let state = _ClusterState(zoom: lower, asClusters: true, minimumClusterSize: 2)
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

final class ClusterManagerQueryTests: XCTestCase {
    func testC8_LeavesExpansionZoomAndBoundsOfAClusterForEveryAlgorithm() throws {
        for algorithm in [ClusterAlgorithmKind.hierarchical, .distance, .grid] {
            let map = MapController.make(zoom: 2)
            let m = try map.addClusterManager(algorithm)
            let first = try map.addClusterItems(m, latitudes: [1, 1, -1, -1, 0.5], longitudes: [1, -1, 1, -1, 0.5],
                                                icons: [Int32](repeating: -1, count: 5))
            try map.cluster(m)
            map.frame(0)
            let cluster = try XCTUnwrap(map.scene.items.first { $0.kind == .cluster }, "\(algorithm)")
            let manager = try map.clusterManager(m)
            let all = try manager.leaves(of: cluster.id, limit: .max, offset: 0)
            XCTAssertEqual(Set(all), Set((0..<5).map { first + Int64($0) }), "\(algorithm)")
            XCTAssertEqual(try manager.leaves(of: cluster.id, limit: 2, offset: 1), Array(all[1..<3]))
            XCTAssertEqual(try manager.leaves(of: cluster.id, limit: 10, offset: 5), [])
            XCTAssertGreaterThan(try manager.expansionZoom(of: cluster.id), 2)
            // Children: their counts add up, and their items are the cluster's leaves.
            let children = try manager.children(of: cluster.id)
            XCTAssertEqual(children.reduce(0) { $0 + $1.pointCount }, 5, "\(algorithm)")
            var fromChildren: [Int64] = []
            for c in children {
                fromChildren += c.isCluster ? try manager.leaves(of: c.id, limit: .max, offset: 0) : [c.id]
            }
            XCTAssertEqual(Set(fromChildren), Set(all), "\(algorithm)")
            XCTAssertEqual(algorithm == .hierarchical, children.count < 5, "\(algorithm): a screen-space cluster's are its items")
            XCTAssertThrowsError(try manager.children(of: 123_456_789))
            let b = try manager.bounds(of: cluster.id)
            XCTAssertEqual(b.west, -1, accuracy: 1e-9)
            XCTAssertEqual(b.east, 1, accuracy: 1e-9)
            XCTAssertEqual(b.south, -1, accuracy: 1e-9)
            XCTAssertEqual(b.north, 1, accuracy: 1e-9)
            XCTAssertThrowsError(try manager.leaves(of: cluster.id, limit: -1, offset: 0))
            XCTAssertThrowsError(try manager.bounds(of: 123_456_789))
        }
    }
}

extension ClusterManagerQueryTests {
    func testC2a_TheHierarchicalManagerTakesSuperclustersOptions() throws {
        // Pairs of items 0.0001° apart, and one triple, far from each other.
        let lats: [Double] = [0, 0, 1, 1, 2, 2, 2], lngs: [Double] = [0, 0.0001, 1, 1.0001, 2, 2.0001, 2.0002]
        func drawn(_ options: ClusterOptions?, zoom: Double) throws -> [Int] {
            let map = MapController.make(lat: 1, lng: 1, zoom: zoom)
            let m = try map.addClusterManager(.hierarchical)
            var rendering = try map.clusterManager(m).rendering
            rendering.minimumClusterSize = 2
            try map.clusterManager(m).rendering = rendering
            if let options { try map.clusterManager(m).setHierarchy(options) }
            _ = try map.addClusterItems(m, latitudes: lats, longitudes: lngs, icons: [Int32](repeating: -1, count: 7))
            try map.cluster(m)
            map.frame(0)
            return map.scene.items.filter { $0.kind == .cluster }.map { Int($0.count) }.sorted()
        }
        XCTAssertEqual(try drawn(nil, zoom: 8), [2, 2, 3])
        XCTAssertEqual(try drawn(ClusterOptions(minPoints: 3), zoom: 8), [3], "pairs stay apart")
        // At zoom 18 only the pair at (1, 1) is in view, 19 px apart (the radius is 20 px).
        XCTAssertEqual(try drawn(nil, zoom: 18), [], "above zoom 16 all stand alone")
        XCTAssertEqual(try drawn(ClusterOptions(maxZoom: 20), zoom: 18), [2], "clustered up to 20")
        let manager = try ClusterManager(algorithm: .hierarchical)
        XCTAssertThrowsError(try manager.setHierarchy(ClusterOptions(minZoom: 5, maxZoom: 4))) {
            XCTAssertEqual($0 as? CairnError, .invalidOption(.maxZoom))
        }
        XCTAssertThrowsError(try manager.setHierarchy(ClusterOptions(extent: 0))) { XCTAssertEqual($0 as? CairnError, .invalidOption(.extent)) }
        XCTAssertEqual(manager.rendering.hierarchy, ClusterOptions(), "a refused change changes nothing")
    }

    func testC9_ClustersReportTheirItemsAggregatedValuesForEveryAlgorithm() throws {
        let population = [10.0, 20, 30, 40, .nan]   // the last item has none
        for algorithm in [ClusterAlgorithmKind.hierarchical, .distance, .grid] {
            let map = MapController.make(zoom: 2)
            let m = try map.addClusterManager(algorithm)
            let manager = try map.clusterManager(m)
            try manager.setAggregates([.sum, .max, .mean, .count])
            _ = try map.addClusterItems(m, latitudes: [1, 1, -1, -1, 0.5], longitudes: [1, -1, 1, -1, 0.5],
                                        icons: [Int32](repeating: -1, count: 5),
                                        values: population.flatMap { [Double](repeating: $0, count: 4) })
            try map.cluster(m)
            map.frame(0)
            let cluster = try XCTUnwrap(map.scene.items.first { $0.kind == .cluster }, "\(algorithm)")
            XCTAssertEqual(cluster.count, 5)
            XCTAssertEqual(try manager.aggregates(of: cluster.id), [100, 40, 25, 4], "\(algorithm)")
            XCTAssertThrowsError(try manager.setAggregates([.min])) { XCTAssertEqual($0 as? CairnError, .invalidState) }
            XCTAssertThrowsError(try map.addClusterItems(m, latitudes: [0, 0], longitudes: [0, 0], icons: [-1, -1],
                                                         values: [1, 1, 1, 1, 1, .infinity, 1, 1])) {
                XCTAssertEqual($0 as? CairnError, .nonFiniteValue(index: 1))
            }
            // Items added in bulk carry theirs after each pair (an infinite one refuses the batch).
            var bulk: [Double] = [0.3, 0.3, 5, 5, 5, 5]
            _ = try bulk.withUnsafeBufferPointer { try manager.add(lngLat: $0, icon: -1) }
            bulk[2] = .infinity
            XCTAssertThrowsError(try bulk.withUnsafeBufferPointer { try manager.add(lngLat: $0, icon: -1) }) {
                XCTAssertEqual($0 as? CairnError, .nonFiniteValue(index: 0))
            }
            try map.cluster(m)
            map.frame(0.5)
            let withBulk = try XCTUnwrap(map.scene.items.first { $0.kind == .cluster }, "\(algorithm)")
            XCTAssertEqual(try manager.aggregates(of: withBulk.id), [105, 40, 21, 5], "\(algorithm)")
            // Removed items count no more once clustered again.
            try manager.remove(try manager.leaves(of: withBulk.id, limit: .max, offset: 0).first!)
            try map.cluster(m)
            map.frame(1)
            let again = try XCTUnwrap(map.scene.items.first { $0.kind == .cluster }, "\(algorithm)")
            let left = try manager.leaves(of: again.id, limit: .max, offset: 0)
            let value = { (id: Int64) -> Double in id <= 5 ? population[Int(id) - 1] : 5 }
            XCTAssertEqual(try manager.aggregates(of: again.id)[0], left.reduce(0) { $0 + (value($1).isNaN ? 0 : value($1)) },
                           "\(algorithm)")
        }
    }

    func testC7C8_AScreenSpaceClusterSplitsWhereItsItemsPart() throws {
        // Two pairs a degree apart: one cluster at zoom 3, apart a few zooms later (not one).
        for algorithm in [ClusterAlgorithmKind.distance, .grid] {
            let map = MapController.make(zoom: 3)
            let m = try map.addClusterManager(algorithm)
            _ = try map.addClusterItems(m, latitudes: [0, 0, 0, 0], longitudes: [0.2, 0.2001, 1.2, 1.2001],
                                        icons: [-1, -1, -1, -1])
            try map.cluster(m)
            map.frame(0)
            let cluster = try XCTUnwrap(map.scene.items.first { $0.kind == .cluster }, "\(algorithm)")
            XCTAssertEqual(cluster.count, 4)
            let manager = try map.clusterManager(m)
            let split = try manager.expansionZoom(of: cluster.id)
            XCTAssertGreaterThan(split, 4, "\(algorithm): more than one level in")
            manager.regroup(zoom: split - 1)
            XCTAssertEqual(manager.groups.count, 1, "\(algorithm): together a level before")
            manager.regroup(zoom: split)
            XCTAssertEqual(manager.groups.count, 2, "\(algorithm): apart at \(split)")
        }
        // Items in one place never part: they split where everything is drawn as items.
        let map = MapController.make(zoom: 3)
        let coincident = try map.addClusterManager(.grid)
        _ = try map.addClusterItems(coincident, latitudes: [Double](repeating: 5, count: 5),
                                    longitudes: [Double](repeating: 10, count: 5), icons: [Int32](repeating: -1, count: 5))
        try map.cluster(coincident)
        let c = try map.clusterManager(coincident)
        XCTAssertEqual(try c.expansionZoom(of: c.groupID(0)), 21, "above maximumClusterZoom 20")
    }

    func testC4_EveryItemIsDrawnOnceAsItselfOrInOneClusterAtEveryZoom() throws {
        var random = SeededRandom(seed: 21)
        for minimum in [2, 4, 7] {
            let map = MapController.make(lat: 45, lng: 5, zoom: 3)
            var rendering = ClusterRendering()
            rendering.minimumClusterSize = minimum
            let m = try map.addClusterManager(.hierarchical, rendering: rendering)
            var lats: [Double] = [], lngs: [Double] = []
            for _ in 0..<2000 {
                lats.append(45 + (random.next() - 0.5) * 0.5)
                lngs.append(5 + (random.next() - 0.5) * 0.5)
            }
            _ = try map.addClusterItems(m, latitudes: lats, longitudes: lngs, icons: [Int32](repeating: -1, count: 2000))
            try map.cluster(m)
            try map.clusterManager(m).animatesClusters = false
            for zoom in 3...9 {
                try map.moveCamera(to: CameraPosition(latitude: 45, longitude: 5, zoom: Double(zoom)))
                map.frame(Double(zoom))
                let drawn = map.scene.items
                let items = drawn.filter { $0.kind == .clusterItem }.map(\.id)
                XCTAssertEqual(Set(items).count, items.count, "zoom \(zoom): no item twice")
                XCTAssertEqual(drawn.reduce(0) { $0 + Int($1.count) }, 2000, "zoom \(zoom), minimum \(minimum)")
                XCTAssertTrue(drawn.filter { $0.kind == .cluster }.allSatisfy { Int($0.count) >= minimum })
            }
        }
    }
}
