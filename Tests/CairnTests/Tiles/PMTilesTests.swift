import XCTest
@testable import Cairn

final class PMTilesTests: XCTestCase {
    /// The spec's numbering: zoom 0's one tile, then zoom 1 along the curve (0,0), (0,1), (1,1),
    /// (1,0), then zoom 2 from 5.
    func testHilbertTileIDs() {
        XCTAssertEqual(HilbertTileID.id(z: 0, x: 0, y: 0), 0)
        XCTAssertEqual([(0, 0), (0, 1), (1, 1), (1, 0)].map { HilbertTileID.id(z: 1, x: $0.0, y: $0.1) }, [1, 2, 3, 4])
        XCTAssertEqual(HilbertTileID.id(z: 2, x: 0, y: 0), 5)
        XCTAssertEqual(HilbertTileID.id(z: 2, x: 1, y: 0), 6)
        XCTAssertEqual(HilbertTileID.id(z: 2, x: 3, y: 0), 20)
        // Every tile of a zoom has its own id inside the zoom's range.
        var seen = Set<UInt64>()
        for x in 0..<16 { for y in 0..<16 { seen.insert(HilbertTileID.id(z: 4, x: UInt32(x), y: UInt32(y))) } }
        XCTAssertEqual(seen, Set(85..<341))
    }

    func testSortsPairsIntoTileIDOrder() {
        var pairs: [UInt32] = [1, 0, 0, 0, 1, 1, 0, 1]
        pairs.withUnsafeMutableBufferPointer { HilbertTileID.sort(z: 1, pairs: $0, count: 4) }
        XCTAssertEqual(pairs, [0, 0, 0, 1, 1, 1, 1, 0])
    }

    private func add(_ d: PMTilesDirectory, _ id: UInt64, _ bytes: [UInt8]) throws -> Bool {
        try bytes.withUnsafeBufferPointer { try d.add(id: id, bytes: $0) }
    }

    /// Equal tiles are stored once; equal tiles in consecutive ids are one entry with a run;
    /// the directory serialises as the spec's columns.
    func testDeduplicatesRunsAndSerialises() throws {
        let d = PMTilesDirectory()
        XCTAssertTrue(try add(d, 0, [1, 2, 3]))
        XCTAssertTrue(try add(d, 1, [4, 5]))
        XCTAssertFalse(try add(d, 2, [4, 5]))
        XCTAssertFalse(try add(d, 3, [4, 5]))
        XCTAssertFalse(try add(d, 5, [1, 2, 3]))
        XCTAssertTrue(try add(d, 300, [6]))
        XCTAssertEqual(d.entryCount, 4)
        XCTAssertEqual(d.contentCount, 3)
        XCTAssertEqual(d.addressedTiles, 6)
        XCTAssertEqual(d.dataLength, 6)
        XCTAssertEqual(try d.serialize(0..<4), [
            4,                   // entries
            0, 1, 4, 0xA7, 0x02, // id deltas: 0, 1, 4, 295
            1, 3, 1, 1,          // run lengths
            3, 2, 3, 1,          // lengths
            1, 0, 1, 6,          // offsets: 0 → 1, right after → 0, 0 → 1, 5 → 6
        ])
        XCTAssertThrowsError(try add(d, 300, [7]), "ids must increase")
        XCTAssertThrowsError(try add(d, 301, []), "a tile has bytes")
    }

    func testRootOfLeavesAndHeader() throws {
        let d = PMTilesDirectory()
        for id in 0..<5 { _ = try add(d, UInt64(id * 2), [UInt8(id)]) }
        XCTAssertEqual(try d.leafCount(leafSize: 2), 3)
        let lengths: [Double] = [10, 20, 5]
        let root = try lengths.withUnsafeBufferPointer { try d.root(leafSize: 2, leafLengths: $0) }
        XCTAssertEqual(root, [3, 0, 4, 4, 0, 0, 0, 10, 20, 5, 1, 0, 0])
        XCTAssertEqual(try d.serialize(4..<5), [1, 8, 1, 1, 5])

        var header = PMTilesHeader(directory: d)
        header.rootLength = 13
        header.metadataLength = 100
        header.leavesLength = 35
        header.minZoom = 0
        header.maxZoom = 2
        header.bounds = (-10, -20, 30, 40.5)
        header.centerZoom = 1
        header.center = (10, 10.25)
        let bytes = try header.serialize()
        XCTAssertEqual(bytes.count, 127)
        XCTAssertEqual(Array(bytes[0..<8]), Array("PMTiles".utf8) + [3])
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << UInt64(8 * $1) } }
        func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << UInt32(8 * $1) }) }
        XCTAssertEqual((0..<11).map { u64(8 + 8 * $0) }, [127, 13, 140, 100, 240, 35, 275, 5, 5, 5, 5])
        XCTAssertEqual(Array(bytes[96..<102]), [1, 2, 2, 1, 0, 2])
        XCTAssertEqual([102, 106, 110, 114].map(i32), [-100_000_000, -200_000_000, 300_000_000, 405_000_000])
        XCTAssertEqual(bytes[118], 1)
        XCTAssertEqual([119, 123].map(i32), [100_000_000, 102_500_000])
        header.rootLength = 16_384
        XCTAssertThrowsError(try header.serialize(), "the root must fit the first 16 KiB")
    }
}
