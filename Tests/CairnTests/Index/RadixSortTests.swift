import XCTest
@testable import Cairn

final class RadixSortTests: XCTestCase {
    func testSortsKeysAndCarriesValuesStably() {
        var rng = SeededRandom(seed: 3)
        for count in [0, 1, 2, 47, 48, 49, 1000, 20_000] {
            var keys = (0..<count).map { _ in UInt64(rng.next() * 5000) << UInt64(rng.next() < 0.5 ? 0 : 30) }
            var values = (0..<count).map { UInt32($0) }
            let expected = zip(keys, values).sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            RadixSort.sort(keys: &keys, values: &values, count: count)
            XCTAssertEqual(keys, expected.map { $0.0 }, "count \(count)")
            XCTAssertEqual(values, expected.map { $0.1 }, "stable order, count \(count)")
        }
    }

    /// The passes run in chunks of `_callChunk` keys (one call each): counts on either side of
    /// a chunk's end, and a key that alone differs in the last chunk, sort every key.
    func testSortsAcrossCallChunks() {
        var rng = SeededRandom(seed: 11)
        for count in [_callChunk - 1, _callChunk, _callChunk + 1, 3 * _callChunk + 5] {
            var keys = (0..<count).map { _ in UInt64(rng.next() * 3000) << 7 }
            keys[count - 1] |= 1 << 40   // the only key with this bit: the last chunk must be seen
            var values = (0..<count).map { UInt32($0) }
            let expected = zip(keys, values).sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            RadixSort.sort(keys: &keys, values: &values, count: count)
            XCTAssertEqual(keys, expected.map { $0.0 }, "count \(count)")
            XCTAssertEqual(values, expected.map { $0.1 }, "stable order, count \(count)")
        }
    }

    /// Digits that are the same in every key are skipped: keys that differ only in their top
    /// digit, only in a middle one, over all 64 bits, or not at all still come out sorted.
    func testSkipsOnlyTheDigitsEveryKeyShares() {
        var rng = SeededRandom(seed: 5)
        let shapes: [(String, () -> UInt64)] = [
            ("top digit", { UInt64(rng.next() * 512) << 55 | 0x1234 }),
            ("middle digit", { 0xF000_0000_0000_0000 | UInt64(rng.next() * 2048) << 22 | 7 }),
            ("all bits", { UInt64(rng.next() * 65536) << 48 | UInt64(rng.next() * 4_294_967_296) << 16 | UInt64(rng.next() * 65536) }),
            ("none", { 0xABCD_EF01_2345_6789 }),
        ]
        for (name, key) in shapes { assertSortsStably((0..<3000).map { _ in key() }, name) }
    }

    /// Large sorts take wider digits: keys as the build sorts them (row and column, packed or
    /// 32 bits apart), with bits scattered, or a single differing bit, still come out sorted.
    func testLargeSortsWithWideDigits() {
        var rng = SeededRandom(seed: 7)
        let shapes: [(String, () -> UInt64)] = [
            ("packed 26 bits", { UInt64(rng.next() * 8192) << 13 | UInt64(rng.next() * 8192) }),
            ("row and column apart", { UInt64(rng.next() * 8192) << 32 | UInt64(rng.next() * 8192) }),
            ("40 bits", { UInt64(rng.next() * 1_048_576) << 20 | UInt64(rng.next() * 1_048_576) }),
            ("scattered bits", { (rng.next() < 0.5 ? 1 << 3 : 0) | (rng.next() < 0.5 ? 1 << 40 : 0) | UInt64(rng.next() * 16) << 60 }),
            ("one bit", { rng.next() < 0.5 ? 1 << 63 : 0 }),
        ]
        for (name, key) in shapes { assertSortsStably((0..<300_000).map { _ in key() }, name) }
    }

    /// Sorts `keys` carrying their input positions, and checks both against a stable sort.
    private func assertSortsStably(_ input: [UInt64], _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        var keys = input
        var values = (0..<input.count).map { UInt32($0) }
        let expected = zip(keys, values).sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        RadixSort.sort(keys: &keys, values: &values, count: keys.count)
        XCTAssertEqual(keys, expected.map { $0.0 }, name, file: file, line: line)
        XCTAssertEqual(values, expected.map { $0.1 }, "stable order, \(name)", file: file, line: line)
    }

    /// Values may be whole records (the build sorts its points with their positions along):
    /// each record arrives intact at its key's place, ties in input order, both for a sort of
    /// a few passes and one small enough for insertion.
    func testCarriesRecordsAsValues() {
        struct Record: Equatable { var x: Float; var y: Float; var index: UInt32 }
        var rng = SeededRandom(seed: 11)
        for count in [40, 300_000] {
            var keys = (0..<count).map { _ in UInt64(rng.next() * 4096) << 13 | UInt64(rng.next() * 8192) }
            var records = (0..<count).map { Record(x: Float(rng.next()), y: Float(rng.next()), index: UInt32($0)) }
            let expected = zip(keys, records).sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.index < $1.1.index }
            var scratchKeys = [UInt64](repeating: 0, count: count)
            var scratchRecords = [Record](repeating: Record(x: 0, y: 0, index: 0), count: count)
            keys.withUnsafeMutableBufferPointer { k in
                records.withUnsafeMutableBufferPointer { r in
                    scratchKeys.withUnsafeMutableBufferPointer { sk in
                        scratchRecords.withUnsafeMutableBufferPointer { sr in
                            RadixSort.sort(k.baseAddress!, r.baseAddress!, count: count, scratch: sk.baseAddress!, sr.baseAddress!)
                        }
                    }
                }
            }
            XCTAssertEqual(keys, expected.map { $0.0 }, "count \(count)")
            XCTAssertEqual(records, expected.map { $0.1 }, "records intact and stable, count \(count)")
        }
    }

    func testSortsOnlyAPrefixOfTheArrays() {
        var keys: [UInt64] = [5, 3, 9, 1, 0]
        var values: [UInt32] = [0, 1, 2, 3, 4]
        RadixSort.sort(keys: &keys, values: &values, count: 3)
        XCTAssertEqual(keys, [3, 5, 9, 1, 0])
        XCTAssertEqual(values, [1, 0, 2, 3, 4])
    }
}
