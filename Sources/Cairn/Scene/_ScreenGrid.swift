/// A uniform grid over a screen area holding item numbers by the cells their bounds cover, for
/// collisions and taps. Dense (one list head per cell over the view and its margin), so finding
/// a cell is an index, not a hash; rebuilt each frame into the same buffers. Bounds outside the
/// area fall into its border cells: queries clamp the same way, so nothing is missed, and such
/// items are few (markers far outside the view are not placed at all).
///
/// A grid `byCentre` holds each item in the one cell of its box's centre instead (filled by
/// `insertByCentre`), and its queries reach out by the largest half-size inserted: one cell per
/// item, for an index that is rebuilt every frame but queried only when a tap comes.
struct _ScreenGrid {
    let cellSize: Double
    let byCentre: Bool
    /// The largest half-width and half-height inserted (`byCentre` only).
    private var reachX = 0.0, reachY = 0.0
    /// Cells per pixel: a multiplication per coordinate instead of a division.
    private let perPixel: Double
    private var originX = 0.0, originY = 0.0
    private var columns = 1, rows = 1
    private var heads: [Int32] = [-1]
    private var next: [Int32] = []
    private var values: [Int32] = []

    /// At most this many cells across or down, whatever the view: a huge view gets larger cells'
    /// worth of items per cell instead of a huge table.
    static let maxCells = 512

    init(cellSize: Double, byCentre: Bool = false) {
        self.cellSize = cellSize
        self.byCentre = byCentre
        perPixel = 1 / cellSize
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
        reachX = 0
        reachY = 0
    }

    private static func count(_ span: Double, _ cell: Double) -> Int {
        let n = (span / cell).rounded(.down) + 1
        return n.isFinite && n >= 1 ? Int(Swift.min(n, Double(maxCells))) : 1
    }


    @inline(__always)
    private static func cell(_ v: Double, _ origin: Double, _ perPixel: Double, _ count: Int) -> Int {
        // Truncation is the floor for what is not below the origin; NaN and everything below
        // the area go to the first cell, beyond it to the last.
        let c = (v - origin) * perPixel
        return c >= Double(count - 1) ? count - 1 : (c >= 0 ? Int(c) : 0)
    }

    private func cellRange(_ b: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> (Int, Int, Int, Int)? {
        guard b.minX.isFinite, b.minY.isFinite, b.maxX.isFinite, b.maxY.isFinite else { return nil }
        let k = perPixel
        return (_ScreenGrid.cell(b.minX, originX, k, columns), _ScreenGrid.cell(b.minY, originY, k, rows),
                _ScreenGrid.cell(b.maxX, originX, k, columns), _ScreenGrid.cell(b.maxY, originY, k, rows))
    }

    mutating func insert(_ item: Int32, _ bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)) {
        guard let (c0, r0, c1, r1) = cellRange(bounds) else { return }
        for r in r0...r1 {
            for c in c0...c1 { link(item, cell: r * columns + c) }
        }
    }

    /// Fills a `byCentre` grid with `count` entries at once (nil: none for that number),
    /// through raw buffers: a frame's thousands of single insertions each paid for growing and
    /// uniqueness checks of three lists.
    @inline(__always)
    mutating func insertByCentre(count n: Int,
                                 _ entry: (Int) -> (item: Int32, bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double))?) {
        let base = values.count
        values.append(contentsOf: repeatElement(0, count: n))
        next.append(contentsOf: repeatElement(0, count: n))
        let k = perPixel, columns = columns, rows = rows, originX = originX, originY = originY
        var used = 0, reachX = reachX, reachY = reachY
        heads.withUnsafeMutableBufferPointer { heads in
            values.withUnsafeMutableBufferPointer { values in
                next.withUnsafeMutableBufferPointer { next in
                    for e in 0..<n {
                        guard let (item, b) = entry(e),
                              b.minX.isFinite, b.minY.isFinite, b.maxX.isFinite, b.maxY.isFinite else { continue }
                        reachX = Swift.max(reachX, (b.maxX - b.minX) / 2)
                        reachY = Swift.max(reachY, (b.maxY - b.minY) / 2)
                        let cell = _ScreenGrid.cell((b.minY + b.maxY) / 2, originY, k, rows) * columns
                            + _ScreenGrid.cell((b.minX + b.maxX) / 2, originX, k, columns)
                        let at = base + used
                        values[at] = item
                        next[at] = heads[cell]
                        heads[cell] = Int32(at)
                        used += 1
                    }
                }
            }
        }
        values.removeLast(n - used)
        next.removeLast(n - used)
        self.reachX = reachX
        self.reachY = reachY
    }

    @inline(__always)
    private mutating func link(_ item: Int32, cell i: Int) {
        values.append(item)
        next.append(heads[i])
        heads[i] = Int32(values.count - 1)
    }

    /// The item inserted last into the cell holding the corner (minX, minY) of `bounds`, if any.
    func lastInserted(at b: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> Int32? {
        guard let (c0, r0, _, _) = cellRange(b) else { return nil }
        let e = heads[r0 * columns + c0]
        return e < 0 ? nil : values[Int(e)]
    }

    /// Whether `test` holds for an item whose bounds may meet `query` (as `forEach` finds
    /// them), stopping at the first that does.
    @inline(__always)
    func any(near query: (minX: Double, minY: Double, maxX: Double, maxY: Double), _ test: (Int32) -> Bool) -> Bool {
        let bounds = byCentre ? (query.minX - reachX, query.minY - reachY, query.maxX + reachX, query.maxY + reachY) : query
        guard let (c0, r0, c1, r1) = cellRange(bounds) else { return false }
        for r in r0...r1 {
            for c in c0...c1 {
                var e = heads[r * columns + c]
                while e >= 0 {
                    if test(values[Int(e)]) { return true }
                    e = next[Int(e)]
                }
            }
        }
        return false
    }

    /// Visits the items whose bounds may meet `bounds` (an item may come more than once): those
    /// in the cells the bounds cover, or, by centre, in the cells any inserted box could reach
    /// them from.
    func forEach(near query: (minX: Double, minY: Double, maxX: Double, maxY: Double), _ body: (Int32) -> Void) {
        let bounds = byCentre ? (query.minX - reachX, query.minY - reachY, query.maxX + reachX, query.maxY + reachY) : query
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
