/// Clustering one zoom in space order rather than rank order.
///
/// The greedy pass of `+Build` visits items by rank, which is random in memory, so each visit
/// waits for cache misses. Its outcome has a local description. Call an item's possible
/// absorbers the earlier-ranked items within whose radius it lies. An item is claimed (absorbed,
/// or with minPoints > 2 visited without clustering) exactly when one of its possible absorbers
/// is a seed, that is, not claimed itself; and the seed that claims it is the earliest-ranked
/// such one. So an item's fate follows from its absorbers' fates, and items can be resolved in
/// sorted order, each reading only its neighbours, which lie nearby in memory. Resolving an
/// item may first need an absorber later in that order: it is followed on an explicit stack
/// (chains of ever earlier ranks are short for most data, and any length works).
///
/// The clusters are then formed with the same sums, in the same order, as the greedy pass
/// forms them, and listed by seed rank as it lists them, so both passes give identical results
/// (a test checks it).
extension HierarchicalClusterIndex {
    /// Clusters `b.zoom` in space order. Returns false, having changed nothing, where the items
    /// are too dense for it: pairs within the radius grow with the square of the items in a
    /// cell, where the greedy pass visits each item once.
    func clusterInSpaceOrder(_ b: _ClusterBuild, _ items: _ItemAccess, r2: Double) -> Bool {
        guard findAbsorbers(b, items.positions, r2: r2) else { return false }
        resolveClaims(b)
        listClaimers(b)
        if options.minPoints == 2 && smallClustersBelow == 0 {
            stageClustersInOrder(b, items)
        } else {
            listMembers(b)
            stageClusters(b, items)
        }
        return true
    }

    /// Lists every item's possible absorbers, in one sweep over the sorted items. Each pair of
    /// items is measured once, from the one earlier in sorted order: its candidates are the
    /// items after it in its row's run and those in the row below's (the rows above measured
    /// their pairs with it already). Measuring from both sides, as the greedy pass does, would
    /// take twice the comparisons and a cursor more. A row's lists are written once the sweep has
    /// left it (see `_PendingAbsorberPairs`).
    private func findAbsorbers(_ b: _ClusterBuild, _ positions: _ClusteringPositions, r2: Double) -> Bool {
        let s = b.items
        let e = s.entries, keys = s.keys
        let n = s.count
        let scratch = b.spaceOrder
        let dependent = scratch.dependent
        dependent.clear(n)
        let absorbers = scratch.absorbers, edgeStart = scratch.edgeStart
        var edges = 0, dependents = 0
        edgeStart[0] = 0
        if n == 0 { return true }
        // Candidates to compare: a few per item for most data, far more only where thousands
        // of items share cells; up to 16 on average is still faster than the greedy pass (a
        // million uniform points have about 9 at zoom 4). The lists are kept in a buffer the size of the point count (the index's
        // memory is counted per point).
        var budget = 16 * n + 4096
        let limit = 96
        let capacity = scratch.absorberCapacity
        // Pairs waiting for their row to end: a quarter of the items' count at most (2 bytes per
        // point), so that a row of thousands of pairs gives the zoom to the greedy pass
        // instead of growing the pending pairs.
        let waitingLimit = n / 4 + 4096
        var pendingPairs = scratch.pendingPairs
        pendingPairs.count = 0
        defer { scratch.pendingPairs = pendingPairs }
        var rowStart = 0
        var currentRow = keys[0] >> 32
        let sweepBand = _RoundingDoubtBand(r2: r2)
        var measuredAgain = 0
        defer { itemsMeasuredExactly += measuredAgain }
        let swept = s.forEachForward { j, sameEnd, below, belowEnd in
            // All pairs of the items before j are found: list them a row at a time.
            if keys[j] >> 32 != currentRow {
                guard pendingPairs.listRow(rowStart..<j, e, dependent: dependent, absorbers: absorbers,
                                           edgeStart: edgeStart, edges: &edges, dependents: &dependents,
                                           capacity: capacity) else { return false }
                rowStart = j
                currentRow = keys[j] >> 32
            }
            pendingPairs.reserve(2 * limit)
            let pairs = pendingPairs.pairs
            var found = pendingPairs.count
            let rank = e[j].rank
            // Written always, kept when it counts: the tests are coin flips to a branch. The
            // later-ranked item of a pair is the dependent, measured from its float32 position
            // to the other's clustering position, as the greedy pass measures. That position
            // is taken as the absorber's float32 one, and whether that left the outcome in
            // doubt (see `_RoundingDoubtBand`) is gathered without a branch; in the rare item where
            // it did, all its pairs are measured again, each to its absorber's clustering
            // position.
            var doubts = 0
            let band = sweepBand   // a local copy: read through the closure's context, it would cost a load per pair
            @inline(__always) func measure(_ p: Int) {
                let (dependent, absorber) = _dependentAndAbsorber(j, p, rank, e)
                let dx = Double(e[dependent].fx) - Double(e[absorber].fx)
                let dy = Double(e[dependent].fy) - Double(e[absorber].fy)
                let d2 = dx * dx + dy * dy
                pairs[found] = UInt64(dependent) << 32 | UInt64(absorber)
                found &+= d2 <= r2 ? 1 : 0
                doubts &+= band.isInDoubt(d2) ? 1 : 0
            }
            var p = j + 1
            let sameStop = Swift.min(n, p + limit)
            while p < sameStop && keys[p] <= sameEnd { measure(p); p += 1 }
            var q = below
            let belowStop = Swift.min(n, q + limit)
            while q < belowStop && keys[q] <= belowEnd { measure(q); q += 1 }
            if doubts != 0 {
                found = _measureExactly(j, (j + 1)..<p, below..<q, e, positions, r2: r2, pairs: pairs, from: pendingPairs.count)
                measuredAgain += 1
            }
            // A crowded cell: its items would compare with each other, pair by pair.
            if (p == sameStop && p < n && keys[p] <= sameEnd) || (q == belowStop && q < n && keys[q] <= belowEnd) {
                return false
            }
            budget -= (p - j - 1) + (q - below)
            if budget < 0 || found > waitingLimit || edges + found > capacity { return false }
            pendingPairs.count = found
            return true
        }
        guard swept else { return false }
        return pendingPairs.listRow(rowStart..<n, e, dependent: dependent, absorbers: absorbers, edgeStart: edgeStart,
                                    edges: &edges, dependents: &dependents, capacity: capacity)
    }

    /// Decides, for every item with possible absorbers, whether it is claimed and by which
    /// seed (stored in its first absorber slot).
    private func resolveClaims(_ b: _ClusterBuild) {
        let n = b.count
        let scratch = b.spaceOrder
        let dependent = scratch.dependent, unresolved = scratch.unresolved, claimed = scratch.claimed
        _ = dependent.index(upTo: n)
        unresolved.copy(dependent, n)
        claimed.clear(n)
        var stack = scratch.resolving
        stack.removeAll()
        defer { scratch.resolving = stack }
        let absorbers = scratch.absorbers, edgeStart = scratch.edgeStart
        dependent.forEach(below: n) { root in
            if !unresolved.contains(root) { return }
            stack.push(UInt32(root))
            while !stack.isEmpty {
                let item = Int(stack.top)
                if !unresolved.contains(item) {
                    stack.pop()
                    continue
                }
                let k = dependent.index(of: item)
                let edges = Int(edgeStart[k])..<Int(edgeStart[k + 1])
                // The absorbers in rank order: the first that is a seed claims the item; one
                // not resolved yet goes on the stack first, and the item comes back to the top
                // once it is. Reading no ranks here matters: the absorbers' records are spread
                // over three rows of the grid, and this pass would wait for them.
                var waiting = false
                var seed = -1
                for q in edges {
                    let a = Int(absorbers[q])
                    if unresolved.contains(a) {
                        stack.push(UInt32(a))
                        waiting = true
                        break
                    }
                    if !claimed.contains(a) {
                        seed = a
                        break
                    }
                }
                if waiting { continue }
                stack.pop()
                unresolved.remove(item)
                if seed >= 0 {
                    claimed.insert(item)
                    absorbers[edges.lowerBound] = UInt32(seed)
                }
            }
        }
    }

    /// Lists the seed that claimed each claimed item, in sorted order of the items, and marks
    /// the seeds (`claiming`).
    private func listClaimers(_ b: _ClusterBuild) {
        let n = b.count
        let scratch = b.spaceOrder
        let dependent = scratch.dependent, claimed = scratch.claimed, claiming = scratch.claiming
        // Sized first and filled through a pointer: no per-item checks of capacity or owner.
        var claimers = scratch.claimers
        scratch.claimers = []
        defer { scratch.claimers = claimers }
        let claimedCount = claimed.index(upTo: n)
        claimers.removeAll(keepingCapacity: true)
        claimers.append(contentsOf: repeatElement(0, count: claimedCount))
        let absorbers = scratch.absorbers, edgeStart = scratch.edgeStart
        claimers.withUnsafeMutableBufferPointer { claimers in
            var k = 0, w = 0
            dependent.forEach(below: n) { p in
                if claimed.contains(p) {
                    claimers[w] = absorbers[Int(edgeStart[k])]
                    w += 1
                }
                k += 1
            }
            claiming.clear(n)
            for c in claimers { claiming.insert(Int(c)) }
        }
    }

    /// Lists the items each seed claimed, in sorted order, seeds in sorted order too (a
    /// counting sort of the claimed items by seed).
    private func listMembers(_ b: _ClusterBuild) {
        let n = b.count
        let scratch = b.spaceOrder
        let claimed = scratch.claimed, claiming = scratch.claiming
        var memberStart = scratch.memberStart, members = scratch.members
        scratch.memberStart = []; scratch.members = []
        defer { scratch.memberStart = memberStart; scratch.members = members }
        let claimers = scratch.claimers
        let claimedCount = claimers.count
        let seedCount = claiming.index(upTo: n)
        members.removeAll(keepingCapacity: true)
        members.append(contentsOf: repeatElement(0, count: claimedCount))
        memberStart.removeAll(keepingCapacity: true)
        memberStart.append(contentsOf: repeatElement(0, count: seedCount + 1))
        memberStart.withUnsafeMutableBufferPointer { memberStart in
            members.withUnsafeMutableBufferPointer { members in
                for c in claimers { memberStart[claiming.index(of: Int(c)) + 1] += 1 }
                for s in 0..<seedCount { memberStart[s + 1] += memberStart[s] }
                var c = 0
                claimed.forEach(below: n) { p in
                    let s = claiming.index(of: Int(claimers[c]))
                    c += 1
                    members[Int(memberStart[s])] = UInt32(p)
                    memberStart[s] += 1
                }
                // Each start has moved to its end, the next seed's start: shift them back.
                for s in stride(from: seedCount, to: 0, by: -1) { memberStart[s] = memberStart[s - 1] }
                memberStart[0] = 0
            }
        }
    }

    /// Stages the clusters as `stageClusters` does, for minPoints 2 and no small clusters'
    /// members to list (the usual options), without lists of members by seed: every seed then
    /// forms a cluster, so each claimed item is absorbed where the pass meets it, in sorted
    /// order, and added to its seed's sums, which the staged cluster holds until the last. The
    /// sums are made in the same order (the seed, then its items in sorted order). What this
    /// saves is `listMembers`, the counting sort by seed.
    private func stageClustersInOrder(_ b: _ClusterBuild, _ items: _ItemAccess) {
        let e = b.entries, n = b.count
        let scratch = b.spaceOrder
        let marks = b.marks
        marks.reset(n)
        let claimed = scratch.claimed, claiming = scratch.claiming
        let firstCluster = Int32(pointPositions.count + clusterPositions.count)
        var absorbed = b.absorbed, staged = b.staged
        b.absorbed = []; b.staged = []
        defer { b.absorbed = absorbed; b.staged = staged }
        let seedCount = claiming.index(upTo: n)
        let first = staged.count, absorbedStart = absorbed.count
        absorbed.append(contentsOf: repeatElement(0, count: scratch.claimers.count + seedCount))
        staged.append(contentsOf: repeatElement(_StagedCluster(x: 0, y: 0, count: 0, rank: 0), count: seedCount))
        b.stagedOnePerSeed = true
        let parents = _BucketedParentLinks(memory: scratch.raw, byteCount: scratch.byteCount, idLimit: Int(firstCluster), items: items)
        defer { parents.finish() }
        absorbed.withUnsafeMutableBufferPointer { absorbedOut in
            staged.withUnsafeMutableBufferPointer { stagedOut in
                scratch.claimers.withUnsafeBufferPointer { claimers in
                    let sums = stagedOut.baseAddress! + first
                    var w = absorbedStart
                    @inline(__always) func absorb(_ p: Int, _ id: Int32, into s: Int) {
                        marks.absorb(p)
                        absorbedOut[w] = id
                        w += 1
                        parents.add(id, parent: firstCluster + Int32(first + s))
                    }
                    var s = 0
                    claiming.forEach(below: n) { seed in
                        let weight = items.pointCount(e[seed].id)
                        let position = items.clusteringPosition(e[seed])
                        sums[s] = _StagedCluster(x: position.x * Double(weight), y: position.y * Double(weight),
                                                 count: UInt32(weight), rank: e[seed].rank)
                        absorb(seed, e[seed].id, into: s)
                        s += 1
                    }
                    var c = 0
                    claimed.forEach(below: n) { p in
                        let s = claiming.index(of: Int(claimers[c]))
                        c += 1
                        let weight = items.pointCount(e[p].id)
                        let position = items.clusteringPosition(e[p])
                        sums[s].x += position.x * Double(weight)
                        sums[s].y += position.y * Double(weight)
                        sums[s].count += UInt32(weight)
                        absorb(p, e[p].id, into: s)
                    }
                    for s in 0..<seedCount {
                        let total = Double(sums[s].count)
                        sums[s].x /= total
                        sums[s].y /= total
                    }
                }
            }
        }
    }

    /// Stages the clusters, by seed position: centroids (the seed first, then its claimed
    /// items in sorted order, as the greedy pass adds them), marks, parents, absorbed items and
    /// small clusters' members. With minPoints > 2, a seed with too few points leaves its
    /// claimed items single, to follow it in the data order. (The greedy pass stages by seed
    /// rank: the clusters are the same, numbered in another order.)
    private func stageClusters(_ b: _ClusterBuild, _ items: _ItemAccess) {
        let e = b.entries
        let scratch = b.spaceOrder
        let marks = b.marks
        marks.reset(b.count)
        let minPoints = options.minPoints, small = smallClustersBelow
        let radius = options.worldRadius(zoom: b.zoom)
        let firstCluster = Int32(pointPositions.count + clusterPositions.count)
        var moved: [Int32] = []
        // The build's lists, moved out while they grow: one owner, no access checks.
        var absorbed = b.absorbed, staged = b.staged, smallMembers = b.smallMembers, smallMemberEnd = b.smallMemberEnd
        b.absorbed = []; b.staged = []; b.smallMembers = []; b.smallMemberEnd = []
        defer {
            b.absorbed = absorbed; b.staged = staged; b.smallMembers = smallMembers; b.smallMemberEnd = smallMemberEnd
        }
        // Room for every seed and claimed item, written through pointers (an append per item
        // would check capacity and ownership each time), and trimmed to what was written.
        let seedCount = scratch.memberStart.count - 1
        var absorbedEnd = absorbed.count, stagedEnd = staged.count, smallEnd = smallMemberEnd.count
        let first = stagedEnd
        absorbed.append(contentsOf: repeatElement(0, count: scratch.members.count + seedCount))
        staged.append(contentsOf: repeatElement(_StagedCluster(x: 0, y: 0, count: 0, rank: 0), count: seedCount))
        smallMemberEnd.append(contentsOf: repeatElement(0, count: seedCount))
        defer {
            absorbed.removeLast(absorbed.count - absorbedEnd)
            staged.removeLast(staged.count - stagedEnd)
            smallMemberEnd.removeLast(smallMemberEnd.count - smallEnd)
            b.stagedOnePerSeed = stagedEnd - first == seedCount
        }
        let parents = _BucketedParentLinks(memory: scratch.raw, byteCount: scratch.byteCount, idLimit: Int(firstCluster), items: items)
        defer { parents.finish() }
        absorbed.withUnsafeMutableBufferPointer { absorbedOut in
            staged.withUnsafeMutableBufferPointer { stagedOut in
                smallMemberEnd.withUnsafeMutableBufferPointer { smallEndOut in
                    scratch.memberStart.withUnsafeBufferPointer { memberStart in
                        scratch.members.withUnsafeBufferPointer { members in
                            var s = 0
                            scratch.claiming.forEach(below: b.count) { seed in
                                let claimedItems = Int(memberStart[s])..<Int(memberStart[s + 1])
                                s += 1
                                let item = e[seed].id
                                let itemRank = e[seed].rank
                                var total = items.pointCount(item)
                                let centre = items.clusteringPosition(e[seed])
                                var wx = centre.x * Double(total), wy = centre.y * Double(total)
                                for m in claimedItems {
                                    let p = Int(members[m])
                                    let weight = items.pointCount(e[p].id)
                                    let position = items.clusteringPosition(e[p])
                                    wx += position.x * Double(weight)
                                    wy += position.y * Double(weight)
                                    total += weight
                                }
                                if total < minPoints {
                                    moved.removeAll(keepingCapacity: true)
                                    for m in claimedItems { moved.append(Int32(members[m])) }
                                    b.appendMoved(moved, seedRank: itemRank, centre: centre, radius: radius)
                                    return
                                }
                                let clusterItem = firstCluster + Int32(stagedEnd)
                                for m in claimedItems {
                                    let p = Int(members[m])
                                    let id = e[p].id
                                    marks.absorb(p)
                                    absorbedOut[absorbedEnd] = id
                                    absorbedEnd += 1
                                    parents.add(id, parent: clusterItem)
                                }
                                marks.absorb(seed)
                                absorbedOut[absorbedEnd] = item
                                absorbedEnd += 1
                                parents.add(item, parent: clusterItem)
                                if total < small {
                                    smallMembers.append(item)
                                    for m in claimedItems { smallMembers.append(e[Int(members[m])].id) }
                                }
                                smallEndOut[smallEnd] = Int32(smallMembers.count)
                                smallEnd += 1
                                stagedOut[stagedEnd] = _StagedCluster(x: wx / Double(total), y: wy / Double(total),
                                                                      count: UInt32(total), rank: itemRank)
                                stagedEnd += 1
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The pair of items `j` (of rank `rank`) and `p` as the sweep of `findAbsorbers` measures it:
/// the later-ranked one, the dependent, is measured to the other, its possible absorber. Which
/// is which is chosen by position, an integer select: chosen between the items'
/// floating-point values, it would compile to two ways of measuring and a branch on the ranks, a
/// coin flip. Both records are in cache by then.
@inline(__always)
private func _dependentAndAbsorber(_ j: Int, _ p: Int, _ rank: UInt32, _ e: UnsafeMutablePointer<_ItemRecord>) -> (Int, Int) {
    let earlier = e[p].rank < rank
    return earlier ? (j, p) : (p, j)
}

/// The pairs of item `j` with the items at `same` and then `under`, each measured to its
/// absorber's clustering position, written to `pairs` from `from` as the sweep of
/// `findAbsorbers` writes them; returns the count there after. Apart, so the sweep's loop stays
/// small: it measures to the float32 positions and comes here only for the rare item where
/// that left a pair in doubt.
@inline(never)
private func _measureExactly(_ j: Int, _ same: Range<Int>, _ under: Range<Int>, _ e: UnsafeMutablePointer<_ItemRecord>,
                             _ positions: _ClusteringPositions, r2: Double, pairs: UnsafeMutablePointer<UInt64>,
                             from: Int) -> Int {
    var found = from
    let rank = e[j].rank
    @inline(__always) func measure(_ run: Range<Int>) {
        for p in run {
            let (dependent, absorber) = _dependentAndAbsorber(j, p, rank, e)
            pairs[found] = UInt64(dependent) << 32 | UInt64(absorber)
            found &+= _isWithin(e[dependent].fx, e[dependent].fy, positions.of(e[absorber]), r2) ? 1 : 0
        }
    }
    measure(same)
    measure(under)
    return found
}
