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
        // Centres are computed in Google's map points, as Google does: to the last bit or so of the unit square's.
        XCTAssertEqual(groups.x[0], 1.5 / 3, accuracy: 1e-15)
        XCTAssertEqual(groups.y[0], 1.5 / 3, accuracy: 1e-15)
        XCTAssertEqual(groups.x[1], 0.5 / 3, accuracy: 1e-15)
        XCTAssertEqual(groups.y[1], 0.5 / 3, accuracy: 1e-15)
        XCTAssertEqual(groups.x[2], 2.5 / 3, accuracy: 1e-15)
        XCTAssertEqual(groups.y[2], 2.5 / 3, accuracy: 1e-15)
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

    // Google's arithmetic (C2c): where its keys and rows differ from a plain grid.

    func testC2c_LongitudeOneEightyWrapsIntoTheFirstCellOfTheNextRow() throws {
        // Zoom 0: 3 cells. 180° is column 3 of row 1 (the equator's): key 3·1 + 3 = 6, the key
        // of row 2, column 0, where 60° N 179° W falls.
        var items = ClusterItemPositions()
        try items.append(latitude: 0, longitude: 180)
        try items.append(latitude: 60, longitude: -179)
        try items.append(latitude: 0, longitude: -179)
        var groups = ClusterGroups()
        try GridClustering().cluster(items, zoom: 0, into: &groups)
        XCTAssertEqual(groups.count, 2)
        XCTAssertEqual(Array(groups.members(of: 0)), [0, 1])
        XCTAssertEqual(Array(groups.members(of: 1)), [2])
        // Placed at the centre of its first item's cell (column 3 folded onto the map: column 0).
        XCTAssertEqual(groups.x[0], 0.5 / 3, accuracy: 1e-15)
        XCTAssertEqual(groups.y[0], 0.5, accuracy: 1e-15)
        // The other way round, the cluster sits at row 2, column 0's centre.
        var swapped = ClusterItemPositions()
        try swapped.append(latitude: 60, longitude: -179)
        try swapped.append(latitude: 0, longitude: 180)
        try GridClustering().cluster(swapped, zoom: 0, into: &groups)
        XCTAssertEqual(Array(groups.members(of: 0)), [0, 1])
        XCTAssertEqual(groups.x[0], 0.5 / 3, accuracy: 1e-15)
        XCTAssertEqual(groups.y[0], 0.5 / 3, accuracy: 1e-15)
    }

    func testC2c_OnTheEquatorWithAnEvenCellCountRowsCountNorthward() throws {
        // Zoom 1: ceil(512 / 100) = 6 cells; the equator is the edge between rows 2 and 3, and
        // an item on it falls in row 3, north of it, with 0.001° N; 0.001° S is row 2.
        var items = ClusterItemPositions()
        for lat in [0.0, 0.001, -0.001] { try items.append(latitude: lat, longitude: 10) }
        var groups = ClusterGroups()
        try GridClustering().cluster(items, zoom: 1, into: &groups)
        XCTAssertEqual(groups.count, 2)
        XCTAssertEqual(Array(groups.members(of: 0)), [0, 1])
        XCTAssertEqual(Array(groups.members(of: 1)), [2])
        XCTAssertEqual(groups.y[0], 2.5 / 6, accuracy: 1e-15, "the cell north of the equator")
        XCTAssertEqual(groups.y[1], 3.5 / 6, accuracy: 1e-15)
    }
}
