/// Where the build's sparse zooms end, and which points they must look at.
///
/// At high zooms the radius is tiny and almost every point is alone: a sweep over all items per
/// zoom (and the re-sort for the next zoom's cells) would be spent on nothing. So the build
/// sorts the points once, in the cells of the first zoom it will cluster densely, and measures
/// each point's distance to its nearest point there; at each zoom above, only the points
/// whose nearest point is within the radius, the clusters formed so far and the points near
/// those clusters can have a neighbour (see `+SparseZooms`).
extension HierarchicalClusterIndex {
    /// The highest zoom to cluster densely: the first, from maxZoom down, at which more than
    /// one point in 16 is estimated to have a point within the radius. Estimated on a sample
    /// of 8,192 points, with the radius scaled up as the sample is sparser (as for points
    /// spread evenly); a wrong estimate costs time, never correctness.
    func denseFromZoom() -> Int {
        let n = pointPositions.count
        if let forced = denseFromZoomOverride { return max(options.minZoom, min(options.maxZoom, forced)) }
        // The sparse zooms measure points at their float32 positions and count them one each.
        guard options.minPoints == 2, n >= 1 << 16, !isWeighted else { return options.maxZoom }
        let m = 8192
        let step = n / m
        let scale = (Double(n) / Double(m)).squareRoot()
        var keys = [UInt64](repeating: 0, count: m)
        var entries = [_ItemRecord](repeating: _ItemRecord(fx: 0, fy: 0, id: 0, rank: 0), count: m)
        var order = [UInt32](repeating: 0, count: m)
        for zoom in stride(from: options.maxZoom, to: options.minZoom, by: -1) {
            let r = options.worldRadius(zoom: zoom) * scale
            let grid = _ClusterGrid(scale: 1 / r)
            for k in 0..<m {
                let p = pointPositions[k * step]
                keys[k] = grid.key(x: Float(p.x), y: Float(p.y))
                order[k] = UInt32(k * step)
            }
            RadixSort.sort(keys: &keys, values: &order, count: m)
            for k in 0..<m {
                let p = pointPositions[Int(order[k])]
                entries[k] = _ItemRecord(fx: Float(p.x), fy: Float(p.y), id: 0, rank: 0)
            }
            var crowded = 0
            keys.withUnsafeMutableBufferPointer { kb in
                entries.withUnsafeMutableBufferPointer { eb in
                    let items = _SortedItems(keys: kb.baseAddress!, entries: eb.baseAddress!, count: m, grid: grid)
                    _ = items.forEachCrowded { j, starts in
                        if items.hasNeighbour(j, centre: eb[j].pointPosition, starts: starts, r2: r * r) { crowded += 1 }
                        return true
                    }
                }
            }
            if crowded * 16 > m { return zoom }
        }
        return options.minZoom
    }

    /// Measures, for every point of a build sorted in the cells of `sparse.denseFrom`, the
    /// highest zoom above it at which its nearest point lies within the radius, and counts the
    /// points by that zoom. Each pair of nearby points is measured once (`forEachForward`),
    /// counts for both, and is kept with that zoom, so the sparse zooms find the pairs of
    /// points without a search (see `collectPairs`). Points in crowded cells are not measured:
    /// they count as active from the top and search for their pairs at each zoom.
    func measureActivation(_ b: _ClusterBuild, _ sparse: _SparseZoomState) {
        let top = options.maxZoom, bottom = sparse.denseFrom
        var radii: [Double] = []
        for zoom in stride(from: top, to: bottom, by: -1) {
            let r = options.worldRadius(zoom: zoom)
            radii.append(r * r)
        }
        let items = b.items
        let e = items.entries, n = items.count
        // Per point, the highest zoom at which its nearest point lies within the radius (0 if
        // none above `denseFrom`), or the top where it was not measured.
        var activation = [UInt8](repeating: 0, count: n)
        let levels = radii.count
        let fromTop = UInt8(top)
        let unmeasured = sparse.unmeasured
        unmeasured.clear(n)
        // The pairs within the radius at some sparse zoom, as `zoom << 58 | j << 29 | p`; a
        // sixteenth of the point count at most (1 byte per point), beyond which a point's pairs
        // are left to its search.
        var found: [UInt64] = []
        let pairLimit = n / 16 + 1024
        activation.withUnsafeMutableBufferPointer { activation in
            radii.withUnsafeBufferPointer { radii in
                // The highest zoom at which a squared distance is within the radius, or 0.
                @inline(__always) func zoom(within d2: Double) -> UInt8 {
                    var k = levels
                    while k > 0 && d2 <= radii[k - 1] { k -= 1 }
                    return k < levels ? UInt8(top - k) : 0
                }
                // Points in runs too long to measure (a crowded cell) count as active from the
                // top; the runs' starts and ends only move forward, so each is marked once.
                var markedSame = 0, markedBelow = 0
                @inline(__always) func markFromTop(_ run: Range<Int>, _ marked: inout Int) {
                    var p = Swift.max(run.lowerBound, marked)
                    while p < run.upperBound {
                        activation[p] = fromTop
                        unmeasured.insert(p)
                        p += 1
                    }
                    marked = Swift.max(marked, run.upperBound)
                }
                _ = items.forEachForward { j, sameEnd, below, belowEnd in
                    let same = (j + 1)..<items.runEnd(j + 1, through: sameEnd)
                    let under = below..<items.runEnd(below, through: belowEnd)
                    if same.count + under.count > 32 {
                        activation[j] = fromTop
                        unmeasured.insert(j)
                        markFromTop(same, &markedSame)
                        markFromTop(under, &markedBelow)
                        return true
                    }
                    // Points only: a point's clustering position is its float32 one, so the
                    // distance is the same measured from either side.
                    let (x, y) = e[j].pointPosition
                    var nearest = Double.infinity
                    let keep = found.count + same.count + under.count <= pairLimit
                    if !keep { unmeasured.insert(j) }
                    @inline(__always) func measure(_ run: Range<Int>) {
                        for p in run {
                            let q = e[p].pointPosition
                            let dx = q.x - x, dy = q.y - y
                            let d2 = dx * dx + dy * dy
                            nearest = Swift.min(nearest, d2)
                            let z = zoom(within: d2)
                            activation[p] = Swift.max(activation[p], z)
                            if z != 0 && keep { found.append(UInt64(z) << 58 | UInt64(j) << 29 | UInt64(p)) }
                        }
                    }
                    measure(same)
                    measure(under)
                    activation[j] = Swift.max(activation[j], zoom(within: nearest))
                    return true
                }
            }
        }
        countActive(activation, sparse)
        listPairs(found, sparse, unmeasured: unmeasured)
        var searching: [UInt32] = []
        unmeasured.forEach(in: 0..<n) { searching.append(UInt32($0)) }
        sparse.unmeasuredPoints = searching
        searchedSparsePoints = searching.count
    }

    /// Counts the points active at each sparse zoom: those whose activation zoom is at or
    /// above it.
    private func countActive(_ activation: [UInt8], _ sparse: _SparseZoomState) {
        let top = options.maxZoom, levels = top - sparse.denseFrom
        var perZoom = [Int](repeating: 0, count: levels)
        for a in activation where a != 0 { perZoom[top - Int(a)] += 1 }
        sparse.activeCount = _runningSums(perZoom)
    }

    /// Lists the measured pairs of measured points by zoom, highest first; a pair with an
    /// unmeasured point is left to that point's search.
    private func listPairs(_ found: [UInt64], _ sparse: _SparseZoomState, unmeasured: _Bitset) {
        let top = options.maxZoom, levels = top - sparse.denseFrom
        let mask: UInt64 = (1 << 29) - 1
        @inline(__always) func kept(_ pair: UInt64) -> Bool {
            !unmeasured.contains(Int((pair >> 29) & mask)) && !unmeasured.contains(Int(pair & mask))
        }
        var perZoom = [Int](repeating: 0, count: levels)
        for pair in found where kept(pair) { perZoom[top - Int(pair >> 58)] += 1 }
        let ends = _runningSums(perZoom)
        var next = [0] + ends.dropLast()
        var pairs = [UInt64](repeating: 0, count: ends.last ?? 0)
        for pair in found where kept(pair) {
            let k = top - Int(pair >> 58)
            pairs[next[k]] = ((pair >> 29) & mask) << 32 | (pair & mask)
            next[k] += 1
        }
        sparse.pairs = pairs
        sparse.pairEnd = ends
    }
}

/// The running sums of `counts`: where each group ends when they are laid out in order.
func _runningSums(_ counts: [Int]) -> [Int] {
    var ends: [Int] = []
    var sum = 0
    for c in counts {
        sum += c
        ends.append(sum)
    }
    return ends
}
