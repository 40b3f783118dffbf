import XCTest
@testable import Cairn

final class RankSortTests: XCTestCase {
    func testSortsRecordsByRankInPlaceKeepingEachRecordWhole() {
        var rng = SeededRandom(seed: 12)
        for count in [0, 1, 2, 32, 33, 300, 5000, 70_000] {
            // Unique ranks (as at any zoom), spread over several digit widths.
            let spread = count < 300 ? 1000 : (count < 10_000 ? 1 << 20 : 1 << 30)
            var seen = Set<UInt32>()
            var records: [_ActiveItem] = []
            while records.count < count {
                let rank = UInt32(rng.next() * Double(spread))
                if !seen.insert(rank).inserted { continue }
                var record = _ActiveItem(rank: rank, position: records.count, starts: (0, records.count, 0))
                record.aboveStart = rank &* 7  // payload that must travel with the rank
                records.append(record)
            }
            records.withUnsafeMutableBufferPointer { _RankSort.sort($0.baseAddress!, count: count) }
            XCTAssertEqual(records.map(\.rank), records.map(\.rank).sorted(), "count \(count)")
            XCTAssertTrue(records.allSatisfy { $0.aboveStart == $0.rank &* 7 })
            XCTAssertEqual(Set(records.map(\.position)).count, count)
        }
    }
}
