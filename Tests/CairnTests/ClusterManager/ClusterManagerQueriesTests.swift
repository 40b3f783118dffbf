import XCTest
@testable import Cairn

final class ClusterManagerQueriesTests: XCTestCase {
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
}
