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
/// 3. drop absorbed items and merge in the new clusters (one pass), then merge rows pairwise for
///    the next zoom's twice larger cells.
/// With minPoints > 2 a seed can visit neighbours without clustering them; supercluster then
/// moves them after the seed in its data order (in the order its tree's search lists them), so
/// ranks are renumbered at every zoom and each zoom's data order recorded (`+SuperclusterOrder`).
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
        if let sparse = b.sparse, clusterSparseZoom(b, sparse) {
            // Clustered without touching the sorted items (see `+SparseZooms`).
        } else {
            if b.sparse != nil { endSparseZooms(b) }
            clusterZoom(b)
            advance(b)
        }
        if b.zoom > options.minZoom {
            b.zoom -= 1
            return b.zoom - options.minZoom + 1
        }
        finishGroup(b, lowZoom: options.minZoom)
        builder = nil
        numberClusters()
        state = .built
        return 0
    }

    /// Sorts the points by cell of the first zoom to cluster densely into a new build, and
    /// prepares the sparse zooms above it, if any (see `+SparsePlan`).
    private func beginBuild() {
        let n = pointPositions.count
        let clusterCapacity = Self.clusterCapacity(pointCount: n)
        _AddressSpace.prepareHeap(forAllocating: buildBytes(pointCount: n, clusterCapacity: clusterCapacity))
        let denseFrom = denseFromZoom()
        let grid = _ClusterGrid.forClustering(options, zoom: denseFrom)
        let b = _ClusterBuild(zoom: options.maxZoom, capacity: n, grid: grid,
                              groupHighZoom: options.maxZoom + 1)
        b.count = n
        // The points are sorted as their records, so the records are then in order: writing
        // each where its index was sorted to (or reading each point from where it was sorted
        // from) would wait on memory at every point. The sort's scratch keys lie in the space-order
        // block; its scratch records are allocated for the sort alone, before the parent links
        // and the clusters' room, which then take the memory it frees.
        let scratchKeys = b.spaceOrder.raw.bindMemory(to: UInt64.self, capacity: n)
        let scratchEntries = UnsafeMutablePointer<_ItemRecord>.allocate(capacity: Swift.max(n, 1))
        // Sorted by a packed key (row, then column, in as few bits as the grid needs), so the
        // radix sort makes as few passes as it can; then unpacked to `row << 32 | column`.
        let last = grid.cell(1)
        let columnBits = UInt64(UInt64.bitWidth - last.leadingZeroBitCount)
        let keys = b.keys, entries = b.entries
        // One call per chunk of points (see `_callChunk`).
        pointPositions.xy.withUnsafeBufferPointer { xy in
            var start = 0
            while start < n {
                let end = Swift.min(start + _callChunk, n)
                Self.cellRecords(xy, start, end, grid: grid, columnBits: columnBits, keys: keys, entries: entries)
                start = end
            }
        }
        RadixSort.sort(keys, entries, count: n, scratch: scratchKeys, scratchEntries)
        scratchEntries.deallocate()
        var start = 0
        while start < n {
            let end = Swift.min(start + _callChunk, n)
            Self.unpackCells(keys, start, end, columnBits: columnBits)
            start = end
        }
        pointParent = [Int32](repeating: -1, count: n)
        reserveClusters(clusterCapacity)
        if denseFrom < options.maxZoom {
            let sparse = _SparseZoomState(denseFrom: denseFrom, count: n)
            b.marks.reset(n)   // marks the points absorbed during the sparse zooms
            measureActivation(b, sparse)
            b.sparse = sparse
        }
        builder = b
        state = .building
    }

    /// The packed cell keys and the records of points `start..<end`, for the first sort.
    @inline(never)
    private static func cellRecords(_ xy: UnsafeBufferPointer<Double>, _ start: Int, _ end: Int,
                                    grid: _ClusterGrid, columnBits: UInt64,
                                    keys: UnsafeMutablePointer<UInt64>, entries: UnsafeMutablePointer<_ItemRecord>) {
        for i in start..<end {
            let x = Float(xy[2 * i]), y = Float(xy[2 * i + 1])
            keys[i] = grid.cell(y) << columnBits | grid.cell(x)
            entries[i] = _ItemRecord(fx: x, fy: y, id: Int32(i), rank: UInt32(i))
        }
    }

    /// Unpacks sorted keys `start..<end` from (row, column in `columnBits`) to `row << 32 | column`.
    @inline(never)
    private static func unpackCells(_ keys: UnsafeMutablePointer<UInt64>, _ start: Int, _ end: Int, columnBits: UInt64) {
        let columnMask: UInt64 = (1 << columnBits) - 1
        for j in start..<end { keys[j] = (keys[j] >> columnBits) << 32 | (keys[j] & columnMask) }
    }

    /// Step 1 and 2 of the type comment, for `b.zoom`.
    private func clusterZoom(_ b: _ClusterBuild) {
        let r = options.worldRadius(zoom: b.zoom)
        let r2 = r * r
        b.newClusters.removeAll(keepingCapacity: true)
        b.newRanks.removeAll(keepingCapacity: true)
        b.clearStaged()
        let tracksDataOrder = options.minPoints > 2
        if tracksDataOrder { b.searchTree = superclusterTree(zoom: b.zoom + 1) }
        withItemAccess { items in
            if !useSpaceOrder || !clusterInSpaceOrder(b, items, r2: r2) {
                greedyZooms += 1
                findActiveItems(b, items, r2: r2)
                visitActiveItems(b, items, r2: r2)
            }
        }
        if tracksDataOrder {
            // Ranks are positions in the data order here (renumbered at every zoom), so a
            // seed's rank is its position.
            builtSeedPositions.append(contentsOf: b.staged.lazy.map { $0.rank })
            renumberRanks(b)
        }
        storeZoom(b)
    }

    /// Calls `body` with raw access to the positions and point counts of earlier clusters and
    /// to the parent links: a pass reads the first two and sets the third; the clusters it
    /// forms are staged in the build and appended afterwards, so it can work through raw
    /// buffers.
    func withItemAccess(_ body: (_ItemAccess) -> Void) {
        withClusteringPositions { positions in
            clusterPoints.withUnsafeBufferPointer { cp in
                pointParent.withUnsafeMutableBufferPointer { pp in
                    clusterParent.withUnsafeMutableBufferPointer { cpp in
                        body(_ItemAccess(positions: positions, points: cp, pointParent: pp, clusterParent: cpp))
                    }
                }
            }
        }
    }

    /// Calls `body` with read access to the items' clustering positions (see
    /// `_ClusteringPositions`), for passes that only measure.
    func withClusteringPositions<R>(_ body: (_ClusteringPositions) -> R) -> R {
        clusterPositions.xy.withUnsafeBufferPointer { xy in
            withPointWeights { weights, pointXY in
                body(_ClusteringPositions(pointCount: pointPositions.count, clusterXY: xy, weights: weights, pointXY: pointXY))
            }
        }
    }

    /// With minPoints > 2 a seed can visit neighbours without clustering them; supercluster then
    /// moves them right after the seed in its data order. Rank every item visible at the next
    /// zoom again, 0, 1, 2 …, in that order: the rest keep their order, a new cluster stands
    /// where its seed stood, moved items follow their seed. The order is recorded for the
    /// queries' trees (`superclusterDataOrder`).
    private func renumberRanks(_ b: _ClusterBuild) {
        let e = b.entries, marks = b.marks, n = b.count
        var composite = [UInt64](repeating: 0, count: n)
        for p in 0..<n { composite[p] = UInt64(e[p].rank) << 32 }
        for k in 0..<b.movedPos.count { composite[Int(b.movedPos[k])] = b.movedKeys[k] }
        var keys: [UInt64] = []
        var values: [UInt32] = []
        for p in 0..<n where !marks.isAbsorbed(p) {
            keys.append(composite[p])
            values.append(UInt32(p))
        }
        for k in 0..<b.staged.count {
            keys.append(UInt64(b.staged[k].rank) << 32)
            values.append(UInt32(n + k))
        }
        RadixSort.sort(keys: &keys, values: &values, count: keys.count)
        let firstCluster = pointPositions.count + clusterPositions.count
        var order = [Int32](repeating: 0, count: values.count)
        for (rank, v) in values.enumerated() {
            let at = Int(v)
            if at < n { e[at].rank = UInt32(rank) } else { b.staged[at - n].rank = UInt32(rank) }
            order[rank] = at < n ? e[at].id : Int32(firstCluster + at - n)
        }
        recordDataOrder(order, zoom: b.zoom)
    }

    /// The greedy pass over the active items, by rank.
    private func visitActiveItems(_ b: _ClusterBuild, _ items: _ItemAccess, r2: Double) {
        let s = b.items
        let e = s.entries
        let active = b.activeCount
        let actives = b.actives
        _RankSort.sort(actives, count: active)
        let marks = b.marks
        marks.reset(s.count)
        let minPoints = options.minPoints
        let firstCluster = Int32(pointPositions.count + clusterPositions.count)
        var joiners: [Int32] = []
        // Items are visited in rank order, which is random in memory: each visit would wait for
        // several cache misses in a row. Touch the lines the next batch of visits will read
        // first; those loads are independent, so the memory system overlaps them.
        let batchSize = 32
        var touched: UInt32 = 0
        for o in 0..<active {
            if o % batchSize == 0 {
                for k in o..<min(o + batchSize, active) {
                    let r = actives[k]
                    if marks.isVisited(Int(r.position)) { continue }
                    // An empty run may start at the end of the items: touch only real ones.
                    touched &+= e[Int(r.position)].rank
                    if Int(r.aboveStart) < s.count { touched &+= e[Int(r.aboveStart)].rank }
                    if Int(r.belowStart) < s.count { touched &+= e[Int(r.belowStart)].rank }
                }
            }
            let record = actives[o]
            let i = Int(record.position)
            if marks.isVisited(i) { continue }
            marks.visit(i)
            let item = e[i].id
            let itemRank = e[i].rank
            let itemCount = items.pointCount(item)
            let centre = items.clusteringPosition(e[i])
            let runs = record.runs(s)
            // Joiners: unvisited, ranked after the seed, and within the radius.
            joiners.removeAll(keepingCapacity: true)
            var total = itemCount
            for d in 0..<3 {
                for p in _run(runs, d) where p != i && !marks.isVisited(p) && e[p].rank > itemRank &&
                    _isWithin(e[p].fx, e[p].fy, centre, r2) {
                    joiners.append(Int32(p))
                    total += items.pointCount(e[p].id)
                }
            }
            if total == itemCount { continue }
            if total < minPoints {
                // Too few to cluster: the neighbours are visited but stay single, and (as in
                // supercluster's data order) follow the seed from the next zoom on.
                for p in joiners { marks.visit(Int(p)) }
                b.appendMoved(joiners, seedRank: itemRank, centre: centre, radius: options.worldRadius(zoom: b.zoom))
                continue
            }
            let clusterItem = firstCluster + Int32(b.staged.count)
            var wx = centre.x * Double(itemCount)
            var wy = centre.y * Double(itemCount)
            for j in joiners {
                let p = Int(j)
                marks.absorb(p)
                let neighbour = e[p].id
                let weight = Double(items.pointCount(neighbour))
                let position = items.clusteringPosition(e[p])
                wx += position.x * weight
                wy += position.y * weight
                b.absorbed.append(neighbour)
                items.setParent(of: neighbour, clusterItem)
            }
            marks.absorb(i)
            b.absorbed.append(item)
            items.setParent(of: item, clusterItem)
            if total < smallClustersBelow {
                b.smallMembers.append(item)
                for j in joiners { b.smallMembers.append(e[Int(j)].id) }
            }
            b.smallMemberEnd.append(Int32(b.smallMembers.count))
            b.staged.append(_StagedCluster(x: wx / Double(total), y: wy / Double(total),
                                           count: UInt32(total), rank: itemRank))
        }
        b.touched = touched  // keeps the touching loads from being optimised away
    }

    /// Makes room for `capacity` clusters in all their arrays. They start at 5/8 of the point
    /// count (a million points form about 600,000 clusters) and grow by a quarter, not the
    /// default doubling: they live as long as the index and are its largest after the points.
    private func reserveClusters(_ capacity: Int) {
        // `bytesPerCluster` counts what these arrays hold per cluster.
        clusterPositions.reserveCapacity(capacity)
        clusterPoints.reserveCapacity(capacity)
        clusterParent.reserveCapacity(capacity)
        clusterZoom.reserveCapacity(capacity)
    }

    /// What a build allocates: from its start, at once, the build's buffers, scratch records for
    /// its first sort alone (16 bytes per point, freed before the parent links and the first
    /// clusters' room, which take 19 or more), the parent links and the clusters' room; then as it
    /// goes, the zoom groups' id lists and the lists of each zoom's clusters. Those take 25 to 33
    /// bytes per point, but most of them fit in the room the build's buffers give back as the
    /// items get fewer (`_ClusterBuild.releaseGoneItems`) and in each zoom's freed lists: a
    /// million points in blobs then peak about 6 bytes a point above the buffers, and a million
    /// spread evenly about 14. 6 is counted, so the heap prepared for a build (see
    /// `_AddressSpace.prepareHeap`) stays below what the build would have grown it to anyway
    /// (every page prepared is written, used or not), and the memory grows three times or fewer
    /// during the build; counting 14 would over-prepare smaller spread sets.
    private func buildBytes(pointCount n: Int, clusterCapacity: Int) -> Int {
        n * (MemoryLayout<Int32>.stride + _ClusterBuild.bytesPerItem + 6) + clusterCapacity * HierarchicalClusterIndex.bytesPerCluster
    }

    /// The clusters' room a build of `n` points starts with.
    static func clusterCapacity(pointCount n: Int) -> Int { n / 8 * 5 }

    /// What a load of `n` points allocates from its reserve to the end of its build: the
    /// points' positions (16 bytes each), the build (`buildBytes`), and 8 bytes a point for the
    /// cluster ids numbered at its end (`numberClusters`), beyond what the build gives back.
    func loadBytes(pointCount n: Int) -> Int {
        n * 16 + buildBytes(pointCount: n, clusterCapacity: Self.clusterCapacity(pointCount: n)) + n * 8
    }

    /// Bytes a cluster takes in the arrays `reserveClusters` sizes: position, point count,
    /// parent and zoom.
    static let bytesPerCluster = MemoryLayout<Double>.stride * 2 + MemoryLayout<UInt32>.stride +
        MemoryLayout<Int32>.stride + MemoryLayout<UInt8>.stride

    /// Stores the clusters the greedy pass staged.
    func storeZoom(_ b: _ClusterBuild) {
        let zoom = b.zoom
        let total = clusterPositions.count + b.staged.count
        if total > clusterPositions.capacity {
            reserveClusters(max(total, clusterPositions.capacity + clusterPositions.capacity / 4 + 1024))
        }
        if smallClustersBelow > 0 { listSmallClusterPoints(b) }
        // Moved out while they grow, so each append skips the access checks of a class's
        // property (they cost more than the appends).
        var positions = clusterPositions, points = clusterPoints, parents = clusterParent, zooms = clusterZoom
        var newClusters = b.newClusters, newRanks = b.newRanks
        clusterPositions = _WorldPositions(); clusterPoints = []; clusterParent = []; clusterZoom = []
        b.newClusters = []; b.newRanks = []
        // Whole columns at a time: an append per cluster and array would check capacity and
        // ownership each time.
        let staged = b.staged, first = positions.count
        newClusters.append(contentsOf: (0..<staged.count).lazy.map { Int32(first + $0) })
        newRanks.append(contentsOf: staged.lazy.map { $0.rank })
        positions.append(contentsOf: staged.lazy.map { ($0.x, $0.y) })
        points.append(contentsOf: staged.lazy.map { $0.count })
        parents.append(contentsOf: repeatElement(-1, count: staged.count))
        zooms.append(contentsOf: repeatElement(UInt8(zoom), count: staged.count))
        clusterPositions = positions; clusterPoints = points; clusterParent = parents; clusterZoom = zooms
        b.newClusters = newClusters; b.newRanks = newRanks
        // Freed, not kept for the next zoom: the zoom group closed next may take its memory,
        // and the next zoom stages fewer clusters.
        b.staged = []
    }

    /// Appends the point lists of the clusters staged at this zoom (empty unless small): their
    /// members' points, members being points or small clusters of earlier zooms, listed
    /// already. Sorted, as the point lists are kept in increasing point order.
    private func listSmallClusterPoints(_ b: _ClusterBuild) {
        let n = Int32(pointPositions.count)
        // Moved out and back, so the arrays have one owner while they grow (no copies) and
        // are used without a class's access checks.
        var list = smallClusterPoints
        smallClusterPoints = ([], [])
        let members = b.smallMembers, ends = b.smallMemberEnd
        var from = 0
        for to in ends {
            let first = list.points.count
            for m in from..<Int(to) {
                let member = members[m]
                if member < n {
                    list.points.append(member)
                } else {
                    let c = Int(member - n)
                    for q in Int(list.start[c])..<Int(list.start[c + 1]) { list.points.append(list.points[q]) }
                }
            }
            from = Int(to)
            // A few points (fewer than the minimum cluster size): insertion sort.
            if list.points.count - first > 1 {
                for i in (first + 1)..<list.points.count {
                    let v = list.points[i]
                    var j = i
                    while j > first && list.points[j - 1] > v {
                        list.points[j] = list.points[j - 1]
                        j -= 1
                    }
                    list.points[j] = v
                }
            }
            list.start.append(Int32(list.points.count))
        }
        smallClusterPoints = list
    }

    /// Keeps the items with a neighbour ("active"), with their candidate runs.
    /// One call per chunk of items (see `_callChunk`).
    private func findActiveItems(_ b: _ClusterBuild, _ items: _ItemAccess, r2: Double) {
        b.activeCount = 0
        var start = 0
        while start < b.items.count {
            let end = Swift.min(start + _callChunk, b.items.count)
            findActiveItems(b, items, start..<end, r2: r2)
            start = end
        }
    }

    /// Appends the active items among `range` to `b.actives`.
    @inline(never)
    private func findActiveItems(_ b: _ClusterBuild, _ items: _ItemAccess, _ range: Range<Int>, r2: Double) {
        let s = b.items
        let e = s.entries
        var actives = b.actives
        var active = b.activeCount
        _ = s.forEachCrowded(in: range) { j, starts in
            if s.hasNeighbour(j, centre: items.clusteringPosition(e[j]), starts: starts, r2: r2) {
                if active == b.activeCapacity { actives = b.growActives() }
                actives[active] = _ActiveItem(rank: e[j].rank, position: j, starts: starts)
                active += 1
            }
            return true
        }
        b.activeCount = active
    }
}
