import XCTest
@testable import Cairn

/// The point lists of small clusters, made while the hierarchy is built, must equal those found
/// afterwards the slow way: every point climbing its parents while they are small.
final class SmallClusterPointsTests: XCTestCase {
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
