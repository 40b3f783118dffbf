/// The spatial index of a run of consecutive zooms whose visible items barely change.
///
/// `ids` holds every item visible at any zoom in `lowZoom...highZoom`, sorted by row (the
/// float32 y cut into `1 << cellBits` rows) and then by float32 x. A rectangle query walks the
/// rows it covers, finds the first x in each by binary search, and keeps the items visible at
/// the zoom asked. Zooms are grouped while the extra items (visible in the group but not at its
/// lowest zoom) stay under a quarter, so a query never reads much more than it returns while
/// a zoom whose clustering changed little costs no memory of its own.
struct _ZoomGroup {
    var lowZoom: Int
    var highZoom: Int
    var cellBits: Int
    var ids: [Int32]
}

/// The sort key of a position in rows of `1 << cellBits`: row, then the float32 x. Floats in
/// 0...1 order like their bit patterns, which stay below 2^30.
@inline(__always)
func _rowKey(x: Float, y: Float, cellBits: Int) -> UInt64 {
    (UInt64(_cell(y, cellBits: cellBits)) << 30) | UInt64(x.bitPattern)
}

/// The cell (row or column) of a float32 world coordinate in a grid of `1 << cellBits` cells.
@inline(__always)
func _cell(_ v: Float, cellBits: Int) -> Int {
    let n = 1 << cellBits
    let c = Int(Double(v) * Double(n))
    return c < 0 ? 0 : (c >= n ? n - 1 : c)
}

/// The number of cell bits for a clustering radius: the finest grid whose cells are at least
/// the radius plus float32 rounding, so every neighbour lies in the 3×3 cells around an item.
func _cellBits(worldRadius r: Double) -> Int {
    let slack = 1.0 / 16_777_216  // 2^-24: a query centre and its float32 rounding differ less
    var k = 24
    while k > 0 && 1.0 / Double(1 << k) < r + slack { k -= 1 }
    return k
}

extension HierarchicalClusterIndex {
    /// The group that holds an integer zoom (already limited to minZoom...maxZoom+1).
    func group(forZoom zoom: Int) -> _ZoomGroup? {
        for g in groups where g.lowZoom <= zoom && zoom <= g.highZoom { return g }
        return nil
    }

    /// Calls `body` with every item visible at `zoom` whose float32 index position lies in the
    /// world rectangle (inclusive, compared in double precision as kdbush's `range` does).
    func forEachItem(minX: Double, minY: Double, maxX: Double, maxY: Double, zoom: Int,
                     _ body: (Int32) -> Void) {
        guard let g = group(forZoom: zoom), !g.ids.isEmpty else { return }
        guard minX <= maxX && minY <= maxY else { return }
        let rowCount = 1 << g.cellBits
        let firstRow = _cell(Float(minY), cellBits: g.cellBits) - 1  // float rounding of minY
        let lastRow = _cell(Float(maxY), cellBits: g.cellBits) + 1
        let lo = firstRow < 0 ? 0 : firstRow
        let hi = lastRow >= rowCount ? rowCount - 1 : lastRow
        g.ids.withUnsafeBufferPointer { ids in
            let n = ids.count
            // Where the first row starts and the last one ends: a wide query scans that span
            // once; a narrow one jumps from row to row by binary search.
            let spanStart = lowerBound(ids, n, row: lo, x: -1, cellBits: g.cellBits)
            let spanEnd = lowerBound(ids, n, row: hi + 1, x: -1, cellBits: g.cellBits)
            let rows = hi - lo + 1
            if spanEnd - spanStart <= rows * 24 {
                for p in spanStart..<spanEnd {
                    visit(ids[p], minX, minY, maxX, maxY, zoom, body)
                }
                return
            }
            var from = spanStart
            for row in lo...hi {
                var p = lowerBound(ids, n, from: from, row: row, x: minX, cellBits: g.cellBits)
                while p < n {
                    let item = ids[p]
                    let pos = indexPosition(item)
                    if _cell(pos.y, cellBits: g.cellBits) != row || Double(pos.x) > maxX { break }
                    visit(item, minX, minY, maxX, maxY, zoom, body)
                    p += 1
                }
                from = p
            }
        }
    }

    @inline(__always)
    private func visit(_ item: Int32, _ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double,
                       _ zoom: Int, _ body: (Int32) -> Void) {
        let pos = indexPosition(item)
        let x = Double(pos.x), y = Double(pos.y)
        if x >= minX && x <= maxX && y >= minY && y <= maxY && isVisible(item, zoom: zoom) {
            body(item)
        }
    }

    /// First position at or after `from` whose (row, x) is not before (`row`, `x`).
    private func lowerBound(_ ids: UnsafeBufferPointer<Int32>, _ n: Int, from: Int = 0, row: Int,
                            x: Double, cellBits: Int) -> Int {
        var lo = from, hi = n
        while lo < hi {
            let mid = (lo + hi) >> 1
            let pos = indexPosition(ids[mid])
            let r = _cell(pos.y, cellBits: cellBits)
            if r < row || (r == row && Double(pos.x) < x) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
