import XCTest
@testable import Cairn

/// Aggregated cluster properties (feature C9) against a brute force over each cluster's leaves.
final class HierarchicalClusterIndexAggregatesTests: XCTestCase {
    func testEveryOperationMatchesItsLeaves() throws {
        var rng = SeededRandom(seed: 44)
        let n = 1500
        let index = try Fixtures.makeIndex(rng.mixedPoints(n), ClusterOptions())
        // Values with gaps (NaN = no value) and negatives.
        let values = (0..<n).map { i -> Double in i % 5 == 0 ? .nan : Double((i * 37) % 101) - 50 }
        var columns: [AggregateOperation: Int] = [:]
        for op in [AggregateOperation.sum, .min, .max, .count, .mean] {
            columns[op] = try values.withUnsafeBufferPointer { try index.addAggregate(op, values: $0) }
        }
        XCTAssertEqual(index.aggregateCount, 5)
        for zoom in [0, 3, 7, 12] {
            for cluster in try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
            where cluster.isCluster {
                let present = try index.leaves(of: cluster.id, limit: .max).map { values[Int($0.id)] }.filter { !$0.isNaN }
                func value(_ op: AggregateOperation) throws -> Double { try index.aggregate(columns[op]!, of: cluster.id) }
                XCTAssertEqual(try value(.sum), present.reduce(0, +), accuracy: 1e-9)
                XCTAssertEqual(try value(.count), Double(present.count))
                if present.isEmpty {
                    XCTAssertTrue(try value(.min).isNaN)
                    XCTAssertTrue(try value(.mean).isNaN)
                } else {
                    XCTAssertEqual(try value(.min), present.min()!)
                    XCTAssertEqual(try value(.max), present.max()!)
                    XCTAssertEqual(try value(.mean), present.reduce(0, +) / Double(present.count), accuracy: 1e-9)
                }
            }
        }
    }

    func testBadAggregatesAreErrors() throws {
        let unbuilt = try HierarchicalClusterIndex()
        try unbuilt.add(longitude: 0, latitude: 0)
        XCTAssertThrowsError(try [1.0].withUnsafeBufferPointer { try unbuilt.addAggregate(.sum, values: $0) }) {
            XCTAssertEqual($0 as? CairnError, .invalidState)
        }
        let index = try Fixtures.makeIndex([0, 0, 0, 0, 5, 5], ClusterOptions())
        XCTAssertThrowsError(try [1.0, 2].withUnsafeBufferPointer { try index.addAggregate(.sum, values: $0) }) {
            XCTAssertEqual($0 as? CairnError, .invalidArgument, "one value per point")
        }
        XCTAssertThrowsError(try [1.0, .infinity, 3].withUnsafeBufferPointer { try index.addAggregate(.max, values: $0) }) {
            XCTAssertEqual($0 as? CairnError, .nonFiniteValue(index: 1))
        }
        XCTAssertEqual(index.aggregateCount, 0, "a refused column adds nothing")
        let cluster = try XCTUnwrap(try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 0).first { $0.isCluster })
        XCTAssertThrowsError(try index.aggregate(0, of: cluster.id)) { XCTAssertEqual($0 as? CairnError, .invalidArgument) }
        let column = try [1.0, 2, 3].withUnsafeBufferPointer { try index.addAggregate(.sum, values: $0) }
        XCTAssertThrowsError(try index.aggregate(column, of: 1)) { XCTAssertEqual($0 as? CairnError, .unknownCluster(id: 1)) }
    }
}
