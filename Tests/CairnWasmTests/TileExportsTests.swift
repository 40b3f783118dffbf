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
}
