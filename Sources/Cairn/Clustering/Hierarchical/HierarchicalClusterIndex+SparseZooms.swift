/// Clustering a sparse zoom: one where few items have a neighbour (see `+SparsePlan`).
///
/// The points stay where the build sorted them; the clusters formed at sparse zooms are kept
/// apart, in a small list, and absorbed points are only marked. At each zoom the items that
/// can have a neighbour — points whose nearest point is within the radius, those clusters, and
/// the points near them — and their pairs within the radius form a small graph, on which the
/// greedy clustering runs by rank exactly as on all items (an item without a neighbour neither
/// absorbs nor is absorbed). When a zoom has too many such items, or the zoom group could
/// close, the phase ends: the clusters are merged into the sorted items, as between any two
/// zooms, and the build goes on densely.
extension HierarchicalClusterIndex {
    /// Clusters `b.zoom` as a sparse zoom; returns false, having changed nothing, when the
    /// zoom must be clustered densely.
    func clusterSparseZoom(_ b: _ClusterBuild, _ sparse: _SparseZoomState) -> Bool {
        let zoom = b.zoom
        if zoom <= sparse.denseFrom { return false }
        let candidates = sparse.activeCount[options.maxZoom - zoom]
        let limit = b.count / 16 + 64
        if candidates + 9 * b.newClusters.count > limit { return false }
        let r = options.worldRadius(zoom: zoom)
        var graph = _SparseGraph()
        collectPairs(b, sparse, zoom: zoom, r2: r * r, into: &graph)
        graph.finish(b)
        // Absorbing every node could close the zoom group, which needs the items sorted.
        let nodes = graph.nodeCount
        if nodes > limit || (b.groupExtra.count + nodes) * 4 > sparse.visible - nodes { return false }

        b.clearStaged()
        withItemAccess { items in clusterGraph(b, &graph, items, r2: r * r) }
        // Absorbed clusters leave the list; the new ones join it (`storeZoom`).
        var kept = 0
        for k in 0..<b.newClusters.count where !graph.sideAbsorbed[k] {
            b.newClusters[kept] = b.newClusters[k]
            b.newRanks[kept] = b.newRanks[k]
            kept += 1
        }
        b.newClusters.removeLast(b.newClusters.count - kept)
        b.newRanks.removeLast(b.newRanks.count - kept)
        sparse.visible += b.staged.count - b.absorbed.count
        storeZoom(b)   // frees the staged clusters
        b.groupExtra.append(contentsOf: b.absorbed)
        return true
    }

    /// Ends the sparse zooms: drops the absorbed points and merges the clusters into the sorted
    /// items. They stay in the cells they were sorted in when those are at most twice as wide
    /// as this zoom's (wider cells only widen the candidate runs, until the build reaches
    /// `denseFrom`); the phase ending earlier, they are sorted again in this zoom's cells.
    func endSparseZooms(_ b: _ClusterBuild) {
        let visible = b.sparse?.visible
        compactAndInsert(b, halve: false)
        // The phase counted the visible items to decide when to end (a debug check: tests
        // build with it).
        assert(visible == nil || visible == b.count, "sparse zooms counted \(visible ?? -1) visible items, not \(b.count)")
        b.sparse = nil
        let grid = _ClusterGrid.forClustering(options, zoom: b.zoom)
        if grid.scale > 2 * b.grid.scale { refineCells(b, grid) }
    }

    /// Sorts the items by the cells of a finer grid. Each row of the coarser grid holds whole
    /// rows of the finer one, so it is sorted on its own (one row's scratch at a time).
    private func refineCells(_ b: _ClusterBuild, _ grid: _ClusterGrid) {
        let keys = b.keys, e = b.entries, n = b.count
        var rowStart = 0
        var run: [(key: UInt64, at: Int, entry: _ItemRecord)] = []
        while rowStart < n {
            var rowEnd = rowStart + 1
            while rowEnd < n && keys[rowEnd] >> 32 == keys[rowStart] >> 32 { rowEnd += 1 }
            run.removeAll(keepingCapacity: true)
            for p in rowStart..<rowEnd { run.append((grid.key(x: e[p].fx, y: e[p].fy), p, e[p])) }
            run.sort { $0.key != $1.key ? $0.key < $1.key : $0.at < $1.at }
            for (k, item) in run.enumerated() {
                keys[rowStart + k] = item.key
                e[rowStart + k] = item.entry
            }
            rowStart = rowEnd
        }
        b.grid = grid
    }

    /// The pairs of items within the radius of each other (either way round) at this zoom.
    private func collectPairs(_ b: _ClusterBuild, _ sparse: _SparseZoomState, zoom: Int, r2: Double,
                              into graph: inout _SparseGraph) {
        let s = b.items
        let e = s.entries
        let marks = b.marks
        let n = s.count
        let firstPoint = pointPositions.count
        // The clusters, sorted by cell like the points, with their index in the list as rank
        // order does not matter here.
        var sideKeys: [UInt64] = []
        var sideOrder: [UInt32] = []
        for (k, c) in b.newClusters.enumerated() {
            let pos = clusterPositions[Int(c)]
            sideKeys.append(s.grid.key(x: Float(pos.x), y: Float(pos.y)))
            sideOrder.append(UInt32(k))
        }
        RadixSort.sort(keys: &sideKeys, values: &sideOrder, count: sideKeys.count)
        var sideEntries: [_ItemRecord] = sideOrder.map { k in
            let c = Int(b.newClusters[Int(k)])
            let pos = clusterPositions[c]
            return _ItemRecord(fx: Float(pos.x), fy: Float(pos.y), id: Int32(firstPoint + c), rank: b.newRanks[Int(k)])
        }
        graph.side = sideEntries
        graph.sideList = sideOrder
        // Measured pairs of points: listed already (see `measureActivation`).
        for k in 0..<sparse.pairEnd[options.maxZoom - zoom] {
            let pair = sparse.pairs[k]
            let p = Int(pair >> 32), q = Int(pair & 0xFFFF_FFFF)
            if !marks.isAbsorbed(p) && !marks.isAbsorbed(q) { graph.addPair(UInt32(p), UInt32(q)) }
        }
        let unmeasured = sparse.unmeasured
        withClusteringPositions { positions in
            sideKeys.withUnsafeMutableBufferPointer { kb in
                sideEntries.withUnsafeMutableBufferPointer { eb in
                    let side = _SortedItems(keys: kb.baseAddress!, entries: eb.baseAddress!, count: kb.count, grid: s.grid)
                    @inline(__always) func near(_ a: _ItemRecord, _ c: _ItemRecord) -> Bool {
                        _isWithin(a.fx, a.fy, positions.of(c), r2) || _isWithin(c.fx, c.fy, positions.of(a), r2)
                    }
                    // Points not measured: pairs with the measured points around them, and with the
                    // later unmeasured ones (the earlier found this one).
                    for u in sparse.unmeasuredPoints {
                        let p = Int(u)
                        if marks.isAbsorbed(p) { continue }
                        let runs = s.runs(around: s.keys[p], near: p)
                        for d in 0..<3 {
                            for q in _run(runs, d) where q != p && (q > p || !unmeasured.contains(q)) &&
                                !marks.isAbsorbed(q) && near(e[q], e[p]) {
                                graph.addPair(UInt32(p), UInt32(q))
                            }
                        }
                    }
                    // Clusters: pairs with the points around them and with later clusters. The
                    // clusters go up the sorted points as they go up their own list: each search
                    // starts where the last one's same-row run began.
                    var hint = n / 2
                    for c in 0..<side.count {
                        let key = side.keys[c]
                        let runs = s.runs(around: key, near: hint)
                        hint = runs.1.lowerBound
                        for d in 0..<3 {
                            for q in _run(runs, d) where !marks.isAbsorbed(q) && near(e[q], side.entries[c]) {
                                graph.addPair(UInt32(n + c), UInt32(q))
                            }
                        }
                        let sideRuns = side.runs(around: key, near: c)
                        for d in 0..<3 {
                            for c2 in _run(sideRuns, d) where c2 > c && near(side.entries[c2], side.entries[c]) {
                                graph.addPair(UInt32(n + c), UInt32(n + c2))
                            }
                        }
                    }
                }
            }
        }
    }

    /// The greedy clustering on the graph, by rank: each item not yet absorbed absorbs its
    /// unabsorbed later-ranked neighbours within its radius (minPoints is 2 here).
    private func clusterGraph(_ b: _ClusterBuild, _ graph: inout _SparseGraph, _ items: _ItemAccess, r2: Double) {
        let marks = b.marks
        let n = b.count
        let firstCluster = Int32(pointPositions.count + clusterPositions.count)
        var absorbed = [Bool](repeating: false, count: graph.nodeCount)
        var members: [Int] = []
        for a in graph.byRank {
            if absorbed[a] { continue }
            let seed = graph.entry(a)
            let centre = items.clusteringPosition(seed)
            members.removeAll(keepingCapacity: true)
            for m in graph.neighbours(of: a) where !absorbed[m] {
                let other = graph.entry(m)
                if other.rank > seed.rank && _isWithin(other.fx, other.fy, centre, r2) {
                    members.append(m)
                }
            }
            if members.isEmpty { continue }
            let clusterItem = firstCluster + Int32(b.staged.count)
            var total = items.pointCount(seed.id)
            var wx = centre.x * Double(total), wy = centre.y * Double(total)
            members.append(a)   // the seed last, as the greedy pass lists it among the absorbed
            for m in members {
                absorbed[m] = true
                let entry = graph.entry(m)
                if m != a {
                    let weight = items.pointCount(entry.id)
                    let position = items.clusteringPosition(entry)
                    wx += position.x * Double(weight)
                    wy += position.y * Double(weight)
                    total += weight
                }
                let ref = Int(graph.nodes[m])
                if ref < n { marks.absorb(ref) } else { graph.sideAbsorbed[Int(graph.sideList[ref - n])] = true }
                b.absorbed.append(entry.id)
                items.setParent(of: entry.id, clusterItem)
            }
            if total < smallClustersBelow {
                for m in members { b.smallMembers.append(graph.entry(m).id) }   // the seed among them
            }
            b.smallMemberEnd.append(Int32(b.smallMembers.count))
            b.staged.append(_StagedCluster(x: wx / Double(total), y: wy / Double(total), count: UInt32(total), rank: seed.rank))
        }
    }
}
