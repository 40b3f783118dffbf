/// The storage of an edit laid out in place, for the common edit that changes no item's
/// standing: points only moved (none added or removed), every cluster the repair dissolved
/// made again at its zoom from the same seed, and every item visible at the same levels as
/// before. Then each level still holds items of the same ranks, so the clusters keep their
/// places and their public ids (which count the items ranked before a seed at its level), and
/// only what changed is written: a remade cluster into its old slot, references to it, the
/// moved items' places in the zoom groups' lists (a stretch of each list rewritten, its fences
/// computed again), and the small clusters' point lists. `layOutAfterEdit` lays out the rest.
extension HierarchicalClusterIndex {
    /// Lays out the edit in place and returns true, or returns false with nothing changed when
    /// it changes an item's standing.
    func layOutInPlace(_ e: _EditState, oldClusterCount c0: Int) -> Bool {
        let n = pointPositions.count, clusters = clusterPositions.count
        // Remade clusters and the dissolved ones, by zoom and seed rank: the same keys, or no.
        var made: [(key: UInt64, cluster: Int)] = [], dissolved: [(key: UInt64, cluster: Int)] = []
        @inline(__always) func key(_ c: Int) -> UInt64 { UInt64(clusterZoom[c]) << 32 | UInt64(clusterRank[c]) }
        for c in c0..<clusters { made.append((key(c), c)) }
        for (s, item) in e.slots.ids.enumerated() {
            let i = Int(item)
            if i < n {
                if e.has(s, _EditState.added | _EditState.dead) { return false }
            } else if i - n < c0 && e.has(s, _EditState.dead) {
                dissolved.append((key(i - n), i - n))
            }
        }
        guard made.count == dissolved.count else { return false }
        made.sort { $0.key < $1.key }
        dissolved.sort { $0.key < $1.key }
        var slotOf = [Int](repeating: 0, count: made.count)   // by new cluster - c0: its old slot
        for k in 0..<made.count {
            guard made[k].key == dissolved[k].key else { return false }
            slotOf[made[k].cluster - c0] = dissolved[k].cluster
        }
        @inline(__always) func placed(_ item: Int32) -> Int32 {
            item >= Int32(n + c0) ? Int32(n + slotOf[Int(item) - n - c0]) : item
        }
        @inline(__always) func zoomOf(_ parent: Int32) -> Int { parent < 0 ? -1 : Int(clusterZoom[Int(parent) - n]) }
        // The parent before the edit of what now stands in a slot: a remade cluster's is its
        // dissolved twin's.
        var oldParentOfSlot: [Int32] = []
        oldParentOfSlot.reserveCapacity(made.count)
        for k in 0..<made.count {
            let twin = Int32(n + slotOf[k])
            oldParentOfSlot.append(e.slots.slot(of: twin).map { e.oldParent[$0] } ?? parent(of: twin))
        }
        // Every item visible from the same level as before (up to the same one, by its zoom).
        for (s, item) in e.slots.ids.enumerated() where !e.has(s, _EditState.dead) {
            let i = Int(item)
            let before = i >= n + c0 ? oldParentOfSlot[i - n - c0] : e.oldParent[s]
            if zoomOf(before) != zoomOf(parent(of: item)) { return false }
        }

        // The items that moved in space, with their visible levels, old and new positions.
        var shifted: [(item: Int32, low: Int, high: Int, old: (x: Double, y: Double), new: (x: Double, y: Double))] = []
        for (s, item) in e.slots.ids.enumerated() where Int(item) < n && e.has(s, _EditState.moved) {
            let old = pointPositions[Int(item)], new = (x: e.newX[s], y: e.newY[s])
            if old != new { shifted.append((item, zoomOf(parent(of: item)) + 1, options.maxZoom + 1, old, new)) }
        }
        for k in 0..<made.count {
            let o = slotOf[k], old = clusterPositions[o], new = clusterPositions[c0 + k]
            if old != new {
                shifted.append((Int32(n + o), zoomOf(oldParentOfSlot[k]) + 1, Int(clusterZoom[o]), old, new))
            }
        }
        // Where each leaves and enters each group's list, found while the lists match the
        // positions they were sorted by.
        var plans: [(lo: Int, hi: Int, leaving: [Int], entering: [(at: Int, key: UInt64, item: Int32)])] = []
        for g in groups {
            var lo = Int.max, hi = -1
            var leaving: [Int] = [], entering: [(at: Int, key: UInt64, item: Int32)] = []
            for t in shifted where t.low <= g.highZoom && t.high >= g.lowZoom && t.low <= t.high {
                let oldKey = g.grid.key(x: Float(t.old.x), y: Float(t.old.y))
                let newKey = g.grid.key(x: Float(t.new.x), y: Float(t.new.y))
                var at = insertionPoint(g, key: oldKey)
                while at < g.ids.count && g.ids[at] != t.item { at += 1 }
                guard at < g.ids.count else { return false }
                let to = insertionPoint(g, key: newKey)
                lo = min(lo, at, to)
                hi = max(hi, at + 1, to)
                leaving.append(at)
                entering.append((to, newKey, t.item))
            }
            leaving.sort()
            entering.sort { ($0.at, $0.key, $0.item) < ($1.at, $1.key, $1.item) }
            plans.append((lo, hi, leaving, entering))
        }

        // Written: the remade clusters into their slots, the references to them, the moved points.
        let oldCounts = slotOf.map { clusterPoints[$0] }
        for k in 0..<made.count {
            let o = slotOf[k], c = c0 + k
            let p = clusterPositions[c]
            clusterPositions.set(o, p.x, p.y)
            clusterPoints[o] = clusterPoints[c]
            clusterParent[o] = placed(clusterParent[c])
        }
        for item in e.slots.ids where Int(item) < n + c0 {
            let i = Int(item)
            if i < n { pointParent[i] = placed(pointParent[i]) } else { clusterParent[i - n] = placed(clusterParent[i - n]) }
        }
        for (s, item) in e.slots.ids.enumerated() where Int(item) < n && e.has(s, _EditState.moved) {
            pointPositions.set(Int(item), e.newX[s], e.newY[s])
        }
        clusterPositions = _WorldPositions(xy: Array(clusterPositions.xy.prefix(2 * c0)))
        clusterPoints.removeLast(clusters - c0)
        clusterParent.removeLast(clusters - c0)
        clusterZoom.removeLast(clusters - c0)
        clusterRank.removeLast(clusters - c0)

        // Each group's stretch from the first place touched to the last, rewritten.
        for (g, plan) in plans.enumerated() where plan.hi > plan.lo {
            let grid = groups[g].grid, stride = _ZoomGroup.fenceStride
            groups[g].ids.withUnsafeMutableBufferPointer { ids in
                var stretch: [Int32] = []
                stretch.reserveCapacity(plan.hi - plan.lo)
                var next = 0, gone = 0
                for k in plan.lo..<plan.hi {
                    while next < plan.entering.count && plan.entering[next].at <= k {
                        stretch.append(plan.entering[next].item)
                        next += 1
                    }
                    if gone < plan.leaving.count && plan.leaving[gone] == k {
                        gone += 1
                    } else {
                        stretch.append(ids[k])
                    }
                }
                for t in plan.entering[next...] { stretch.append(t.item) }
                for (j, item) in stretch.enumerated() { ids[plan.lo + j] = item }
            }
            for f in ((plan.lo + stride - 1) / stride)..<((plan.hi + stride - 1) / stride) {
                let p = indexPosition(groups[g].ids[f * stride])
                groups[g].fences[f] = grid.key(x: p.x, y: p.y)
            }
        }

        if smallClustersBelow > 0 { updateSmallClusterPoints(slots: slotOf, oldCounts: oldCounts) }
        return true
    }

    /// The small clusters' point lists after clusters were remade in `slots` (in place where
    /// each keeps its number of points; listed afresh otherwise).
    private func updateSmallClusterPoints(slots: [Int], oldCounts: [UInt32]) {
        let k = smallClustersBelow, n = pointPositions.count
        var points: [Int32] = []
        for (t, o) in slots.enumerated() where Int(oldCounts[t]) < k || Int(clusterPoints[o]) < k {
            guard oldCounts[t] == clusterPoints[o] else {
                smallClusterPoints = smallClusterPointLists(below: k)
                return
            }
            points.removeAll(keepingCapacity: true)
            var stack: [Int32] = [Int32(n + o)]
            while let item = stack.popLast() {
                forEachChildItem(of: item) { child in
                    if Int(child) < n { points.append(child) } else { stack.append(child) }
                }
            }
            points.sort()
            let first = Int(smallClusterPoints.start[o])
            for (j, p) in points.enumerated() { smallClusterPoints.points[first + j] = p }
        }
    }
}
