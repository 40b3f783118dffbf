/// A static index of Google map points for box queries, standing in for the quadtree of Google's
/// distance algorithm: points sorted by the square cell (row, column) they fall in, so a box a
/// cell or two wide is a few binary searches, one per row it crosses. Like the quadtree it holds
/// only points on the map (`GoogleMapPoint.isOnMap`). Built per clustering pass.
struct _CellIndex {
    private var keys: [UInt64]
    private var items: [UInt32]
    private let cells: Double

    /// `cellSize` in map-point units (the map is 2 wide).
    init(_ points: ClusterItemPositions, cellSize: Double) {
        let n = points.count
        // Beyond 2^31 cells per side keys would overflow their halves; such tiny cells hold one
        // point each anyway.
        let cells = Swift.min(_ceil(2 / cellSize), 2_147_483_648)
        self.cells = cells
        func cell(_ v: Double) -> UInt64 { _CellIndex.cell(v, cells: cells) }
        var onMap = 0
        for i in 0..<n where GoogleMapPoint.isOnMap(x: points.mapX[i], y: points.mapY[i]) { onMap += 1 }
        keys = [UInt64](repeating: 0, count: onMap)
        items = [UInt32](repeating: 0, count: onMap)
        var k = 0
        for i in 0..<n where GoogleMapPoint.isOnMap(x: points.mapX[i], y: points.mapY[i]) {
            keys[k] = _CellIndex.key(row: cell(points.mapY[i]), col: cell(points.mapX[i]))
            items[k] = UInt32(i)
            k += 1
        }
        RadixSort.sort(keys: &keys, values: &items, count: onMap)
    }

    /// The cell of a coordinate; monotonic, so a point within a box falls in the box's cells.
    private func cell(_ v: Double) -> UInt64 { _CellIndex.cell(v, cells: cells) }

    private static func cell(_ v: Double, cells: Double) -> UInt64 {
        let u = (v + 1) / 2
        let c = _floor((u < 0 ? 0 : (u > 1 ? 1 : u)) * cells)
        return UInt64(c >= cells ? cells - 1 : c)
    }

    private static func key(row: UInt64, col: UInt64) -> UInt64 { row << 32 | col }

    /// Calls `body` with every indexed point in the box's cells (a superset of the box: callers
    /// test the exact bounds), in cell order.
    func forEach(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int) -> Void) {
        let c0 = cell(minX), c1 = cell(maxX)
        for row in cell(minY)...cell(maxY) {
            var i = _lowerBound(keys, _CellIndex.key(row: row, col: c0))
            let end = _CellIndex.key(row: row, col: c1)
            while i < keys.count && keys[i] <= end {
                body(Int(items[i]))
                i += 1
            }
        }
    }
}
