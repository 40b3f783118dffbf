import XCTest
@testable import Cairn

/// The searches over a build's sorted cell keys that start from a hint (the sparse zooms'
/// neighbour runs): any hint, near or far, gives the answer a plain binary search gives.
final class SortedItemsSearchTests: XCTestCase {
    func testASearchFromAnyHintFindsTheFirstKeyNotBelow() {
        var rng = SeededRandom(seed: 31)
        // Cell keys with runs of equal keys, gaps, and rows: row << 32 | column.
        var keys: [UInt64] = (0..<600).map { _ in UInt64(rng.next() * 12) << 32 | UInt64(rng.next() * 40) }
        keys.sort()
        let first = keys[0], last = keys[keys.count - 1]
        let entries = [_ItemRecord](repeating: _ItemRecord(fx: 0, fy: 0, id: 0, rank: 0), count: keys.count)
        keys.withUnsafeMutableBufferPointer { k in
            var e = entries
            e.withUnsafeMutableBufferPointer { eb in
                let items = _SortedItems(keys: k.baseAddress!, entries: eb.baseAddress!, count: k.count, grid: _ClusterGrid(scale: 1))
                var probes: [UInt64] = [0, 1, .max, first, last, last + 1]
                for _ in 0..<200 { probes.append(UInt64(rng.next() * 13) << 32 | UInt64(rng.next() * 42)) }
                for key in probes {
                    let expected = _lowerBound(UnsafePointer(k.baseAddress!), count: k.count, key)
                    for hint in [0, 1, 17, expected, max(0, expected - 1), min(k.count, expected + 1), 299, k.count - 1, k.count] {
                        XCTAssertEqual(items.lowerBound(key, near: hint), expected, "key \(key) from \(hint)")
                    }
                }
            }
        }
    }
}
