/// Rectangle queries over the zoom groups (see `_ZoomGroup`): the items visible at a zoom in a
/// world rectangle, the building block of every query in `+Queries`.
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
        guard minX <= maxX && minY <= maxY && maxX >= 0 && maxY >= 0 && minX <= 1 && minY <= 1 else { return }
        // A float32 position ≥ minX lies in a cell ≥ that of Float(minX) (rounding is monotone).
        let grid = g.grid
        // A group of one zoom holds exactly what that zoom shows: no visibility to check.
        let checkZoom = g.lowZoom != g.highZoom
        let firstRow = grid.cell(Float(max(minY, 0)))
        let lastRow = grid.cell(Float(min(maxY, 1)))
        let firstColumn = grid.cell(Float(max(minX, 0)))
        let lastColumn = grid.cell(Float(min(maxX, 1)))
        let visibleAt = checkZoom ? zoom : -1
        g.ids.withUnsafeBufferPointer { ids in
            g.fences.withUnsafeBufferPointer { fences in
                // Keys only grow from search to search, so each fence search goes on from the
                // fence where the last one stopped.
                var fence = 0
                func next(_ from: Int, _ key: UInt64) -> Int {
                    lowerBound(g, ids, fences, from: from, fence: &fence, key)
                }
                // A wide query scans its span of rows once; a narrow one jumps from row to row.
                let spanStart = next(0, firstRow << 32)
                let spanFence = fence
                let spanEnd = next(spanStart, (lastRow + 1) << 32)
                let rows = Int(lastRow - firstRow) + 1
                if spanEnd - spanStart <= rows * 16 {
                    visit(ids, spanStart..<spanEnd, minX, minY, maxX, maxY, visibleAt, body)
                    return
                }
                fence = spanFence
                var from = spanStart
                for row in firstRow...lastRow {
                    let start = next(from, (row << 32) | firstColumn)
                    let end = next(start, (row << 32) | (lastColumn + 1))
                    visit(ids, start..<end, minX, minY, maxX, maxY, visibleAt, body)
                    from = end
                }
            }
        }
    }

    /// Calls `body` with each item of `range` that lies in the rectangle and (for `zoom` ≥ 0)
    /// is visible. Positions and visibility are read a batch at a time, in a loop of their own:
    /// they lie scattered in memory, and loads that do not wait on each other overlap their
    /// misses, where reading each just before its checks and its caller's work would wait for
    /// each.
    private func visit(_ ids: UnsafeBufferPointer<Int32>, _ range: Range<Int>, _ minX: Double, _ minY: Double,
                       _ maxX: Double, _ maxY: Double, _ zoom: Int, _ body: (Int32) -> Void) {
        let batch = 32
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * batch) { xy in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: batch) { shown in
                var k = range.lowerBound
                while k < range.upperBound {
                    let m = min(batch, range.upperBound - k)
                    for t in 0..<m {
                        let item = ids[k + t]
                        let pos = indexPosition(item)
                        xy[2 * t] = pos.x
                        xy[2 * t + 1] = pos.y
                        shown[t] = zoom < 0 || isVisible(item, zoom: zoom)
                    }
                    for t in 0..<m where shown[t] {
                        let x = Double(xy[2 * t]), y = Double(xy[2 * t + 1])
                        if x >= minX && x <= maxX && y >= minY && y <= maxY { body(ids[k + t]) }
                    }
                    k += m
                }
            }
        }
    }

    /// The first position in a group's list whose cell key is not below `key`.
    func insertionPoint(_ g: _ZoomGroup, key: UInt64) -> Int {
        var fence = 0
        return g.ids.withUnsafeBufferPointer { ids in
            g.fences.withUnsafeBufferPointer { lowerBound(g, ids, $0, from: 0, fence: &fence, key) }
        }
    }

    /// First position at or after `from` whose cell key is not below `key`. `fence` is a fence
    /// such that every fence before it is below `key` (0 will do); it becomes the first fence not
    /// below, a start for the next search with a larger key.
    private func lowerBound(_ g: _ZoomGroup, _ ids: UnsafeBufferPointer<Int32>, _ fences: UnsafeBufferPointer<UInt64>,
                            from: Int, fence: inout Int, _ key: UInt64) -> Int {
        let grid = g.grid
        // Fences narrow the search to the stretch between two of them (ids are sorted by key,
        // so the first place at or after `from` is the later of `from` and the first overall) …
        // (a first search, from fence 0, halves the whole list; a later one gallops on).
        let f0 = fence == 0 ? _lowerBound(fences.baseAddress, count: fences.count, key)
            : _lowerBound(fences.baseAddress!, count: fences.count, key, from: fence)
        fence = f0
        // … in which the ids are searched.
        var lo = max(from, f0 > 0 ? g.fencePlace(f0 - 1) + 1 : 0)
        var hi = max(lo, f0 < fences.count ? g.fencePlace(f0) : ids.count)
        while lo < hi {
            let mid = (lo + hi) >> 1
            let pos = indexPosition(ids[mid])
            if grid.key(x: pos.x, y: pos.y) < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
