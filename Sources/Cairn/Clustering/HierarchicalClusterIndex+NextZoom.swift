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

        var w = 0
        for p in 0..<b.count where b.marks[p] != 2 {
            b.ids[w] = b.ids[p]
            b.xs[w] = b.xs[p]
            b.ys[w] = b.ys[p]
            w += 1
        }
        b.count = w

        let bits = zoom > options.minZoom
            ? _cellBits(worldRadius: options.worldRadius(zoom: zoom - 1)) : b.cellBits
        if bits == b.cellBits - 1 {
            mergeRowPairs(b)
        } else if bits != b.cellBits {
            resort(b, cellBits: bits)
        }
        b.cellBits = bits
        mergeNewClusters(b)
    }

    /// Rows 2k and 2k+1 become row k of a grid with half as many rows: merge each pair by x.
    private func mergeRowPairs(_ b: _ClusterBuild) {
        var p = 0
        while p < b.count {
            let r = b.row(p)
            var middle = p
            while middle < b.count && b.row(middle) == r { middle += 1 }
            if r & 1 == 1 {
                p = middle
                continue
            }
            var end = middle
            while end < b.count && b.row(end) == r + 1 { end += 1 }
            if end > middle { mergeRuns(b, p, middle, end) }
            p = end
        }
    }

    /// Stable in-place merge of the sorted runs [a, m) and [m, e) by float32 x.
    private func mergeRuns(_ b: _ClusterBuild, _ a: Int, _ m: Int, _ e: Int) {
        b.runIDs.removeAll(keepingCapacity: true)
        b.runXs.removeAll(keepingCapacity: true)
        b.runYs.removeAll(keepingCapacity: true)
        for p in a..<m {
            b.runIDs.append(b.ids[p])
            b.runXs.append(b.xs[p])
            b.runYs.append(b.ys[p])
        }
        var i = 0, j = m, w = a
        let left = m - a
        while i < left && j < e {
            if Float(b.runXs[i]) <= Float(b.xs[j]) {
                b.ids[w] = b.runIDs[i]; b.xs[w] = b.runXs[i]; b.ys[w] = b.runYs[i]
                i += 1
            } else {
                b.ids[w] = b.ids[j]; b.xs[w] = b.xs[j]; b.ys[w] = b.ys[j]
                j += 1
            }
            w += 1
        }
        while i < left {
            b.ids[w] = b.runIDs[i]; b.xs[w] = b.runXs[i]; b.ys[w] = b.runYs[i]
            i += 1
            w += 1
        }
    }

    /// Sorts the visible items from scratch (only when the cell size jumps by more than 2x,
    /// which happens with unusual radius and extent options).
    private func resort(_ b: _ClusterBuild, cellBits bits: Int) {
        let n = b.count
        var keys = [UInt64](repeating: 0, count: n)
        var order = [UInt32](repeating: 0, count: n)
        for p in 0..<n {
            keys[p] = b.key(p, cellBits: bits)
            order[p] = UInt32(p)
        }
        RadixSort.sort(keys: &keys, values: &order, count: n)
        let ids = [Int32](UnsafeBufferPointer(start: b.ids, count: n))
        let xs = [Double](UnsafeBufferPointer(start: b.xs, count: n))
        let ys = [Double](UnsafeBufferPointer(start: b.ys, count: n))
        for p in 0..<n {
            let from = Int(order[p])
            b.ids[p] = ids[from]
            b.xs[p] = xs[from]
            b.ys[p] = ys[from]
        }
    }

    /// Sorts this zoom's new clusters and merges them into the visible items from the back.
    private func mergeNewClusters(_ b: _ClusterBuild) {
        let m = b.newClusters.count
        if m == 0 { return }
        var keys = [UInt64](repeating: 0, count: m)
        var order = [UInt32](repeating: 0, count: m)
        for j in 0..<m {
            let c = Int(b.newClusters[j])
            keys[j] = _rowKey(x: Float(clusterX[c]), y: Float(clusterY[c]), cellBits: b.cellBits)
            order[j] = UInt32(c)
        }
        RadixSort.sort(keys: &keys, values: &order, count: m)
        var i = b.count - 1
        var j = m - 1
        var w = b.count + m - 1
        let n = pointX.count
        while j >= 0 {
            if i >= 0 && b.key(i, cellBits: b.cellBits) > keys[j] {
                b.ids[w] = b.ids[i]; b.xs[w] = b.xs[i]; b.ys[w] = b.ys[i]
                i -= 1
            } else {
                let c = Int(order[j])
                b.ids[w] = Int32(n + c); b.xs[w] = clusterX[c]; b.ys[w] = clusterY[c]
                j -= 1
            }
            w -= 1
        }
        b.count += m
    }

    /// Stores the zoom group `lowZoom...b.groupHighZoom`: the items visible at `lowZoom` (the
    /// build's current items) merged with those that disappeared inside the group.
    func finishGroup(_ b: _ClusterBuild, lowZoom: Int) {
        let bits = b.cellBits
        let extra = b.groupExtra.count
        var keys = [UInt64](repeating: 0, count: extra)
        var order = [UInt32](repeating: 0, count: extra)
        for e in 0..<extra {
            let pos = indexPosition(b.groupExtra[e])
            keys[e] = _rowKey(x: pos.x, y: pos.y, cellBits: bits)
            order[e] = UInt32(bitPattern: b.groupExtra[e])
        }
        RadixSort.sort(keys: &keys, values: &order, count: extra)
        var ids = [Int32]()
        ids.reserveCapacity(b.count + extra)
        var i = 0, e = 0
        while i < b.count || e < extra {
            if e == extra || (i < b.count && b.key(i, cellBits: bits) <= keys[e]) {
                ids.append(b.ids[i])
                i += 1
            } else {
                ids.append(Int32(bitPattern: order[e]))
                e += 1
            }
        }
        groups.append(_ZoomGroup(lowZoom: lowZoom, highZoom: b.groupHighZoom, cellBits: bits, ids: ids))
    }
}
