import XCTest
@testable import Cairn

/// The radix-sorted frame orders must equal comparator sorts of the same items, ties included.
final class ScreenOrderTests: XCTestCase {
    /// A seeded generator, so a failure can be replayed.
    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    func item(_ r: inout Random, id: Int64, zValues: Int) -> SceneItem {
        // Few zIndex and priority values, coarse y (many exact ties), ids and kinds mixed.
        let y = (r.next() * 40).rounded(.down) * 0.5 - 3
        return SceneItem(kind: r.next() < 0.2 ? .cluster : .marker, id: id, owner: r.next() < 0.5 ? -1 : 2,
                         x: 0, y: y, rotation: 0, scaleX: 1, scaleY: 1, opacity: 1, icon: -1,
                         zIndex: Double(Int(r.next() * Double(zValues))), box: OrientedBox(centerX: 0, centerY: y, halfWidth: 1, halfHeight: 1),
                         collision: .optionalAndHidesLowerPriority, collisionPriority: Double(Int(r.next() * 3)), count: 1)
    }

    func testDrawAndCollisionOrdersEqualTheComparatorSorts() {
        var r = Random(state: 42)
        var order = _ScreenOrder()
        for round in 0..<60 {
            let n = 1 + Int(r.next() * 400)
            let items = (0..<n).map { item(&r, id: Int64(n - $0), zValues: round % 3 == 0 ? 1 : 5) }
            let below = { (a: UInt32, b: UInt32) in DrawOrder.below(items[Int(a)], items[Int(b)]) }
            var expected = (0..<n).map { UInt32($0) }
            _stableSort(&expected, by: below)
            var fast = (0..<n).map { UInt32($0) }
            XCTAssertTrue(order.sort(&fast, first: { items[Int($0)].zIndex }, second: { _ in 0 }, y: { items[Int($0)].y },
                                     tie: { DrawOrder.tie(items[Int($0)]) }))
            XCTAssertEqual(fast, expected, "draw order, round \(round)")

            let outranks = { (a: UInt32, b: UInt32) in Collision.outranks(items[Int(a)], items[Int(b)]) }
            var expectedRank = (0..<n).map { UInt32($0) }
            _stableSort(&expectedRank, by: outranks)
            var fastRank = (0..<n).map { UInt32($0) }
            XCTAssertTrue(order.sort(&fastRank, first: { -items[Int($0)].collisionPriority }, second: { -items[Int($0)].zIndex },
                                     y: { -items[Int($0)].y }, tie: { Collision.tie(items[Int($0)]) }))
            XCTAssertEqual(fastRank, expectedRank, "collision order, round \(round)")
        }
    }

    func testTooManyDistinctValuesLeaveTheOrderToTheCaller() {
        var order = _ScreenOrder()
        var list = (0..<100).map { UInt32($0) }
        let before = list
        let tie = { (i: UInt32) in _ScreenOrder.Tie(kind: 0, owner: 0, id: Int64(i)) }
        XCTAssertFalse(order.sort(&list, first: { Double($0) }, second: { _ in 0 }, y: { _ in 0 }, tie: tie))
        XCTAssertEqual(list, before)
        // NaN never gets a rank either.
        var two: [UInt32] = [0, 1]
        XCTAssertFalse(order.sort(&two, first: { $0 == 0 ? .nan : 0 }, second: { _ in 0 }, y: { _ in 0 }, tie: tie))
    }

    func testQuantisedYIsMonotonicAndClamped() {
        let ys: [Double] = [-.infinity, -1e9, -8_388_608, -1, -0.00001, 0, 0.00002, 1, 1200.5, 8_388_607, 1e9, .infinity]
        let q = ys.map(_ScreenOrder.quantised)
        for k in 1..<q.count { XCTAssertLessThanOrEqual(q[k - 1], q[k]) }
        XCTAssertLessThan(_ScreenOrder.quantised(1), _ScreenOrder.quantised(1.005))
        XCTAssertEqual(_ScreenOrder.quantised(.nan), 0)
        XCTAssertEqual(_ScreenOrder.quantised(-1e10), 0)
        XCTAssertEqual(_ScreenOrder.quantised(1e10), (1 << 52) - 1)
        // Rows a millionth of a pixel apart get keys of their own.
        XCTAssertLessThan(_ScreenOrder.quantised(700.25), _ScreenOrder.quantised(700.250001))
        XCTAssertLessThan(_ScreenOrder.quantised(-300.5), _ScreenOrder.quantised(-300.499999))
    }

    /// A view's items (with the margin around it) differ in the low 31 bits of their keys only,
    /// so the radix sort makes three passes over a frame.
    func testKeysOfAViewDifferInThreeDigits() {
        let top = _ScreenOrder.quantised(-512), bottom = _ScreenOrder.quantised(1535.999)
        XCTAssertEqual(top >> 31, bottom >> 31)
        XCTAssertNotEqual(_ScreenOrder.quantised(-513) >> 31, _ScreenOrder.quantised(1000) >> 31)
        XCTAssertNotEqual(_ScreenOrder.quantised(0) >> 31, _ScreenOrder.quantised(1536) >> 31)
    }
}
