/// A static index of points for box queries: points sorted by the square cell (row, column)
/// they fall in, so a box a cell or two wide is a few binary searches, one per row it crosses.
/// Built per clustering pass; worlds are not wrapped (a box is clipped to 0...1).
struct _CellIndex {
    private var keys: [UInt64]
    private var items: [UInt32]
    private let cells: Double

    init(_ points: ClusterItemPositions, cellSize: Double) {
        let n = points.count
        // Beyond 2^31 cells per side keys would overflow their halves; such tiny cells hold one
        // point each anyway.
        cells = Swift.min(_ceil(1 / cellSize), 2_147_483_648)
        keys = [UInt64](repeating: 0, count: n)
        items = [UInt32](repeating: 0, count: n)
        for i in 0..<n {
            keys[i] = _CellIndex.key(row: cell(points.y[i]), col: cell(points.x[i]))
            items[i] = UInt32(i)
        }
        RadixSort.sort(keys: &keys, values: &items, count: n)
    }

    private func cell(_ v: Double) -> UInt64 {
        let c = _floor((v < 0 ? 0 : (v > 1 ? 1 : v)) * cells)
        return UInt64(c >= cells ? cells - 1 : c)
    }

    private static func key(row: UInt64, col: UInt64) -> UInt64 { row << 32 | col }

    /// Calls `body` with every point in the box's cells (a superset of the box: callers test
    /// the exact distance), in cell order.
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
