/// The storage of an edit laid out in place: no item renumbered, no column copied whole. A
/// cluster the repair made at a zoom from the seed of one it dissolved there takes that one's
/// slot; the other clusters it made are stored after every cluster, whatever their zoom, and the
/// other ones it dissolved stay as dead slots. Then only what changed is written: the clusters
/// into their slots, references to them, moved points, the zoom groups' lists (moved in runs
/// between the items that leave or enter them, fences moved with their ids),
/// each zoom's clusters by seed position (merged again where clusters came or went), and the
/// public ids: a cluster's counts the items visible one zoom up that rank before its seed, read
/// from each level's visible ranks (`_LevelRanks`), whose bits change only for the items whose
/// levels changed. Once dead slots would pass an eighth of the clusters, `layOutAfterEdit` lays
/// the storage out afresh instead, in zoom order again.
extension HierarchicalClusterIndex {
    /// An item whose id, place or levels the edit changed: its id before and after (-1 where
    /// it did not or does not exist), its rank, the levels it was and is visible at (none where
    /// low > high), and its positions before and after.
    private struct _PlacedChange {
        var oldItem: Int32
        var newItem: Int32
        var rank: UInt32
        var oldLevels: (low: Int, high: Int)
        var newLevels: (low: Int, high: Int)
        var old: (x: Double, y: Double)
        var new: (x: Double, y: Double)

        static let none = (low: 1, high: 0)
    }

    /// Lays out the edit in place and returns true, or returns false with nothing changed where
    /// the dead slots would pass an eighth of the clusters (or the storage was not as expected).
    func layOutInPlace(_ e: _EditState, oldClusterCount c0: Int) -> Bool {
        let n = pointPositions.count, clusters = clusterPositions.count, top = options.maxZoom + 1
        @inline(__always) func key(_ c: Int) -> UInt64 { UInt64(clusterZoom[c]) << 32 | UInt64(clusterRank[c]) }
        @inline(__always) func zoomOf(_ parent: Int32) -> Int { parent < 0 ? -1 : Int(clusterZoom[Int(parent) - n]) }

        // Made and dissolved clusters by zoom and seed rank: a made one takes the slot of the
        // dissolved one of the same key (its twin), the others the next slots after the old ones.
        // (A cluster the repair made and then dissolved again takes none: nothing refers to it.)
        @inline(__always) func isDead(_ item: Int32) -> Bool { e.slots.slot(of: item).map { e.has($0, _EditState.dead) } ?? false }
        var made = (c0..<clusters).filter { !isDead(Int32(n + $0)) }.map { (key: key($0), cluster: $0) }
        var dissolved: [(key: UInt64, cluster: Int, slot: Int)] = []
        for (s, item) in e.slots.ids.enumerated() where Int(item) >= n && Int(item) - n < c0 && e.has(s, _EditState.dead) {
            dissolved.append((key(Int(item) - n), Int(item) - n, s))
        }
        made.sort { $0.key < $1.key }
        dissolved.sort { $0.key < $1.key }
        var slotOf = [Int](repeating: -1, count: clusters - c0)   // by made cluster - c0
        var twinOf = [Int](repeating: -1, count: dissolved.count)  // by dissolved entry: its made twin
        var m = 0
        for (d, entry) in dissolved.enumerated() {
            while m < made.count && made[m].key < entry.key { m += 1 }
            if m < made.count && made[m].key == entry.key {
                slotOf[made[m].cluster - c0] = entry.cluster
                twinOf[d] = made[m].cluster
                m += 1
            }
        }
        var kept = c0
        for k in 0..<slotOf.count where slotOf[k] < 0 && !isDead(Int32(n + c0 + k)) {
            slotOf[k] = kept
            kept += 1
        }
        let deadSlots = twinOf.reduce(0) { $0 + ($1 < 0 ? 1 : 0) }
        if deadClusterCount + deadSlots > (deadSlotLimit ?? kept / 8) { return false }
        @inline(__always) func placed(_ item: Int32) -> Int32 {
            item >= Int32(n + c0) ? Int32(n + slotOf[Int(item) - n - c0]) : item
        }

        // Every item whose id, place or levels change, with its levels (from the zoom above
        // its parent's) and positions before and after.
        var changes: [_PlacedChange] = []
        for (s, item) in e.slots.ids.enumerated() where Int(item) < n + c0 && !(Int(item) >= n && e.has(s, _EditState.dead)) {
            let i = Int(item)
            let high = i < n ? top : Int(clusterZoom[i - n])
            let existed = !e.has(s, _EditState.added), exists = !e.has(s, _EditState.dead)
            let old = reportedPosition(item)
            let change = _PlacedChange(
                oldItem: existed ? item : -1, newItem: exists ? item : -1, rank: rank(of: item),
                oldLevels: existed ? (zoomOf(e.oldParent[s]) + 1, high) : _PlacedChange.none,
                newLevels: exists ? (zoomOf(parent(of: item)) + 1, high) : _PlacedChange.none,
                old: old, new: e.has(s, _EditState.moved) ? (e.newX[s], e.newY[s]) : old)
            if change.oldLevels != change.newLevels || change.old != change.new || !existed || !exists { changes.append(change) }
        }
        for (d, entry) in dissolved.enumerated() {
            let o = entry.cluster, twin = twinOf[d]
            let levels = (low: zoomOf(e.oldParent[entry.slot]) + 1, high: Int(clusterZoom[o]))
            changes.append(_PlacedChange(
                oldItem: Int32(n + o), newItem: twin >= 0 ? Int32(n + o) : -1, rank: clusterRank[o], oldLevels: levels,
                newLevels: twin >= 0 ? (zoomOf(clusterParent[twin]) + 1, levels.high) : _PlacedChange.none,
                old: clusterPositions[o], new: clusterPositions[twin >= 0 ? twin : o]))
        }
        var fresh: [(zoom: Int, rank: UInt32, cluster: Int32)] = []
        for k in 0..<slotOf.count where slotOf[k] >= c0 {
            let c = c0 + k
            fresh.append((Int(clusterZoom[c]), clusterRank[c], Int32(slotOf[k])))
            changes.append(_PlacedChange(
                oldItem: -1, newItem: Int32(n + slotOf[k]), rank: clusterRank[c], oldLevels: _PlacedChange.none,
                newLevels: (zoomOf(clusterParent[c]) + 1, Int(clusterZoom[c])), old: clusterPositions[c], new: clusterPositions[c]))
        }

        // Where each leaves and enters each group's list, found while the lists match the
        // positions they were sorted by.
        var plans: [(leaving: [Int], entering: [(at: Int, key: UInt64, item: Int32)])] = []
        for g in groups {
            @inline(__always) func isIn(_ levels: (low: Int, high: Int)) -> Bool {
                levels.low <= g.highZoom && levels.high >= g.lowZoom && levels.low <= levels.high
            }
            var leaving: [Int] = [], entering: [(at: Int, key: UInt64, item: Int32)] = []
            for t in changes {
                let was = t.oldItem >= 0 && isIn(t.oldLevels), will = t.newItem >= 0 && isIn(t.newLevels)
                let oldKey = g.grid.key(x: Float(t.old.x), y: Float(t.old.y))
                let newKey = g.grid.key(x: Float(t.new.x), y: Float(t.new.y))
                if was && will && t.oldItem == t.newItem && oldKey == newKey { continue }
                if was {
                    var at = insertionPoint(g, key: oldKey)
                    while at < g.ids.count && g.ids[at] != t.oldItem { at += 1 }
                    guard at < g.ids.count else { return false }
                    leaving.append(at)
                }
                if will { entering.append((insertionPoint(g, key: newKey), newKey, t.newItem)) }
            }
            leaving.sort()
            entering.sort { ($0.at, $0.key, $0.item) < ($1.at, $1.key, $1.item) }
            plans.append((leaving, entering))
        }

        // Written: the made clusters into their slots (in order, so none is overwritten before
        // it is read: a slot is never after its cluster), the references to them, the moved
        // points, the dead slots.
        let oldCounts = slotOf.map { $0 >= 0 && $0 < c0 ? clusterPoints[$0] : 0 }
        for k in 0..<slotOf.count where slotOf[k] >= 0 {
            let o = slotOf[k], c = c0 + k
            let p = clusterPositions[c]
            clusterPositions.set(o, p.x, p.y)
            clusterPoints[o] = clusterPoints[c]
            clusterParent[o] = placed(clusterParent[c])
            clusterZoom[o] = clusterZoom[c]
            clusterRank[o] = clusterRank[c]
        }
        // (The dissolved ones are written: a twin's slot above, the others dead below.)
        for (s, item) in e.slots.ids.enumerated() where Int(item) < n + c0 {
            let i = Int(item)
            if i < n {
                pointParent[i] = placed(pointParent[i])
            } else if !e.has(s, _EditState.dead) {
                clusterParent[i - n] = placed(clusterParent[i - n])
            }
        }
        var updated: [(slot: Int, oldCount: UInt32)] = []
        writeMoved(e) { updated.append(($0, $1)) }
        clusterPositions.removeLast(clusters - kept)
        clusterPoints.removeLast(clusters - kept)
        clusterParent.removeLast(clusters - kept)
        clusterZoom.removeLast(clusters - kept)
        clusterRank.removeLast(clusters - kept)
        if clusterSeedPosition.count < kept {
            clusterSeedPosition.append(contentsOf: repeatElement(0, count: kept - clusterSeedPosition.count))
        }
        for (d, entry) in dissolved.enumerated() where twinOf[d] < 0 {
            clusterParent[entry.cluster] = -1
            markDead(cluster: entry.cluster)
        }
        if deadSlots > 0 || !fresh.isEmpty { storageIsLoose = true }

        for (g, plan) in plans.enumerated() where !plan.leaving.isEmpty || !plan.entering.isEmpty {
            spliceGroup(g, leaving: plan.leaving, entering: plan.entering)
        }

        if deadSlots > 0 || !fresh.isEmpty {
            spliceSeedOrder(dead: dissolved.indices.filter { twinOf[$0] < 0 }.map { dissolved[$0].cluster }, fresh: fresh)
        }
        numberInPlace(changes, fresh: fresh)
        if smallClustersBelow > 0 {
            if deadSlots == 0 && fresh.isEmpty {
                let twins = slotOf.indices.filter { slotOf[$0] >= 0 }
                updateSmallClusterPoints(slots: twins.map { slotOf[$0] } + updated.map { $0.slot },
                                         oldCounts: twins.map { oldCounts[$0] } + updated.map { $0.oldCount })
            } else {
                smallClusterPoints = smallClusterPointLists(below: smallClustersBelow)
            }
        }
        return true
    }

    /// Writes the new positions of the moved points and the new positions and counts of the
    /// clusters updated in place, calling `updated` with each such cluster's storage slot and
    /// old count.
    func writeMoved(_ e: _EditState, updated: (Int, UInt32) -> Void = { _, _ in }) {
        let n = pointPositions.count
        for (s, item) in e.slots.ids.enumerated() where e.has(s, _EditState.moved) {
            let i = Int(item)
            if i < n {
                pointPositions.set(i, e.newX[s], e.newY[s])
            } else {
                updated(i - n, clusterPoints[i - n])
                clusterPositions.set(i - n, e.newX[s], e.newY[s])
                clusterPoints[i - n] = e.newCount[s]
            }
        }
    }

    /// A group's list with the items at `leaving` taken out and `entering` put in (each before
    /// the old place it names), in place (`_Splice`), and its fences moved with the ids.
    private func spliceGroup(_ g: Int, leaving: [Int], entering: [(at: Int, key: UInt64, item: Int32)]) {
        let (runs, landed) = _Splice.apply(&groups[g].ids, leaving: leaving, entering: entering.map { ($0.at, $0.item) })
        moveFences(g, runs: runs, leaving: leaving, entering: entering, landed: landed)
    }

    /// A group's fences after `spliceGroup` moved its ids: each moves with its id; one whose
    /// id left moves to the id that follows, and only its key is read. Where that leaves two
    /// fences on one place, or ids entered until a stretch between fences grew past twice the
    /// stride, the fences are laid out again (`evenOutFences`).
    private func moveFences(_ g: Int, runs: [_Splice.Run], leaving: [Int],
                            entering: [(at: Int, key: UInt64, item: Int32)], landed: [Int]) {
        let ids = groups[g].ids, count = ids.count, grid = groups[g].grid
        var repointed: [Int] = []
        var unsure = false
        // Taken out of the group while they change, so that no access to the groups overlaps.
        groups[g].listFencePlaces()
        var fenceKeys: [UInt64] = [], fencePlaces: [Int32] = []
        swap(&fenceKeys, &groups[g].fences)
        swap(&fencePlaces, &groups[g].fencePlaces)
        ids.withUnsafeBufferPointer { ids in
            fenceKeys.withUnsafeMutableBufferPointer { keys in
                fencePlaces.withUnsafeMutableBufferPointer { places in
                    // The first fence at or after `cursor` whose (old) place is not below `place`.
                    var cursor = 0
                    func firstFence(atOrAfter place: Int) -> Int {
                        var lo = cursor, hi = places.count
                        while lo < hi {
                            let mid = (lo + hi) >> 1
                            if Int(places[mid]) < place { lo = mid + 1 } else { hi = mid }
                        }
                        return lo
                    }
                    var l = 0, k = 0
                    // The fences on the places that left before `end`: each moves to the id now
                    // after the ids that came before it (those kept, and those that entered at or
                    // before its place).
                    func repoint(before end: Int) {
                        while l < leaving.count && leaving[l] < end {
                            let place = leaving[l]
                            while k < entering.count && entering[k].at <= place { k += 1 }
                            let f = firstFence(atOrAfter: place)
                            if f < places.count && Int(places[f]) == place {
                                let moved = place - l + k
                                places[f] = Int32(moved)
                                if moved < count {
                                    let p = indexPosition(ids[moved])
                                    keys[f] = grid.key(x: p.x, y: p.y)
                                }
                                repointed.append(f)
                                cursor = f + 1
                            }
                            l += 1
                        }
                    }
                    for t in runs {
                        repoint(before: t.from)
                        let first = firstFence(atOrAfter: t.from)
                        cursor = first
                        let end = firstFence(atOrAfter: t.from + t.count)
                        if t.shift != 0 { for f in first..<end { places[f] += Int32(t.shift) } }
                        cursor = end
                    }
                    repoint(before: Int.max)

                    // Two fences on one place, or one past the end, where fences were repointed.
                    for f in repointed where Int(places[f]) >= count
                        || (f > 0 && places[f - 1] >= places[f]) || (f + 1 < places.count && places[f + 1] <= places[f]) {
                        unsure = true
                    }
                    // A stretch that ids entered and that grew past twice the stride.
                    let most = 2 * _ZoomGroup.fenceStride
                    cursor = 0
                    for place in landed where !unsure {
                        let next = firstFence(atOrAfter: place + 1)
                        let from = next > 0 ? Int(places[next - 1]) : 0
                        let to = next < places.count ? Int(places[next]) : count
                        if to - from > most { unsure = true }
                    }
                }
            }
        }
        swap(&fenceKeys, &groups[g].fences)
        swap(&fencePlaces, &groups[g].fencePlaces)
        if unsure { evenOutFences(g) }
    }

    /// A group's fences laid out again after an edit: the ones on a place already taken or past
    /// the end left out, and fences added every stride where a stretch would pass twice the
    /// stride. Keys are read only for the fences added.
    private func evenOutFences(_ g: Int) {
        let stride = _ZoomGroup.fenceStride, ids = groups[g].ids, count = ids.count, grid = groups[g].grid
        var keys: [UInt64] = [], places: [Int32] = []
        keys.reserveCapacity(groups[g].fences.count + 1)
        places.reserveCapacity(groups[g].fences.count + 1)
        var last = -1
        func add(_ place: Int, _ key: UInt64) {
            keys.append(key)
            places.append(Int32(place))
            last = place
        }
        // Fences every stride after the last one until the stretch to `end` is short enough.
        func fill(upTo end: Int) {
            while end - max(last, 0) > 2 * stride {
                let place = last < 0 ? 0 : last + stride
                let p = indexPosition(ids[place])
                add(place, grid.key(x: p.x, y: p.y))
            }
        }
        let group = groups[g]
        for f in group.fences.indices where group.fencePlace(f) < count && group.fencePlace(f) > last {
            fill(upTo: group.fencePlace(f))
            add(group.fencePlace(f), group.fences[f])
        }
        fill(upTo: count)
        groups[g].fences = keys
        groups[g].fencePlaces = places
    }

    /// Each zoom's clusters by seed position again, in place (`_Splice`): the `dead` ones taken
    /// out, the `fresh` ones put in by rank (seed positions grow with rank), and the zooms'
    /// runs of the list moved to match.
    private func spliceSeedOrder(dead: [Int], fresh: [(zoom: Int, rank: UInt32, cluster: Int32)]) {
        // The first place in the run of `zoom` whose cluster does not rank before `rank`.
        func place(zoom: Int, rank: UInt32) -> Int {
            let range = clustersBySeedRange(zoom: zoom)
            var lo = range.lowerBound, hi = range.upperBound
            while lo < hi {
                let mid = (lo + hi) >> 1
                if clusterRank[Int(clustersBySeed[mid])] < rank { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        var sizes = (options.minZoom...options.maxZoom).map { clustersBySeedRange(zoom: $0).count }
        var leaving: [Int] = []
        leaving.reserveCapacity(dead.count)
        for c in dead {
            let zoom = Int(clusterZoom[c]), range = clustersBySeedRange(zoom: zoom)
            var at = place(zoom: zoom, rank: clusterRank[c])
            if at >= range.upperBound || clustersBySeed[at] != Int32(c) {
                // Not where its rank says: found by reading the run instead.
                guard let found = clustersBySeed[range].firstIndex(of: Int32(c)) else { continue }
                at = found
            }
            leaving.append(at)
            sizes[zoom - options.minZoom] -= 1
        }
        leaving.sort()
        // Ties in place: the higher zoom's first (its run comes first), then by rank.
        let entering = fresh.map { (at: place(zoom: $0.zoom, rank: $0.rank), zoom: $0.zoom, rank: $0.rank, cluster: $0.cluster) }
            .sorted { ($0.at, -$0.zoom, $0.rank) < ($1.at, -$1.zoom, $1.rank) }
        for f in fresh { sizes[f.zoom - options.minZoom] += 1 }
        _Splice.apply(&clustersBySeed, leaving: leaving, entering: entering.map { ($0.at, $0.cluster) })
        var start = 0
        for z in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            zoomClusterStart[z - options.minZoom + 1] = start
            start += sizes[z - options.minZoom]
        }
        zoomClusterStart[0] = start
    }

    /// The public ids after an edit laid out in place: the levels' visible ranks changed for
    /// the items whose levels did (or read from every item, the first time), and the seed
    /// positions moved by the changes that rank before each seed, at every level that changed;
    /// the clusters made counted from the ranks.
    private func numberInPlace(_ changes: [_PlacedChange], fresh: [(zoom: Int, rank: UInt32, cluster: Int32)]) {
        let n = pointPositions.count
        let moves = changes.filter { $0.oldLevels != $0.newLevels || ($0.oldItem < 0) != ($0.newItem < 0) }
        if moves.isEmpty && fresh.isEmpty { return }
        if let ranks = levelRanks, ranks.capacity > n {
            // Each level's changes: the ranks that became visible (+1) or stopped being (-1).
            var deltas = [[(rank: UInt32, delta: Int32)]](repeating: [], count: ranks.maxLevel - ranks.minLevel + 1)
            // Every bit cleared before any is set: an item leaving a level can share its rank
            // with one entering it (a cluster dissolved and its seed freed).
            for t in moves where t.oldItem >= 0 {
                let keep = t.newItem >= 0 ? t.newLevels : _PlacedChange.none
                forEachLevel(in: t.oldLevels, notIn: keep) { level in
                    ranks.set(t.rank, levels: level, level, to: false)
                    if level >= ranks.minLevel && level <= ranks.maxLevel { deltas[level - ranks.minLevel].append((t.rank, -1)) }
                }
            }
            for t in moves where t.newItem >= 0 {
                let had = t.oldItem >= 0 ? t.oldLevels : _PlacedChange.none
                forEachLevel(in: t.newLevels, notIn: had) { level in
                    ranks.set(t.rank, levels: level, level, to: true)
                    if level >= ranks.minLevel && level <= ranks.maxLevel { deltas[level - ranks.minLevel].append((t.rank, 1)) }
                }
            }
            for z in options.minZoom...options.maxZoom where !deltas[z + 1 - ranks.minLevel].isEmpty {
                deferSeedShifts(zoom: z, deltas[z + 1 - ranks.minLevel].sorted { $0.rank < $1.rank })
            }
            if !fresh.isEmpty {
                ranks.prepare()
                // Stored as the other positions of their zoom are: less what is pending there.
                var sums = [[Int32]?](repeating: nil, count: pendingSeedShifts.count)
                for f in fresh {
                    var position = ranks.position(f.rank, level: f.zoom + 1)
                    let b = f.zoom - options.minZoom
                    if b < pendingSeedShifts.count && !pendingSeedShifts[b].isEmpty {
                        if sums[b] == nil { sums[b] = pendingSeedShifts[b].sums() }
                        position = UInt32(bitPattern: Int32(bitPattern: position) &- pendingSeedShifts[b].shift(below: f.rank, sums: sums[b]!))
                    }
                    clusterSeedPosition[Int(f.cluster)] = position
                }
            }
        } else {
            pendingSeedShifts = []
            let ranks = visibleRanksByLevel()
            levelRanks = ranks
            ranks.prepare()
            for z in options.minZoom...options.maxZoom {
                for c in clustersBySeed[clustersBySeedRange(zoom: z)] {
                    clusterSeedPosition[Int(c)] = ranks.position(clusterRank[Int(c)], level: z + 1)
                }
            }
        }
    }

    /// Keeps `changes` (sorted by rank) to the seed positions of `zoom` for the first read of a
    /// position there (`seedPosition`): a repair that changed little would otherwise pass over
    /// every cluster of every zoom it touched, where a query reads one zoom. Past a sixteenth of
    /// the zoom's clusters they are applied at once, so that what is kept stays small.
    private func deferSeedShifts(zoom z: Int, _ changes: [(rank: UInt32, delta: Int32)]) {
        if pendingSeedShifts.isEmpty {
            pendingSeedShifts = [_PendingSeedShifts](repeating: _PendingSeedShifts(), count: options.maxZoom - options.minZoom + 1)
        }
        let b = z - options.minZoom
        pendingSeedShifts[b].add(changes)
        if pendingSeedShifts[b].count > max(256, clustersBySeedRange(zoom: z).count / 16) { settleSeedPositions(zoom: z) }
    }

    /// Applies the seed position changes kept for `zoom` (every zoom if nil).
    func settleSeedPositions(zoom: Int? = nil) {
        guard !pendingSeedShifts.isEmpty else { return }
        for z in zoom.map({ $0...$0 }) ?? options.minZoom...options.maxZoom {
            let b = z - options.minZoom
            guard b >= 0 && b < pendingSeedShifts.count && !pendingSeedShifts[b].isEmpty else { continue }
            shiftSeedPositions(zoom: z, by: pendingSeedShifts[b].changes)
            pendingSeedShifts[b].removeAll()
        }
        if pendingSeedShifts.allSatisfy({ $0.isEmpty }) { pendingSeedShifts = [] }
    }

    /// Moves the seed positions of the clusters of `zoom` by `changes` (by rank) of the items
    /// visible one zoom up: a seed's position counts the visible items that rank before it, so
    /// each change moves the positions of the seeds ranked after it. The clusters are in rank
    /// order, so one pass from the first change on does it, stopping where the changes cancel.
    /// (Clusters made by the edit get theirs counted afterwards.)
    private func shiftSeedPositions(zoom z: Int, by changes: [(rank: UInt32, delta: Int32)]) {
        let range = clustersBySeedRange(zoom: z)
        clustersBySeed.withUnsafeBufferPointer { order in
            clusterRank.withUnsafeBufferPointer { rank in
                clusterSeedPosition.withUnsafeMutableBufferPointer { position in
                    var lo = range.lowerBound, hi = range.upperBound
                    while lo < hi {
                        let mid = (lo + hi) >> 1
                        if rank[Int(order[mid])] <= changes[0].rank { lo = mid + 1 } else { hi = mid }
                    }
                    var k = 0, running: Int32 = 0
                    for i in lo..<range.upperBound {
                        let c = Int(order[i]), r = rank[c]
                        while k < changes.count && changes[k].rank < r {
                            running += changes[k].delta
                            k += 1
                        }
                        if running != 0 {
                            position[c] = UInt32(bitPattern: Int32(bitPattern: position[c]) &+ running)
                        } else if k == changes.count {
                            break
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with each level of `levels` that is not in `other`.
    private func forEachLevel(in levels: (low: Int, high: Int), notIn other: (low: Int, high: Int), _ body: (Int) -> Void) {
        guard levels.low <= levels.high else { return }
        for level in levels.low...levels.high where level < other.low || level > other.high { body(level) }
    }

    /// Every level's visible ranks, read from every item: a point is visible from maxZoom + 1
    /// down to the zoom above its parent's, a cluster from its zoom down to the same.
    private func visibleRanksByLevel() -> _LevelRanks {
        let n = pointPositions.count, top = options.maxZoom + 1
        // Room for points added later, so that a few adds do not read every item again.
        let ranks = _LevelRanks(minLevel: options.minZoom + 1, maxLevel: top, capacity: n + n / 8 + 64)
        @inline(__always) func low(_ parent: Int32) -> Int { parent < 0 ? options.minZoom : Int(clusterZoom[Int(parent) - n]) + 1 }
        ranks.setRanks(below: n, lowest: { p in isRemoved(p) ? -1 : low(pointParent[p]) }, high: top)
        for c in 0..<clusterParent.count where !isDeadCluster(c) {
            ranks.set(clusterRank[c], levels: low(clusterParent[c]), Int(clusterZoom[c]), to: true)
        }
        return ranks
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

    /// Whether cluster `c` is a dead slot of a loose storage.
    @inline(__always)
    func isDeadCluster(_ c: Int) -> Bool {
        deadClusterCount > 0 && c >> 6 < deadClusters.count && deadClusters[c >> 6] & (1 << UInt64(c & 63)) != 0
    }

    private func markDead(cluster c: Int) {
        let words = clusterParent.count / 64 + 1
        if deadClusters.count < words { deadClusters.append(contentsOf: repeatElement(0, count: words - deadClusters.count)) }
        deadClusters[c >> 6] |= 1 << UInt64(c & 63)
        deadClusterCount += 1
    }

    /// Lays a loose storage out afresh, in zoom order with no dead slots (what saving and
    /// reading the whole hierarchy at once expect). Public ids do not change.
    func compactStorage() {
        guard storageIsLoose else { return }
        layOutAfterEdit(_EditState(), oldClusterCount: clusterPositions.count)
    }
}
