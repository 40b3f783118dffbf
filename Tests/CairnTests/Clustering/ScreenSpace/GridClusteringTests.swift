import XCTest
@testable import Cairn

final class GridClusteringTests: XCTestCase {
    func testC2c_ItemsOfACellFormOneClusterAtTheCellCentre() throws {
        var items = ClusterItemPositions()
        // Zoom 0: ceil(256 / 100) = 3 cells per side.
        for (lat, lng) in [(10.0, 10.0), (60.0, -170.0), (20.0, 30.0), (-60.0, 170.0), (61.0, -171.0)] {
            try items.append(latitude: lat, longitude: lng)
        }
        var groups = ClusterGroups()
        try GridClustering().cluster(items, zoom: 0, into: &groups)
        XCTAssertEqual(groups.count, 3)
        XCTAssertEqual(Array(groups.members(of: 0)), [0, 2], "first seen first")
        XCTAssertEqual(Array(groups.members(of: 1)), [1, 4])
        XCTAssertEqual(Array(groups.members(of: 2)), [3])
        XCTAssertEqual(groups.x[0], 1.5 / 3)
        XCTAssertEqual(groups.y[0], 1.5 / 3)
        XCTAssertEqual(groups.x[1], 0.5 / 3)
        XCTAssertEqual(groups.y[1], 0.5 / 3)
        XCTAssertEqual(groups.x[2], 2.5 / 3)
        XCTAssertEqual(groups.y[2], 2.5 / 3)
    }

    func testC2c_FourPointsAroundTheOriginAtZoomsFourAndFourteen() throws {
        var items = ClusterItemPositions()
        for (lat, lng) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] { try items.append(latitude: lat, longitude: lng) }
        var groups = ClusterGroups()
        try GridClustering().cluster(items, zoom: 14, into: &groups)
        XCTAssertEqual(groups.count, 4)
        // At zoom 4, 41 cells per side: the origin is inside cell 20 (20/41 < 0.5 < 21/41), so
        // all four points ±1° (±0.11 cells) share it.
        try GridClustering().cluster(items, zoom: 4, into: &groups)
        XCTAssertEqual(groups.count, 1)
        XCTAssertThrowsError(try GridClustering(cellSize: 0.5))
    }
}
