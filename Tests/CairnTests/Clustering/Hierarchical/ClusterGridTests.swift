import XCTest
@testable import Cairn

final class ClusterGridTests: XCTestCase {
    func testCellsAreAtLeastTheRadiusWideAndDoubleExactlyPerZoom() {
        let options = ClusterOptions()
        for zoom in 0...16 {
            let grid = _ClusterGrid.forClustering(options, zoom: zoom)
            XCTAssertGreaterThanOrEqual(1 / grid.scale, options.worldRadius(zoom: zoom))
            if zoom > 0 {
                XCTAssertEqual(grid.coarser, _ClusterGrid.forClustering(options, zoom: zoom - 1))
            }
        }
    }

    func testACoarserCellIsExactlyTwoByTwoFinerCells() {
        let fine = _ClusterGrid.forClustering(ClusterOptions(), zoom: 16)
        var rng = SeededRandom(seed: 5)
        for _ in 0..<10_000 {
            let x = Float(rng.next()), y = Float(rng.next())
            XCTAssertEqual(_halved(fine.key(x: x, y: y)), fine.coarser.key(x: x, y: y))
        }
    }

    func testKeysOrderByRowThenColumn() {
        let grid = _ClusterGrid(scale: 10)
        XCTAssertLessThan(grid.key(x: 0.95, y: 0.15), grid.key(x: 0.05, y: 0.25))
        XCTAssertLessThan(grid.key(x: 0.15, y: 0.25), grid.key(x: 0.25, y: 0.25))
        XCTAssertEqual(grid.cell(0), 0)
        XCTAssertEqual(grid.cell(1), 10, "the far edge has a cell of its own")
    }
}
