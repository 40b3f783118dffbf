/// Building the hierarchy: supercluster's greedy clustering, zoom by zoom from maxZoom down.
///
/// At each zoom supercluster visits the items in its data order and lets each unvisited item
/// absorb every unvisited neighbour within the radius. Its data order is the input order with
/// each cluster standing where its seed stood, so an item's place in it is a fixed "rank" (the
/// input index of the point that seeded it). That lets this build find neighbours in a spatial
/// sweep instead of a tree per zoom:
/// 1. sweep the items sorted by grid cell and keep those that have a neighbour ("active"); an
///    item with none is never a seed and only matters as a neighbour of others;
/// 2. visit the active items by rank; an item absorbs a neighbour only if the neighbour is
///    unvisited and ranks after it (every item ranked before it was visited already);
/// 3. drop absorbed items, merge rows pairwise for the next zoom's twice larger cells, and merge
///    in the new clusters.
extension HierarchicalClusterIndex {
    /// Clusters every remaining zoom. Does nothing once built.
    public func build() {
        while buildStep() > 0 {}
    }

    /// Clusters the next zoom and returns how many zooms remain (0 when the index is built), so
    /// a host can report progress or yield between zooms.
    @discardableResult
    public func buildStep() -> Int {
        if state == .built { return 0 }
        if state == .adding { beginBuild() }
        guard let b = builder else { return 0 }
        clusterZoom(b)
        advance(b)
        if b.zoom > options.minZoom {
            b.zoom -= 1
            return b.zoom - options.minZoom + 1
        }
        finishGroup(b, lowZoom: options.minZoom)
        builder = nil
        state = .built
        return 0
    }

    private func beginBuild() {
        let n = pointX.count
        pointParent = [Int32](repeating: -1, count: n)
        pointLowZoom = [UInt8](repeating: UInt8(options.minZoom), count: n)
        let bits = _cellBits(worldRadius: options.worldRadius(zoom: options.maxZoom))
        let b = _ClusterBuild(zoom: options.maxZoom, capacity: n, cellBits: bits,
                              groupHighZoom: options.maxZoom + 1)
        b.sortKeys = [UInt64](repeating: 0, count: n)
        b.sortValues = [UInt32](repeating: 0, count: n)
        for i in 0..<n {
            b.sortKeys[i] = _rowKey(x: Float(pointX[i]), y: Float(pointY[i]), cellBits: bits)
            b.sortValues[i] = UInt32(i)
        }
        RadixSort.sort(keys: &b.sortKeys, values: &b.sortValues, count: n)
        for j in 0..<n {
            let i = Int(b.sortValues[j])
            b.ids[j] = Int32(i)
            b.xs[j] = Double(Float(pointX[i]))
            b.ys[j] = Double(Float(pointY[i]))
        }
        b.count = n
        b.sortKeys = []
        b.sortValues = []
        builder = b
        state = .building
    }

    /// Step 1 and 2 of the type comment, for `b.zoom`.
    private func clusterZoom(_ b: _ClusterBuild) {
        let zoom = b.zoom
        let r = options.worldRadius(zoom: zoom)
        let r2 = r * r
        findActiveItems(b, r2: r2)

        let active = b.activePos.count
        if b.sortKeys.count < active {
            b.sortKeys = [UInt64](repeating: 0, count: active)
            b.sortValues = [UInt32](repeating: 0, count: active)
        }
        for a in 0..<active {
            b.sortKeys[a] = UInt64(rank(of: b.ids[Int(b.activePos[a])]))
            b.sortValues[a] = UInt32(a)
        }
        RadixSort.sort(keys: &b.sortKeys, values: &b.sortValues, count: active)

        for p in 0..<b.count { b.marks[p] = 0 }
        b.newClusters.removeAll(keepingCapacity: true)
        b.absorbed.removeAll(keepingCapacity: true)
        let minPoints = options.minPoints
        for o in 0..<active {
            let a = Int(b.sortValues[o])
            let i = Int(b.activePos[a])
            if b.marks[i] != 0 { continue }
            b.marks[i] = 1
            let item = b.ids[i]
            let itemRank = rank(of: item)
            let itemCount = pointCount(of: item)
            let runs = b.candidateRuns(of: i, starts: (Int(b.activeStarts[3 * a]),
                                                       Int(b.activeStarts[3 * a + 1]),
                                                       Int(b.activeStarts[3 * a + 2])))
            // Would join: unvisited, ranked after the seed, and within the radius.
            func joins(_ p: Int) -> Bool {
                p != i && b.marks[p] == 0 && rank(of: b.ids[p]) > itemRank && b.isNeighbour(p, of: i, r2: r2)
            }
            var total = itemCount
            for d in 0..<3 {
                for p in _run(runs, d) where joins(p) { total += pointCount(of: b.ids[p]) }
            }
            if total == itemCount { continue }
            if total < minPoints {
                // Too few to cluster: the neighbours are visited but stay single.
                for d in 0..<3 {
                    for p in _run(runs, d) where joins(p) { b.marks[p] = 1 }
                }
                continue
            }
            let cluster = clusterX.count
            let clusterItem = Int32(pointX.count + cluster)
            var wx = b.xs[i] * Double(itemCount)
            var wy = b.ys[i] * Double(itemCount)
            for d in 0..<3 {
                for p in _run(runs, d) where joins(p) {
                    b.marks[p] = 2
                    let weight = Double(pointCount(of: b.ids[p]))
                    wx += b.xs[p] * weight
                    wy += b.ys[p] * weight
                    absorb(b.ids[p], into: clusterItem, atZoom: zoom, b)
                }
            }
            b.marks[i] = 2
            absorb(item, into: clusterItem, atZoom: zoom, b)
            clusterX.append(wx / Double(total))
            clusterY.append(wy / Double(total))
            clusterPoints.append(UInt32(total))
            clusterParent.append(-1)
            clusterRank.append(itemRank)
            clusterZoom.append(UInt8(zoom))
            clusterLowZoom.append(UInt8(options.minZoom))
            b.newClusters.append(Int32(cluster))
        }
    }

    /// The sweep: three cursors (rows above, same, below) move forward through the sorted items
    /// while a fourth walks them, so finding each item's candidate runs costs O(1) amortised.
    private func findActiveItems(_ b: _ClusterBuild, r2: Double) {
        b.activePos.removeAll(keepingCapacity: true)
        b.activeStarts.removeAll(keepingCapacity: true)
        let n = b.count
        let rows = 1 << b.cellBits
        var cursors = (0, 0, 0)
        for j in 0..<n {
            let r = b.row(j)
            let c = b.column(j)
            let fromColumn = UInt64(c > 0 ? c - 1 : 0)
            var starts = (n, n, n)
            if r > 0 {
                let target = (UInt64(r - 1) << 32) | fromColumn
                while cursors.0 < n && b.cellKey(cursors.0) < target { cursors.0 += 1 }
                starts.0 = cursors.0
            }
            let same = (UInt64(r) << 32) | fromColumn
            while cursors.1 < n && b.cellKey(cursors.1) < same { cursors.1 += 1 }
            starts.1 = cursors.1
            if r + 1 < rows {
                let target = (UInt64(r + 1) << 32) | fromColumn
                while cursors.2 < n && b.cellKey(cursors.2) < target { cursors.2 += 1 }
                starts.2 = cursors.2
            }
            let runs = b.candidateRuns(of: j, starts: starts)
            // Most items at high zooms are alone in their 3×3 cells: only they themselves.
            if runs.0.count + runs.1.count + runs.2.count <= 1 { continue }
            var found = false
            search: for d in 0..<3 {
                for p in _run(runs, d) where p != j && b.isNeighbour(p, of: j, r2: r2) {
                    found = true
                    break search
                }
            }
            if found {
                b.activePos.append(UInt32(j))
                b.activeStarts.append(UInt32(starts.0))
                b.activeStarts.append(UInt32(starts.1))
                b.activeStarts.append(UInt32(starts.2))
            }
        }
    }

    private func absorb(_ item: Int32, into cluster: Int32, atZoom zoom: Int, _ b: _ClusterBuild) {
        let i = Int(item)
        let n = pointX.count
        if i < n {
            pointParent[i] = cluster
            pointLowZoom[i] = UInt8(zoom + 1)
        } else {
            clusterParent[i - n] = cluster
            clusterLowZoom[i - n] = UInt8(zoom + 1)
        }
        b.absorbed.append(item)
    }
}

/// One of three runs, by number, without building an array in the hot loop.
@inline(__always)
func _run(_ runs: (Range<Int>, Range<Int>, Range<Int>), _ d: Int) -> Range<Int> {
    d == 0 ? runs.0 : (d == 1 ? runs.1 : runs.2)
}
