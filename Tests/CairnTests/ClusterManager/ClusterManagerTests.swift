import XCTest
@testable import Cairn

final class ClusterManagerTests: XCTestCase {
    func clusters(_ map: MapController) -> [SceneItem] { map.scene.items.filter { $0.kind == .cluster } }
    func items(_ map: MapController) -> [SceneItem] { map.scene.items.filter { $0.kind == .clusterItem } }

    func fourAroundTheOrigin(_ map: MapController, _ algorithm: ClusterAlgorithmKind, titled: Bool = false) throws -> Int32 {
        let m = try map.addClusterManager(algorithm)
        _ = try map.addClusterItems(m, latitudes: [1, 1, -1, -1], longitudes: [1, -1, 1, -1], icons: [-1, -1, -1, -1],
                                    text: [UInt8](repeating: titled ? ClusterItemText.hasTitle : 0, count: 4))
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

    func testC6_EveryCameraChangeAtAnotherZoomRestartsTheTimerAsGooglesManagerDoes() throws {
        let map = MapController.make(zoom: 4)
        let m = try fourAroundTheOrigin(map, .distance)
        map.frame(0)
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 9))
        map.frame(1)
        // A pan at the same rounded zoom 0.15 s later restarts the 0.2 s.
        try map.moveCamera(to: CameraPosition(latitude: 0.01, longitude: 0, zoom: 9.1))
        map.frame(1.15)
        map.frame(1.25)
        XCTAssertEqual(clusters(map).map(\.count), [4], "0.25 s after the zoom changed, 0.1 s after the camera last moved")
        XCTAssertEqual(try map.clusterManager(m).groupsZoom, 4)
        map.frame(1.36)
        XCTAssertEqual(try map.clusterManager(m).groupsZoom, 9, "0.21 s after the last change")
        // Frames of a camera that holds still do not restart it.
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 6))
        map.frame(2)
        map.frame(2.1)
        map.frame(2.21)
        XCTAssertEqual(try map.clusterManager(m).groupsZoom, 6)
    }

    func testC3_AClustersTapTargetIsGooglesCircleOverTheHostsLabelMetrics() throws {
        let map = MapController.make(zoom: 4)
        var rendering = ClusterRendering()
        rendering.labelMetrics = try ClusterLabelMetrics(advances: Array(repeating: 8, count: 10) + [9], height: 16)
        let m = try map.addClusterManager(.distance, rendering: rendering)
        _ = try map.addClusterItems(m, latitudes: Array(repeating: 1, count: 12), longitudes: Array(repeating: 1, count: 12),
                                    icons: Array(repeating: -1, count: 12))
        try map.cluster(m)
        map.frame(0)
        let cluster = try XCTUnwrap(clusters(map).first)
        XCTAssertEqual(cluster.count, 12)
        // "10+": 8 + 8 + 9 = 25 wide, bucket 0: a circle of 31 points.
        XCTAssertEqual(cluster.box.halfWidth, 15.5)
        XCTAssertEqual(cluster.box.halfHeight, 15.5)
        XCTAssertEqual(try map.clusterManager(m).rendering.icon(for: 12).diameter, 31)
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
        let m = try fourAroundTheOrigin(map, .hierarchical, titled: true)
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
        let last = try map.addClusterItems(m, latitudes: [0, 0], longitudes: [0, 0], icons: [-1, -1],
                                           text: [ClusterItemText.hasSnippet, ClusterItemText.hasTitle | ClusterItemText.hasSnippet])
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

    func testI2C7_AnItemWithoutTitleOrSnippetOpensNoWindowUnlessTheHostMayDrawItsOwn() throws {
        let map = MapController.make(lat: 1, lng: 1, zoom: 14)
        let m = try map.addClusterManager(.grid)
        let first = try map.addClusterItems(m, latitudes: [1, 1, 1], longitudes: [1, 1.01, 1.02], icons: [-1, -1, -1],
                                            text: [0, ClusterItemText.hasTitle, 0])
        let (bare, titled, moved) = (first, first + 1, first + 2)
        let bulk = try [-60.0, -40].withUnsafeBufferPointer { pairs throws(CairnError) in
            try map.addClusterItems(m, lngLat: pairs, icon: -1)
        }
        XCTAssertThrowsError(try map.addClusterItems(m, latitudes: [0], longitudes: [0], icons: [-1], text: [4]),
                             "bits 1 and 2 only")
        XCTAssertThrowsError(try map.addClusterItems(m, latitudes: [0], longitudes: [0], icons: [-1], text: [1, 1]))
        try map.cluster(m)
        let titledOwner = InfoWindowOwner.clusterItem(manager: m, item: titled)
        try map.selectClusterItem(manager: m, item: titled)
        XCTAssertEqual(map.selectedInfoWindowOwner, titledOwner)
        _ = map.drainEvents()
        // Selecting an item without text closes the open window and opens none, from the
        // program as from a tap's default.
        try map.selectClusterItem(manager: m, item: bare)
        XCTAssertNil(map.selectedInfoWindowOwner)
        XCTAssertEqual(map.drainEvents(), [.infoWindowClosed(titledOwner)])
        try map.selectClusterItem(manager: m, item: bulk)
        XCTAssertNil(map.selectedInfoWindowOwner, "items added from coordinates have no text")
        map.frame(0)
        let item = try XCTUnwrap(items(map).first { $0.id == bare })
        map.down(1, item.x, item.y - 20, at: 1)
        map.up(1, item.x, item.y - 20, at: 1.05)
        map.frame(1.4)
        XCTAssertEqual(map.drainEvents(), [.clusterItemTapped(manager: m, item: bare)])
        map.answerTap(consumed: false)
        XCTAssertNil(map.selectedInfoWindowOwner)
        XCTAssertFalse(map.drainEvents().contains { if case .infoWindowOpened = $0 { return true } else { return false } })
        // Moves, removals of others and a re-clustering (which squeezes removed items out) keep
        // each item's flags with it.
        try map.clusterManager(m).move(moved, latitude: 1.5, longitude: 1.5)
        try map.removeClusterItem(m, item: bare)
        try map.cluster(m)
        XCTAssertEqual(try map.clusterManager(m).text(of: titled), ClusterItemText.hasTitle)
        XCTAssertEqual(try map.clusterManager(m).text(of: moved), 0)
        try map.selectClusterItem(manager: m, item: moved)
        XCTAssertNil(map.selectedInfoWindowOwner)
        try map.selectClusterItem(manager: m, item: titled)
        XCTAssertEqual(map.selectedInfoWindowOwner, titledOwner)
        // With custom windows possible (the host's hooks), every item opens one: the host closes
        // a window it has nothing for.
        map.customInfoWindows = true
        try map.selectClusterItem(manager: m, item: moved)
        XCTAssertEqual(map.selectedInfoWindowOwner, .clusterItem(manager: m, item: moved))
        map.customInfoWindows = false
        try map.selectClusterItem(manager: m, item: bulk)
        XCTAssertNil(map.selectedInfoWindowOwner)
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

    func testFlatItemsLieOnTheMapAsAFlatMarkerDoesAndClustersStillFaceTheScreen() throws {
        let map = MapController.make(zoom: 10, bearing: 30, tilt: 60)
        let number = try map.addClusterManager(.none)
        let manager = try map.clusterManager(number)
        _ = try map.addClusterItems(number, latitudes: [0.001], longitudes: [0.001], icons: [-1])
        try map.cluster(number)
        // A flat marker with the same pin at the same place, for comparison.
        _ = try map.addMarker(marker(0.001, 0.001) { $0.flat = true })
        map.frame(1)
        func drawn(_ kind: SceneItemKind) throws -> SceneItem { try XCTUnwrap(map.scene.items.first { $0.kind == kind }) }
        let upright = try drawn(.clusterItem)
        XCTAssertEqual([upright.rotation, upright.scaleX, upright.scaleY, upright.shear], [0, 1, 1, 0], "facing the screen by default")
        manager.flatItems = true
        map.frame(2)
        let item = try drawn(.clusterItem), flat = try drawn(.marker)
        XCTAssertEqual(item.rotation, flat.rotation, accuracy: 1e-12)
        XCTAssertEqual(item.scaleX, flat.scaleX, accuracy: 1e-12)
        XCTAssertEqual(item.scaleY, flat.scaleY, accuracy: 1e-12)
        XCTAssertEqual(item.shear, flat.shear, accuracy: 1e-12)
        XCTAssertNotEqual(item.rotation, 0, accuracy: 1, "turned with the map")
        XCTAssertLessThan(item.scaleY, 0.9, "foreshortened by the tilt")
        XCTAssertEqual(item.box.centerX, flat.box.centerX, accuracy: 1e-9, "taps and collisions where it is drawn")
        XCTAssertEqual(item.box.centerY, flat.box.centerY, accuracy: 1e-9)
        XCTAssertEqual(item.box.halfHeight, flat.box.halfHeight, accuracy: 1e-9)
        XCTAssertLessThan(item.box.halfHeight, upright.box.halfHeight)
        // Items piled up into a cluster, which faces the screen.
        let piled = try map.addClusterManager(.grid)
        try map.clusterManager(piled).flatItems = true
        _ = try map.addClusterItems(piled, latitudes: [Double](repeating: 0.002, count: 10), longitudes: [Double](repeating: 0.002, count: 10),
                                    icons: [Int32](repeating: -1, count: 10))
        try map.cluster(piled)
        map.frame(3)
        let cluster = try drawn(.cluster)
        XCTAssertEqual([cluster.rotation, cluster.scaleX, cluster.scaleY, cluster.shear], [0, 1, 1, 0])
    }

    func testAManagerShowsARestoredIndexAsIfItHadClusteredItsPoints() throws {
        var random = SeededRandom(seed: 29)
        var lats: [Double] = [], lngs: [Double] = [], lngLat: [Double] = []
        for k in 0..<3000 {
            let (lat, lng, spread): (Double, Double, Double) = k % 3 == 0 ? (48.86, 2.35, 0.2) : (k % 3 == 1 ? (40.7, -74, 3) : (0, 179.5, 2))
            lats.append(lat + (random.next() - 0.5) * spread)
            var x = lng + (random.next() - 0.5) * spread
            if x >= 180 { x -= 360 }
            lngs.append(x)
            lngLat += [x, lats[k]]
        }
        let options = ClusterOptions(radius: 60, maxZoom: 14)
        let built = try HierarchicalClusterIndex(options: options)
        try lngLat.withUnsafeBufferPointer { (p) throws(CairnError) in try built.add(lngLat: p) }
        built.build()
        let restored = try built.save().withUnsafeBytes { (b) throws(CairnError) in try HierarchicalClusterIndex.restore(from: b) }

        let map = MapController.make(width: 1000, height: 700)
        let clustered = try map.addClusterManager(.hierarchical)
        try map.clusterManager(clustered).setHierarchy(options)
        _ = try map.addClusterItems(clustered, latitudes: lats, longitudes: lngs, icons: [Int32](repeating: -1, count: lats.count))
        try map.cluster(clustered)
        let adopting = try map.addClusterManager(.hierarchical)
        var positions = [Double](repeating: .nan, count: 2 * lats.count)
        let first = try positions.withUnsafeMutableBufferPointer { (p) throws(CairnError) in
            try map.adoptClusterIndex(adopting, restored, positions: p)
        }
        XCTAssertEqual(try map.clusterManager(adopting).count, lats.count)
        XCTAssertEqual(try map.clusterManager(adopting).rendering.hierarchy, options, "the index's options")
        for i in stride(from: 0, to: lats.count, by: 97) {
            XCTAssertEqual(positions[2 * i], lngs[i], accuracy: 1e-9)
            XCTAssertEqual(positions[2 * i + 1], lats[i], accuracy: 1e-9)
        }
        for m in [clustered, adopting] { try map.clusterManager(m).animatesClusters = false }
        var t = 1.0
        for camera in [(48.86, 2.35, 9.0), (40.7, -74.0, 6.5), (0.0, 179.9, 4.0), (20.0, 0.0, 1.0), (48.86, 2.35, 15.0)] {
            try map.moveCamera(to: CameraPosition(latitude: camera.0, longitude: camera.1, zoom: camera.2))
            t += 1
            map.frame(t)
            func drawn(_ owner: Int32, ids offset: Int64) -> [String] {
                map.scene.items.filter { $0.owner == owner }.map {
                    "\($0.kind) \($0.kind == .clusterItem ? $0.id - offset : 0) \($0.count) \($0.x) \($0.y)"
                }
            }
            let a = drawn(clustered, ids: 1), b = drawn(adopting, ids: first)
            XCTAssertFalse(a.isEmpty, "something drawn at \(camera)")
            XCTAssertEqual(a, b, "at \(camera)")
        }
        // The index itself is unchanged, and a hierarchical manager with aggregates, or another
        // algorithm, refuses it.
        XCTAssertEqual(restored.pointCount, lats.count)
        let grid = try map.addClusterManager(.grid)
        XCTAssertThrowsError(try map.adoptClusterIndex(grid, restored)) { XCTAssertEqual($0 as? CairnError, .invalidState) }
    }

    func testSmallClusterListsOfABuiltIndexAreTheOnesTheBuildMakes() throws {
        var random = SeededRandom(seed: 5)
        var lngLat: [Double] = []
        for _ in 0..<4000 { lngLat += [(random.next() - 0.5) * 20, (random.next() - 0.5) * 10] }
        for below in [3, 4, 7] {
            let index = try HierarchicalClusterIndex(options: ClusterOptions(radius: 40, maxZoom: 12))
            index.smallClustersBelow = below
            try lngLat.withUnsafeBufferPointer { (p) throws(CairnError) in try index.add(lngLat: p) }
            index.build()
            let listed = index.smallClusterPointLists(below: below)
            XCTAssertGreaterThan(listed.points.count, 100)
            XCTAssertEqual(listed.start, index.smallClusterPoints.start, "below \(below)")
            XCTAssertEqual(listed.points, index.smallClusterPoints.points, "below \(below)")
        }
    }
}
