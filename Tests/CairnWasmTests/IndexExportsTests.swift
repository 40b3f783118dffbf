import XCTest
@testable import CairnWasm
import Cairn

/// The C ABI called natively with raw buffers, as the JS bindings call it in wasm: status
/// codes, checked pointers and handles, records in the caller's buffer.
final class IndexExportsTests: XCTestCase {
    private func doubles(_ values: [Double]) -> UnsafeMutableRawPointer {
        let p = cairn_alloc(max(values.count, 1) * 8)!
        for (i, v) in values.enumerated() { p.storeBytes(of: v, toByteOffset: 8 * i, as: Double.self) }
        return p
    }

    private func read(_ p: UnsafeMutableRawPointer, _ count: Int) -> [Double] {
        (0..<count).map { p.load(fromByteOffset: 8 * $0, as: Double.self) }
    }

    private func makeIndex(_ lngLat: [Double]) -> Int32 {
        let h = cairn_index_create(40, 512, 0, 16, 2)
        XCTAssertGreaterThan(h, 0)
        let buffer = doubles(lngLat)
        XCTAssertEqual(cairn_index_add(h, buffer, Int32(lngLat.count / 2)), Int32(lngLat.count / 2))
        XCTAssertEqual(cairn_free(buffer), 0)
        var left: Int32 = 1
        while left > 0 { left = cairn_index_build_step(h) }
        XCTAssertEqual(left, 0)
        return h
    }

    func testTheLimitOfIndexesHasItsOwnStatus() {
        var indexes: [Int32] = []
        while true {
            let h = cairn_index_create(40, 512, 0, 16, 2)
            if h < 0 {
                XCTAssertEqual(h, -CairnError.tooManyIndexes(limit: 0).code)
                break
            }
            indexes.append(h)
        }
        XCTAssertGreaterThanOrEqual(indexes.count, 32_767 - 16, "other tests' indexes may still be live")
        XCTAssertEqual(cairn_last_error_detail(), 32_767)
        for h in indexes { XCTAssertEqual(cairn_index_destroy(h), 0) }
        let again = cairn_index_create(40, 512, 0, 16, 2)
        XCTAssertGreaterThan(again, 0, "a destroyed index frees its handle")
        XCTAssertEqual(cairn_index_destroy(again), 0)
    }

    func testClustersCountsAndRecords() {
        let h = makeIndex([10, 10, 10.001, 10.001, -100, 40])
        defer { XCTAssertEqual(cairn_index_destroy(h), 0) }
        XCTAssertEqual(cairn_index_point_count(h), 3)
        let out = cairn_alloc(8 * 4 * 8)!
        defer { _ = cairn_free(out) }
        let total = cairn_index_clusters(h, -180, -90, 180, 90, 3, out, 8)
        XCTAssertEqual(total, 2)
        let records = read(out, 8)
        let cluster = records[0] >= 3 ? 0 : 4  // ids ≥ point count are clusters
        XCTAssertEqual(records[cluster + 1], 2, "count")
        // The centroid of the float32-rounded positions, as in supercluster: within ~2e-6°.
        XCTAssertEqual(records[cluster + 2], 10.0005, accuracy: 1e-5, "longitude")
        let point = 4 - cluster
        XCTAssertEqual(records[point], 2, "the lone point's index")
        XCTAssertEqual(records[point + 2], -100, accuracy: 1e-9)
        XCTAssertEqual(records[point + 3], 40, accuracy: 1e-9)
        // Counting only (capacity 0, no buffer), and a buffer too small: total, partial write.
        XCTAssertEqual(cairn_index_clusters(h, -180, -90, 180, 90, 3, nil, 0), 2)
        XCTAssertEqual(cairn_index_clusters(h, -180, -90, 180, 90, 3, out, 1), 2)

        let id = records[cluster]
        XCTAssertEqual(cairn_index_children(h, id, out, 8), 2)
        XCTAssertEqual(Set([read(out, 8)[0], read(out, 8)[4]]), [0, 1])
        XCTAssertEqual(cairn_index_leaves(h, id, .infinity, 0, out, 8), 2)
        XCTAssertEqual(cairn_index_leaves(h, id, 1, 1, out, 8), 1)
        XCTAssertGreaterThan(cairn_index_expansion_zoom(h, id), 3)
        XCTAssertGreaterThan(cairn_index_tile(h, 0, 0, 0, out, 8), 0)
    }

    func testParentLinksListEveryItemWithTheClusterThatAbsorbedIt() {
        let h = makeIndex([10, 10, 10.001, 10.001, -100, 40])
        defer { XCTAssertEqual(cairn_index_destroy(h), 0) }
        let items = Int(cairn_index_point_count(h) + cairn_index_cluster_count(h))
        XCTAssertEqual(cairn_index_parents(h, nil, 0), Int32(items), "the count, with nothing written")
        let out = cairn_alloc(2 * items * 8)!
        defer { _ = cairn_free(out) }
        XCTAssertEqual(cairn_index_parents(h, out, Int32(items)), Int32(items))
        let links = read(out, 2 * items)
        XCTAssertEqual(links[0], 0)
        XCTAssertEqual(links[2], 1)
        XCTAssertEqual(links[1], links[3], "the two near points share their parent")
        XCTAssertGreaterThanOrEqual(links[1], 3, "a cluster's id")
        // The chain from the near points ends at the one cluster no cluster absorbed.
        var parentOf: [Double: Double] = [:]
        for k in 0..<items { parentOf[links[2 * k]] = links[2 * k + 1] }
        var top = links[1]
        while let up = parentOf[top], up >= 0 { top = up }
        XCTAssertEqual(parentOf[top], -1)
        let records = cairn_alloc(4 * 8 * 4)!
        defer { _ = cairn_free(records) }
        XCTAssertEqual(cairn_index_children(h, links[1], records, 4), 2, "the parent is a cluster the queries know")
        XCTAssertEqual(cairn_index_parents(h, out, -1), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_index_parents(0, out, Int32(items)), -CairnError.invalidHandle.code)
    }

    func testBadArgumentsReturnStatusesAndKeepTheIndexUsable() {
        let h = makeIndex([1, 1, 1.0001, 1.0001, 50, 50])
        defer { _ = cairn_index_destroy(h) }
        let out = cairn_alloc(4 * 8 * 4)!
        defer { _ = cairn_free(out) }
        let invalidArgument = -CairnError.invalidArgument.code
        let unknownCluster = -CairnError.unknownCluster(id: 0).code
        XCTAssertEqual(cairn_index_clusters(h, .nan, 0, 1, 1, 0, out, 4), invalidArgument)
        XCTAssertEqual(cairn_index_clusters(h, -180, -90, 180, 90, .nan, out, 4), invalidArgument)
        XCTAssertEqual(cairn_index_clusters(h, -180, -90, 180, 90, 0, out, -1), invalidArgument)
        XCTAssertEqual(cairn_index_clusters(h, -180, -90, 180, 90, 0, out, 5), invalidArgument, "capacity beyond the buffer")
        XCTAssertEqual(cairn_index_clusters(h, -180, -90, 180, 90, 0, out + 4, 1), invalidArgument, "misaligned")
        var local = [Double](repeating: 0, count: 16)
        local.withUnsafeMutableBytes {
            XCTAssertEqual(cairn_index_clusters(h, -180, -90, 180, 90, 0, $0.baseAddress, 1), invalidArgument, "not from cairn_alloc")
        }
        XCTAssertEqual(cairn_index_clusters(h, -180, -90, 180, 90, 0, nil, 1), invalidArgument)
        for id in [-1.0, .nan, .infinity, 0.5, 1, 1e300, 3 + 32 * 1000] {
            XCTAssertEqual(cairn_index_children(h, id, out, 4), unknownCluster, "\(id)")
            XCTAssertEqual(cairn_index_expansion_zoom(h, id), unknownCluster)
            XCTAssertEqual(cairn_index_leaves(h, id, 10, 0, out, 4), unknownCluster)
        }
        XCTAssertEqual(cairn_index_tile(h, 40, 0, 0, out, 4), invalidArgument)
        XCTAssertEqual(cairn_index_tile(h, 2, 4, 0, out, 4), invalidArgument)
        XCTAssertEqual(cairn_index_clusters(h, -180, -90, 180, 90, 17, out, 4), 3, "still answers")
    }

    func testBadPointsAreNamedAndNothingIsAdded() {
        let h = cairn_index_create(40, 512, 0, 16, 2)
        defer { _ = cairn_index_destroy(h) }
        let buffer = doubles([0, 0, 1, .nan, 2, 2])
        defer { _ = cairn_free(buffer) }
        XCTAssertEqual(cairn_index_add(h, buffer, 3), -CairnError.nonFiniteCoordinate(index: 0).code)
        XCTAssertEqual(cairn_last_error_detail(), 1)
        XCTAssertEqual(cairn_index_point_count(h), 0)
        XCTAssertEqual(cairn_index_add(h, buffer, 1), 1)
        XCTAssertEqual(cairn_index_add(h, buffer, 4), -CairnError.invalidArgument.code, "more pairs than the buffer")
        XCTAssertEqual(cairn_index_reserve(h, -1), -CairnError.invalidArgument.code)
    }

    func testHandlesAndOptionsAreChecked() {
        XCTAssertEqual(cairn_index_create(-1, 512, 0, 16, 2), -CairnError.invalidOption(.radius).code)
        XCTAssertEqual(cairn_last_error_detail(), Double(ClusterOptions.Field.radius.rawValue))
        XCTAssertEqual(cairn_index_create(40, 512, 0, 99, 2), -3)
        XCTAssertEqual(cairn_last_error_detail(), Double(ClusterOptions.Field.maxZoom.rawValue))
        let h = cairn_index_create(40, 512, 0, 16, 2)
        XCTAssertEqual(cairn_index_destroy(h), 0)
        let invalidHandle = -CairnError.invalidHandle.code
        XCTAssertEqual(cairn_index_destroy(h), invalidHandle, "destroyed twice")
        XCTAssertEqual(cairn_index_build_step(h), invalidHandle)
        XCTAssertEqual(cairn_index_point_count(0), invalidHandle)
        XCTAssertEqual(cairn_index_point_count(-5), invalidHandle)
        let reused = cairn_index_create(40, 512, 0, 16, 2)
        XCTAssertNotEqual(reused, h, "a reused slot gets a new generation")
        XCTAssertEqual(cairn_index_point_count(h), invalidHandle)
        XCTAssertEqual(cairn_index_destroy(reused), 0)
        XCTAssertEqual(cairn_index_clusters(reused, 0, 0, 1, 1, 0, nil, 0), invalidHandle)
    }

    func testQueriesBeforeBuildAndAddsAfterAreStateErrors() {
        let h = cairn_index_create(40, 512, 0, 16, 2)
        defer { _ = cairn_index_destroy(h) }
        XCTAssertEqual(cairn_index_clusters(h, -180, -90, 180, 90, 0, nil, 0), -CairnError.invalidState.code)
        while cairn_index_build_step(h) > 0 {}
        let buffer = doubles([0, 0])
        defer { _ = cairn_free(buffer) }
        XCTAssertEqual(cairn_index_add(h, buffer, 1), -CairnError.invalidState.code)
    }
}

extension IndexExportsTests {
    func testEditsThroughTheABI() {
        let h = makeIndex([0, 0, 0.0001, 0, 5, 5])
        defer { _ = cairn_index_destroy(h) }
        let add = doubles([5.0001, 5]), move = doubles([0, 0]), moveTo = doubles([20, 20])
        let ids = cairn_alloc(8)!
        ids.storeBytes(of: Int32(1), toByteOffset: 0, as: Int32.self)   // point 1 moves
        // A count whose pairs would overflow a 32-bit size, ids not held, a point named twice.
        XCTAssertEqual(cairn_index_edit(h, add, Int32.max, nil, 0, nil, nil, 0), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_index_edit(h, nil, 0, nil, 0, ids, moveTo, 1 << 30), -CairnError.invalidArgument.code)
        move.storeBytes(of: Int32(7), toByteOffset: 0, as: Int32.self)
        XCTAssertEqual(cairn_index_edit(h, nil, 0, move, 1, nil, nil, 0), -CairnError.unknownPoint(id: 7).code)
        XCTAssertEqual(cairn_last_error_detail(), 7)
        XCTAssertEqual(cairn_index_edit(h, nil, 0, ids, 1, ids, moveTo, 1), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_index_point_count(h), 3)
        // Point 3 is added beside point 2 and point 1 moves away: at zoom 10 points 0 and 1 no
        // longer cluster, points 2 and 3 do.
        XCTAssertEqual(cairn_index_edit(h, add, 1, nil, 0, ids, moveTo, 1), 3)
        XCTAssertEqual(cairn_index_point_count(h), 4)
        let out = cairn_alloc(16 * 8)!
        XCTAssertEqual(cairn_index_clusters(h, -180, -85, 180, 85, 10, out, 4), 3)
        let counts = stride(from: 1, to: 12, by: 4).map { Int(read(out, 12)[$0]) }.sorted()
        XCTAssertEqual(counts, [1, 1, 2])
        for p in [add, move, moveTo, ids, out] { _ = cairn_free(p) }
    }

    func testAggregatesThroughTheABI() {
        let h = makeIndex([10, 10, 10.001, 10.001, -100, 40])
        defer { _ = cairn_index_destroy(h) }
        let values = doubles([5, 7, 100])
        defer { _ = cairn_free(values) }
        XCTAssertEqual(cairn_index_aggregate_add(h, 0, values, 3), 0, "sum is column 0")
        XCTAssertEqual(cairn_index_aggregate_add(h, 2, values, 3), 1, "max is column 1")
        XCTAssertEqual(cairn_index_aggregate_add(h, 9, values, 3), -CairnError.invalidArgument.code, "no such operation")
        XCTAssertEqual(cairn_index_aggregate_add(h, 0, values, 2), -CairnError.invalidArgument.code, "one value per point")
        let out = cairn_alloc(8 * 8)!
        defer { _ = cairn_free(out) }
        XCTAssertEqual(cairn_index_clusters(h, -180, -90, 180, 90, 3, out, 2), 2)
        let records = read(out, 8)
        let id = records[0] >= 3 ? records[0] : records[4]
        let ids = doubles([id])
        defer { _ = cairn_free(ids) }
        XCTAssertEqual(cairn_index_aggregate_values(h, 0, ids, 1, out), 1)
        XCTAssertEqual(read(out, 1)[0], 12)
        XCTAssertEqual(cairn_index_aggregate_values(h, 1, ids, 1, out), 1)
        XCTAssertEqual(read(out, 1)[0], 7)
        XCTAssertEqual(cairn_index_aggregate_values(h, 2, ids, 1, out), -CairnError.invalidArgument.code, "no such column")
        let point = doubles([2])
        defer { _ = cairn_free(point) }
        XCTAssertEqual(cairn_index_aggregate_values(h, 0, point, 1, out), -CairnError.unknownCluster(id: 0).code)
    }
}
