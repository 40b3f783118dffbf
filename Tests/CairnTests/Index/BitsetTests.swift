import XCTest
@testable import Cairn

final class BitsetTests: XCTestCase {
    func testBitsetVisitsTheSetPositionsOfARange() {
        let bits = _Bitset(capacity: 300)
        defer { bits.deallocate() }
        bits.clear(300)
        let set = [0, 5, 63, 64, 65, 127, 128, 200, 299]
        for p in set { bits.insert(p) }
        for range in [0..<300, 5..<6, 6..<63, 60..<130, 64..<64, 129..<300, 0..<1] {
            var seen: [Int] = []
            bits.forEach(in: range) { seen.append($0) }
            XCTAssertEqual(seen, set.filter { range.contains($0) }, "\(range)")
        }
    }

    /// `fill(count)` sets exactly the first `count` bits, as inserting each would.
    func testFillSetsTheFirstBitsOnly() {
        for count in [0, 1, 63, 64, 65, 128, 200] {
            let bits = _Bitset(capacity: 256)
            defer { bits.deallocate() }
            bits.clear(256)
            for p in 0..<256 where p % 3 == 0 { bits.insert(p) }   // what an earlier use left
            bits.fill(count)
            XCTAssertEqual(bits.index(upTo: count), count, "count \(count)")
            for p in 0..<count { XCTAssertTrue(bits.contains(p), "count \(count), bit \(p)") }
            for p in count..<((count / 64 + 1) * 64) { XCTAssertFalse(bits.contains(p), "count \(count), bit \(p)") }
        }
    }
}
