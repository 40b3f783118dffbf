import XCTest
@testable import Cairn

final class OrientedBoxTests: XCTestCase {
    func testContainsAndOverlapsWithTurns() {
        let box = OrientedBox(centerX: 0, centerY: 0, halfWidth: 10, halfHeight: 2)
        XCTAssertTrue(box.contains(x: 9, y: 1))
        XCTAssertFalse(box.contains(x: 0, y: 5))
        XCTAssertTrue(box.contains(x: 0, y: 5, tolerance: 3))
        let r = 90.0 * Double.pi / 180
        let turned = OrientedBox(centerX: 0, centerY: 0, halfWidth: 10, halfHeight: 2, cos: _cos(r), sin: _sin(r))
        XCTAssertTrue(turned.contains(x: 0, y: 9))
        XCTAssertFalse(turned.contains(x: 9, y: 0))
        XCTAssertEqual(turned.bounds.maxY, 10, accuracy: 1e-9)
        // A thin bar turned 45° misses a box its axis-aligned bounds would hit.
        let d = 45.0 * Double.pi / 180
        let diagonal = OrientedBox(centerX: 0, centerY: 0, halfWidth: 20, halfHeight: 1, cos: _cos(d), sin: _sin(d))
        let corner = OrientedBox(centerX: 12, centerY: -12, halfWidth: 2, halfHeight: 2)
        XCTAssertFalse(diagonal.overlaps(corner))
        XCTAssertTrue(diagonal.overlaps(OrientedBox(centerX: 10, centerY: 10, halfWidth: 2, halfHeight: 2)))
        XCTAssertFalse(box.overlaps(OrientedBox(centerX: 20, centerY: 0, halfWidth: 10, halfHeight: 2)), "touching is not overlapping")
    }
}
