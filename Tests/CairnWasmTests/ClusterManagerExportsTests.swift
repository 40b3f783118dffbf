import XCTest
@testable import CairnWasm
import Cairn

/// Cluster managers over the C ABI.
final class ClusterManagerExportsTests: XCTestCase {
    func testItemsGoInClustersComeOutAndTapsCarryTheManager() {
        let h = cairn_map_create(0, 0, 4, 0, 0, 800, 600)
        defer { _ = cairn_map_destroy(h) }
        XCTAssertEqual(cairn_map_add_cluster_manager(h, 9, 4, 20, 40), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_add_cluster_manager(h, 0, 4, 20, 0), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_add_cluster_manager(h, 0, 4, 20, .nan), -CairnError.invalidArgument.code)
        let m = cairn_map_add_cluster_manager(h, 1, 4, 20, 40)
        XCTAssertEqual(m, 0)
        // [latitude, longitude, icon, text flags] per item.
        let records = cairn_alloc(16 * 8)!
        func store(_ values: [Double]) {
            for (i, v) in values.enumerated() { records.storeBytes(of: v, toByteOffset: 8 * i, as: Double.self) }
        }
        store([1.0, 1, -1, 1, 1, -1, -1, 2, -1, 1, -1, 3, -1, -1, -1, 0])
        let first = cairn_map_add_cluster_items(h, m, records, 4)
        XCTAssertEqual(first, 1)
        let manager = try! _Registry.map(h).clusterManager(m)
        XCTAssertEqual((1...4).map { try! manager.text(of: Int64($0)) }, [1, 2, 3, 0], "title, snippet, both, none")
        // Text flags are whole bits 1 and 2: anything else refuses the batch, naming the item.
        store([1.0, 1, -1, 0, 1, -1, -1, 4, -1, 1, -1, 0.5, -1, -1, -1, 0])
        XCTAssertEqual(cairn_map_add_cluster_items(h, m, records, 4), Double(-CairnError.invalidMarkerInBatch(index: 0, field: 0).code))
        XCTAssertEqual(cairn_last_error_detail(), 16, "the second item")
        store([1.0, 1, -1, 0, 1, -1, -1, 0, -1, 1, -1, 0, -1, -1, -1, 0])
        XCTAssertEqual(cairn_map_add_cluster_items(h, m, records, 4), 5, "ids follow on")
        XCTAssertEqual(cairn_map_add_cluster_items(h, 3, records, 4), Double(-CairnError.invalidHandle.code))
        XCTAssertEqual(cairn_map_cluster(h, m), 0)
        let size = Int(cairn_map_frame(h, 1, nil, 0))
        let out = cairn_alloc(size * 8)!
        XCTAssertEqual(Int(cairn_map_frame(h, 1, out, Int32(size))), size)
        func read(_ i: Int) -> Double { out.load(fromByteOffset: 8 * i, as: Double.self) }
        XCTAssertEqual(read(_FrameField.drawCount.rawValue), 1)
        let draw = _FrameField.count + Int(read(_FrameField.tileCount.rawValue)) * _FrameWriter.tileStride
        XCTAssertEqual(read(draw), 2, "a cluster")
        XCTAssertEqual(read(draw + 9), 8, "of all eight items")
        XCTAssertEqual(read(draw + 11), Double(m))
        XCTAssertEqual(cairn_map_remove_cluster_item(h, m, 2), 0)
        XCTAssertEqual(cairn_map_remove_cluster_item(h, m, 2), -CairnError.unknownMarker(id: 0).code)
        XCTAssertEqual(cairn_map_move_cluster_item(h, m, 3, 95, 0), -CairnError.invalidArgument.code)
        let buckets = cairn_alloc(16)!
        buckets.storeBytes(of: 5.0, toByteOffset: 0, as: Double.self)
        buckets.storeBytes(of: 5.0, toByteOffset: 8, as: Double.self)
        XCTAssertEqual(cairn_map_set_cluster_buckets(h, m, buckets, nil, 2), -CairnError.invalidBuckets(.notIncreasing).code)
        buckets.storeBytes(of: 50.0, toByteOffset: 8, as: Double.self)
        XCTAssertEqual(cairn_map_set_cluster_buckets(h, m, buckets, nil, 2), 0)
        XCTAssertEqual(cairn_map_set_cluster_animation(h, m, 0), 0)
        XCTAssertEqual(cairn_map_set_cluster_animation(h, m, 2), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_clear_cluster_items(h, m), 0)
        XCTAssertEqual(cairn_map_remove_cluster_manager(h, m), 0)
        XCTAssertEqual(cairn_map_cluster(h, m), -CairnError.invalidHandle.code)
        for p in [records, out, buckets] { _ = cairn_free(p) }
    }

    func testCoordinatesGoInAsPairsAllOrNone() {
        let h = cairn_map_create(0, 0, 4, 0, 0, 800, 600)
        defer { _ = cairn_map_destroy(h) }
        let m = cairn_map_add_cluster_manager(h, 1, 4, 20, 40)   // distance: one cluster at zoom 4
        let pairs = cairn_alloc(8 * 8)!
        func store(_ values: [Double]) {
            for (i, v) in values.enumerated() { pairs.storeBytes(of: v, toByteOffset: 8 * i, as: Double.self) }
        }
        // [lng, lat]: four around the origin.
        store([1, 1, -1, 1, 1, -1, -1, -1])
        XCTAssertEqual(cairn_map_add_cluster_coordinates(h, m, pairs, 4, -1), 1)
        XCTAssertEqual(cairn_map_add_cluster_coordinates(h, m, pairs, 4, -1), 5, "ids follow on")
        // Refused whole, naming the item: a latitude beyond 90 (the third), a NaN (the second).
        store([1, 1, -1, 1, 1, 95, -1, -1])
        XCTAssertEqual(cairn_map_add_cluster_coordinates(h, m, pairs, 4, -1), Double(-CairnError.latitudeOutOfRange(index: 0).code))
        XCTAssertEqual(cairn_last_error_detail(), 2)
        store([1, 1, .nan, 1])
        XCTAssertEqual(cairn_map_add_cluster_coordinates(h, m, pairs, 2, -1), Double(-CairnError.nonFiniteCoordinate(index: 0).code))
        XCTAssertEqual(cairn_last_error_detail(), 1)
        // An icon not registered, a bad count or pointer, an unknown manager.
        store([1, 1])
        XCTAssertEqual(cairn_map_add_cluster_coordinates(h, m, pairs, 1, 7), Double(-CairnError.invalidMarker(.icon).code))
        XCTAssertEqual(cairn_map_add_cluster_coordinates(h, m, pairs, 0, -1), Double(-CairnError.invalidArgument.code))
        XCTAssertEqual(cairn_map_add_cluster_coordinates(h, m, nil, 1, -1), Double(-CairnError.invalidArgument.code))
        XCTAssertEqual(cairn_map_add_cluster_coordinates(h, 9, pairs, 1, -1), Double(-CairnError.invalidHandle.code))
        XCTAssertEqual(try _Registry.map(h).clusterManager(m).count, 8, "nothing of a refused batch was added")
        XCTAssertEqual(cairn_map_cluster(h, m), 0)
        let size = Int(cairn_map_frame(h, 1, nil, 0))
        let out = cairn_alloc(size * 8)!
        XCTAssertEqual(Int(cairn_map_frame(h, 1, out, Int32(size))), size)
        let draw = _FrameField.count + Int(out.load(fromByteOffset: 8 * _FrameField.tileCount.rawValue, as: Double.self))
            * _FrameWriter.tileStride
        XCTAssertEqual(out.load(fromByteOffset: 8 * (draw + 9), as: Double.self), 8, "one cluster of all eight")
    }
}
