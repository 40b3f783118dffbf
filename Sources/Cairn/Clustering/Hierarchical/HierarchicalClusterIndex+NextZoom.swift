/// Between two zooms of the build: close the zoom group when it has grown too loose, drop the
/// absorbed items and merge in the new clusters (one pass), then re-sort for the next zoom's
/// larger cells (a linear merge of row pairs).
extension HierarchicalClusterIndex {
    /// Turns the items visible at `b.zoom + 1` into those visible at `b.zoom`, sorted for
    /// clustering at `b.zoom - 1`.
    func advance(_ b: _ClusterBuild) {
        let zoom = b.zoom
        let visibleAfter = b.count - b.absorbed.count + b.newClusters.count
        if (b.groupExtra.count + b.absorbed.count) * 4 > visibleAfter {
            // The items that just disappeared would make the group more than a quarter larger
            // than what its lowest zoom shows: close it at zoom + 1 and start a new one.
            // The absorbed items are counted and no longer needed: freed, the group's lists
            // may take their memory (the next zoom lists its own).
            b.absorbed = []
            finishGroup(b, lowZoom: zoom + 1)
            b.groupHighZoom = zoom
            b.groupExtra.removeAll(keepingCapacity: true)
        } else {
            b.groupExtra.append(contentsOf: b.absorbed)
            b.absorbed = []
        }

        // The cells double for the next zoom, unless they are coarser already (after sparse
        // zooms, the points stay in the cells of the first dense zoom).
        let halve = zoom > options.minZoom && _ClusterGrid.forClustering(options, zoom: zoom - 1).scale < b.grid.scale
        compactAndInsert(b, halve: halve)
        // Once `releaseItemRoomFrom` items are gone since the last shrink, a fixed count rather
        // than a share of the room, so that the room comes back early enough to lower the peak.
        if b.releaseGoneItems(threshold: releaseItemRoomFrom) { itemRoomReleases += 1 }
        if halve {
            mergeRowPairs(b)
            b.grid = b.grid.coarser
        }
    }

    /// One forward pass: drops the absorbed items, merges in the new clusters (sorted by cell in
    /// the grid they were formed in, like everything else) and, unless this was the last zoom,
    /// halves the cell keys for the next zoom's grid.
    func compactAndInsert(_ b: _ClusterBuild, halve: Bool) {
        let m = b.newClusters.count
        let grid = b.grid
        var clusterKeys = [UInt64](repeating: 0, count: m)
        var order = [UInt32](repeating: 0, count: m)
        for j in 0..<m {
            let c = Int(b.newClusters[j])
            clusterKeys[j] = grid.key(x: Float(clusterPositions[c].x), y: Float(clusterPositions[c].y))
            order[j] = UInt32(j)
        }
        if !sortBySeedRows(b, &clusterKeys, &order) {
            RadixSort.sort(keys: &clusterKeys, values: &order, count: m)
            radixSortedClusterZooms += m >= 2 ? 1 : 0
        }

        let keys = b.keys, e = b.entries, marks = b.marks, n = b.count
        let firstCluster = Int32(pointPositions.count)
        var queue = b.readAhead
        var p = 0, w = 0, j = 0
        @inline(__always) func write(_ key: UInt64, _ entry: _ItemRecord) {
            keys[w] = halve ? _halved(key) : key
            e[w] = entry
            w += 1
        }
        @inline(__always) func writeCluster() {
            let k = Int(order[j])
            let c = Int(b.newClusters[k])
            let position = clusterPositions[c]
            write(clusterKeys[j], _ItemRecord(fx: Float(position.x), fy: Float(position.y), id: firstCluster + Int32(c), rank: b.newRanks[k]))
            j += 1
        }
        // Invariant: with the queue empty, the write position is at or before the read position,
        // so the common case copies straight from read to write position.
        while true {
            if queue.isEmpty {
                while p < n && marks.isAbsorbed(p) { p += 1 }
                if j == m {
                    // No cluster left to insert: the rest is plain compaction.
                    while p < n {
                        if !marks.isAbsorbed(p) { write(keys[p], e[p]) }
                        p += 1
                    }
                    break
                }
                if p == n {
                    writeCluster()
                    continue
                }
                if clusterKeys[j] >= keys[p] {
                    write(keys[p], e[p])  // ties: the item already there first
                    p += 1
                    continue
                }
                if w == p {
                    // The cluster goes where an unread item lies: read that one ahead.
                    queue.push(keys[p], e[p])
                    p += 1
                }
                writeCluster()
                continue
            }
            // Everything at or below the write position must be read before it is overwritten.
            while p <= w && p < n {
                if !marks.isAbsorbed(p) { queue.push(keys[p], e[p]) }
                p += 1
            }
            if j < m && clusterKeys[j] < queue.frontKey {
                writeCluster()
            } else {
                let (key, entry) = queue.pop()
                write(key, entry)
            }
        }
        b.readAhead = queue
        b.count = w
    }

    /// Sorts the new clusters' keys by the rows of their seeds (`_sortNearReferenceRows`) where
    /// the staging made one cluster per seed, in the seeds' order. The seeds' rows and the sort's
    /// lists go in the space-order block, free between zooms. False, with nothing sorted, where
    /// that does not apply or would not be fast.
    private func sortBySeedRows(_ b: _ClusterBuild, _ clusterKeys: inout [UInt64], _ order: inout [UInt32]) -> Bool {
        let m = clusterKeys.count
        let scratch = b.spaceOrder
        let listBytes = _nearRowSortBytes(m)
        guard b.stagedOnePerSeed, listBytes + m * MemoryLayout<UInt32>.stride <= scratch.byteCount else { return false }
        let rows = (scratch.raw + listBytes).bindMemory(to: UInt32.self, capacity: m)
        let keys = b.keys
        var s = 0
        scratch.claiming.forEach(below: b.count) { seed in
            if s < m { rows[s] = UInt32(truncatingIfNeeded: keys[seed] >> 32) }
            s += 1
        }
        return s == m && _sortNearReferenceRows(&clusterKeys, &order, referenceRows: rows, lists: scratch.raw)
    }

    /// After halving, each row of the coarser grid is two runs sorted by column (old rows 2k
    /// and 2k+1, one after the other): where the second starts below the end of the first,
    /// merge them.
    private func mergeRowPairs(_ b: _ClusterBuild) {
        let keys = b.keys
        let n = b.count
        var rowStart = 0
        var p = 1
        while p < n {
            let key = keys[p]
            if key >> 32 != keys[p - 1] >> 32 {
                rowStart = p
            } else if key < keys[p - 1] {
                var rowEnd = p + 1
                while rowEnd < n && keys[rowEnd] >> 32 == key >> 32 { rowEnd += 1 }
                mergeRuns(b, rowStart, p, rowEnd)
                p = rowEnd
                rowStart = rowEnd
            }
            p += 1
        }
    }

    /// Stable in-place merge of the sorted runs [a, m) and [m, end) by key.
    private func mergeRuns(_ b: _ClusterBuild, _ a: Int, _ m: Int, _ end: Int) {
        let left = m - a
        b.reserveRun(left)
        let keys = b.keys, e = b.entries, runKeys = b.runKeys, run = b.run
        for k in 0..<left {
            runKeys[k] = keys[a + k]
            run[k] = e[a + k]
        }
        var i = 0, j = m, w = a
        while i < left && j < end {
            if runKeys[i] <= keys[j] {
                keys[w] = runKeys[i]
                e[w] = run[i]
                i += 1
            } else {
                keys[w] = keys[j]
                e[w] = e[j]
                j += 1
            }
            w += 1
        }
        while i < left {
            keys[w] = runKeys[i]
            e[w] = run[i]
            i += 1
            w += 1
        }
    }

    /// Stores the zoom group `lowZoom...b.groupHighZoom`: the items visible at `lowZoom` (the
    /// build's current items) merged with those that disappeared inside the group.
    func finishGroup(_ b: _ClusterBuild, lowZoom: Int) {
        let e = b.entries, itemKeys = b.keys
        let grid = b.grid
        let extra = b.groupExtra.count
        // The items that disappeared need their cells: their positions are read in id order,
        // which is memory order, rather than in the order they disappeared, which is scattered
        // (the reads are most of this function's time).
        var keys = [UInt64](repeating: 0, count: extra)
        var order = [UInt32](repeating: 0, count: extra)
        for k in 0..<extra { keys[k] = UInt64(UInt32(bitPattern: b.groupExtra[k])) }
        RadixSort.sort(keys: &keys, values: &order, count: extra)
        for k in 0..<extra {
            let item = Int32(truncatingIfNeeded: keys[k])
            let pos = indexPosition(item)
            keys[k] = grid.key(x: pos.x, y: pos.y)
            order[k] = UInt32(bitPattern: item)
        }
        RadixSort.sort(keys: &keys, values: &order, count: extra)
        let n = b.count
        var ids = [Int32](repeating: 0, count: n + extra)
        // The fences are the keys of every `fenceStride`-th id, known here without reading
        // positions again.
        var fences: [UInt64] = []
        fences.reserveCapacity((n + extra) / _ZoomGroup.fenceStride + 1)
        var i = 0, x = 0, w = 0
        while i < n || x < extra {
            let key: UInt64
            if x == extra || (i < n && itemKeys[i] <= keys[x]) {
                key = itemKeys[i]
                ids[w] = e[i].id
                i += 1
            } else {
                key = keys[x]
                ids[w] = Int32(bitPattern: order[x])
                x += 1
            }
            if w % _ZoomGroup.fenceStride == 0 { fences.append(key) }
            w += 1
        }
        groups.append(_ZoomGroup(lowZoom: lowZoom, highZoom: b.groupHighZoom, grid: grid, ids: ids, fences: fences))
    }
}
