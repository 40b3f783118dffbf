/// The storage laid out again after an edit (`+Edits`): clusters stay stored zoom by zoom with
/// the dissolved ones dropped and the new ones in their zoom's block, references renumbered,
/// moved points written, the zoom groups' id lists spliced (the items whose place or visibility
/// changed taken out and put back where their cells sort, one pass per list), and the public
/// cluster ids numbered again. Nothing is sorted but the changed items.
extension HierarchicalClusterIndex {
    /// Whether a point was removed by an edit (its id is never used again).
    @inline(__always)
    func isRemoved(_ point: Int) -> Bool {
        removedPointCount > 0 && point >> 6 < removedPoints.count && removedPoints[point >> 6] & (1 << UInt64(point & 63)) != 0
    }

    func markRemoved(_ point: Int) {
        let words = pointPositions.count / 64 + 1
        if removedPoints.count < words { removedPoints.append(contentsOf: repeatElement(0, count: words - removedPoints.count)) }
        removedPoints[point >> 6] |= 1 << UInt64(point & 63)
        removedPointCount += 1
    }

    /// The points held: those added less those removed.
    public var livePointCount: Int { pointPositions.count - removedPointCount }

    func layOutAfterEdit(_ e: _EditState, oldClusterCount c0: Int) {
        let n = pointPositions.count
        let clusters = clusterPositions.count
        // The items whose place, content or visibility changed, and the dead ones, as bits:
        // the passes below ask of every item stored.
        var changed: [Int32] = []
        let isChanged = _Bitset(capacity: n + clusters), isDeadItem = _Bitset(capacity: n + clusters)
        defer {
            isChanged.deallocate()
            isDeadItem.deallocate()
        }
        isChanged.clear(n + clusters)
        isDeadItem.clear(n + clusters)
        if deadClusterCount > 0 {
            for c in 0..<clusters where isDeadCluster(c) { isDeadItem.insert(n + c) }
        }
        for (s, item) in e.slots.ids.enumerated() {
            if e.has(s, _EditState.dead) { isDeadItem.insert(Int(item)) }
            if e.flags[s] != 0 || e.oldParent[s] != parent(of: item) {
                changed.append(item)
                isChanged.insert(Int(item))
            }
        }
        @inline(__always) func isDead(_ item: Int32) -> Bool { isDeadItem.contains(Int(item)) }

        // Where the changed items go in each group, found while the lists still match the
        // positions they were sorted by.
        var inserts: [[(at: Int, item: Int32)]] = []
        for g in groups {
            var keys: [UInt64] = []
            var values: [UInt32] = []
            for item in changed where !isDead(item) {
                let i = Int(item)
                let high = i < n ? options.maxZoom + 1 : Int(clusterZoom[i - n])
                let p = Int(parent(of: item))
                let low = p >= 0 ? Int(clusterZoom[p - n]) + 1 : options.minZoom
                guard low <= g.highZoom && high >= g.lowZoom && low <= high else { continue }
                let c = editPosition(item, e)
                keys.append(g.grid.key(x: Float(c.x), y: Float(c.y)))
                values.append(UInt32(bitPattern: item))
            }
            RadixSort.sort(keys: &keys, values: &values, count: keys.count)
            inserts.append((0..<keys.count).map { k in
                (insertionPoint(g, key: keys[k]), Int32(bitPattern: values[k]))
            })
        }

        writeMoved(e)

        // Clusters renumbered: each zoom's block holds its surviving clusters and the new ones of
        // that zoom in seed rank order, so it needs no sorting by seed position afterwards
        // (`sortClustersBySeed`). The survivors are read in that order from each zoom's clusters
        // by seed position (seed positions grow with rank), wherever a loose storage keeps them.
        var newIndex = [Int32](repeating: -1, count: clusters)
        var kept: [Int32] = []
        kept.reserveCapacity(clusters)
        var made = (c0..<clusters).filter { !isDead(Int32(n + $0)) }
        made.sort { a, b in clusterZoom[a] != clusterZoom[b] ? clusterZoom[a] > clusterZoom[b] : clusterRank[a] < clusterRank[b] }
        var next = 0
        for z in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            for survivor in clustersBySeed[clustersBySeedRange(zoom: z)] where !isDead(Int32(n) + survivor) {
                let c = Int(survivor), r = clusterRank[c]
                while next < made.count && Int(clusterZoom[made[next]]) == z && clusterRank[made[next]] < r {
                    kept.append(Int32(made[next]))
                    next += 1
                }
                kept.append(survivor)
            }
            while next < made.count && Int(clusterZoom[made[next]]) == z {
                kept.append(Int32(made[next]))
                next += 1
            }
        }
        assert(next == made.count)
        for (k, c) in kept.enumerated() { newIndex[Int(c)] = Int32(k) }
        newIndex.withUnsafeBufferPointer { newIndex in
            @inline(__always) func renumbered(_ item: Int32) -> Int32 {
                item < Int32(n) ? item : Int32(n) + newIndex[Int(item) - n]
            }
            let m = kept.count
            let xy = [Double](unsafeUninitializedCapacity: 2 * m) { out, count in
                clusterPositions.xy.withUnsafeBufferPointer { old in
                    for (k, c) in kept.enumerated() {
                        out[2 * k] = old[2 * Int(c)]
                        out[2 * k + 1] = old[2 * Int(c) + 1]
                    }
                }
                count = 2 * m
            }
            let parents = [Int32](unsafeUninitializedCapacity: m) { out, count in
                clusterParent.withUnsafeBufferPointer { old in
                    for (k, c) in kept.enumerated() { out[k] = old[Int(c)] < 0 ? -1 : renumbered(old[Int(c)]) }
                }
                count = m
            }

            clusterPositions = _WorldPositions(xy: xy)
            clusterPoints = Self.gather(clusterPoints, at: kept)
            clusterParent = parents
            clusterZoom = Self.gather(clusterZoom, at: kept)
            clusterRank = Self.gather(clusterRank, at: kept)
            pointParent.withUnsafeMutableBufferPointer { pp in
                for i in 0..<pp.count where pp[i] >= 0 { pp[i] = renumbered(pp[i]) }
            }

            // The groups' lists: unchanged items kept in order (renumbered), changed ones spliced
            // in. A fence whose place still holds the same unchanged item keeps its key: only
            // between a changed item's old and new places do the places shift, so most fences
            // are kept and few positions (scattered reads) are looked up.
            let stride = _ZoomGroup.fenceStride
            for g in 0..<groups.count {
                let adds = inserts[g], grid = groups[g].grid
                var fences: [UInt64] = []
                let ids = groups[g].ids.withUnsafeBufferPointer { old in
                    let spliced = [Int32](unsafeUninitializedCapacity: old.count + adds.count) { out, count in
                        // Each insert goes before the old place it names (adds are in place order).
                        var k = 0, w = 0
                        let buffer = out.baseAddress!
                        func keepUnchanged(upTo end: Int) {
                            while k < end {
                                let item = old[k]
                                if !isChanged.contains(Int(item)) {
                                    buffer[w] = renumbered(item)
                                    w += 1
                                }
                                k += 1
                            }
                        }
                        for t in adds {
                            keepUnchanged(upTo: t.at)
                            buffer[w] = renumbered(t.item)
                            w += 1
                        }
                        keepUnchanged(upTo: old.count)
                        count = w
                    }
                    fences.reserveCapacity((spliced.count + stride - 1) / stride)
                    let oldGroup = groups[g], oldFences = oldGroup.fences
                    var f = 0
                    for k in Swift.stride(from: 0, to: spliced.count, by: stride) {
                        while f < oldFences.count && oldGroup.fencePlace(f) < k { f += 1 }
                        if f < oldFences.count && oldGroup.fencePlace(f) == k && !isChanged.contains(Int(old[k]))
                            && renumbered(old[k]) == spliced[k] {
                            fences.append(oldFences[f])
                        } else {
                            let p = indexPosition(spliced[k])
                            fences.append(grid.key(x: p.x, y: p.y))
                        }
                    }
                    return spliced
                }
                groups[g] = _ZoomGroup(lowZoom: groups[g].lowZoom, highZoom: groups[g].highZoom, grid: grid, ids: ids, fences: fences)
            }
        }

        superclusterTrees = []
        storageIsLoose = false
        deadClusters = []
        deadClusterCount = 0
        numberClusters(ranksKnown: true)
        if smallClustersBelow > 0 { smallClusterPoints = smallClusterPointLists(below: smallClustersBelow) }
    }

    /// `values` at `indices`, in their order.
    private static func gather<T>(_ values: [T], at indices: [Int32]) -> [T] {
        [T](unsafeUninitializedCapacity: indices.count) { out, count in
            values.withUnsafeBufferPointer { v in
                for (k, i) in indices.enumerated() { out[k] = v[Int(i)] }
            }
            count = indices.count
        }
    }

    /// An item's exact position after the edit (a moved point's new one).
    private func editPosition(_ item: Int32, _ e: _EditState) -> (x: Double, y: Double) {
        if let s = e.slots.slot(of: item), e.has(s, _EditState.moved) { return (e.newX[s], e.newY[s]) }
        return reportedPosition(item)
    }
}
