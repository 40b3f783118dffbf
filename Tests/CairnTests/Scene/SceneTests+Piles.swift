import XCTest
@testable import Cairn

/// Frames whose items pile up: thousands on one point or one screen row (a zoom out to the
/// whole world, the world's copies side by side, items of one place drawn on their own). Their
/// draw order, collisions and hits must be exactly those of the plain definitions (feature V4,
/// feature M10), which the reference below computes the slow way, pair by pair.
final class ScenePileTests: XCTestCase {
    /// The plain definitions, from the placed items: the optional items in priority order, each
    /// shown unless it overlaps a box that hides it; the shown ones bottom to top; and what a tap
    /// finds, the topmost drawn item (not a ghost) whose box holds the point.
    struct Reference {
        var hidden: [Bool]
        /// Placed item numbers, bottom to top.
        var drawOrder: [Int]

        init(_ items: [SceneItem]) {
            let n = items.count
            hidden = [Bool](repeating: false, count: n)
            var blocking = (0..<n).filter { items[$0].collision == .requiredAndHidesOptional }
            let optional = (0..<n).filter { items[$0].collision == .optionalAndHidesLowerPriority }
                .sorted { a, b in
                    Collision.outranks(items[a], items[b]) || (!Collision.outranks(items[b], items[a]) && a < b)
                }
            for i in optional {
                if blocking.contains(where: { items[$0].box.overlaps(items[i].box) }) {
                    hidden[i] = true
                } else {
                    blocking.append(i)
                }
            }
            drawOrder = (0..<n).filter { [hidden] in !hidden[$0] }.sorted { a, b in
                DrawOrder.below(items[a], items[b]) || (!DrawOrder.below(items[b], items[a]) && a < b)
            }
        }

        func hit(_ items: [SceneItem], x: Double, y: Double) -> SceneItem? {
            drawOrder.lazy.map { items[$0] }.last {
                !$0.isGhost && $0.box.contains(x: x, y: y, tolerance: Scene.touchTolerance)
            }
        }
    }

    /// The frame's placed items and, for each, its place in draw order (-1 hidden).
    func placed(_ map: MapController) -> (items: [SceneItem], positions: [Int32]) {
        map.scene.withPlacedItems { (Array($0), Array($1)) }
    }

    /// Checks the frame against the reference: collisions, draw order, and taps at `points`.
    func assertMatchesReference(_ map: MapController, taps points: [(Double, Double)],
                                file: StaticString = #filePath, line: UInt = #line) {
        let (items, positions) = placed(map)
        let reference = Reference(items)
        XCTAssertNil(firstDifference(positions.map { $0 < 0 }, reference.hidden), "collisions: first item that differs",
                     file: file, line: line)
        XCTAssertNil(firstDifference(map.scene.items, reference.drawOrder.map { items[$0] }), "draw order: first place that differs",
                     file: file, line: line)
        for (x, y) in points {
            let expected = reference.hit(items, x: x, y: y)
            XCTAssertEqual(map.scene.hit(x: x, y: y), expected.map { .item($0) }, "tap at \(x), \(y)", file: file, line: line)
        }
    }

    /// Where two lists first differ (the shorter one's length when one is a prefix of the other).
    func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int? {
        for k in 0..<min(a.count, b.count) where a[k] != b[k] { return k }
        return a.count == b.count ? nil : min(a.count, b.count)
    }

    /// Taps over and around a screen point.
    func taps(around x: Double, _ y: Double) -> [(Double, Double)] {
        var out: [(Double, Double)] = []
        for dy in stride(from: -60.0, through: 20, by: 10) {
            for dx in stride(from: -30.0, through: 30, by: 10) { out.append((x + dx, y + dy)) }
        }
        return out
    }

    /// Runs of thousands of equal keys — one row, rows a hair apart, -0 and 0, copies of one
    /// item, ids and owners of every size — come out as the comparator sorts have them.
    func testLongRunsOfOneRowSortAsTheComparatorsDo() {
        var random = SeededRandom(seed: 21)
        var order = _ScreenOrder()
        let ids: [Int64] = [.min, -5, 0, 1, 7, 1 << 40, .max]
        let owners: [Int32] = [-1, 0, 3, 1_025, .max]
        for (round, n) in [17, 33, 500, 5000, 20_000].enumerated() {
            var items: [SceneItem] = []
            while items.count < n {
                let r = random.next()
                // One row; a few a millionth of a pixel off it (one quantum), or at -0 and 0.
                let y = round == 2 ? (r < 0.5 ? -0.0 : 0.0) : (r < 0.1 ? 100 + 1e-7 : (r < 0.2 ? 100 - 1e-7 : 100))
                let kind: SceneItemKind = random.next() < 0.3 ? .cluster : (random.next() < 0.5 ? .marker : .clusterItem)
                let id = random.next() < 0.2 ? ids[Int(random.next() * Double(ids.count))] : Int64(random.next() * 1e6) - 500_000
                let item = SceneItem(kind: kind, id: id, owner: owners[Int(random.next() * Double(owners.count))], x: random.next(),
                                     y: y, rotation: 0, scaleX: 1, scaleY: 1, opacity: 1, icon: -1,
                                     zIndex: round == 4 ? Double(Int(random.next() * 3)) : 0,
                                     box: OrientedBox(centerX: 0, centerY: y, halfWidth: 1, halfHeight: 1),
                                     collision: .optionalAndHidesLowerPriority, collisionPriority: 0, count: 1)
                // Some come as copies of the world do: the same item several times over.
                for _ in 0..<(random.next() < 0.2 ? 3 : 1) { items.append(item) }
            }
            let below = { (a: UInt32, b: UInt32) in DrawOrder.below(items[Int(a)], items[Int(b)]) }
            var expected = (0..<items.count).map { UInt32($0) }
            _stableSort(&expected, by: below)
            var fast = (0..<items.count).map { UInt32($0) }
            XCTAssertTrue(order.sort(&fast, first: { items[Int($0)].zIndex }, second: { _ in 0 }, y: { items[Int($0)].y },
                                     tie: { DrawOrder.tie(items[Int($0)]) }))
            XCTAssertEqual(fast, expected, "draw order, \(n) items")

            let outranks = { (a: UInt32, b: UInt32) in Collision.outranks(items[Int(a)], items[Int(b)]) }
            var expectedRank = (0..<items.count).map { UInt32($0) }
            _stableSort(&expectedRank, by: outranks)
            var fastRank = (0..<items.count).map { UInt32($0) }
            XCTAssertTrue(order.sort(&fastRank, first: { -items[Int($0)].collisionPriority }, second: { -items[Int($0)].zIndex },
                                     y: { -items[Int($0)].y }, tie: { Collision.tie(items[Int($0)]) }))
            XCTAssertEqual(fastRank, expectedRank, "collision order, \(n) items")
        }
    }

    /// An order refused for too many distinct zIndex values, after its first items were found
    /// to repeat the ones before them, leaves nothing behind for the next.
    func testAnOrderRefusedHalfwayLeavesTheNextOneRight() {
        func item(_ id: Int64, z: Double) -> SceneItem {
            SceneItem(kind: .marker, id: id, owner: -1, x: 0, y: 10, rotation: 0, scaleX: 1, scaleY: 1, opacity: 1, icon: -1,
                      zIndex: z, box: OrientedBox(centerX: 0, centerY: 10, halfWidth: 1, halfHeight: 1),
                      collision: .required, collisionPriority: 0, count: 1)
        }
        var order = _ScreenOrder()
        // Twins (one item drawn twice over), each pair with a zIndex of its own: 100 of them.
        let twins = (0..<200).map { item(Int64($0 / 2), z: Double($0 / 2)) }
        var list = (0..<200).map { UInt32($0) }
        XCTAssertFalse(order.sort(&list, first: { twins[Int($0)].zIndex }, second: { _ in 0 }, y: { twins[Int($0)].y },
                                  tie: { DrawOrder.tie(twins[Int($0)]) }))
        XCTAssertEqual(list, (0..<200).map { UInt32($0) })
        // The same numbers, now all different items of three zIndex values.
        let items = (0..<200).map { item(Int64(200 - $0), z: Double($0 % 3)) }
        var expected = (0..<200).map { UInt32($0) }
        _stableSort(&expected) { DrawOrder.below(items[Int($0)], items[Int($1)]) }
        XCTAssertTrue(order.sort(&list, first: { items[Int($0)].zIndex }, second: { _ in 0 }, y: { items[Int($0)].y },
                                 tie: { DrawOrder.tie(items[Int($0)]) }))
        XCTAssertEqual(list, expected)
    }

    func testThousandsOfMarkersOnOnePointCollideDrawAndHitAsTheReference() throws {
        let map = MapController.make(zoom: 10)
        let small = try map.registerIcon(Icon(width: 10, height: 10))
        var random = SeededRandom(seed: 5)
        // First a small one that hides, so that boxes of both sizes hide there in turn.
        var first = MarkerProperties(latitude: 0, longitude: 0)
        first.icon = small
        first.collision = .requiredAndHidesOptional
        var batch = [first]
        for k in 0..<3000 {
            var m = MarkerProperties(latitude: 0, longitude: 0)
            let r = random.next()
            m.collision = r < 0.2 ? .requiredAndHidesOptional : (r < 0.4 ? .required : .optionalAndHidesLowerPriority)
            m.collisionPriority = Double(Int(random.next() * 3))
            m.zIndex = Double(Int(random.next() * 2))
            if k % 3 == 0 { m.icon = small }
            batch.append(m)
        }
        // A few apart: on the pile's edge; 20 px aside, where only the pins' boxes (27 px wide,
        // not the small icons') reach; and one far enough to show.
        for dx in [0.0005, 0.001, 20.0 / 262_144 * 360, 0.05] {
            var m = MarkerProperties(latitude: 0, longitude: dx)
            m.collision = .optionalAndHidesLowerPriority
            batch.append(m)
        }
        _ = try map.addMarkers(batch)
        map.frame(1)
        XCTAssertGreaterThan(map.scene.drawnCount, 1000)
        XCTAssertGreaterThan(map.scene.hiddenCount, 1000)
        assertMatchesReference(map, taps: taps(around: 400, 300))
        XCTAssertFalse(map.scene.items.contains { $0.x > 415 && $0.x < 425 }, "hidden by the pins piled beside it")
    }

    func testMarkersPoppingUpOnOnePointHaveNoSizeYetAndAllShow() throws {
        // At their first frame popping markers are drawn at scale 0: boxes of no size, which
        // overlap nothing of no size, so every one of them shows.
        let map = MapController.make(zoom: 10)
        var batch: [MarkerProperties] = []
        for k in 0..<3000 {
            var m = MarkerProperties(latitude: 0, longitude: k % 10 == 0 ? 0.0001 : 0)
            m.appearAnimation = .pop
            m.collision = k % 4 == 0 ? .requiredAndHidesOptional : .optionalAndHidesLowerPriority
            batch.append(m)
        }
        _ = try map.addMarkers(batch)
        map.frame(1)
        XCTAssertEqual(map.scene.drawnCount, 3000)
        assertMatchesReference(map, taps: taps(around: 400, 300))
        // A moment later they have a size: the required ones hide every optional one.
        map.frame(1.2)
        XCTAssertEqual(map.scene.drawnCount, 750)
        assertMatchesReference(map, taps: taps(around: 400, 300))
    }

    func testCopiesOfTheWorldShareRowsAndSortAsTheReference() throws {
        // Zoom 0 in a view 1800 px wide: every marker on eight copies of the world, each copy
        // on the same row.
        let map = MapController.make(zoom: 0, width: 1800, height: 600)
        var random = SeededRandom(seed: 9)
        var batch: [MarkerProperties] = []
        for _ in 0..<1500 {
            var m = MarkerProperties(latitude: Double(Int(random.next() * 5)), longitude: random.next(in: -20...20))
            m.collision = random.next() < 0.5 ? .optionalAndHidesLowerPriority : .required
            m.zIndex = Double(Int(random.next() * 3))
            batch.append(m)
        }
        _ = try map.addMarkers(batch)
        map.frame(1)
        XCTAssertGreaterThan(map.scene.drawnCount + map.scene.hiddenCount, 6 * 1500)
        assertMatchesReference(map, taps: taps(around: 900, 300) + taps(around: 900 + 256, 300))
    }

    func testAClusterManagersItemsOnOnePointDrawAndHitAsTheReference() throws {
        for algorithm in [ClusterAlgorithmKind.hierarchical, .distance, .grid, .none] {
            // Past the clustering zooms every item is drawn on its own, all on one point.
            let map = MapController.make(zoom: 21)
            let m = try map.addClusterManager(algorithm)
            let n = 4000
            _ = try map.addClusterItems(m, latitudes: [Double](repeating: 0, count: n),
                                        longitudes: [Double](repeating: 0, count: n), icons: [Int32](repeating: -1, count: n))
            _ = try map.addMarker(MarkerProperties(latitude: 0, longitude: 0))
            try map.cluster(m)
            map.frame(1)
            XCTAssertEqual(map.scene.drawnCount, n + 1, "\(algorithm)")
            assertMatchesReference(map, taps: taps(around: 400, 300))
        }
    }

    func testAZoomOutToTheWorldPilesItemsOnTheirClustersRowsAndSortsAsTheReference() throws {
        for algorithm in [ClusterAlgorithmKind.hierarchical, .distance, .grid, .none] {
            let map = MapController.make(lat: 48.86, lng: 2.35, zoom: 10, width: 1280, height: 800)
            let m = try map.addClusterManager(algorithm)
            var random = SeededRandom(seed: 3)
            let n = 1500
            var lats: [Double] = [], lngs: [Double] = []
            for _ in 0..<n {
                lngs.append(2.35 + (random.next() - 0.5) * 40)
                lats.append(48.86 + (random.next() - 0.5) * 20)
            }
            _ = try map.addClusterItems(m, latitudes: lats, longitudes: lngs, icons: [Int32](repeating: -1, count: n))
            try map.cluster(m)
            var t = 1.0
            for _ in 0..<10 {
                t += 1.0 / 60
                map.frame(t)
            }
            try map.moveCamera(to: CameraPosition(latitude: 48.86, longitude: 2.35, zoom: 0, bearing: 0, tilt: 0))
            // Through the re-clustering and its animation: items fly into their clusters, and
            // screen-space ones at its end sit on them, hundreds on a few rows. (Those clusters
            // follow the zoom once it has held for 0.2 s: the animation ends 42 frames on.)
            let screenSpace = algorithm != .hierarchical
            let end = screenSpace ? 42 : 30
            var checked = 0, mostOnOneRow = 0
            for k in 0..<50 {
                t += 1.0 / 60
                map.frame(t)
                var rows: [Double: Int] = [:]
                for item in map.scene.items { rows[item.y, default: 0] += 1 }
                mostOnOneRow = max(mostOnOneRow, rows.values.max() ?? 0)
                if k % 8 == 0 || abs(k - end) <= 2 {
                    assertMatchesReference(map, taps: [(640, 400), (640 - 256, 400), (630, 395)])
                    checked += 1
                }
            }
            if algorithm == .grid || algorithm == .distance { XCTAssertGreaterThan(mostOnOneRow, 500, "\(algorithm)") }
            XCTAssertGreaterThan(checked, 8, "\(algorithm)")
        }
    }
}
