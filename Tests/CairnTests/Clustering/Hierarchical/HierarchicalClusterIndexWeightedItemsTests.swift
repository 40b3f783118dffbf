import XCTest
@testable import Cairn

/// Weighted items: the items an index shows at a zoom, given to a new index in rank order with
/// their point counts as weights, cluster the zooms below as the first index does.
final class HierarchicalClusterIndexWeightedItemsTests: XCTestCase {
    /// For every item (point, then cluster), the lowest point it holds.
    private func lowestPoints(_ index: HierarchicalClusterIndex) -> [Int32] {
        let n = index.pointCount
        var lowest = [Int32](repeating: Int32.max, count: n + index.clusterCount)
        for p in 0..<n {
            var item = Int32(p)
            while item >= 0 && lowest[Int(item)] == Int32.max {
                lowest[Int(item)] = Int32(p)
                item = index.parent(of: item)
            }
        }
        return lowest
    }

    /// The item each of the index's points (or weighted items) is in at `zoom`.
    private func items(_ index: HierarchicalClusterIndex, zoom: Int) -> [Int32] {
        let n = index.pointCount
        return (0..<n).map { p in
            var item = Int32(p)
            while true {
                let parent = index.parent(of: item)
                if parent < 0 || zoom > Int(index.clusterZoom[Int(parent) - n]) { return item }
                item = parent
            }
        }
    }

    private func handOver(_ full: HierarchicalClusterIndex, zoom h: Int) throws -> (HierarchicalClusterIndex, [Int32]) {
        let lowest = lowestPoints(full)
        var records: [(rank: Int32, x: Double, y: Double, w: Double)] = []
        try full.forEachItem(zoom: Double(h)) { f in
            let item = f.isCluster ? try! full.clusterItem(publicID: f.id) : Int32(f.id)
            records.append((lowest[Int(item)], f.x, f.y, Double(f.pointCount)))
        }
        records.sort { $0.rank < $1.rank }
        let o = full.options
        let weighted = try HierarchicalClusterIndex(options: ClusterOptions(radius: o.radius, extent: o.extent,
                                                                            minZoom: o.minZoom, maxZoom: h - 1))
        let flat = records.flatMap { [$0.x, $0.y, $0.w] }
        try flat.withUnsafeBufferPointer { try weighted.add(weightedItems: $0) }
        XCTAssertTrue(weighted.isWeighted)
        weighted.build()
        return (weighted, records.map { $0.rank })
    }

    func testTheItemsOfAZoomClusterTheZoomsBelowAsTheWholeIndexDoes() throws {
        var random = SeededRandom(seed: 29)
        // Enough points for the whole index to take its sparse zooms (the weighted one does not).
        let points = random.mixedPoints(80_000)
        let full = try Fixtures.makeIndex(points, ClusterOptions(radius: 40, extent: 512, maxZoom: 14))
        for h in [9, 5] {
            let (weighted, rank) = try handOver(full, zoom: h)
            let fullLowest = lowestPoints(full), weightedLowest = lowestPoints(weighted)
            let atH = items(full, zoom: h)
            // Each point's weighted item: the position of its item's rank among the ranks.
            let slot = Dictionary(uniqueKeysWithValues: rank.enumerated().map { ($0.element, Int32($0.offset)) })
            let pointSlot = atH.map { slot[fullLowest[Int($0)]]! }
            var differentBits = 0
            for z in stride(from: h - 1, through: 0, by: -1) {
                let fullItems = items(full, zoom: z), weightedItems = items(weighted, zoom: z)
                var seen = Set<Int32>()
                for p in 0..<points.count / 2 {
                    let a = fullItems[p], b = weightedItems[Int(pointSlot[p])]
                    XCTAssertEqual(fullLowest[Int(a)], rank[Int(weightedLowest[Int(b)])], "point \(p) at zoom \(z) from \(h)")
                    guard seen.insert(a).inserted else { continue }
                    XCTAssertEqual(full.pointCount(of: a), weighted.pointCount(of: b))
                    let pa = full.reportedPosition(a), pb = weighted.reportedPosition(b)
                    XCTAssertEqual(pa.x, pb.x, accuracy: 1e-12)
                    XCTAssertEqual(pa.y, pb.y, accuracy: 1e-12)
                    if pa != pb { differentBits += 1 }
                }
                if z == 0 { XCTAssertGreaterThan(seen.count, 10) }
            }
            XCTAssertGreaterThan(weighted.clusterCount, 100)
            print("hand-over at \(h): \(rank.count) items, \(differentBits) centroids differ in their last bits")
        }
    }

    func testBadRecordsAreRefusedAndNothingIsAdded() throws {
        let index = try HierarchicalClusterIndex(options: ClusterOptions(maxZoom: 4))
        let good: [Double] = [0.5, 0.5, 3, 0.25, 0.75, 1]
        try good.withUnsafeBufferPointer { try index.add(weightedItems: $0) }
        for (bad, at) in [([0.1, 0.1, 1, 0.2, 0.2, 0], 3), ([1.5, 0.1, 1], 2), ([0.1, .nan, 1], 2),
                          ([0.1, 0.1, 2.5], 2), ([0.1, -0.1, 1], 2), ([0.1, 0.1, .infinity], 2)] as [([Double], Int)] {
            XCTAssertThrowsError(try bad.withUnsafeBufferPointer { try index.add(weightedItems: $0) }) {
                XCTAssertEqual($0 as? CairnError, .invalidRecord(index: at), "\(bad)")
            }
            XCTAssertEqual(index.pointCount, 2)
        }
        XCTAssertThrowsError(try [0.1, 0.1].withUnsafeBufferPointer { try index.add(weightedItems: $0) }) {
            XCTAssertEqual($0 as? CairnError, .invalidArgument)
        }
        XCTAssertThrowsError(try [0.1, 0.1, 4_294_967_293].withUnsafeBufferPointer { try index.add(weightedItems: $0) }) {
            XCTAssertEqual($0 as? CairnError, .tooManyPoints, "the weights' sum fits in 32 bits")
        }
        // Points and weighted items do not mix.
        XCTAssertThrowsError(try index.add(longitude: 0, latitude: 0)) { XCTAssertEqual($0 as? CairnError, .invalidState) }
        let plain = try HierarchicalClusterIndex(options: ClusterOptions(maxZoom: 4))
        try plain.add(longitude: 0, latitude: 0)
        XCTAssertThrowsError(try good.withUnsafeBufferPointer { try plain.add(weightedItems: $0) }) {
            XCTAssertEqual($0 as? CairnError, .invalidState)
        }
    }

    func testAWeightedItemCountsItsWeightAndRefusesWhatNeedsPoints() throws {
        let index = try HierarchicalClusterIndex(options: ClusterOptions(radius: 40, extent: 512, maxZoom: 4))
        // Two heavy items and a point, near each other at zoom 4.
        let x = 0.5, y = 0.5, d = 10.0 / 512 / 16
        let records: [Double] = [x, y, 5, x + d, y, 2, x, y + d, 1]
        try records.withUnsafeBufferPointer { try index.add(weightedItems: $0) }
        index.build()
        let top = try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 4)
        XCTAssertEqual(top.count, 1)
        XCTAssertEqual(top[0].pointCount, 8)
        // The centroid weighs each item by its weight, the point at its float32 rounding.
        XCTAssertEqual(top[0].x, (5 * x + 2 * (x + d) + Double(Float(x))) / 8, accuracy: 1e-15)
        XCTAssertEqual(top[0].y, (5 * y + 2 * y + Double(Float(y + d))) / 8, accuracy: 1e-15)
        let leaves = try index.leaves(of: top[0].id, limit: 10)
        XCTAssertEqual(leaves.map(\.pointCount).sorted(), [1, 2, 5])
        XCTAssertThrowsError(try index.save()) { XCTAssertEqual($0 as? CairnError, .invalidState) }
        XCTAssertThrowsError(try [1.0, 2, 3].withUnsafeBufferPointer { try index.addAggregate(.sum, values: $0) }) {
            XCTAssertEqual($0 as? CairnError, .invalidState)
        }
        let none = UnsafeBufferPointer<Double>(start: nil, count: 0)
        XCTAssertThrowsError(try [Int32(0)].withUnsafeBufferPointer {
            try index.edit(adding: none, removing: $0, moving: UnsafeBufferPointer(start: nil, count: 0), to: none)
        }) { XCTAssertEqual($0 as? CairnError, .invalidState) }
    }
}
