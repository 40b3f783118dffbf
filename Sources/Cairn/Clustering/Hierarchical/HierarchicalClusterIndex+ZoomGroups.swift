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
        forEachItem(minX: minX, minY: minY, maxX: maxX, maxY: maxY, zoom: zoom, checkingVisibility: true) {
            body($0)
            return true
        }
    }

    /// `forEachItem` for callers that stop early (`body` returns false to stop; then this
    /// returns false) or that check visibility themselves (`checkingVisibility` false: every item
    /// of `zoom`'s group in the rectangle, visible at some zoom of the group).
    @discardableResult
    func forEachItem(minX: Double, minY: Double, maxX: Double, maxY: Double, zoom: Int,
                     checkingVisibility: Bool, while body: (Int32) -> Bool) -> Bool {
        guard let g = group(forZoom: zoom), !g.ids.isEmpty else { return true }
        guard minX <= maxX && minY <= maxY && maxX >= 0 && maxY >= 0 && minX <= 1 && minY <= 1 else { return true }
        // A float32 position ≥ minX lies in a cell ≥ that of Float(minX) (rounding is monotone).
        let grid = g.grid
        // A group of one zoom holds exactly what that zoom shows: no visibility to check.
        let checkZoom = checkingVisibility && g.lowZoom != g.highZoom
        let firstRow = grid.cell(Float(max(minY, 0)))
        let lastRow = grid.cell(Float(min(maxY, 1)))
        let firstColumn = grid.cell(Float(max(minX, 0)))
        let lastColumn = grid.cell(Float(min(maxX, 1)))
        let visibleAt = checkZoom ? zoom : -1
        return g.ids.withUnsafeBufferPointer { ids in
            g.fences.withUnsafeBufferPointer { fences in
                // How many ids the rows span, to within two fences, from the fences alone.
                let rowsStart = firstRow << 32, rowsEnd = (lastRow + 1) << 32
                let startFence = _lowerBound(fences.baseAddress, count: fences.count, rowsStart)
                let endFence = startFence == fences.count ? startFence
                    : _lowerBound(fences.baseAddress!, count: fences.count, rowsEnd, from: startFence)
                let spanned = (endFence < fences.count ? g.fencePlace(endFence) : ids.count)
                    - (startFence > 0 ? g.fencePlace(startFence - 1) : 0)
                // Keys only grow from search to search, so each fence search goes on from the
                // fence where the last one stopped.
                var fence = startFence
                let rect = (minX: minX, minY: minY, maxX: maxX, maxY: maxY)
                // A wide query scans its span of rows once; a narrow one jumps from row to row.
                if spanned <= (Int(lastRow - firstRow) + 1) * 16 {
                    let start = lowerBound(g, ids, fences, from: 0, fence: &fence, rowsStart)
                    return visit(g.grid, ids, from: start, below: rowsEnd, rect, visibleAt, body) >= 0
                }
                var from = 0
                for row in firstRow...lastRow {
                    let start = lowerBound(g, ids, fences, from: from, fence: &fence, (row << 32) | firstColumn)
                    from = visit(g.grid, ids, from: start, below: (row << 32) | (lastColumn + 1), rect, visibleAt, body)
                    if from < 0 { return false }
                }
                return true
            }
        }
    }

    /// Calls `body` with each item from `start` on, up to the first whose cell key is not below
    /// `end`, that lies in the rectangle and (for `zoom` ≥ 0) is visible; returns where it stopped
    /// (-1 where `body` asked to stop).
    /// The ids' positions, and then the visibility of those in the rectangle, are read a batch at
    /// a time, each in a loop of its own: they lie scattered in memory, and loads that do not wait
    /// on each other overlap their misses, where reading each just before its checks and its
    /// caller's work would wait for each. (Finding the end from the positions read anyway costs
    /// no search of its own.)
    private func visit(_ grid: _ClusterGrid, _ ids: UnsafeBufferPointer<Int32>, from start: Int, below end: UInt64,
                       _ rect: (minX: Double, minY: Double, maxX: Double, maxY: Double), _ zoom: Int,
                       _ body: (Int32) -> Bool) -> Int {
        // Batches grow from 2: a narrow query's row often ends after an item or two, and
        // reading far past its end would cost misses of its own.
        let largest = 32
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * largest) { xy in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: largest) { shown in
                var k = start, batch = 2
                while k < ids.count {
                    let m = min(batch, ids.count - k)
                    batch = min(2 * batch, largest)
                    for t in 0..<m {
                        let pos = indexPosition(ids[k + t])
                        xy[2 * t] = pos.x
                        xy[2 * t + 1] = pos.y
                    }
                    var stop = m
                    for t in 0..<m {
                        let fx = xy[2 * t], fy = xy[2 * t + 1]
                        if grid.key(x: fx, y: fy) >= end {
                            stop = t
                            break
                        }
                        let x = Double(fx), y = Double(fy)
                        shown[t] = x >= rect.minX && x <= rect.maxX && y >= rect.minY && y <= rect.maxY
                            && (zoom < 0 || isVisible(ids[k + t], zoom: zoom))
                    }
                    for t in 0..<stop where shown[t] {
                        if !body(ids[k + t]) { return -1 }
                    }
                    if stop < m { return k + stop }
                    k += m
                }
                return k
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
