/// Adding, removing and moving points of a built index, repairing only what the change reaches,
/// with the result a fresh build of the same points in the same order would give.
///
/// With minPoints 2, one zoom's clustering is fixed by a rule that reads only nearby items:
/// visiting items by rank, an item is a seed unless a seed ranked before it has it within the
/// radius, and a non-seed joins the first-ranked such seed. Only seeds enter other items'
/// decisions, so a change alters an item's decision only through a seed ranked before it and
/// within the radius: one that appears there ranked before the seed the item joined, or the
/// very seed it joined leaving or ceasing to seed. The repair goes down the zooms; at each it
/// lists the items that appear at the level (added, moved, freed, or clusters made or changed
/// one zoom up) and those that left it, decides again, in rank order, the items that appear and
/// every item such a seed change reaches. Every item that joins another seed than before leaves
/// its old cluster and joins the new seed's: an old cluster whose seed still seeds others is
/// updated in place from what left and joined it (its unchanged members are not read), one left
/// without members is dissolved, and a new seed's cluster is made from the items that joined it
/// (all of its members did). What appears and leaves at that zoom is the change for the next.
/// (A point moved within a crowd that it does not seed so costs a search or two per zoom, not
/// one per neighbour; where a change does reach a whole crowd, its members decide from the
/// seeds by cell, `_CellSeeds`.) Then the storage is laid out again (`+EditLayout`).
extension HierarchicalClusterIndex {
    /// Applies a batch of edits: adds the points of `lngLat` (longitude/latitude pairs), removes
    /// the points `removing`, and moves the points `moving` to the pairs of `movedLngLat`. Returns
    /// the id of the first point added (ids of points added follow one another). Point ids stay
    /// as they were; a removed point's id is never used again. Every argument is checked first:
    /// on an error nothing changes.
    ///
    /// The index must be built, with minPoints 2, no aggregates and no weighted items (throws
    /// `invalidState`).
    @discardableResult
    public func edit(adding lngLat: UnsafeBufferPointer<Double>, removing: UnsafeBufferPointer<Int32>,
                     moving: UnsafeBufferPointer<Int32>, to movedLngLat: UnsafeBufferPointer<Double>) throws(CairnError) -> Int {
        guard state == .built, options.minPoints == 2, aggregates.isEmpty, !isWeighted else { throw .invalidState }
        guard lngLat.count % 2 == 0, movedLngLat.count == 2 * moving.count else { throw .invalidArgument }
        let n0 = pointPositions.count
        var added = _WorldPositions(), moved = _WorldPositions()
        var elsewhere = 0
        added.reserveCapacity(lngLat.count / 2)
        moved.reserveCapacity(moving.count)
        for (k, id) in moving.enumerated() {
            let lng = movedLngLat[2 * k], lat = movedLngLat[2 * k + 1]
            try HierarchicalClusterIndex.check(longitude: lng, latitude: lat, index: Int(id))
            let (x, y) = HierarchicalClusterIndex.project(longitude: lng, latitude: lat)
            moved.append(x, y)
        }
        for i in 0..<(lngLat.count / 2) {
            let lng = lngLat[2 * i], lat = lngLat[2 * i + 1]
            try HierarchicalClusterIndex.check(longitude: lng, latitude: lat, index: n0 + i)
            if HierarchicalClusterIndex.placesElsewhere(longitude: lng, latitude: lat) { elsewhere += 1 }
            let (x, y) = HierarchicalClusterIndex.project(longitude: lng, latitude: lat)
            added.append(x, y)
        }
        _ = try edit(adding: added, placedElsewhere: elsewhere, removing: removing, moving: moving, to: moved)
        return n0
    }

    /// `edit` with the positions as world positions (`project`'s): what a cluster manager,
    /// which keeps its items' world positions, hands over. `elsewhere` counts the added points
    /// the engine placed other than at the coordinates given (`placesElsewhere`). Without
    /// `buildsAfresh`, a batch that would be built afresh is not applied: false, nothing changed
    /// (a caller that builds a zoom at a time does so itself).
    func edit(adding added: _WorldPositions, placedElsewhere elsewhere: Int, removing: UnsafeBufferPointer<Int32>,
              moving: UnsafeBufferPointer<Int32>, to moved: _WorldPositions, buildsAfresh: Bool = true) throws(CairnError) -> Bool {
        guard state == .built, options.minPoints == 2, aggregates.isEmpty, !isWeighted else { throw .invalidState }
        guard moved.count == moving.count else { throw .invalidArgument }
        let n0 = pointPositions.count
        var named = _ItemSlots(expected: removing.count + moving.count)
        for id in removing {
            guard id >= 0, Int(id) < n0, !isRemoved(Int(id)) else { throw .unknownPoint(id: Int64(id)) }
            guard named.insert(id).isNew else { throw .invalidArgument }
        }
        for id in moving {
            guard id >= 0, Int(id) < n0, !isRemoved(Int(id)) else { throw .unknownPoint(id: Int64(id)) }
            guard named.insert(id).isNew else { throw .invalidArgument }
        }
        guard added.count <= HierarchicalClusterIndex.maximumPointCount - n0 else { throw .tooManyPoints }
        if Int64(n0 + added.count) * _AddressSpace.buildBytesPerPoint > _AddressSpace.remaining {
            throw .outOfMemory(points: added.count)
        }

        let edits = added.count + removing.count + moving.count
        if edits > (editRepairLimit ?? max(1, n0 / 1_000)) {
            guard buildsAfresh else { return false }
            if (try? rebuild(adding: added, placedElsewhere: elsewhere, removing: removing, moving: moving, to: moved)) != nil {
                return true
            }
        }
        let e = _EditState()
        // The repair reads items near the changes; where many change in one crowd, each
        // searching it, that grows with the square of their number. Past about what a build
        // reads, it stops, puts back what it changed and builds afresh instead.
        e.budget = editReadBudget ?? (4 * (n0 + added.count) + 65_536)
        makeRoom(forPoints: added.count)
        for i in 0..<added.count {
            let p = added[i]
            pointPositions.append(p.x, p.y)
            pointParent.append(-1)
            e.flags[e.slot(Int32(n0 + i), parent: -1)] |= _EditState.added
        }
        for id in removing {
            let s = e.slot(id, parent: pointParent[Int(id)])
            e.flags[s] |= _EditState.dead
            pointParent[Int(id)] = -1
            markRemoved(Int(id))
        }
        for (k, id) in moving.enumerated() {
            let s = e.slot(id, parent: pointParent[Int(id)])
            e.flags[s] |= _EditState.moved
            (e.newX[s], e.newY[s]) = moved[k]
        }
        superclusterTrees = []
        let oldClusterCount = clusterPositions.count
        for z in stride(from: options.maxZoom, through: options.minZoom, by: -1) where e.budget >= 0 { repair(zoom: z, e) }
        if e.budget < 0 {
            undoRepair(e, pointCount: n0, clusterCount: oldClusterCount, removing: removing)
            stoppedRepairs += 1
            guard buildsAfresh else { return false }
            try rebuild(adding: added, placedElsewhere: elsewhere, removing: removing, moving: moving, to: moved)
            return true
        }
        pointsPlacedElsewhere += elsewhere
        if layOutInPlace(e, oldClusterCount: oldClusterCount) {
            editsLaidOutInPlace += 1
        } else {
            layOutAfterEdit(e, oldClusterCount: oldClusterCount)
        }
        return true
    }

    /// Puts the index back as it was before a repair that stopped: every parent it changed, the
    /// clusters it made, the points it added (and the room made for their ids), the removals.
    private func undoRepair(_ e: _EditState, pointCount n0: Int, clusterCount c0: Int, removing: UnsafeBufferPointer<Int32>) {
        let n = pointPositions.count
        for (s, item) in e.slots.ids.enumerated() where Int(item) < n + c0 {
            let i = Int(item)
            if i < n { pointParent[i] = e.oldParent[s] } else { clusterParent[i - n] = e.oldParent[s] }
        }
        clusterPositions.removeLast(clusterPositions.count - c0)
        clusterPoints.removeLast(clusterPoints.count - c0)
        clusterParent.removeLast(clusterParent.count - c0)
        clusterZoom.removeLast(clusterZoom.count - c0)
        clusterRank.removeLast(clusterRank.count - c0)
        for id in removing {
            removedPoints[Int(id) >> 6] &= ~(1 << UInt64(Int(id) & 63))
            removedPointCount -= 1
        }
        let k = Int32(n - n0)
        guard k > 0 else { return }
        pointPositions = _WorldPositions(xy: Array(pointPositions.xy.prefix(2 * n0)))
        pointParent.removeLast(Int(k))
        let firstCluster = Int32(n)
        pointParent.withUnsafeMutableBufferPointer { pp in
            for i in 0..<pp.count where pp[i] >= firstCluster { pp[i] -= k }
        }
        clusterParent.withUnsafeMutableBufferPointer { cp in
            for i in 0..<cp.count where cp[i] >= firstCluster { cp[i] -= k }
        }
        for g in 0..<groups.count {
            groups[g].ids.withUnsafeMutableBufferPointer { ids in
                for i in 0..<ids.count where ids[i] >= firstCluster { ids[i] -= k }
            }
        }
    }

    /// Applies the edits by building the points left afresh, where they are many enough that a
    /// repair would take longer (its cost grows with the edits, a build's with the points); the
    /// built hierarchy is then numbered with the index's own point ids. Throws, with nothing
    /// changed, when the memory left cannot hold a second index while it builds (a batch past
    /// the repair limit is then repaired instead).
    private func rebuild(adding added: _WorldPositions, placedElsewhere elsewhere: Int, removing: UnsafeBufferPointer<Int32>,
                         moving: UnsafeBufferPointer<Int32>, to moved: _WorldPositions) throws(CairnError) {
        var positions = pointPositions
        positions.append(contentsOf: (0..<added.count).lazy.map { added[$0] })
        for (k, id) in moving.enumerated() {
            let p = moved[k]
            positions.set(Int(id), p.x, p.y)
        }
        let total = positions.count
        var gone = [Bool](repeating: false, count: total)
        for p in 0..<pointPositions.count where isRemoved(p) { gone[p] = true }
        for id in removing { gone[Int(id)] = true }
        var live: [Int32] = []
        live.reserveCapacity(total)
        for p in 0..<total where !gone[p] { live.append(Int32(p)) }
        let fresh = try HierarchicalClusterIndex(options: options)
        fresh.smallClustersBelow = smallClustersBelow
        try fresh.add(worldX: live.map { positions[Int($0)].x }, worldY: live.map { positions[Int($0)].y })
        try fresh.checkBuildRoom()
        fresh.build()

        pointPositions = positions
        for id in removing { markRemoved(Int(id)) }
        pointsPlacedElsewhere += elsewhere
        clusterPositions = fresh.clusterPositions
        clusterPoints = fresh.clusterPoints
        clusterZoom = fresh.clusterZoom
        clusterSeedPosition = fresh.clusterSeedPosition
        pendingSeedShifts = []
        zoomClusterStart = fresh.zoomClusterStart
        clustersBySeed = fresh.clustersBySeed
        superclusterTrees = []
        storageIsLoose = false
        deadClusters = []
        deadClusterCount = 0
        levelRanks = nil
        if live.count == total {
            // No point was ever removed: the fresh index numbers every item as this one does.
            pointParent = fresh.pointParent
            clusterParent = fresh.clusterParent
            clusterRank = fresh.clusterRank
            groups = fresh.groups
            if smallClustersBelow > 0 { smallClusterPoints = fresh.smallClusterPoints }
            return
        }
        // The fresh hierarchy in this index's numbering: its point k is point live[k], and its
        // clusters come after all this index's point ids.
        let shift = Int32(total - live.count), freshPoints = Int32(live.count)
        @inline(__always) func renamed(_ item: Int32) -> Int32 { item < 0 ? -1 : (item < freshPoints ? live[Int(item)] : item + shift) }
        pointParent = [Int32](repeating: -1, count: total)
        for k in 0..<live.count { pointParent[Int(live[k])] = renamed(fresh.pointParent[k]) }
        clusterParent = fresh.clusterParent.map(renamed)
        clusterRank = fresh.clusterRank.map { UInt32(live[Int($0)]) }
        groups = fresh.groups
        for g in 0..<groups.count { groups[g].ids = groups[g].ids.map(renamed) }
        if smallClustersBelow > 0 {
            smallClusterPoints = (fresh.smallClusterPoints.start, fresh.smallClusterPoints.points.map { live[Int($0)] })
        }
    }

    /// Makes `count` more point ids: clusters are numbered after the points, so every reference
    /// to a cluster moves up by `count`.
    private func makeRoom(forPoints count: Int) {
        guard count > 0 else { return }
        let n = Int32(pointPositions.count), k = Int32(count)
        pointParent.withUnsafeMutableBufferPointer { pp in
            for i in 0..<pp.count where pp[i] >= 0 { pp[i] += k }
        }
        clusterParent.withUnsafeMutableBufferPointer { cp in
            for i in 0..<cp.count where cp[i] >= 0 { cp[i] += k }
        }
        for g in 0..<groups.count {
            groups[g].ids.withUnsafeMutableBufferPointer { ids in
                for i in 0..<ids.count where ids[i] >= n { ids[i] += k }
            }
        }
        pointPositions.reserveCapacity(pointPositions.count + count)
        pointParent.reserveCapacity(pointParent.count + count)
    }

    // MARK: The items of one level as the edit sees them

    /// An item's clustering position after the edit.
    @inline(__always)
    func editCentre(_ item: Int32, _ e: _EditState) -> (x: Double, y: Double) {
        let i = Int(item), n = pointPositions.count
        if let s = e.slots.slot(of: item), e.has(s, _EditState.moved) {
            return i >= n ? (e.newX[s], e.newY[s]) : (Double(Float(e.newX[s])), Double(Float(e.newY[s])))
        }
        if i >= n { return clusterPositions[i - n] }
        let p = pointPositions[i]
        return (Double(Float(p.x)), Double(Float(p.y)))
    }

    /// An item's points after the edit.
    @inline(__always)
    func editPointCount(_ item: Int32, _ e: _EditState) -> Int {
        if Int(item) >= pointPositions.count, let s = e.slots.slot(of: item), e.has(s, _EditState.moved) {
            return Int(e.newCount[s])
        }
        return pointCount(of: item)
    }

    /// An item's clustering position before the edit.
    @inline(__always)
    func storedCentre(_ item: Int32) -> (x: Double, y: Double) {
        let i = Int(item), n = pointPositions.count
        if i >= n { return clusterPositions[i - n] }
        let p = pointPositions[i]
        return (Double(Float(p.x)), Double(Float(p.y)))
    }

    /// Whether the item is visible at `level` after the edit (as far as the repair has come:
    /// levels above the one being repaired are final).
    @inline(__always)
    func editVisible(_ item: Int32, _ level: Int, _ e: _EditState) -> Bool {
        if let s = e.slots.slot(of: item), e.has(s, _EditState.dead) { return false }
        return isVisible(item, zoom: level)
    }

    /// Whether the item of slot `s` was visible at `level` before the edit.
    func visibleBefore(_ s: Int, _ item: Int32, _ level: Int, _ e: _EditState) -> Bool {
        if e.has(s, _EditState.added) { return false }
        let n = pointPositions.count, i = Int(item)
        if i >= n && level > Int(clusterZoom[i - n]) { return false }
        if i < n && level > options.maxZoom + 1 { return false }
        let p = Int(e.oldParent[s])
        return p < 0 || level > Int(clusterZoom[p - n])
    }

    /// Calls `body` with every item visible at `level` after the edit whose float32 position lies
    /// within `reach` of `(x, y)` (and perhaps a few more: callers measure exactly). For a point
    /// added or moved (`point`, its centre at `(x, y)`), the zoom group's items around it are read
    /// once for every level of the group (`_NearItems`).
    func forEachEditItem(level: Int, near x: Double, _ y: Double, reach: Double,
                         _ appearing: _AppearingItems, _ e: _EditState, readingOnceFor point: Int32? = nil,
                         _ body: (Int32) -> Void) {
        let minX = x - reach, minY = y - reach, maxX = x + reach, maxY = y + reach
        if let point, let read = nearItems(of: point, at: (x, y), level: level, e) {
            for k in read {
                let px = Double(e.near.x[k]), py = Double(e.near.y[k])
                guard px >= minX && px <= maxX && py >= minY && py <= maxY else { continue }
                let item = e.near.items[k]
                e.budget -= 1
                if isKept(item, level: level, e) { body(item) }
            }
        } else {
            forEachKeptItem(level: level, minX: minX, minY: minY, maxX: maxX, maxY: maxY, e) { item, _ in body(item) }
        }
        appearing.forEach(near: Float(x), Float(y)) { item in
            e.budget -= 1
            body(item)
        }
    }

    /// Calls `body` with every item visible at `level` after the edit whose float32 position
    /// lies in the cell `key` of `appearing`'s grid.
    func forEachEditItem(level: Int, inCell key: UInt64, _ appearing: _AppearingItems, _ e: _EditState, _ body: (Int32) -> Void) {
        let grid = appearing.grid
        // The cell's bounds, widened a little for the rounding of the division: the key decides.
        let row = Double(key >> 32), column = Double(key & 0xFFFF_FFFF)
        forEachKeptItem(level: level, minX: (column - 0.01) / grid.scale, minY: (row - 0.01) / grid.scale,
                        maxX: (column + 1.01) / grid.scale, maxY: (row + 1.01) / grid.scale, e) { item, p in
            if grid.key(x: p.x, y: p.y) == key { body(item) }
        }
        appearing.forEach(inCell: key) { item in
            e.budget -= 1
            body(item)
        }
    }

    /// The items of the zoom groups in a rectangle that are visible at `level` after the edit
    /// and stand where they stood (not added, moved, removed or appearing), with their float32
    /// positions.
    private func forEachKeptItem(level: Int, minX: Double, minY: Double, maxX: Double, maxY: Double,
                                 _ e: _EditState, _ body: (Int32, (x: Float, y: Float)) -> Void) {
        forEachItem(minX: minX, minY: minY, maxX: maxX, maxY: maxY, zoom: level) { item in
            e.budget -= 1
            if isKept(item, level: level, e) { body(item, indexPosition(item)) }
        }
    }

    /// Whether an item of the zoom groups is visible at `level` after the edit and stands where
    /// it stood (not added, moved, removed or appearing).
    @inline(__always)
    private func isKept(_ item: Int32, level: Int, _ e: _EditState) -> Bool {
        let skip = _EditState.added | _EditState.moved | _EditState.dead
        if let s = e.slots.slot(of: item), e.flags[s] & skip != 0 || e.appearsAt[s] == Int16(level) { return false }
        return isVisible(item, zoom: level)
    }

    /// The items of `level`'s zoom group around `point` (added or moved, its centre `c`), as a
    /// range of `e.near`: read at the reach of the group's lowest level the first time a level of
    /// the group asks, unless that is the only level left or they are too many (nil: search).
    private func nearItems(of point: Int32, at c: (x: Double, y: Double), level: Int, _ e: _EditState) -> Range<Int>? {
        guard let g = group(forZoom: level) else { return nil }
        switch e.near.kept(point, groupLow: g.lowZoom, centre: c) {
        case .read(let read): return read
        case .tooMany: return nil
        case .none: break
        }
        let lowest = max(g.lowZoom, options.minZoom + 1)
        guard level > lowest else { return nil }
        let reach = options.worldRadius(zoom: lowest - 1) + 1.0 / 16_777_216
        var read: [(item: Int32, x: Float, y: Float)] = []
        let all = forEachItem(minX: c.x - reach, minY: c.y - reach, maxX: c.x + reach, maxY: c.y + reach, zoom: level,
                              checkingVisibility: false) { item in
            guard read.count < _NearItems.limit else { return false }
            let p = indexPosition(item)
            read.append((item, p.x, p.y))
            return true
        }
        e.budget -= read.count
        if case .read(let kept) = e.near.keep(point, groupLow: g.lowZoom, centre: c, all ? read : nil) { return kept }
        return nil
    }

    /// The rank of the seed that absorbs `item` at `zoom` after the edit, `UInt32.max` for a seed:
    /// the new decision where the repair made one, otherwise the old (it still holds).
    @inline(__always)
    func editAbsorber(_ item: Int32, zoom: Int, _ e: _EditState) -> UInt32 {
        if let s = e.slots.slot(of: item), e.decidedAt[s] == Int16(zoom) { return e.decision[s] }
        let p = Int(parent(of: item)), n = pointPositions.count
        guard p >= 0, Int(clusterZoom[p - n]) == zoom else { return UInt32.max }
        let seedRank = clusterRank[p - n]
        return seedRank == rank(of: item) ? UInt32.max : seedRank
    }

    /// Gives `item` another parent, keeping the one it had before the edit.
    @inline(__always)
    func setEditParent(_ item: Int32, _ newParent: Int32, _ e: _EditState) {
        _ = e.slot(item, parent: parent(of: item))
        let i = Int(item), n = pointPositions.count
        if i < n { pointParent[i] = newParent } else { clusterParent[i - n] = newParent }
    }

    // MARK: One zoom

    /// Repairs the clustering of `zoom`: the items of level `zoom + 1` (final by now) decide again
    /// where a change reaches them, and the clusters they leave and join change with them.
    private func repair(zoom z: Int, _ e: _EditState) {
        let level = z + 1
        let r = options.worldRadius(zoom: z)
        let r2 = r * r
        let reach = r + 1.0 / 16_777_216
        let mark = Int16(z)
        let n = pointPositions.count

        // What appears at the level and what left it, from every item touched so far.
        var appearing = _AppearingItems()
        appearing.grid = _ClusterGrid.forClustering(options, zoom: z)
        var gone: [Int32] = []
        var lookAgain: [Int32] = []
        func look(_ s: Int) {
            let item = e.slots.ids[s]
            let now = !e.has(s, _EditState.dead) && isVisible(item, zoom: level)
            let before = visibleBefore(s, item, level, e)
            if now || before { lookAgain.append(Int32(s)) }
            if now && (!before || e.isNewHere(s)) {
                e.appearsAt[s] = Int16(level)
                let c = editCentre(item, e)
                appearing.keys.append(appearing.grid.key(x: Float(c.x), y: Float(c.y)))
                appearing.items.append(item)
            }
            if before && (!now || e.has(s, _EditState.moved)) { gone.append(item) }
        }
        for s in e.lookAt { look(Int(s)) }
        for s in e.unlooked..<e.slots.count { look(s) }
        e.unlooked = e.slots.count
        e.lookAt = lookAgain
        if appearing.items.isEmpty && gone.isEmpty { return }
        var order = (0..<appearing.items.count).map { UInt32($0) }
        RadixSort.sort(keys: &appearing.keys, values: &order, count: order.count)
        appearing.items = order.map { appearing.items[Int($0)] }

        var queue = _MinHeap()
        func enqueue(_ item: Int32) {
            let s = e.slot(item, parent: parent(of: item))
            if e.queuedAt[s] == mark { return }
            e.queuedAt[s] = mark
            queue.push(UInt64(rank(of: item)) << 32 | UInt64(UInt32(bitPattern: item)))
        }
        // The items that joined `item` as their seed, from where it stood: they decide again,
        // but for those within the radius of `kept` (where the seed stands now, if it does).
        func enqueueMembers(of item: Int32, at c: (x: Double, y: Double), keepingWithin kept: (x: Double, y: Double)?) {
            let itemRank = rank(of: item)
            forEachEditItem(level: level, near: c.x, c.y, reach: reach, appearing, e) { w in
                let p = editCentre(w, e)
                let fx = Float(p.x), fy = Float(p.y)
                guard rank(of: w) > itemRank && _isWithin(fx, fy, c, r2) && editAbsorber(w, zoom: z, e) == itemRank else { return }
                if let kept, _isWithin(fx, fy, kept, r2) { return }
                enqueue(w)
            }
        }
        // Whether `item` seeded at this zoom before the edit (alone or with members).
        func seededBefore(_ item: Int32) -> Bool {
            let p = e.oldParent[e.slot(item, parent: parent(of: item))]
            return p < 0 || Int(clusterZoom[Int(p) - n]) != z || clusterRank[Int(p) - n] == rank(of: item)
        }
        func oldCluster(of item: Int32) -> Int32? {
            let s = e.slot(item, parent: parent(of: item))
            let p = e.oldParent[s]
            return p >= 0 && Int(clusterZoom[Int(p) - n]) == z ? p : nil
        }
        // What leaves and joins each old cluster of this zoom, as sums (see `_EditState`).
        var touched: [Int32] = []
        func account(_ p: Int32, _ centre: (x: Double, y: Double), _ count: Int, leaving: Bool) {
            let s = e.slot(p, parent: parent(of: p))
            if e.deltaAt[s] != mark {
                e.deltaAt[s] = mark
                e.deltaX[s] = 0; e.deltaY[s] = 0; e.deltaCount[s] = 0
                touched.append(p)
            }
            let w = Double(leaving ? -count : count)
            e.deltaX[s] += centre.x * w
            e.deltaY[s] += centre.y * w
            e.deltaCount[s] += leaving ? -count : count
        }
        // The old clusters whose seed left the level, by seed rank: the rank may seed again
        // through another item (a cluster one zoom up made or dissolved).
        var seededByRank: [(rank: UInt32, cluster: Int32)] = []
        // Only seeds take part in other items' decisions, so an item that left only matters to
        // the others where it was a seed.
        // (A seed that stood alone had no members: nothing to search for.) A seed that stands
        // at the level again elsewhere, a point moved or a cluster whose centre moved, keeps its
        // members within the radius of where it stands now as long as it seeds: no seed ranked
        // before it reached them (it was the first), and one that comes to reach them sends
        // them to decide again itself. So only the others decide again now; should the seed
        // itself stop seeding, its decision sends the rest.
        for item in gone where e.budget >= 0 {
            guard let p = oldCluster(of: item) else { continue }
            let seeded = seededBefore(item)
            if seeded {
                let s = e.slot(item, parent: parent(of: item))
                let standsAgain = e.appearsAt[s] == Int16(level)
                if standsAgain { e.membersKeptAt[s] = mark }
                enqueueMembers(of: item, at: storedCentre(item), keepingWithin: standsAgain ? editCentre(item, e) : nil)
            }
            account(p, storedCentre(item), pointCount(of: item), leaving: true)
            if seeded { seededByRank.append((rank(of: item), p)) }
        }
        for item in appearing.items { enqueue(item) }

        // New decisions, in rank order.
        var followers: [Int32] = []
        var joins: [(item: Int32, seed: Int32, rank: UInt32)] = []
        // Where the items crowd, so that a search reads many items (a search per member of a
        // crowd would cost the square of its size), decisions read the seeds by cell instead,
        // and search only for an item that starts or stops seeding.
        var cells = _CellSeeds(grid: appearing.grid)
        func readSeeds(inCell key: UInt64, _ seeds: inout [_CellSeeds.Seed]) {
            forEachEditItem(level: level, inCell: key, appearing, e) { w in
                guard editAbsorber(w, zoom: z, e) == UInt32.max else { return }
                let p = editCentre(w, e)
                seeds.append(_CellSeeds.Seed(rank: rank(of: w), item: w, x: p.x, y: p.y))
            }
        }
        while e.budget >= 0, let key = queue.pop() {
            let item = Int32(bitPattern: UInt32(truncatingIfNeeded: key))
            let itemRank = UInt32(truncatingIfNeeded: key >> 32)
            guard editVisible(item, level, e) else { continue }
            let c = editCentre(item, e)
            let fx = Float(c.x), fy = Float(c.y)
            var best = UInt32.max
            var bestItem: Int32 = -1
            followers.removeAll(keepingCapacity: true)
            var followersFound = false
            if editSeedsByCell ?? cells.isCrowded(fx, fy) {
                cells.forEach(near: fx, fy, read: readSeeds) { seed in
                    e.budget -= 1
                    guard seed.rank < itemRank, seed.rank < best, _isWithin(fx, fy, (seed.x, seed.y), r2) else { return }
                    best = seed.rank
                    bestItem = seed.item
                }
            } else {
                // One search serves both directions: the seeds ranked before the item that reach
                // it, and (kept aside) the items ranked after it, whose decisions read it.
                let budget = e.budget
                let fixed = Int(item) < n && e.slots.slot(of: item).map { e.isNewHere($0) } == true
                forEachEditItem(level: level, near: c.x, c.y, reach: reach, appearing, e, readingOnceFor: fixed ? item : nil) { s in
                    let sr = rank(of: s)
                    if sr > itemRank {
                        followers.append(s)
                        return
                    }
                    guard sr < itemRank, sr < best, _isWithin(fx, fy, editCentre(s, e), r2),
                          editAbsorber(s, zoom: z, e) == UInt32.max else { return }
                    best = sr
                    bestItem = s
                }
                followersFound = true
                if budget - e.budget > 256 { cells.markCrowded(fx, fy) }
            }
            let s = e.slot(item, parent: parent(of: item))
            let had = !e.isNewHere(s) && e.appearsAt[s] != Int16(level)
            let before: UInt32 = had ? editAbsorber(item, zoom: z, e) : UInt32.max
            e.decidedAt[s] = mark
            e.decision[s] = best
            // A follower within the radius decides again where this item became a seed ranked
            // before the seed it joined (or it seeded itself), or where this item was the seed
            // it joined and is one no longer. A non-seed, moved or not, changes no one's decision.
            let isSeed = best == UInt32.max, wasSeed = had && before == UInt32.max
            cells.update(item, at: fx, fy, isSeed: isSeed) { _CellSeeds.Seed(rank: itemRank, item: item, x: c.x, y: c.y) }
            let keptMembers = e.membersKeptAt[s] == mark
            if isSeed != wasSeed || (isSeed && !had) || (keptMembers && !isSeed) {
                if !followersFound {
                    forEachEditItem(level: level, near: c.x, c.y, reach: reach, appearing, e) { s in
                        if rank(of: s) > itemRank { followers.append(s) }
                    }
                }
                for w in followers {
                    let p = editCentre(w, e)
                    guard _isWithin(Float(p.x), Float(p.y), c, r2) else { continue }
                    let joined = editAbsorber(w, zoom: z, e)
                    if isSeed ? joined > itemRank : joined == itemRank { enqueue(w) }
                }
            }
            // An item that joins another seed than before leaves its old cluster (as it stood:
            // it did not move) and joins the new seed's.
            let target = isSeed ? itemRank : best
            if !had || target != (wasSeed ? itemRank : before) {
                if had, let p = oldCluster(of: item) { account(p, c, pointCount(of: item), leaving: true) }
                joins.append((item, isSeed ? item : bestItem, target))
            }
        }
        if e.budget < 0 { return }

        // Each join goes to its seed's old cluster where the seed's rank had one (updated in
        // place below), or to a new cluster of its seed, made once all its members are known:
        // every member of a new cluster joined it in this zoom (one that stayed would have had
        // the seed's old cluster).
        seededByRank.sort { $0.rank < $1.rank }
        func oldCluster(ofSeed seed: Int32, rank: UInt32) -> Int32? {
            if let p = oldCluster(of: seed), clusterRank[Int(p) - n] == rank { return p }
            var lo = 0, hi = seededByRank.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if seededByRank[mid].rank < rank { lo = mid + 1 } else { hi = mid }
            }
            return lo < seededByRank.count && seededByRank[lo].rank == rank ? seededByRank[lo].cluster : nil
        }
        var fresh: [(rank: UInt32, seed: Int32, item: Int32)] = []
        for j in joins {
            if let p = oldCluster(ofSeed: j.seed, rank: j.rank) {
                account(p, editCentre(j.item, e), editPointCount(j.item, e), leaving: false)
                setEditParent(j.item, p, e)
            } else {
                fresh.append((j.rank, j.seed, j.item))
            }
        }
        fresh.sort { ($0.rank, $0.item) < ($1.rank, $1.item) }
        var k = 0
        while k < fresh.count {
            var end = k + 1
            while end < fresh.count && fresh[end].rank == fresh[k].rank { end += 1 }
            makeCluster(seed: fresh[k].seed, members: fresh[k..<end].lazy.map { $0.item }.filter { $0 != fresh[k].seed }, zoom: z, e)
            k = end
        }

        // The old clusters changed: updated in place, or dissolved where no member is left
        // with the seed (or nothing at all).
        for p in touched {
            let s = e.slot(p, parent: parent(of: p))
            let c = Int(p) - n
            let count = Int(clusterPoints[c]) + e.deltaCount[s]
            let seed = representative(of: Int32(clusterRank[c]), atZoom: level)
            let seedStays = count > 0 && !isRemoved(Int(clusterRank[c])) && parent(of: seed) == p
            if !seedStays || count == editPointCount(seed, e) {
                e.flags[s] |= _EditState.dead
                if seedStays { setEditParent(seed, -1, e) }
                continue
            }
            e.flags[s] |= _EditState.moved
            e.newCount[s] = UInt32(count)
            let old = Int(clusterPoints[c])
            if count >= old / 64 {
                let (x, y) = clusterPositions[c]
                e.newX[s] = (x * Double(old) + e.deltaX[s]) / Double(count)
                e.newY[s] = (y * Double(old) + e.deltaY[s]) / Double(count)
                continue
            }
            // Nearly all left: the old sum, taken from the rounded centre, would carry its
            // rounding into the few points left, magnified by their fewness. They are summed
            // again instead (all lie within the radius of the seed).
            let sc = editCentre(seed, e)
            var members: [Int32] = []
            forEachEditItem(level: level, near: sc.x, sc.y, reach: reach, appearing, e) { w in
                if w != seed && parent(of: w) == p { members.append(w) }
            }
            (e.newX[s], e.newY[s], _) = editCentroid(seed: seed, members: members, e)
        }
    }

    /// The centre and points of `seed` with `members` after the edit: their positions weighted
    /// by their points, summed seed first.
    private func editCentroid(seed: Int32, members: some Collection<Int32>, _ e: _EditState) -> (x: Double, y: Double, count: Int) {
        let c = editCentre(seed, e)
        var total = editPointCount(seed, e)
        var wx = c.x * Double(total), wy = c.y * Double(total)
        for w in members {
            let weight = editPointCount(w, e)
            let p = editCentre(w, e)
            wx += p.x * Double(weight)
            wy += p.y * Double(weight)
            total += weight
        }
        return (wx / Double(total), wy / Double(total), total)
    }

    /// A new cluster of `zoom` with `seed` and `members`, where there are any (the seed stands
    /// alone otherwise).
    private func makeCluster(seed: Int32, members: some Collection<Int32>, zoom z: Int, _ e: _EditState) {
        guard !members.isEmpty else {
            setEditParent(seed, -1, e)
            return
        }
        let (x, y, total) = editCentroid(seed: seed, members: members, e)
        let cluster = Int32(pointPositions.count + clusterPositions.count)
        clusterPositions.append(x, y)
        clusterPoints.append(UInt32(total))
        clusterParent.append(-1)
        clusterZoom.append(UInt8(z))
        clusterRank.append(rank(of: seed))
        e.flags[e.slot(cluster, parent: -1)] |= _EditState.added
        setEditParent(seed, cluster, e)
        for w in members { setEditParent(w, cluster, e) }
    }
}
