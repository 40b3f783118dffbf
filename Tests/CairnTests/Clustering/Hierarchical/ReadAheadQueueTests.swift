import XCTest
@testable import Cairn

final class ReadAheadQueueTests: XCTestCase {
    func testFirstInFirstOutAcrossGrowthAndWrapAround() {
        var queue = _ReadAheadQueue()
        defer { queue.deallocate() }
        var next = 0, expected = 0
        // Interleave pushes and pops so the ring wraps, then outgrow its 64 slots.
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 3) {
                queue.push(UInt64(next), _ItemRecord(fx: Float(next), fy: 0, id: Int32(next), rank: 0))
                next += 1
            }
            for _ in 0..<(round % 5 + 1) where !queue.isEmpty {
                XCTAssertEqual(queue.frontKey, UInt64(expected))
                let (key, entry) = queue.pop()
                XCTAssertEqual(key, UInt64(expected))
                XCTAssertEqual(entry.id, Int32(expected))
                expected += 1
            }
        }
        XCTAssertGreaterThan(queue.count, 64, "grew past its first capacity")
        while !queue.isEmpty {
            XCTAssertEqual(queue.pop().1.fx, Float(expected))
            expected += 1
        }
        XCTAssertEqual(expected, next)
    }
}
