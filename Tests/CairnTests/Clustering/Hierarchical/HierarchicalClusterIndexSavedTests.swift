import XCTest
@testable import Cairn

/// Saved indexes: a restored index answers every query as the one saved, and a damaged buffer
/// is refused with `invalidSavedIndex`, never read past its end.
final class HierarchicalClusterIndexSavedTests: XCTestCase {
    private func restored(_ index: HierarchicalClusterIndex) throws -> HierarchicalClusterIndex {
        let bytes = try index.save()
        XCTAssertEqual(bytes.count, try index.savedByteCount())
        return try bytes.withUnsafeBytes { try HierarchicalClusterIndex.restore(from: $0) }
    }

    /// Every query the public API has, at every zoom, on both indexes.
    private func assertSameAnswers(_ a: HierarchicalClusterIndex, _ b: HierarchicalClusterIndex,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(a.options, b.options, file: file, line: line)
        XCTAssertEqual(a.pointCount, b.pointCount, file: file, line: line)
        XCTAssertEqual(a.clusterCount, b.clusterCount, file: file, line: line)
        XCTAssertEqual(a.aggregateCount, b.aggregateCount, file: file, line: line)
        for zoom in a.options.minZoom...(a.options.maxZoom + 1) {
            let all = try a.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
            XCTAssertEqual(all, try b.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom)),
                           "zoom \(zoom)", file: file, line: line)
            XCTAssertEqual(try a.clusters(west: 170, south: -10, east: -170, north: 50, zoom: Double(zoom)),
                           try b.clusters(west: 170, south: -10, east: -170, north: 50, zoom: Double(zoom)), file: file, line: line)
            for cluster in all where cluster.isCluster {
                XCTAssertEqual(try a.children(of: cluster.id), try b.children(of: cluster.id), file: file, line: line)
                XCTAssertEqual(try a.leaves(of: cluster.id, limit: 7, offset: 2), try b.leaves(of: cluster.id, limit: 7, offset: 2), file: file, line: line)
                XCTAssertEqual(try a.expansionZoom(of: cluster.id), try b.expansionZoom(of: cluster.id), file: file, line: line)
                var ra: [ClusterFeature] = [], rb: [ClusterFeature] = []
                try a.forEachChildInReduceOrder(of: cluster.id) { ra.append($0) }
                try b.forEachChildInReduceOrder(of: cluster.id) { rb.append($0) }
                XCTAssertEqual(ra, rb, file: file, line: line)
                for column in 0..<a.aggregateCount {
                    let va = try a.aggregate(column, of: cluster.id), vb = try b.aggregate(column, of: cluster.id)
                    XCTAssertTrue(va == vb || (va.isNaN && vb.isNaN), file: file, line: line)
                }
            }
            if zoom <= 4 {
                let side = 1 << zoom
                for x in 0..<side { for y in 0..<side {
                    XCTAssertEqual(try a.tile(z: zoom, x: x, y: y), try b.tile(z: zoom, x: x, y: y), file: file, line: line)
                } }
            }
        }
    }

    func testRestoredIndexAnswersAsTheOriginal() throws {
        var rng = SeededRandom(seed: 29)
        let index = try Fixtures.makeIndex(rng.mixedPoints(3000), ClusterOptions())
        let values = (0..<3000).map { i -> Double in i % 7 == 0 ? .nan : Double(i % 53) }
        for op in [AggregateOperation.sum, .min, .mean] {
            _ = try values.withUnsafeBufferPointer { try index.addAggregate(op, values: $0) }
        }
        let copy = try restored(index)
        try assertSameAnswers(index, copy)
        // A restored index saves to the same bytes.
        XCTAssertEqual(try copy.save(), try index.save())
    }

    func testRestoredIndexWithOtherOptionsAndDataOrders() throws {
        var rng = SeededRandom(seed: 7)
        // minPoints > 2 records each zoom's data order; a narrow zoom range; a large radius.
        for options in [ClusterOptions(radius: 60, minZoom: 2, maxZoom: 9, minPoints: 4),
                        ClusterOptions(radius: 20, extent: 256, maxZoom: 5, minPoints: 3)] {
            let index = try Fixtures.makeIndex(rng.mixedPoints(2000), options)
            try assertSameAnswers(index, try restored(index))
        }
    }

    func testHostDataTravelsWithTheIndex() throws {
        var rng = SeededRandom(seed: 11)
        let index = try Fixtures.makeIndex(rng.mixedPoints(300), ClusterOptions())
        for host in [[], [7], Array("{\"aggregates\":[]}".utf8)] as [[UInt8]] {
            let bytes = try index.save(hostData: host)
            XCTAssertEqual(bytes.count % 8, 0)
            let copy = try bytes.withUnsafeBytes { try HierarchicalClusterIndex.restore(from: $0) }
            XCTAssertEqual(try bytes.withUnsafeBytes { try HierarchicalClusterIndex.hostData(ofSaved: $0) }, host)
            try assertSameAnswers(index, copy)
        }
    }

    func testEmptyAndOnePointIndexesRestore() throws {
        for points in [[], [12.5, 41.9]] as [[Double]] {
            let index = try Fixtures.makeIndex(points, ClusterOptions())
            try assertSameAnswers(index, try restored(index))
        }
    }

    func testUnbuiltIndexIsNotSaved() throws {
        let index = try HierarchicalClusterIndex()
        try index.add(longitude: 0, latitude: 0)
        XCTAssertThrowsError(try index.save()) { XCTAssertEqual($0 as? CairnError, .invalidState) }
    }

    func testHostDataTooLargeToCountIsRefusedNotOverflowed() throws {
        let index = try HierarchicalClusterIndex()
        try index.add(longitude: 0, latitude: 0)
        index.build()
        for count in [Int.max, Int.max - 7, Int(Int32.max)] where count > Int(Int32.max) || MemoryLayout<Int>.size == 4 {
            XCTAssertThrowsError(try index.savedByteCount(hostDataCount: count)) { XCTAssertEqual($0 as? CairnError, .outOfMemory(points: 1)) }
        }
        XCTAssertGreaterThan(try index.savedByteCount(hostDataCount: 100), try index.savedByteCount())
    }

    private func problem(_ bytes: [UInt8]) -> HierarchicalClusterIndex.SavedProblem? {
        do {
            _ = try bytes.withUnsafeBytes { try HierarchicalClusterIndex.restore(from: $0) }
            return nil
        } catch let error as CairnError {
            guard case .invalidSavedIndex(let p) = error else { XCTFail("\(error)"); return nil }
            XCTAssertEqual(error.code, 23)
            return p
        } catch {
            XCTFail("\(error)")
            return nil
        }
    }

    func testDamagedBuffersAreRefused() throws {
        var rng = SeededRandom(seed: 3)
        let index = try Fixtures.makeIndex(rng.mixedPoints(800), ClusterOptions(minPoints: 3))
        let good = try index.save()
        XCTAssertNil(problem(good))
        XCTAssertEqual(problem([]), .truncated)
        XCTAssertEqual(problem(Array("not an index at all".utf8) + [UInt8](repeating: 0, count: 40)), .notASavedIndex)
        var otherVersion = good
        otherVersion[8] = 1
        XCTAssertEqual(problem(otherVersion), .otherVersion)
        XCTAssertEqual(problem(Array(good.dropLast(8))), .truncated)
        XCTAssertEqual(problem(good + [0, 0, 0, 0, 0, 0, 0, 0]), .inconsistent)
        // Random truncations, and random bit flips anywhere after the magic and version.
        for _ in 0..<200 {
            let cut = Int(rng.next() * Double(good.count - 1))
            XCTAssertNotNil(problem(Array(good.prefix(cut))), "cut at \(cut)")
            var flipped = good
            let byte = 16 + Int(rng.next() * Double(good.count - 16))
            flipped[byte] ^= UInt8(1) << UInt8(rng.next() * 8)
            XCTAssertNotNil(problem(flipped), "flip in byte \(byte)")
        }
    }

    /// A buffer altered and given a matching hash (as a forger could) is still checked: stored
    /// ids out of range are refused, not followed.
    func testInconsistentContentWithAMatchingHashIsRefused() throws {
        var rng = SeededRandom(seed: 5)
        let index = try Fixtures.makeIndex(rng.mixedPoints(500), ClusterOptions())
        let good = try index.save()
        var refused = 0
        for _ in 0..<300 {
            var bytes = good
            let word = 4 + Int(rng.next() * Double(good.count / 8 - 4))
            for k in 0..<8 { bytes[8 * word + k] = UInt8(truncatingIfNeeded: Int(rng.next() * 256)) }
            let hash = bytes.withUnsafeBytes { _ContentHash.of(UnsafeRawBufferPointer(rebasing: $0[32...])) }
            for k in 0..<8 { bytes[24 + k] = UInt8(truncatingIfNeeded: hash >> (8 * UInt64(k))) }
            if problem(bytes) != nil { refused += 1 }
        }
        // Positions altered within the world are consistent content; counts and ids are not.
        XCTAssertGreaterThan(refused, 100)
    }
}
