import XCTest
@testable import Cairn

final class ClusterItemPositionsTests: XCTestCase {
    func testBadItemsAreRefusedWithTheirIndex() {
        var items = ClusterItemPositions()
        try! items.append(latitude: 1, longitude: 1)
        XCTAssertThrowsError(try items.append(latitude: .nan, longitude: 1)) { XCTAssertEqual($0 as? CairnError, .nonFiniteCoordinate(index: 1)) }
        XCTAssertThrowsError(try items.append(latitude: 91, longitude: 1)) { XCTAssertEqual($0 as? CairnError, .latitudeOutOfRange(index: 1)) }
        XCTAssertEqual(items.count, 1)
    }
}
