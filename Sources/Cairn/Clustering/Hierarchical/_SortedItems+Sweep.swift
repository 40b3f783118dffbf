extension _SortedItems {
    /// The sweep over the sorted items: calls `body` with every item that has others in its
    /// 3×3 cells, and where its three candidate runs start (`candidateRuns` finds where they
    /// end, which costs a search in a crowded cell), in order; `body` returns false to stop (and so
    /// does this). Three cursors (rows above, same, below) move forward as the items are
    /// walked, so finding an item's runs costs O(1) amortised, and an item alone in its cells
    /// (most items at high zooms) a few comparisons. One loop with the cursors in locals: in
    /// WebAssembly a cursor type's method is not inlined and costs as much as the comparisons.
    ///
    /// Over `range` alone (by default all items), the cursors start where the walk from the
    /// first item would have brought them, found by binary search: a long sweep can be cut
    /// into calls of a bounded size (see `_callChunk`).
    @inline(__always)
    func forEachCrowded(in range: Range<Int>? = nil, _ body: (Int, (Int, Int, Int)) -> Bool) -> Bool {
        let n = count
        let range = range ?? 0..<n
        if range.isEmpty { return true }
        var cursor0 = 0, cursor1 = 0, cursor2 = 0
        if range.lowerBound > 0 {
            // The first position whose key is not below each cursor's target for that item.
            let key = keys[range.lowerBound]
            let row = key >> 32, column = key & 0xFFFF_FFFF
            let first = column > 0 ? column - 1 : 0
            if row > 0 { cursor0 = _lowerBound(UnsafePointer(keys), count: n, ((row - 1) << 32) | first) }
            cursor1 = _lowerBound(UnsafePointer(keys), count: n, (row << 32) | first)
            cursor2 = _lowerBound(UnsafePointer(keys), count: n, ((row + 1) << 32) | first)
        }
        let keyAt = { (p: Int) -> UInt64 in p < n ? self.keys[p] : .max }
        var key0 = keyAt(cursor0), key1 = keyAt(cursor1), key2 = keyAt(cursor2)
        var keyJ = keys[range.lowerBound]
        for j in range {
            let keyNext: UInt64 = j + 1 < n ? keys[j + 1] : .max
            let row = keyJ >> 32
            let column = keyJ & 0xFFFF_FFFF
            let first = column > 0 ? column - 1 : 0
            let last = column + 1
            var others = false
            var starts = (n, n, n)
            if row > 0 {
                let target = ((row - 1) << 32) | first
                while key0 < target { cursor0 += 1; key0 = cursor0 < n ? keys[cursor0] : .max }
                starts.0 = cursor0
                if key0 <= ((row - 1) << 32) | last { others = true }
            }
            let target1 = (row << 32) | first
            while key1 < target1 { cursor1 += 1; key1 = cursor1 < n ? keys[cursor1] : .max }
            starts.1 = cursor1
            if cursor1 != j || keyNext <= (row << 32) | last { others = true }
            let target2 = ((row + 1) << 32) | first
            while key2 < target2 { cursor2 += 1; key2 = cursor2 < n ? keys[cursor2] : .max }
            starts.2 = cursor2
            if key2 <= ((row + 1) << 32) | last { others = true }
            keyJ = keyNext
            if others && !body(j, starts) { return false }
        }
        return true
    }
}

extension _SortedItems {
    /// The sweep that meets each pair of nearby items once, from the one earlier in sorted
    /// order: calls `body` with every item that has a later item in its 3×3 cells, with the
    /// bounds of those later items: the rest of its own row's run (positions from `j + 1`
    /// while the key is at most `sameEnd`) and the row below's run (from `below` while the key
    /// is at most `belowEnd`). One cursor, for the row below. `body` returns false to stop
    /// (and so does this).
    ///
    /// The keys need one more slot, past the last item: it is set to the largest key, so that
    /// no step reads past the items without a check. The cursor moves 0, 1 or 2 places for
    /// most items, a coin flip for a branch: two steps are taken by adding a comparison's
    /// outcome, and a loop finishes longer moves.
    @inline(__always)
    func forEachForward(_ body: (_ j: Int, _ sameEnd: UInt64, _ below: Int, _ belowEnd: UInt64) -> Bool) -> Bool {
        let n = count
        if n == 0 { return true }
        keys[n] = .max
        var below = 0
        for j in 0..<n {
            let key = keys[j]
            let row = key >> 32, column = key & 0xFFFF_FFFF
            let sameEnd = (row << 32) | (column + 1)
            let belowFirst = ((row + 1) << 32) | (column > 0 ? column - 1 : 0)
            below &+= keys[below] < belowFirst ? 1 : 0
            below &+= keys[below] < belowFirst ? 1 : 0
            while keys[below] < belowFirst { below += 1 }
            let belowEnd = ((row + 1) << 32) | (column + 1)
            // Alone in its run and the row below's: most items at the sparser zooms.
            if keys[j + 1] > sameEnd && keys[below] > belowEnd { continue }
            if !body(j, sameEnd, below, belowEnd) { return false }
        }
        return true
    }
}

extension _SortedItems {
    /// Whether item `j` has another within `r2` of its clustering position `centre`, walking its runs
    /// from where they start and stopping at the first: in a crowded cell that is at once,
    /// where finding where the runs end would take a search per item. The items next to it
    /// first, then its own row: the nearest items are most likely there, and a crowded row
    /// above can hold thousands of items out of reach of one near the cell's bottom.
    @inline(__always)
    func hasNeighbour(_ j: Int, centre: (x: Double, y: Double), starts: (Int, Int, Int), r2: Double) -> Bool {
        let key = keys[j]
        let row = key >> 32, last = (key & 0xFFFF_FFFF) + 1
        if j + 1 < count && keys[j + 1] <= (row << 32) | last && _isWithin(entries[j + 1].fx, entries[j + 1].fy, centre, r2) {
            return true
        }
        if j > starts.1 && _isWithin(entries[j - 1].fx, entries[j - 1].fy, centre, r2) { return true }
        for k in 0..<3 {
            // Rows in the order same (d = 1), above (0), below (2).
            let d = k == 0 ? 1 : (k == 1 ? 0 : 2)
            var p = d == 0 ? starts.0 : (d == 1 ? starts.1 : starts.2)
            let through = ((row &+ UInt64(d)) &- 1) << 32 | last
            while p < count && keys[p] <= through {
                if p != j && _isWithin(entries[p].fx, entries[p].fy, centre, r2) { return true }
                p += 1
            }
        }
        return false
    }
}
