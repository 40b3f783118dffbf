import XCTest
@testable import Cairn

/// The space-order sweep's pairs, listed by item a row at a time: each item's absorbers by
/// rank, the row below's pairs kept for its own turn, and a listing that would not fit refused
/// without spoiling the next.
final class PendingAbsorberPairsTests: XCTestCase {
    func testListsARowsPairsByItemAndKeepsTheRowBelows() {
        // Items 0..<4 form the row, 4..<6 the row below; ranks out of position order.
        let ranks: [UInt32] = [5, 9, 2, 7, 1, 8]
        let e = UnsafeMutablePointer<_ItemRecord>.allocate(capacity: ranks.count)
        defer { e.deallocate() }
        for (i, rank) in ranks.enumerated() { e[i] = _ItemRecord(fx: 0, fy: 0, id: Int32(i), rank: rank) }
        let dependent = _Bitset(capacity: 64)
        defer { dependent.deallocate() }
        dependent.clear(64)
        let absorbers = UnsafeMutablePointer<UInt32>.allocate(capacity: 16)
        let edgeStart = UnsafeMutablePointer<UInt32>.allocate(capacity: 16)
        defer { absorbers.deallocate(); edgeStart.deallocate() }
        edgeStart[0] = 0
        var pending = _PendingAbsorberPairs()
        defer { pending.deallocate() }
        // dependent << 32 | absorber: item 1 has absorbers 0, 2 and 3 (found in that order),
        // item 3 has 2, item 5 (the row below) has 0.
        let pairs: [(UInt64, UInt64)] = [(1, 3), (5, 0), (1, 0), (3, 2), (1, 2)]
        pending.reserve(pairs.count)
        for (k, pair) in pairs.enumerated() { pending.pairs[k] = pair.0 << 32 | pair.1 }
        pending.count = pairs.count
        var edges = 0, dependents = 0
        XCTAssertTrue(pending.listRow(0..<4, e, dependent: dependent, absorbers: absorbers, edgeStart: edgeStart,
                                      edges: &edges, dependents: &dependents, capacity: 16))
        XCTAssertEqual(dependents, 2)
        XCTAssertEqual(edges, 4)
        XCTAssertEqual((0..<6).filter { dependent.contains($0) }, [1, 3])
        XCTAssertEqual((0...2).map { edgeStart[$0] }, [0, 3, 4])
        // By rank: 2 (rank 2), 0 (rank 5), 3 (rank 7).
        XCTAssertEqual((0..<4).map { absorbers[$0] }, [2, 0, 3, 2])
        XCTAssertEqual(pending.count, 1)
        XCTAssertEqual(pending.pairs[0], 5 << 32 | 0)

        // The row below's turn; with room for none of its pairs it is refused, then listed.
        XCTAssertFalse(pending.listRow(4..<6, e, dependent: dependent, absorbers: absorbers, edgeStart: edgeStart,
                                       edges: &edges, dependents: &dependents, capacity: 4))
        XCTAssertEqual(edges, 4)
        XCTAssertFalse(dependent.contains(5))
        XCTAssertTrue(pending.listRow(4..<6, e, dependent: dependent, absorbers: absorbers, edgeStart: edgeStart,
                                      edges: &edges, dependents: &dependents, capacity: 16))
        XCTAssertEqual(dependents, 3)
        XCTAssertEqual(edgeStart[3], 5)
        XCTAssertEqual(absorbers[4], 0)
        XCTAssertEqual(pending.count, 0)
    }
}
