import XCTest
@testable import Cairn

/// The raw stack the space-order resolution keeps its waiting items on: it grows past its
/// first capacity without losing what it holds.
final class StackTests: XCTestCase {
    func testPushesAndPopsThroughGrowth() {
        var stack = _Stack(capacity: 4)
        defer { stack.deallocate() }
        XCTAssertTrue(stack.isEmpty)
        for v in 0..<1000 { stack.push(UInt32(v * 3)) }
        XCTAssertEqual(stack.count, 1000)
        for v in stride(from: 999, through: 500, by: -1) {
            XCTAssertEqual(stack.top, UInt32(v * 3))
            stack.pop()
        }
        stack.push(7)
        XCTAssertEqual(stack.top, 7)
        XCTAssertEqual(stack.count, 501)
        stack.removeAll()
        XCTAssertTrue(stack.isEmpty)
    }
}
