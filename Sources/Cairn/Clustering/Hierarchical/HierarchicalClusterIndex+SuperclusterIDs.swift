/// Public cluster ids, numbered as supercluster numbers them.
///
/// supercluster names a cluster by where its seed stood in its data at the zoom above the one
/// the cluster was formed at: `pointCount + (position << 5) + originZoom`, where `originZoom`
/// is that zoom above. Its data at every zoom is the items in rank order (see `+Build`: a
/// cluster stands where its seed stood), and an item's rank is the smallest input index among
/// its points (a seed ranks before everything it absorbs). So the position of a seed is the
/// number of items visible at `originZoom` that rank before it, counted here once after the
/// build, zoom by zoom, with one bit per rank. (With minPoints > 2 the build renumbers ranks
/// as positions at every zoom and keeps each seed's: see `+SuperclusterOrder`.)
extension HierarchicalClusterIndex {
    /// An item's rank: its place in supercluster's data order at every zoom it is visible at.
    @inline(__always)
    func rank(of item: Int32) -> UInt32 {
        let i = Int(item)
        let n = pointPositions.count
        return i < n ? UInt32(i) : clusterRank[i - n]
    }

    /// Fills `clusterRank` (unless `ranksKnown`: an edit keeps every cluster's, and gives the
    /// clusters it makes their seeds'), `clusterSeedPosition`, `zoomClusterStart` and
    /// `clustersBySeed` once the hierarchy is built.
    func numberClusters(ranksKnown: Bool = false) {
        let n = pointPositions.count
        let clusters = clusterParent.count
        defer { builtSeedPositions = [] }
        levelRanks = nil
        if !ranksKnown {
            var ranks = [UInt32](repeating: UInt32.max, count: clusters)
            // Points ascending: the first one a cluster receives is its smallest; children are
            // formed before their parents, so one ascending pass over clusters finishes the rest.
            // Every loop over all points or clusters here makes one call per chunk (see `_callChunk`).
            ranks.withUnsafeMutableBufferPointer { r in
                pointParent.withUnsafeBufferPointer { pp in
                    Self.inChunks(n) { Self.firstPointRanks(pp, $0, $1, pointCount: n, ranks: r.baseAddress!) }
                }
                clusterParent.withUnsafeBufferPointer { cp in
                    Self.inChunks(clusters) { Self.foldParentRanks(cp, $0, $1, pointCount: n, ranks: r.baseAddress!) }
                }
            }
            clusterRank = ranks
        }
        let ranks = clusterRank

        // Clusters are stored zoom by zoom, from maxZoom down: the block of zoom z starts at
        // zoomClusterStart[z - minZoom] and ends where the block of z - 1 starts.
        let zooms = options.maxZoom - options.minZoom + 1
        var starts = [Int](repeating: clusters, count: zooms + 1)
        var c = 0
        for z in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            starts[z - options.minZoom + 1] = c
            while c < clusters && Int(clusterZoom[c]) == z { c += 1 }
        }
        starts[0] = clusters
        zoomClusterStart = starts

        pendingSeedShifts = []
        if recordsDataOrder {
            clusterSeedPosition = builtSeedPositions
            sortClustersBySeed(starts)
            return
        }

        // The ranks of the items each zoom's clusters absorb, zoom block by zoom block.
        var absorbedStart = [Int](repeating: 0, count: zooms + 1)
        let minZoom = options.minZoom
        var absorbedRanks: [UInt32] = []
        clusterZoom.withUnsafeBufferPointer { cz in
            pointParent.withUnsafeBufferPointer { pp in
                clusterParent.withUnsafeBufferPointer { cp in
                    absorbedStart.withUnsafeMutableBufferPointer { counts in
                        let blockCounts = counts.baseAddress! + 1
                        Self.inChunks(n) { Self.countAbsorbed(pp, $0, $1, pointCount: n, clusterZoom: cz, minZoom: minZoom, into: blockCounts) }
                        Self.inChunks(clusters) { Self.countAbsorbed(cp, $0, $1, pointCount: n, clusterZoom: cz, minZoom: minZoom, into: blockCounts) }
                    }
                    for z in 0..<zooms { absorbedStart[z + 1] += absorbedStart[z] }
                    var fill = absorbedStart
                    absorbedRanks = [UInt32](repeating: 0, count: absorbedStart[zooms])
                    fill.withUnsafeMutableBufferPointer { f in
                        absorbedRanks.withUnsafeMutableBufferPointer { out in
                            ranks.withUnsafeBufferPointer { r in
                                Self.inChunks(n) {
                                    Self.listAbsorbed(pp, $0, $1, pointCount: n, clusterZoom: cz, minZoom: minZoom,
                                                      rankOf: nil, fill: f.baseAddress!, into: out.baseAddress!)
                                }
                                Self.inChunks(clusters) {
                                    Self.listAbsorbed(cp, $0, $1, pointCount: n, clusterZoom: cz, minZoom: minZoom,
                                                      rankOf: r.baseAddress!, fill: f.baseAddress!, into: out.baseAddress!)
                                }
                            }
                        }
                    }
                }
            }
        }

        // Every point is visible above maxZoom; each zoom's absorbed items leave, and each new
        // cluster takes its seed's rank back.
        var positions = [UInt32](repeating: 0, count: clusters)
        let visible = _Bitset(capacity: max(n, 1))
        defer { visible.deallocate() }
        visible.fill(n)
        if removedPointCount > 0 {
            for p in 0..<n where isRemoved(p) { visible.remove(p) }
        }
        positions.withUnsafeMutableBufferPointer { out in
            ranks.withUnsafeBufferPointer { r in
                absorbedRanks.withUnsafeBufferPointer { absorbed in
                    for z in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
                        let b = z - options.minZoom
                        let first = starts[b + 1], end = b == 0 ? clusters : starts[b]
                        if first == end { continue }
                        _ = visible.index(upTo: n)
                        Self.inChunks(first, end) { Self.seedPositions(r, $0, $1, visible: visible, into: out.baseAddress!) }
                        Self.inChunks(absorbedStart[b], absorbedStart[b + 1]) { lo, hi in
                            Self.setBits(absorbed.baseAddress!, lo, hi, in: visible, to: false)
                        }
                        Self.inChunks(first, end) { lo, hi in Self.setBits(r.baseAddress!, lo, hi, in: visible, to: true) }
                    }
                }
            }
        }
        clusterSeedPosition = positions
        sortClustersBySeed(starts)
    }

    /// Calls `chunk` with consecutive bounds covering `start..<end`, `_callChunk` apart.
    @inline(__always)
    private static func inChunks(_ start: Int, _ end: Int, _ chunk: (Int, Int) -> Void) {
        var lo = start
        while lo < end {
            let hi = Swift.min(lo + _callChunk, end)
            chunk(lo, hi)
            lo = hi
        }
    }

    @inline(__always)
    private static func inChunks(_ count: Int, _ chunk: (Int, Int) -> Void) { inChunks(0, count, chunk) }

    /// Each cluster's smallest point among points `start..<end` seen so far, into `ranks`.
    @inline(never)
    private static func firstPointRanks(_ pointParent: UnsafeBufferPointer<Int32>, _ start: Int, _ end: Int,
                                        pointCount n: Int, ranks: UnsafeMutablePointer<UInt32>) {
        for p in start..<end where pointParent[p] >= 0 {
            let c = Int(pointParent[p]) - n
            if ranks[c] == UInt32.max { ranks[c] = UInt32(p) }
        }
    }

    /// Passes the ranks of clusters `start..<end` on to their parents where smaller.
    @inline(never)
    private static func foldParentRanks(_ clusterParent: UnsafeBufferPointer<Int32>, _ start: Int, _ end: Int,
                                        pointCount n: Int, ranks: UnsafeMutablePointer<UInt32>) {
        for c in start..<end where clusterParent[c] >= 0 {
            let q = Int(clusterParent[c]) - n
            if ranks[c] < ranks[q] { ranks[q] = ranks[c] }
        }
    }

    /// Counts the items `start..<end` (of `parents`) absorbed per zoom block of their parent.
    @inline(never)
    private static func countAbsorbed(_ parents: UnsafeBufferPointer<Int32>, _ start: Int, _ end: Int, pointCount n: Int,
                                      clusterZoom: UnsafeBufferPointer<UInt8>, minZoom: Int,
                                      into counts: UnsafeMutablePointer<Int>) {
        for i in start..<end where parents[i] >= 0 {
            counts[Int(clusterZoom[Int(parents[i]) - n]) - minZoom] += 1
        }
    }

    /// Lists the ranks of the items `start..<end` (of `parents`) absorbed, in their parent's
    /// zoom block at `fill` (advanced); a point's rank is its index, a cluster's from `rankOf`.
    @inline(never)
    private static func listAbsorbed(_ parents: UnsafeBufferPointer<Int32>, _ start: Int, _ end: Int, pointCount n: Int,
                                     clusterZoom: UnsafeBufferPointer<UInt8>, minZoom: Int,
                                     rankOf: UnsafePointer<UInt32>?, fill: UnsafeMutablePointer<Int>,
                                     into out: UnsafeMutablePointer<UInt32>) {
        for i in start..<end where parents[i] >= 0 {
            let b = Int(clusterZoom[Int(parents[i]) - n]) - minZoom
            out[fill[b]] = rankOf.map { $0[i] } ?? UInt32(i)
            fill[b] += 1
        }
    }

    /// The positions among the visible items of the seeds of clusters `start..<end`.
    @inline(never)
    private static func seedPositions(_ ranks: UnsafeBufferPointer<UInt32>, _ start: Int, _ end: Int,
                                      visible: _Bitset, into out: UnsafeMutablePointer<UInt32>) {
        for c in start..<end { out[c] = UInt32(visible.index(of: Int(ranks[c]))) }
    }

    /// Sets or clears the bits of the ranks `ranks[start..<end]`.
    @inline(never)
    private static func setBits(_ ranks: UnsafePointer<UInt32>, _ start: Int, _ end: Int, in bits: _Bitset, to value: Bool) {
        if value {
            for k in start..<end { bits.insert(Int(ranks[k])) }
        } else {
            for k in start..<end { bits.remove(Int(ranks[k])) }
        }
    }

    /// Each zoom's clusters by seed position, to read ids back: creation order already is that
    /// order where the greedy pass made them (it visits items by rank).
    private func sortClustersBySeed(_ starts: [Int]) {
        let clusters = clusterParent.count
        let zooms = options.maxZoom - options.minZoom + 1
        let positions = clusterSeedPosition
        var bySeed = [Int32](repeating: 0, count: clusters)
        for c in 0..<clusters { bySeed[c] = Int32(c) }
        for b in 0..<zooms {
            let first = starts[b + 1], end = b == 0 ? clusters : starts[b]
            var sorted = true
            if end - first > 1 {
                for c in (first + 1)..<end where positions[c] < positions[c - 1] {
                    sorted = false
                    break
                }
            }
            if sorted { continue }
            var keys = (first..<end).map { UInt64(positions[$0]) }
            var values = (first..<end).map { UInt32($0) }
            RadixSort.sort(keys: &keys, values: &values, count: keys.count)
            for k in 0..<values.count { bySeed[first + k] = Int32(values[k]) }
        }
        clustersBySeed = bySeed
    }

    /// Where the clusters formed at zoom `z` stand in `clustersBySeed` (while the storage is not
    /// loose, also their block of cluster indices).
    func clustersBySeedRange(zoom z: Int) -> Range<Int> {
        let b = z - options.minZoom
        return zoomClusterStart[b + 1]..<zoomClusterStart[b]
    }

    /// Visits every live cluster index, each after every one it absorbed: zoom by zoom from
    /// maxZoom down (a cluster's children were formed at higher zooms), whatever the storage order.
    func forEachClusterChildrenFirst(_ body: (Int) -> Void) {
        for z in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            for c in clustersBySeed[clustersBySeedRange(zoom: z)] { body(Int(c)) }
        }
    }

    /// A feature's public id: a point's input index (as the engine holds its points), or a
    /// cluster's supercluster id.
    func publicID(ofItem item: Int32) -> Int64 {
        let i = Int(item)
        let n = pointPositions.count
        if i < n { return Int64(i) }
        let c = i - n
        return Int64(n) + (Int64(seedPosition(ofCluster: c)) << 5) + Int64(clusterZoom[c]) + 1
    }

    /// Where cluster `c`'s seed stood in the data of the zoom above (its supercluster id's
    /// part), with the changes edits left pending for its zoom applied first.
    @inline(__always)
    func seedPosition(ofCluster c: Int) -> UInt32 {
        if !pendingSeedShifts.isEmpty && !pendingSeedShifts[Int(clusterZoom[c]) - options.minZoom].isEmpty {
            settleSeedPositions(zoom: Int(clusterZoom[c]))
        }
        return clusterSeedPosition[c]
    }

    /// The item id of a public cluster id, or an `unknownCluster` error.
    func clusterItem(publicID id: Int64) throws(CairnError) -> Int32 {
        guard state == .built else { throw .invalidState }
        let n = Int64(pointPositions.count)
        guard id >= n else { throw .unknownCluster(id: id) }
        let v = id - n
        let position = v >> 5
        let zoom = Int(v & 31) - 1
        guard zoom >= options.minZoom, zoom <= options.maxZoom, position <= Int64(UInt32.max) else {
            throw .unknownCluster(id: id)
        }
        if !pendingSeedShifts.isEmpty { settleSeedPositions(zoom: zoom) }
        let block = clustersBySeedRange(zoom: zoom)
        var lo = block.lowerBound, hi = block.upperBound
        while lo < hi {
            let mid = (lo + hi) >> 1
            if Int64(clusterSeedPosition[Int(clustersBySeed[mid])]) < position { lo = mid + 1 } else { hi = mid }
        }
        guard lo < block.upperBound else { throw .unknownCluster(id: id) }
        let c = Int(clustersBySeed[lo])
        guard Int64(clusterSeedPosition[c]) == position else { throw .unknownCluster(id: id) }
        return Int32(Int(n) + c)
    }
}
