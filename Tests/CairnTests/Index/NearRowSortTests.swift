import XCTest
@testable import Cairn

final class NearRowSortTests: XCTestCase {
    /// Keys as a zoom's new clusters give them: a sorted reference (their seeds' cells), each key
    /// moved by up to one row and one column, with ties. The sort gives the stable order.
    func testSortsKeysNearTheirReferenceStably() {
        var rng = SeededRandom(seed: 13)
        for count in [0, 1, 2, 3, 50, 5000, 60_000] {
            var reference = (0..<count).map { _ in UInt64(rng.next() * 300) << 32 | (UInt64(rng.next() * 400) + 1) }
            reference.sort()
            let keys = reference.map { key -> UInt64 in
                let row = Int64(key >> 32) + Int64(rng.next() * 3) - 1
                let column = Int64(key & 0xFFFF_FFFF) + Int64(rng.next() * 3) - 1
                return UInt64(max(row, 0)) << 32 | UInt64(column)
            }
            let sorted = assertSortsStably(keys, reference: reference, "count \(count)")
            XCTAssertTrue(sorted, "count \(count): keys within a row of their reference take the fast path")
        }
    }

    /// Where the keys are not near their reference (a key two rows off, or an unrelated order),
    /// it declines and leaves them as they were, for the radix sort; or, where the rows fit but
    /// the columns are far out of order, either declines or sorts them correctly.
    func testDeclinesKeysFarFromTheirReference() {
        var rng = SeededRandom(seed: 17)
        let reference = (0..<1000).map { UInt64($0 / 10) << 32 | UInt64($0 % 10) }
        var twoRowsOff = reference
        twoRowsOff[500] += 2 << 32
        XCTAssertFalse(assertSortsStably(twoRowsOff, reference: reference, "two rows off"))
        let shuffled = (0..<1000).map { _ in UInt64(rng.next() * 100) << 32 | UInt64(rng.next() * 10) }
        XCTAssertFalse(assertSortsStably(shuffled, reference: reference, "unrelated keys"))
        let oneRow = (0..<5000).map { _ in UInt64(rng.next() * 1_000_000) }
        _ = assertSortsStably(oneRow, reference: [UInt64](repeating: 0, count: 5000), "one row, columns shuffled")
    }

    /// Sorts `keys` carrying their input positions. Where it reports sorting, checks both
    /// against a stable sort; where it declines, that nothing changed. Returns what it reported.
    private func assertSortsStably(_ input: [UInt64], reference: [UInt64], _ name: String,
                                   file: StaticString = #filePath, line: UInt = #line) -> Bool {
        var keys = input
        var order = (0..<input.count).map { UInt32($0) }
        let rows = reference.map { UInt32($0 >> 32) }
        let lists = UnsafeMutableRawPointer.allocate(byteCount: _nearRowSortBytes(input.count), alignment: 8)
        defer { lists.deallocate() }
        let sorted = rows.withUnsafeBufferPointer { rows in
            _sortNearReferenceRows(&keys, &order, referenceRows: rows.baseAddress!, lists: lists)
        }
        if sorted {
            let expected = zip(input, 0..<UInt32(input.count)).sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            XCTAssertEqual(keys, expected.map { $0.0 }, name, file: file, line: line)
            XCTAssertEqual(order, expected.map { $0.1 }, "stable order, \(name)", file: file, line: line)
        } else {
            XCTAssertEqual(keys, input, "untouched, \(name)", file: file, line: line)
            XCTAssertEqual(order, (0..<input.count).map { UInt32($0) }, "untouched, \(name)", file: file, line: line)
        }
        return sorted
    }
}
