/// Between two zooms of the build: close the zoom group when it has grown too loose, drop the
/// absorbed items, re-sort for the next zoom's larger cells (a linear merge of row pairs) and
/// merge in the new clusters.
extension HierarchicalClusterIndex {
    /// Turns the items visible at `b.zoom + 1` into those visible at `b.zoom`, sorted for
    /// clustering at `b.zoom - 1`.
    func advance(_ b: _ClusterBuild) {
        let zoom = b.zoom
        let visibleAfter = b.count - b.absorbed.count + b.newClusters.count
        if (b.groupExtra.count + b.absorbed.count) * 4 > visibleAfter {
            // The items that just disappeared would make the group more than a quarter larger
            // than what its lowest zoom shows: close it at zoom + 1 and start a new one.
            finishGroup(b, lowZoom: zoom + 1)
            b.groupHighZoom = zoom
            b.groupExtra.removeAll(keepingCapacity: true)
        } else {
            b.groupExtra.append(contentsOf: b.absorbed)
        }

        if !b.absorbed.isEmpty {
            let e = b.entries
            let marks = b.marks
            var w = 0
            for p in 0..<b.count where !marks.isAbsorbed(p) {
                e[w] = e[p]
                w += 1
            }
            b.count = w
        }

        if zoom > options.minZoom {
            mergeRowPairs(b)
            b.grid = b.grid.coarser
        }
        mergeNewClusters(b)
    }

    /// Rows 2k and 2k+1 become row k of the coarser grid: merge each pair by the coarser
    /// column, then halve every cell key (row and column both shift by one bit).
    private func mergeRowPairs(_ b: _ClusterBuild) {
        let e = b.entries
        let n = b.count
        func row(_ p: Int) -> UInt64 { p < n ? e[p].key >> 32 : .max }
        var p = 0
        var rowP = row(0)
        while p < n {
            var middle = p + 1
            var rowM = row(middle)
            while middle < n && rowM == rowP { middle += 1; rowM = row(middle) }
            if rowP & 1 == 1 || rowM != rowP + 1 {
                p = middle
                rowP = rowM
                continue
            }
            var end = middle + 1
            var rowE = row(end)
            while end < n && rowE == rowM { end += 1; rowE = row(end) }
            // Already in order (common: sparse rows) unless the first run reaches past the
            // start of the second.
            if _halfColumn(e[middle - 1].key) > _halfColumn(e[middle].key) { mergeRuns(b, p, middle, end) }
            p = end
            rowP = rowE
        }
        for q in 0..<n {
            let key = e[q].key
            e[q].key = ((key >> 33) << 32) | ((key & 0xFFFF_FFFF) >> 1)
        }
    }

    /// Stable in-place merge of the sorted runs [a, m) and [m, e) by coarser column.
    private func mergeRuns(_ b: _ClusterBuild, _ a: Int, _ m: Int, _ end: Int) {
        let left = m - a
        b.reserveRun(left)
        let e = b.entries, run = b.run
        for k in 0..<left { run[k] = e[a + k] }
        var i = 0, j = m, w = a
        while i < left && j < end {
            if _halfColumn(run[i].key) <= _halfColumn(e[j].key) {
                e[w] = run[i]
                i += 1
            } else {
                e[w] = e[j]
                j += 1
            }
            w += 1
        }
        while i < left {
            e[w] = run[i]
            i += 1
            w += 1
        }
    }

    /// Sorts this zoom's new clusters and merges them into the visible items from the back.
    private func mergeNewClusters(_ b: _ClusterBuild) {
        let m = b.newClusters.count
        if m == 0 { return }
        let grid = b.grid
        var keys = [UInt64](repeating: 0, count: m)
        var order = [UInt32](repeating: 0, count: m)
        for j in 0..<m {
            let c = Int(b.newClusters[j])
            keys[j] = grid.key(x: Float(clusterX[c]), y: Float(clusterY[c]))
            order[j] = UInt32(j)
        }
        RadixSort.sort(keys: &keys, values: &order, count: m)
        let e = b.entries
        var i = b.count - 1
        var j = m - 1
        var w = b.count + m - 1
        let n = pointX.count
        while j >= 0 {
            if i >= 0 && e[i].key > keys[j] {
                e[w] = e[i]
                i -= 1
            } else {
                let k = Int(order[j])
                let c = Int(b.newClusters[k])
                e[w] = _Entry(key: keys[j], x: clusterX[c], y: clusterY[c], id: Int32(n + c), rank: b.newRanks[k])
                j -= 1
            }
            w -= 1
        }
        b.count += m
    }

    /// Stores the zoom group `lowZoom...b.groupHighZoom`: the items visible at `lowZoom` (the
    /// build's current items) merged with those that disappeared inside the group.
    func finishGroup(_ b: _ClusterBuild, lowZoom: Int) {
        let e = b.entries
        let grid = b.grid
        let extra = b.groupExtra.count
        var keys = [UInt64](repeating: 0, count: extra)
        var order = [UInt32](repeating: 0, count: extra)
        for k in 0..<extra {
            let pos = indexPosition(b.groupExtra[k])
            keys[k] = grid.key(x: pos.x, y: pos.y)
            order[k] = UInt32(bitPattern: b.groupExtra[k])
        }
        RadixSort.sort(keys: &keys, values: &order, count: extra)
        let n = b.count
        var ids = [Int32](repeating: 0, count: n + extra)
        var i = 0, x = 0, w = 0
        while i < n || x < extra {
            if x == extra || (i < n && e[i].key <= keys[x]) {
                ids[w] = e[i].id
                i += 1
            } else {
                ids[w] = Int32(bitPattern: order[x])
                x += 1
            }
            w += 1
        }
        groups.append(_ZoomGroup(lowZoom: lowZoom, highZoom: b.groupHighZoom, grid: grid, ids: ids))
    }
}

/// The column of a cell key in the grid with cells twice as wide.
@inline(__always)
func _halfColumn(_ key: UInt64) -> UInt64 { (key & 0xFFFF_FFFF) >> 1 }
