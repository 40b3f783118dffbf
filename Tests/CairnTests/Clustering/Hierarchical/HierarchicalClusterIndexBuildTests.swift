import XCTest
@testable import Cairn

/// The build has more than one way to cluster a zoom (see `+SpaceOrder` and `+SparseZooms`):
/// each must give the same clusters at every zoom as the greedy pass in rank order over all
/// items, on data that exercises them (dense blobs, duplicates, a cell too dense for the
/// space-order pass, minPoints > 2, sparse zooms ending early or where planned).
final class HierarchicalClusterIndexBuildTests: XCTestCase {
    /// One zoom's clustering, independent of how clusters are numbered: each item's sorted
    /// leaves and its position, sorted.
    private struct Item: Comparable {
        var leaves: [Int64]
        var x: Double
        var y: Double
        static func < (a: Item, b: Item) -> Bool { a.leaves.lexicographicallyPrecedes(b.leaves) }
    }

    private func clustering(_ index: HierarchicalClusterIndex, zoom: Int) throws -> [Item] {
        try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom)).map { f in
            let leaves = f.isCluster ? try index.leaves(of: f.id, limit: Int.max).map(\.id).sorted() : [f.id]
            return Item(leaves: leaves, x: f.x, y: f.y)
        }.sorted()
    }

    private func assertSameClusters(_ points: [Double], _ options: ClusterOptions,
                                    _ configure: (HierarchicalClusterIndex) -> Void,
                                    file: StaticString = #filePath, line: UInt = #line) throws -> HierarchicalClusterIndex {
        let greedy = try HierarchicalClusterIndex(options: options)
        greedy.useSpaceOrder = false
        greedy.denseFromZoomOverride = options.maxZoom
        let other = try HierarchicalClusterIndex(options: options)
        configure(other)
        for index in [greedy, other] {
            try points.withUnsafeBufferPointer { try index.add(lngLat: $0) }
            index.build()
        }
        XCTAssertEqual(greedy.clusterCount, other.clusterCount, file: file, line: line)
        for zoom in options.minZoom...(options.maxZoom + 1) {
            let a = try clustering(greedy, zoom: zoom), b = try clustering(other, zoom: zoom)
            XCTAssertEqual(a.map(\.leaves), b.map(\.leaves), "zoom \(zoom)", file: file, line: line)
            for (p, q) in zip(a, b) {
                // Sums over the same points, perhaps added in another order.
                XCTAssertEqual(p.x, q.x, accuracy: 1e-12, file: file, line: line)
                XCTAssertEqual(p.y, q.y, accuracy: 1e-12, file: file, line: line)
            }
        }
        return other
    }

    private let optionSets = [
        ClusterOptions(),
        ClusterOptions(radius: 80, extent: 512, minZoom: 2, maxZoom: 10, minPoints: 3),
        ClusterOptions(radius: 20, extent: 256, minZoom: 0, maxZoom: 19, minPoints: 2),
        ClusterOptions(radius: 60, extent: 256, minZoom: 0, maxZoom: 16, minPoints: 5),
    ]

    func testSpaceOrderGivesTheGreedyClustersOnMixedData() throws {
        var measuredExactly = 0
        for (k, options) in optionSets.enumerated() {
            var rng = SeededRandom(seed: UInt32(700 + k))
            let index = try assertSameClusters(rng.mixedPoints(3000), options) { $0.useSpaceOrder = true }
            measuredExactly += index.itemsMeasuredExactly
            XCTAssertLessThan(index.greedyZooms, options.maxZoom - options.minZoom + 1)
            if options.minPoints == 2 {
                // Every seed forms a cluster: their sort goes by the seeds' rows at every zoom.
                XCTAssertEqual(index.radixSortedClusterZooms, 0)
            }
        }
        // Some items had a pair in `_RoundingDoubtBand`'s doubt, and were measured again to their
        // absorbers' centroids.
        XCTAssertGreaterThan(measuredExactly, 0)
    }

    func testSpaceOrderGivesTheGreedyClustersOnUniformData() throws {
        var rng = SeededRandom(seed: 710)
        var points: [Double] = []
        for _ in 0..<20_000 { points += [rng.next(in: -180...180), rng.next(in: -85...85)] }
        let index = try assertSameClusters(points, ClusterOptions(), { $0.useSpaceOrder = true })
        XCTAssertEqual(index.greedyZooms, 0)
        // Every zoom's new clusters were sorted by their seeds' rows, none by the radix sort.
        XCTAssertEqual(index.radixSortedClusterZooms, 0)
    }

    func testACellTooDenseForSpaceOrderFallsBackToTheGreedyPass() throws {
        // 4,000 points within a metre of each other: at the zooms where they share cells with
        // spread-out neighbours, the space-order pass gives way to the greedy one.
        var rng = SeededRandom(seed: 720)
        var points: [Double] = []
        for _ in 0..<4000 { points += [2.35 + rng.next() * 1e-5, 48.85 + rng.next() * 1e-5] }
        for _ in 0..<400 { points += [2.35 + rng.next(in: -1...1), 48.85 + rng.next(in: -1...1)] }
        let index = try assertSameClusters(points, ClusterOptions(), { $0.useSpaceOrder = true })
        XCTAssertGreaterThan(index.greedyZooms, 0)
        XCTAssertLessThan(index.greedyZooms, 17)
    }

    func testGivingBackTheRoomOfGoneItemsAtEveryZoomKeepsTheClusters() throws {
        // The build's buffers shrink to the items left after every zoom (a million points wait
        // for 16,384 to be gone): whatever the passes read must lie within what is left, with
        // the space-order pass, the greedy one and sparse zooms alike.
        for (k, options) in optionSets.enumerated() {
            var rng = SeededRandom(seed: UInt32(740 + k))
            let index = try assertSameClusters(rng.mixedPoints(3000), options) { $0.releaseItemRoomFrom = 1 }
            XCTAssertGreaterThan(index.itemRoomReleases, 2)
        }
        var rng = SeededRandom(seed: 745)
        let greedy = try assertSameClusters(rng.mixedPoints(3000), ClusterOptions()) {
            $0.releaseItemRoomFrom = 1
            $0.useSpaceOrder = false
        }
        XCTAssertGreaterThan(greedy.itemRoomReleases, 2)
        let sparse = try assertSameClusters(rng.mixedPoints(3000), ClusterOptions()) {
            $0.releaseItemRoomFrom = 1
            $0.denseFromZoomOverride = 2
        }
        XCTAssertGreaterThan(sparse.itemRoomReleases, 2)
    }

    func testPointsAlongOneRowGiveTheGreedyClusters() throws {
        // 6,000 points on the equator, a few metres to a kilometre apart: at the middle zooms
        // one row of cells holds thousands of pairs, more than the space-order pass keeps
        // waiting for a row to end, and the zoom goes to the greedy pass.
        var rng = SeededRandom(seed: 725)
        var points: [Double] = []
        var lng = 10.0
        for _ in 0..<6000 {
            lng += rng.next() * 1e-4
            points += [lng, 0]
        }
        let index = try assertSameClusters(points, ClusterOptions(), { $0.useSpaceOrder = true })
        XCTAssertGreaterThan(index.greedyZooms, 0)
        XCTAssertLessThan(index.greedyZooms, 17)
        // The greedy pass stages clusters by rank, not by position: their sort is the radix one.
        XCTAssertGreaterThan(index.radixSortedClusterZooms, 0)
    }

    func testSparseZoomsGiveTheGreedyClusters() throws {
        var rng = SeededRandom(seed: 730)
        var points: [Double] = []
        for _ in 0..<12_000 { points += [rng.next(in: -180...180), rng.next(in: -85...85)] }
        // Planned at 9 and 12, the sparse zooms last until then, and every pair of points is
        // measured by the plan. Planned at 3, they end early (about zoom 7), and the items are
        // sorted again in finer cells; the plan meets more pairs within the radius of zoom 4
        // than it keeps (a sixteenth of the points, and 1,024), so the points past that limit
        // search for theirs.
        for denseFrom in [3, 9, 12] {
            let index = try assertSameClusters(points, ClusterOptions()) { $0.denseFromZoomOverride = denseFrom }
            XCTAssertEqual(index.greedyZooms, 0)
            if denseFrom == 3 {
                XCTAssertGreaterThan(index.searchedSparsePoints, 1000)
                XCTAssertLessThan(index.searchedSparsePoints, points.count / 2)
            } else {
                XCTAssertEqual(index.searchedSparsePoints, 0)
            }
        }
    }

    func testSparseZoomsListSmallClustersPointsAsTheGreedyPassDoes() throws {
        var rng = SeededRandom(seed: 735)
        var points: [Double] = []
        for _ in 0..<8000 { points += [rng.next(in: -180...180), rng.next(in: -85...85)] }
        func smallLists(_ configure: (HierarchicalClusterIndex) -> Void) throws -> [[Int32]] {
            let index = try HierarchicalClusterIndex()
            index.smallClustersBelow = 4
            configure(index)
            try points.withUnsafeBufferPointer { try index.add(lngLat: $0) }
            index.build()
            let (start, list) = index.smallClusterPoints
            var lists: [[Int32]] = []
            for c in 0..<index.clusterCount where start[c + 1] > start[c] {
                lists.append(Array(list[Int(start[c])..<Int(start[c + 1])]))
            }
            return lists.sorted { $0.lexicographicallyPrecedes($1) }
        }
        let greedy = try smallLists { $0.useSpaceOrder = false; $0.denseFromZoomOverride = 16 }
        let sparse = try smallLists { $0.denseFromZoomOverride = 6 }
        XCTAssertGreaterThan(greedy.count, 100)
        XCTAssertEqual(sparse, greedy)
        // Each list holds a cluster's points once, in increasing order.
        for list in sparse { XCTAssertEqual(list, Array(Set(list)).sorted()) }
    }

    func testSparseZoomsOnMixedDataEndEarlyAndGiveTheGreedyClusters() throws {
        // Dense blobs and duplicates: the sparse zooms give way to dense ones above the zoom
        // planned, with the points still in that zoom's coarser cells.
        for (k, options) in optionSets.enumerated() where options.minPoints == 2 {
            var rng = SeededRandom(seed: UInt32(740 + k))
            let index = try assertSameClusters(rng.mixedPoints(3000), options) { $0.denseFromZoomOverride = options.minZoom + 2 }
            // The blobs' crowded cells are not measured: their points search for their pairs.
            XCTAssertGreaterThan(index.searchedSparsePoints, 0)
        }
    }

    func testTheBuildPlansSparseZoomsForSpreadDataOnly() throws {
        var rng = SeededRandom(seed: 750)
        var spread: [Double] = [], piled: [Double] = []
        for _ in 0..<100_000 { spread += [rng.next(in: -180...180), rng.next(in: -85...85)] }
        for _ in 0..<100_000 { piled += [2.35 + rng.next() * 1e-4, 48.85 + rng.next() * 1e-4] }
        func plan(_ points: [Double], _ options: ClusterOptions = ClusterOptions()) throws -> Int {
            let index = try HierarchicalClusterIndex(options: options)
            try points.withUnsafeBufferPointer { try index.add(lngLat: $0) }
            return index.denseFromZoom()
        }
        // 100,000 points spread evenly: about one in 16 has a point within 40 of 512 pixels at
        // zoom 7.
        XCTAssertEqual(try plan(spread), 7)
        XCTAssertEqual(try plan(piled), 16)
        XCTAssertEqual(try plan(spread, ClusterOptions(minPoints: 3)), 16)
        XCTAssertEqual(try plan(Array(spread.prefix(2000))), 16)
    }
}

/// The point lists of small clusters, made while the hierarchy is built, must equal those found
/// afterwards the slow way: every point climbing its parents while they are small.
extension HierarchicalClusterIndexBuildTests {
    /// The slow way: each point listed in every small cluster it climbs through, by cluster.
    func climbed(_ index: HierarchicalClusterIndex, below size: Int) -> (start: [Int32], points: [Int32]) {
        let n = index.pointPositions.count, clusters = index.clusterParent.count
        var lists = [[Int32]](repeating: [], count: clusters)
        for p in 0..<n {
            var q = index.pointParent[p]
            while q >= 0 && Int(index.clusterPoints[Int(q) - n]) < size {
                lists[Int(q) - n].append(Int32(p))
                q = index.clusterParent[Int(q) - n]
            }
        }
        var start: [Int32] = [0], points: [Int32] = []
        for list in lists {
            points.append(contentsOf: list)
            start.append(Int32(points.count))
        }
        return (start, points)
    }

    func testListsMadeDuringTheBuildEqualThoseFoundByClimbing() throws {
        var state: UInt64 = 7
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        for (minPoints, size) in [(2, 4), (2, 2), (2, 6), (3, 5), (2, 1)] {
            let index = try HierarchicalClusterIndex(options: ClusterOptions(radius: 60, minPoints: minPoints))
            index.smallClustersBelow = size
            // Tight blobs and scattered points, so small clusters nest inside small clusters.
            for b in 0..<40 {
                let lng = next() * 300 - 150, lat = next() * 120 - 60
                let spread = b % 3 == 0 ? 0.001 : (b % 3 == 1 ? 0.05 : 2)
                for _ in 0..<(5 + Int(next() * 60)) {
                    try index.add(longitude: lng + (next() - 0.5) * spread, latitude: lat + (next() - 0.5) * spread)
                }
            }
            index.build()
            let expected = climbed(index, below: size)
            XCTAssertEqual(index.smallClusterPoints.start, expected.start, "minPoints \(minPoints), below \(size)")
            XCTAssertEqual(index.smallClusterPoints.points, expected.points, "minPoints \(minPoints), below \(size)")
            if size > 2 { XCTAssertGreaterThan(expected.points.count, 0, "the case has small clusters") }
        }
    }

    func testNothingIsListedUnlessAsked() throws {
        let index = try HierarchicalClusterIndex()
        for k in 0..<50 { try index.add(longitude: Double(k) * 0.0001, latitude: 0) }
        index.build()
        XCTAssertGreaterThan(index.clusterCount, 0)
        XCTAssertEqual(index.smallClusterPoints.points, [])
        XCTAssertEqual(index.smallClusterPoints.start, [0])
    }
}
