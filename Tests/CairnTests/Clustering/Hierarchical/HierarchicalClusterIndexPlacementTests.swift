import XCTest
@testable import Cairn

/// Where the index places its points: longitudes wrapped, latitudes clamped, and how many it
/// placed other than given.
final class HierarchicalClusterIndexPlacementTests: XCTestCase {
    func testBoundsAreThoseOfThePointsAsPlacedAndMovedOnesAreCounted() throws {
        let index = try HierarchicalClusterIndex()
        XCTAssertNil(index.placedBounds)
        XCTAssertEqual(index.pointsPlacedElsewhere, 0)
        // 190° wraps to -170°, 89° clamps to the map's edge; the others stay as given.
        let points: [Double] = [10, 20, 190, 0, -30, 89, 180, -40]
        try points.withUnsafeBufferPointer { try index.add(lngLat: $0) }
        try index.add(longitude: 5, latitude: -88)
        XCTAssertEqual(index.pointsPlacedElsewhere, 3)
        let b = try XCTUnwrap(index.placedBounds)
        XCTAssertEqual(b.west, -170, accuracy: 1e-9)
        XCTAssertEqual(b.east, 180, accuracy: 1e-9)
        XCTAssertEqual(b.north, WebMercator.maxLatitude, accuracy: 1e-9)
        XCTAssertEqual(b.south, -WebMercator.maxLatitude, accuracy: 1e-9)
    }

    func testARefusedBatchCountsNothing() throws {
        let index = try HierarchicalClusterIndex()
        let points: [Double] = [200, 0, 0, .nan]
        XCTAssertThrowsError(try points.withUnsafeBufferPointer { try index.add(lngLat: $0) })
        XCTAssertEqual(index.pointsPlacedElsewhere, 0)
        XCTAssertNil(index.placedBounds)
    }
}
