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

    // Google's arithmetic (C2b): the cases where it and the unit square's part ways.

    func testC2b_AnExactTieInGoogleMapPointsMovesTheItemToTheNewerSeed() throws {
        // On one latitude, B is exactly as far from A as from C in Google's map points
        // (longitude / 180), though not in the unit square (longitude / 360 + 0.5), where it
        // is strictly closer to A. At zoom 10 C lies outside A's box and seeds a cluster of its own.
        let three = items([(0, 1.122), (0, 1.233036), (0, 1.344072)])
        let a = three.mapX[0], b = three.mapX[1], c = three.mapX[2]
        XCTAssertEqual((a - b) * (a - b), (c - b) * (c - b), "a tie in map points")
        let ua = three.x[0], ub = three.x[1], uc = three.x[2]
        XCTAssertLessThan((ua - ub) * (ua - ub), (uc - ub) * (uc - ub), "no tie in the unit square")
        var groups = ClusterGroups()
        try DistanceClustering().cluster(three, zoom: 10, into: &groups)
        XCTAssertEqual(groups.count, 2)
        XCTAssertEqual(Array(groups.members(of: 0)), [0])
        XCTAssertEqual(Array(groups.members(of: 1)), [1, 2], "Google's tie goes to the newer seed")
    }

    func testC2b_AnItemOnTheBoxEdgeAsGoogleRoundsItJoins() throws {
        // At zoom 0 the box's half-width is 200 / 256 map points; 98.288° is exactly
        // fl(x(-42.337°) + r), so Google's `x <= maxX` takes it, though in the unit square the
        // difference rounds to more than the half-width.
        let pair = items([(0, -42.337), (0, 98.288)])
        let r = 200.0 / 256
        XCTAssertEqual(pair.mapX[1], pair.mapX[0] + r)
        XCTAssertGreaterThan(abs(pair.x[1] - pair.x[0]), 100.0 / 256)
        var groups = ClusterGroups()
        try DistanceClustering().cluster(pair, zoom: 0, into: &groups)
        XCTAssertEqual(sizes(groups), [2])
        // A hair further and it is out.
        try DistanceClustering().cluster(items([(0, -42.337), (0, 98.2881)]), zoom: 0, into: &groups)
        XCTAssertEqual(sizes(groups), [1, 1])
    }

    func testC2b_ItemsBeyondTheMapAreLeftOutButStillSeed() throws {
        // 86° N is beyond Google's map (y > 1), so no search finds it: it is in no cluster. It
        // still seeds one, at its own position, which 84.9° N (0.09 map points away, within
        // zoom 3's 0.098) joins; 80° N, further, seeds its own.
        let three = items([(86, 0), (84.9, 0), (80, 0)])
        XCTAssertGreaterThan(three.mapY[0], 1)
        var groups = ClusterGroups()
        try DistanceClustering().cluster(three, zoom: 3, into: &groups)
        XCTAssertEqual(groups.count, 2)
        XCTAssertEqual(Array(groups.members(of: 0)), [1])
        XCTAssertEqual(groups.x[0], three.x[0])
        XCTAssertEqual(groups.y[0], three.y[0], "placed on its seed, at the map's edge")
        XCTAssertEqual(Array(groups.members(of: 1)), [2])
        // Alone, it leaves nothing to draw; and the poles are never on the map.
        try DistanceClustering().cluster(items([(86, 0), (90, 10), (-90, 10)]), zoom: 5, into: &groups)
        XCTAssertEqual(groups.count, 0)
    }

    func testC2b_TheZoomIsRoundedInSinglePrecisionAsGooglesManagerDoes() {
        XCTAssertEqual(_discreteZoom(2.4999999999), 3, "a float's nearest is 2.5")
        XCTAssertEqual(_discreteZoom(2.4999), 2)
        XCTAssertEqual(_discreteZoom(2.5), 3)
        XCTAssertEqual(_discreteZoom(-3), 0)
        XCTAssertEqual(_discreteZoom(.nan), 0)
    }
}
