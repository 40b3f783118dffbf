import XCTest
@testable import CairnWasm
import Cairn

/// Vector tiles and PMTiles directories over the C ABI, natively, with raw buffers.
final class TileExportsTests: XCTestCase {
    /// A buffer from cairn_alloc holding `bytes`.
    private func buffer(_ bytes: [UInt8]) -> UnsafeMutableRawPointer {
        let p = cairn_alloc(max(bytes.count, 1))!
        bytes.withUnsafeBytes { p.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        return p
    }

    private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> UInt32(8 * $0)) } }
    private func le64(_ v: Double) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v.bitPattern >> UInt64(8 * $0)) } }

    /// One point with id 7 at (25, -3) and the tag n = 3, in layer "c" of extent 4096: the
    /// same bytes as the encoder's own.
    func testEncodesARequest() throws {
        var request = le32(4096) + le32(1) + Array("c".utf8)
        request += le32(1) + le32(1) + Array("n".utf8)
        request += le32(1) + le64(7) + le32(25) + le32(UInt32(bitPattern: -3)) + le32(1) + le32(0) + [1] + le64(3)
        let input = buffer(request)
        let out = cairn_alloc(256)!
        let length = cairn_mvt_encode(input, Int32(request.count), out, 256)
        var encoder = try Array("c".utf8).withUnsafeBufferPointer { try VectorTileEncoder(name: $0, extent: 4096) }
        encoder.beginPoint(id: 7, x: 25, y: -3)
        Array("n".utf8).withUnsafeBufferPointer { encoder.tag($0, number: 3) }
        let expected = encoder.finish()
        XCTAssertEqual(Int(length), expected.count)
        XCTAssertEqual(Array(UnsafeRawBufferPointer(start: out, count: Int(length))), expected)
        XCTAssertEqual(cairn_mvt_encode(input, Int32(request.count), out, 2), length, "too little room: the length, nothing written")
        // Cut short, a key number past the keys, a tag of no type: refused.
        XCTAssertEqual(cairn_mvt_encode(input, Int32(request.count - 1), out, 256), -2)
        var badKey = request
        badKey[request.count - 13] = 5
        let bad = buffer(badKey)
        XCTAssertEqual(cairn_mvt_encode(bad, Int32(badKey.count), out, 256), -2)
        XCTAssertEqual(cairn_mvt_encode(nil, 10, out, 256), -2)
        for p in [input, out, bad] { _ = cairn_free(p) }
    }

    func testArchiveDirectoryOverTheABI() {
        let h = cairn_pmtiles_create()
        XCTAssertGreaterThan(h, 0)
        let a = buffer([1, 2, 3])
        XCTAssertEqual(cairn_pmtiles_add(h, 1, 0, 0, a, 3), 1)
        XCTAssertEqual(cairn_pmtiles_add(h, 1, 0, 1, a, 3), 0, "equal bytes are stored once")
        XCTAssertEqual(cairn_pmtiles_add(h, 1, 0, 0, a, 3), -2, "tile ids must increase")
        XCTAssertEqual(cairn_pmtiles_add(h, 1, 2, 0, a, 3), -2, "x beyond the zoom")
        XCTAssertEqual(cairn_pmtiles_entry_count(h), 1, "a run of two")
        let out = cairn_alloc(256)!
        XCTAssertEqual(cairn_pmtiles_root(h, 0, nil, 0, out, 256), 5)
        XCTAssertEqual(Array(UnsafeRawBufferPointer(start: out, count: 5)), [1, 1, 2, 3, 1])
        XCTAssertEqual(cairn_pmtiles_leaf(h, 0, 0, out, 256), -2, "a leaf size of 0")
        XCTAssertEqual(cairn_pmtiles_destroy(h), 0)
        XCTAssertEqual(cairn_pmtiles_add(h, 2, 0, 0, a, 3), -1, "a destroyed handle")
        _ = cairn_free(a)
        _ = cairn_free(out)
    }

    func testHilbertSortChecksItsPairs() {
        let p = cairn_alloc(16)!
        let words = p.assumingMemoryBound(to: UInt32.self)
        (words[0], words[1], words[2], words[3]) = (1, 0, 0, 1)
        XCTAssertEqual(cairn_tiles_hilbert_sort(1, p, 2), 2)
        XCTAssertEqual([words[0], words[1], words[2], words[3]], [0, 1, 1, 0])
        words[0] = 2
        XCTAssertEqual(cairn_tiles_hilbert_sort(1, p, 2), -2, "x beyond the zoom")
        XCTAssertEqual(cairn_tiles_hilbert_sort(31, p, 2), -2)
        _ = cairn_free(p)
    }

    private func words(_ values: [UInt32]) -> UnsafeMutableRawPointer {
        let p = cairn_alloc(max(values.count, 1) * 4)!
        for (i, v) in values.enumerated() { p.storeBytes(of: v, toByteOffset: 4 * i, as: UInt32.self) }
        return p
    }

    private func loadWords(_ p: UnsafeMutableRawPointer, _ count: Int) -> [UInt32] {
        (0..<count).map { p.load(fromByteOffset: 4 * $0, as: UInt32.self) }
    }

    /// Many tiles' features and vector tiles in one call each: the same records as one tile
    /// query per tile, and tiles equal to the encoder's cluster features; bad records refused.
    func testTilesInOneCallEqualTileByTile() throws {
        let h = cairn_index_create(40, 512, 0, 16, 2)
        let lngLat: [Double] = [10, 10, 10.001, 10.001, -100, 40, 100, -40, 100.0001, -40, 100.0002, -40]
        let points = cairn_alloc(8 * lngLat.count)!
        for (i, v) in lngLat.enumerated() { points.storeBytes(of: v, toByteOffset: 8 * i, as: Double.self) }
        XCTAssertEqual(cairn_index_add(h, points, Int32(lngLat.count / 2)), 6)
        var left: Int32 = 1
        while left > 0 { left = cairn_index_build_step(h) }
        defer { _ = cairn_index_destroy(h); _ = cairn_free(points) }
        let tiles: [UInt32] = [0, 0, 1, 0, 0, 1, 1, 1]
        let pairs = words(tiles)
        let ends = cairn_alloc(16)!
        let out = cairn_alloc(8 * 4 * 64)!
        let total = cairn_index_tiles_extent(h, 1, pairs, 4, 4096, 64, ends, out, 64)
        XCTAssertEqual(total, 3, "three items at zoom 1 (two clusters and a point), each in one tile")
        let tileEnds = loadWords(ends, 4)
        var expected: [Double] = []
        let one = cairn_alloc(8 * 4 * 64)!
        for k in 0..<4 {
            let n = cairn_index_tile_extent(h, 1, Int32(tiles[2 * k]), Int32(tiles[2 * k + 1]), 4096, 64, one, 64)
            expected += (0..<(4 * Int(n))).map { one.load(fromByteOffset: 8 * $0, as: Double.self) }
            XCTAssertEqual(Int(tileEnds[k]), expected.count / 4)
        }
        let records = (0..<(4 * Int(total))).map { out.load(fromByteOffset: 8 * $0, as: Double.self) }
        XCTAssertEqual(records, expected)
        XCTAssertEqual(cairn_index_tiles_extent(h, 1, pairs, 4, 4096, 64, ends, out, 0), 3, "no room: the total alone")

        let name = buffer(Array("c".utf8))
        let lengths = cairn_alloc(16)!
        let bytes = cairn_alloc(4096)!
        let length = cairn_mvt_encode_clusters(4096, name, 1, 1, out, ends, 4, lengths, bytes, 4096)
        var all: [UInt8] = []
        var start = 0
        for k in 0..<4 {
            var e = try Array("c".utf8).withUnsafeBufferPointer { try VectorTileEncoder(name: $0, extent: 4096) }
            for f in start..<Int(tileEnds[k]) {
                e.addClusterFeature(id: UInt64(records[4 * f]), pointCount: Int(records[4 * f + 1]),
                                    x: Int32(records[4 * f + 2]), y: Int32(records[4 * f + 3]), properties: .clusterID)
            }
            let tile = e.finish()
            XCTAssertEqual(Int(loadWords(lengths, 4)[k]), tile.count)
            all += tile
            start = Int(tileEnds[k])
        }
        XCTAssertEqual(Int(length), all.count)
        XCTAssertEqual(Array(UnsafeRawBufferPointer(start: bytes, count: all.count)), all)
        XCTAssertEqual(cairn_mvt_encode_clusters(4096, name, 1, 1, out, ends, 4, lengths, bytes, 1), length, "no room: the length")
        // A fractional count, ends that go back, unknown property bits, an empty name: refused.
        out.storeBytes(of: 1.5, toByteOffset: 8, as: Double.self)
        XCTAssertEqual(cairn_mvt_encode_clusters(4096, name, 1, 1, out, ends, 4, lengths, bytes, 4096), -2)
        out.storeBytes(of: 2, toByteOffset: 8, as: Double.self)
        let backwards = words([2, 1, 3, 4])
        XCTAssertEqual(cairn_mvt_encode_clusters(4096, name, 1, 1, out, backwards, 4, lengths, bytes, 4096), -2)
        XCTAssertEqual(cairn_mvt_encode_clusters(4096, name, 1, 4, out, ends, 4, lengths, bytes, 4096), -2)
        XCTAssertEqual(cairn_mvt_encode_clusters(4096, name, 0, 1, out, ends, 4, lengths, bytes, 4096), -2)
        let huge = words([0, UInt32.max])
        XCTAssertEqual(cairn_index_tiles_extent(h, 1, huge, 1, 4096, 64, ends, out, 64), -2, "an x beyond Int32 is refused")
        for p in [pairs, ends, out, one, name, lengths, bytes, backwards, huge] { _ = cairn_free(p) }
    }

    /// Tiles added in one call: fresh marks as one call per tile gives them, and a call with
    /// any tile out of order adds nothing.
    func testArchiveTakesManyTilesInOneCall() {
        let h = cairn_pmtiles_create()
        defer { _ = cairn_pmtiles_destroy(h) }
        let pairs = words([0, 0, 0, 1, 1, 1])
        let lengths = words([2, 2, 1])
        let data = buffer([1, 2, 1, 2, 9])
        let fresh = cairn_alloc(3)!
        XCTAssertEqual(cairn_pmtiles_add_tiles(h, 1, pairs, lengths, data, 3, fresh), 2)
        XCTAssertEqual(Array(UnsafeRawBufferPointer(start: fresh, count: 3)), [1, 0, 1])
        XCTAssertEqual(cairn_pmtiles_entry_count(h), 2)
        let unordered = words([1, 0, 0, 0])
        XCTAssertEqual(cairn_pmtiles_add_tiles(h, 2, unordered, lengths, data, 2, fresh), -2)
        let empty = words([0, 1])
        XCTAssertEqual(cairn_pmtiles_add_tiles(h, 2, words([0, 0, 1, 0]), empty, data, 2, fresh), -2, "an empty tile")
        XCTAssertEqual(cairn_pmtiles_entry_count(h), 2, "refused calls add nothing")
        XCTAssertEqual(cairn_pmtiles_add_tiles(h, 1, pairs, lengths, data, 3, fresh), -2, "ids below the last")
        XCTAssertEqual(cairn_pmtiles_entry_count(h), 2)
        for p in [pairs, lengths, data, fresh, unordered, empty] { _ = cairn_free(p) }
    }
}
