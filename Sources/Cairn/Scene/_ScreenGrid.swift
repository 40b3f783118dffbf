/// A uniform grid over a screen area holding item numbers by the cells their bounds cover, for
/// collisions and taps. Dense (one list head per cell over the view and its margin), so finding
/// a cell is an index, not a hash; rebuilt each frame into the same buffers. Bounds outside the
/// area fall into its border cells: queries clamp the same way, so nothing is missed, and such
/// items are few (markers far outside the view are not placed at all).
struct _ScreenGrid {
    let cellSize: Double
    private var originX = 0.0, originY = 0.0
    private var columns = 1, rows = 1
    private var heads: [Int32] = [-1]
    private var next: [Int32] = []
    private var values: [Int32] = []

    /// At most this many cells across or down, whatever the view: a huge view gets larger cells'
    /// worth of items per cell instead of a huge table.
    static let maxCells = 512

    init(cellSize: Double) {
        self.cellSize = cellSize
    }

    /// Empties the grid and sizes it to cover `area`, keeping its buffers.
    mutating func reset(covering area: (minX: Double, minY: Double, maxX: Double, maxY: Double)) {
        originX = area.minX.isFinite ? area.minX : 0
        originY = area.minY.isFinite ? area.minY : 0
        columns = _ScreenGrid.count(area.maxX - originX, cellSize)
        rows = _ScreenGrid.count(area.maxY - originY, cellSize)
        let cells = columns * rows
        if heads.count < cells {
            heads = [Int32](repeating: -1, count: cells)
        } else {
            for i in 0..<cells { heads[i] = -1 }
        }
        next.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }

    private static func count(_ span: Double, _ cell: Double) -> Int {
        let n = (span / cell).rounded(.down) + 1
        return n.isFinite && n >= 1 ? Int(Swift.min(n, Double(maxCells))) : 1
    }

    @inline(__always)
    private static func cell(_ v: Double, _ origin: Double, _ size: Double, _ count: Int) -> Int {
        let c = ((v - origin) / size).rounded(.down)
        // NaN and everything below the area go to the first cell, beyond it to the last.
        return c >= Double(count - 1) ? count - 1 : (c >= 0 ? Int(c) : 0)
    }

    private func cellRange(_ b: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> (Int, Int, Int, Int)? {
        guard b.minX.isFinite, b.minY.isFinite, b.maxX.isFinite, b.maxY.isFinite else { return nil }
        return (_ScreenGrid.cell(b.minX, originX, cellSize, columns), _ScreenGrid.cell(b.minY, originY, cellSize, rows),
                _ScreenGrid.cell(b.maxX, originX, cellSize, columns), _ScreenGrid.cell(b.maxY, originY, cellSize, rows))
    }

    mutating func insert(_ item: Int32, _ bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)) {
        guard let (c0, r0, c1, r1) = cellRange(bounds) else { return }
        for r in r0...r1 {
            for c in c0...c1 {
                let i = r * columns + c
                values.append(item)
                next.append(heads[i])
                heads[i] = Int32(values.count - 1)
            }
        }
    }

    /// Visits the items whose cells meet the bounds (an item may come more than once).
    func forEach(near bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double), _ body: (Int32) -> Void) {
        guard let (c0, r0, c1, r1) = cellRange(bounds) else { return }
        for r in r0...r1 {
            for c in c0...c1 {
                var e = heads[r * columns + c]
                while e >= 0 {
                    body(values[Int(e)])
                    e = next[Int(e)]
                }
            }
        }
    }
}
