import XCTest
@testable import Cairn

/// C2b, with the cases Google's utility library documents in its own tests.
final class DistanceClusteringTests: XCTestCase {
    func items(_ coordinates: [(Double, Double)]) -> ClusterItemPositions {
        var items = ClusterItemPositions()
        for (lat, lng) in coordinates { try! items.append(latitude: lat, longitude: lng) }
        return items
    }

    func sizes(_ groups: ClusterGroups) -> [Int] { (0..<groups.count).map { groups.size(of: $0) } }

    func testC2b_FourPointsAroundTheOriginAreOneClusterAtZoomFourAndFourAtZoomFourteen() throws {
        let four = items([(1, 1), (1, -1), (-1, 1), (-1, -1)])
        let algorithm = try DistanceClustering()
        var groups = ClusterGroups()
        algorithm.cluster(four, zoom: 4, into: &groups)
        XCTAssertEqual(sizes(groups), [4])
        XCTAssertEqual(groups.x[0], four.x[0], "the cluster sits on its seed, the first item")
        XCTAssertEqual(groups.y[0], four.y[0])
        algorithm.cluster(four, zoom: 14, into: &groups)
        XCTAssertEqual(sizes(groups), [1, 1, 1, 1])
        XCTAssertEqual(Array(groups.members), [0, 1, 2, 3])
    }

    func testC2b_FourCentresWithTenItemsEachWithinFiftyPointsGiveFourClustersOfTen() throws {
        // At zoom 10 a point is 1/(256 × 1024) of the world; put ten items within 50 points of
        // each of four centres that are far apart.
        var coordinates: [(Double, Double)] = []
        var random = SeededRandom(seed: 7)
        let centres = [(10.0, 10.0), (10.0, 20.0), (20.0, 10.0), (20.0, 20.0)]
        let pointDegrees = 360.0 / (256 * 1024)
        for (lat, lng) in centres {
            for _ in 0..<10 {
                coordinates.append((lat + (random.next() - 0.5) * 40 * pointDegrees,
                                    lng + (random.next() - 0.5) * 40 * pointDegrees))
            }
        }
        var groups = ClusterGroups()
        try DistanceClustering().cluster(items(coordinates), zoom: 10, into: &groups)
        XCTAssertEqual(sizes(groups), [10, 10, 10, 10])
        for c in 0..<4 { XCTAssertEqual(Array(groups.members(of: c)), (0..<10).map { Int32(c * 10 + $0) }) }
    }

    func testC2b_AnItemMovesToANewerSeedOnlyWhenItIsNotStrictlyCloserToItsOwn() throws {
        // Zoom 0: the square's half-width is 100 points = 100/256 of the world in x.
        let w = 100.0 / 256
        var items = ClusterItemPositions()
        // Seed A at x = 0.1; item B at 0.1 + 0.9w (inside A's square); C at 0.1 + 1.5w seeds
        // next and reaches B at 0.6w: B is closer to C, so it moves.
        for x in [0.1, 0.1 + 0.9 * w, 0.1 + 1.5 * w] {
            try items.append(latitude: 0, longitude: WebMercator.longitude(x: x))
        }
        var groups = ClusterGroups()
        try DistanceClustering().cluster(items, zoom: 0, into: &groups)
        XCTAssertEqual(groups.count, 2)
        XCTAssertEqual(Array(groups.members(of: 0)), [0])
        XCTAssertEqual(Array(groups.members(of: 1)), [1, 2])
        // At equal distance (B halfway) the newer seed wins too.
        var tie = ClusterItemPositions()
        for x in [0.1, 0.1 + 0.75 * w, 0.1 + 1.5 * w] {
            try tie.append(latitude: 0, longitude: WebMercator.longitude(x: x))
        }
        try DistanceClustering().cluster(tie, zoom: 0, into: &groups)
        XCTAssertEqual(Array(groups.members(of: 1)), [1, 2])
    }

    func testC2b_TheZoomIsRoundedAndBadDistancesAreRefused() throws {
        let pair = items([(0, 0), (0, 0.5)])
        var groups = ClusterGroups()
        let algorithm = try DistanceClustering()
        // 0.5° apart is 0.5/360 × 256 × 2^z points: 90 at zoom 8 (joined), 182 at zoom 9.
        algorithm.cluster(pair, zoom: 8.4, into: &groups)
        XCTAssertEqual(groups.count, 1)
        algorithm.cluster(pair, zoom: 8.6, into: &groups)
        XCTAssertEqual(groups.count, 2)
        XCTAssertThrowsError(try DistanceClustering(distance: 0))
        XCTAssertThrowsError(try DistanceClustering(distance: .nan))
        algorithm.cluster(ClusterItemPositions(), zoom: 3, into: &groups)
        XCTAssertEqual(groups.count, 0)
    }

    func testC2b_EveryItemIsInExactlyOneClusterWithinItsSquare() throws {
        var random = SeededRandom(seed: 3)
        var items = ClusterItemPositions()
        for _ in 0..<3000 { try items.append(latitude: random.next() * 20 + 40, longitude: random.next() * 30 - 5) }
        var groups = ClusterGroups()
        for zoom in [3.0, 6, 9, 12] {
            try DistanceClustering().cluster(items, zoom: zoom, into: &groups)
            XCTAssertEqual(Set(groups.members).count, items.count)
            XCTAssertEqual(groups.members.count, items.count)
            let span = 100 / (256 * _exp2(zoom))
            for c in 0..<groups.count {
                for m in groups.members(of: c) {
                    XCTAssertLessThanOrEqual(abs(items.x[Int(m)] - groups.x[c]), span)
                    XCTAssertLessThanOrEqual(abs(items.y[Int(m)] - groups.y[c]), span)
                }
            }
        }
    }

    func testBadItemsAreRefusedWithTheirIndex() {
        var items = ClusterItemPositions()
        try! items.append(latitude: 1, longitude: 1)
        XCTAssertThrowsError(try items.append(latitude: .nan, longitude: 1)) { XCTAssertEqual($0 as? CairnError, .nonFiniteCoordinate(index: 1)) }
        XCTAssertThrowsError(try items.append(latitude: 91, longitude: 1)) { XCTAssertEqual($0 as? CairnError, .latitudeOutOfRange(index: 1)) }
        XCTAssertEqual(items.count, 1)
    }
}

final class GridClusteringTests: XCTestCase {
    func testC2c_ItemsOfACellFormOneClusterAtTheCellCentre() throws {
        var items = ClusterItemPositions()
        // Zoom 0: ceil(256 / 100) = 3 cells per side.
        for (lat, lng) in [(10.0, 10.0), (60.0, -170.0), (20.0, 30.0), (-60.0, 170.0), (61.0, -171.0)] {
            try items.append(latitude: lat, longitude: lng)
        }
        var groups = ClusterGroups()
        try GridClustering().cluster(items, zoom: 0, into: &groups)
        XCTAssertEqual(groups.count, 3)
        XCTAssertEqual(Array(groups.members(of: 0)), [0, 2], "first seen first")
        XCTAssertEqual(Array(groups.members(of: 1)), [1, 4])
        XCTAssertEqual(Array(groups.members(of: 2)), [3])
        XCTAssertEqual(groups.x[0], 1.5 / 3)
        XCTAssertEqual(groups.y[0], 1.5 / 3)
        XCTAssertEqual(groups.x[1], 0.5 / 3)
        XCTAssertEqual(groups.y[1], 0.5 / 3)
        XCTAssertEqual(groups.x[2], 2.5 / 3)
        XCTAssertEqual(groups.y[2], 2.5 / 3)
    }

    func testC2c_FourPointsAroundTheOriginAtZoomsFourAndFourteen() throws {
        var items = ClusterItemPositions()
        for (lat, lng) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] { try items.append(latitude: lat, longitude: lng) }
        var groups = ClusterGroups()
        try GridClustering().cluster(items, zoom: 14, into: &groups)
        XCTAssertEqual(groups.count, 4)
        // At zoom 4, 41 cells per side: the origin is inside cell 20 (20/41 < 0.5 < 21/41), so
        // all four points ±1° (±0.11 cells) share it.
        try GridClustering().cluster(items, zoom: 4, into: &groups)
        XCTAssertEqual(groups.count, 1)
        XCTAssertThrowsError(try GridClustering(cellSize: 0.5))
    }

    func testC2d_NoClusteringShowsEveryItem() throws {
        var items = ClusterItemPositions()
        for k in 0..<5 { try items.append(latitude: 0, longitude: Double(k) * 1e-9) }
        var groups = ClusterGroups()
        NoClustering().cluster(items, zoom: 0, into: &groups)
        XCTAssertEqual(groups.count, 5)
        XCTAssertEqual(Array(groups.members), [0, 1, 2, 3, 4])
    }
}

final class ClusterIconBucketsTests: XCTestCase {
    func testC3_GoogleDefaultBucketsTextsAndColours() {
        let b = ClusterIconBuckets.standard
        XCTAssertEqual(b.text(for: 4), "4")
        XCTAssertEqual(b.text(for: 9), "9")
        XCTAssertEqual(b.text(for: 10), "10+")
        XCTAssertEqual(b.text(for: 49), "10+")
        XCTAssertEqual(b.text(for: 50), "50+")
        XCTAssertEqual(b.text(for: 199), "100+")
        XCTAssertEqual(b.text(for: 200), "200+")
        XCTAssertEqual(b.text(for: 1_000_000), "1000+")
        XCTAssertEqual(b.color(for: 5), 0x0099CC)
        XCTAssertEqual(b.color(for: 10), 0x0099CC)
        XCTAssertEqual(b.color(for: 60), 0x669900)
        XCTAssertEqual(b.color(for: 150), 0xFF8800)
        XCTAssertEqual(b.color(for: 500), 0xCC0000)
        XCTAssertEqual(b.color(for: 5000), 0x9933CC)
        XCTAssertLessThan(b.diameter(for: 5), b.diameter(for: 10))
        XCTAssertLessThan(b.diameter(for: 200), b.diameter(for: 1000))
    }

    func testC3_CustomBucketsAreValidated() throws {
        XCTAssertThrowsError(try ClusterIconBuckets(buckets: [])) { XCTAssertEqual($0 as? CairnError, .invalidBuckets(.empty)) }
        XCTAssertThrowsError(try ClusterIconBuckets(buckets: [0, 5])) { XCTAssertEqual($0 as? CairnError, .invalidBuckets(.notPositive)) }
        XCTAssertThrowsError(try ClusterIconBuckets(buckets: [5, 5])) { XCTAssertEqual($0 as? CairnError, .invalidBuckets(.notIncreasing)) }
        XCTAssertThrowsError(try ClusterIconBuckets(buckets: [5, 20], colors: [1])) {
            XCTAssertEqual($0 as? CairnError, .invalidBuckets(.colorCountMismatch))
        }
        let custom = try ClusterIconBuckets(buckets: [5, 25], colors: [0x112233, 0x445566])
        XCTAssertEqual(custom.text(for: 30), "25+")
        XCTAssertEqual(custom.color(for: 30), 0x445566)
        XCTAssertEqual(try ClusterIconBuckets(buckets: [2, 3, 4, 5, 6, 7]).colors.last, 0x0099CC, "standard colours cycle")
    }
}
