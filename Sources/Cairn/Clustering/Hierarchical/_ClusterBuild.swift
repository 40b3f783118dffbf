/// The working state of `HierarchicalClusterIndex.build()`: the items visible at the zoom being
/// clustered, sorted by grid cell (row, then column, so each item's possible neighbours lie in
/// three contiguous runs), plus scratch reused from zoom to zoom. It is dropped when the build
/// ends.
///
/// Cell keys sit in an array of their own (the sweep streams through them three times per
/// zoom), and the rest of an item in one 16-byte record: the greedy pass visits items in rank
/// order, which is random in space, and one record keeps all it reads about a candidate on one
/// cache line. A cluster's double centroid is not in it (see `_Entry`). The buffers are raw and
/// never grow, so the hot loops run without bounds checks, copy-on-write or reallocation; the
/// keys and records only shrink, between zooms (`releaseGoneItems`).
final class _ClusterBuild {
    /// The next zoom to cluster (it goes down from maxZoom to minZoom).
    var zoom: Int
    /// Visible items, sorted by cell key: the key (`row << 32 | column`, computed once and
    /// halved when the cells double), and the rest of the item.
    private(set) var keys: UnsafeMutablePointer<UInt64>
    private(set) var entries: UnsafeMutablePointer<_Entry>
    /// Items `keys` and `entries` have room for (`keys` one more, for a sentinel).
    private var itemCapacity: Int
    /// Per position: visited by the greedy pass, absorbed into a cluster.
    let marks: _Marks
    /// The sparse zooms' state while they last (see `HierarchicalClusterIndex+SparseZooms`).
    var sparse: _SparseZooms?
    /// Scratch of the space-order pass (`HierarchicalClusterIndex+SpaceOrder`).
    let spatial: _SpatialPassScratch
    var count: Int = 0
    var grid: _Grid

    /// Items with at least one neighbour ("active"), with their rank and candidate runs; sorted
    /// by rank in place before the greedy pass. They lie in the space-order pass's scratch
    /// block, free whenever the greedy pass runs (on the zooms that pass gives up): room for
    /// 40 % of the items, which only the densest data outgrows (then a buffer of their own is
    /// allocated). A buffer of their own for every build cost 2.5 bytes per point.
    var actives: UnsafeMutablePointer<_Active> {
        ownActives ?? spatial.raw.bindMemory(to: _Active.self, capacity: activeCapacity)
    }
    private var ownActives: UnsafeMutablePointer<_Active>?
    private(set) var activeCapacity: Int
    var activeCount = 0
    /// A sum of what the greedy pass read ahead (kept so the reads are not optimised away).
    var touched: UInt32 = 0

    /// Clusters formed at this zoom: staged during the greedy pass, then their cluster indices.
    var staged: [_StagedCluster] = []
    var newClusters: [Int32] = []
    var newRanks: [UInt32] = []
    /// Whether the clusters staged at this zoom are one per seed of the space-order pass, in
    /// the seeds' position order (the seeds are then `spatial.claiming`): their cells are
    /// then near their seeds', and they sort quickly (see `_sortNearReferenceRows`).
    var stagedOnePerSeed = false
    /// Every item absorbed at this zoom.
    var absorbed: [Int32] = []
    /// The members (points or earlier clusters) of the small clusters staged at this zoom (see
    /// `HierarchicalClusterIndex.smallClustersBelow`), and where each staged cluster's end.
    var smallMembers: [Int32] = []
    var smallMemberEnd: [Int32] = []
    /// Items visited but not clustered (minPoints > 2), and where they go in the data order.
    var movedPos: [Int32] = []
    var movedKeys: [UInt64] = []

    /// The zoom group being gathered: its highest zoom, and the items that stopped being
    /// visible inside it (they belong to the group but are no longer in `entries`).
    var groupHighZoom: Int
    var groupExtra: [Int32] = []

    /// Items read ahead while new clusters are merged in (see `_PendingQueue`).
    var pending = _PendingQueue()

    /// Scratch for merging two runs of rows: the first run is copied here.
    var runKeys: UnsafeMutablePointer<UInt64>
    var run: UnsafeMutablePointer<_Entry>
    var runCapacity = 256

    /// Bytes the buffers below take per item: key, record, the space-order block (absorbers and
    /// their starts) and the bits of the marks and the space-order pass.
    static let bytesPerItem = MemoryLayout<UInt64>.stride + MemoryLayout<_Entry>.stride + 2 * MemoryLayout<UInt32>.stride + 1

    init(zoom: Int, capacity: Int, grid: _Grid, groupHighZoom: Int) {
        self.zoom = zoom
        let c = capacity > 0 ? capacity : 1
        itemCapacity = c
        keys = UnsafeMutablePointer<UInt64>.allocate(capacity: c + 1)   // and a sentinel (`forEachForward`)
        entries = UnsafeMutablePointer<_Entry>.allocate(capacity: c)
        marks = _Marks(capacity: c)
        spatial = _SpatialPassScratch(capacity: c)
        activeCapacity = spatial.byteCount / MemoryLayout<_Active>.stride
        run = UnsafeMutablePointer<_Entry>.allocate(capacity: runCapacity)
        runKeys = UnsafeMutablePointer<UInt64>.allocate(capacity: runCapacity)
        self.grid = grid
        self.groupHighZoom = groupHighZoom
    }

    deinit {
        keys.deallocate()
        entries.deallocate()
        marks.deallocate()
        ownActives?.deallocate()
        pending.deallocate()
        run.deallocate()
        runKeys.deallocate()
    }

    /// Makes room for half as many active items again, in a buffer of their own, and returns
    /// it.
    func growActives() -> UnsafeMutablePointer<_Active> {
        let capacity = activeCapacity + activeCapacity / 2
        let grown = UnsafeMutablePointer<_Active>.allocate(capacity: capacity)
        grown.initialize(from: actives, count: activeCapacity)
        ownActives?.deallocate()
        ownActives = grown
        activeCapacity = capacity
        return grown
    }

    /// Empties what a zoom's pass stages: its clusters, the items they absorbed, the small
    /// clusters' members and the items visited but not clustered.
    func clearStaged() {
        staged.removeAll(keepingCapacity: true)
        stagedOnePerSeed = false
        absorbed.removeAll(keepingCapacity: true)
        smallMembers.removeAll(keepingCapacity: true)
        smallMemberEnd.removeAll(keepingCapacity: true)
        movedPos.removeAll(keepingCapacity: true)
        movedKeys.removeAll(keepingCapacity: true)
    }

    /// Gives back the room of the items that are gone, once there are `threshold` or more, and
    /// says whether it did: the visible items only ever get fewer, and the memory freed here
    /// takes the zoom groups' id lists and the scratch of the zooms that follow, which would
    /// otherwise grow the heap (its peak is at the build's end). The buffers shrink where they
    /// lie, as a rule, so nothing is copied. Callers hold no copy of `keys` or `entries` across
    /// it.
    func releaseGoneItems(threshold: Int) -> Bool {
        let capacity = Swift.max(count, 1)
        guard itemCapacity - capacity >= Swift.max(threshold, 1) else { return false }
        keys = _shrink(keys, toCapacity: capacity + 1)
        entries = _shrink(entries, toCapacity: capacity)
        itemCapacity = capacity
        return true
    }

    /// Makes the run scratch hold at least `n` items.
    func reserveRun(_ n: Int) {
        if n <= runCapacity { return }
        run.deallocate()
        runKeys.deallocate()
        runCapacity = n + n / 2
        run = UnsafeMutablePointer<_Entry>.allocate(capacity: runCapacity)
        runKeys = UnsafeMutablePointer<UInt64>.allocate(capacity: runCapacity)
    }

    /// A snapshot of the sorted items for the hot loops: plain values, so reading them costs
    /// no exclusivity checks on this class's `var`s.
    var items: _SortedItems { _SortedItems(keys: keys, entries: entries, count: count, grid: grid) }
}

/// One visible item during the build (its cell key is kept apart, in `keys`).
struct _Entry {
    /// The float32 position, as supercluster's trees hold it: neighbours are measured to it.
    /// It is also a point's clustering position (a point's position is rounded to float32 when
    /// it is added to the tree, and its clusters' centroids are weighed from that); a cluster's
    /// double centroid is read from the index when needed (`_ClusteringPositions`), so a
    /// record is 16 bytes, four to a cache line, for the passes that stream them.
    var fx: Float
    var fy: Float
    var id: Int32
    /// Processing order (see `HierarchicalClusterIndex+Build`).
    var rank: UInt32

    /// The float32 position in doubles: a point's clustering position.
    @inline(__always) var pointPosition: (x: Double, y: Double) { (Double(fx), Double(fy)) }
}

/// An item with a neighbour: its rank, its position and where its three candidate runs start,
/// so the greedy pass, which visits items in random order, finds them with no search back.
/// Where the runs end is found only for the items visited as seeds: in a crowded cell that is
/// one item in thousands.
struct _Active {
    var rank: UInt32
    var position: UInt32
    var aboveStart: UInt32
    var sameStart: UInt32
    var belowStart: UInt32

    init(rank: UInt32, position: Int, starts: (Int, Int, Int)) {
        self.rank = rank
        self.position = UInt32(position)
        aboveStart = UInt32(starts.0)
        sameStart = UInt32(starts.1)
        belowStart = UInt32(starts.2)
    }

    @inline(__always)
    func runs(_ items: _SortedItems) -> (Range<Int>, Range<Int>, Range<Int>) {
        items.candidateRuns(of: Int(position), starts: (Int(aboveStart), Int(sameStart), Int(belowStart)))
    }
}

/// The sorted items of a build at one zoom, as a raw buffer and plain values.
struct _SortedItems {
    let keys: UnsafeMutablePointer<UInt64>
    let entries: UnsafeMutablePointer<_Entry>
    let count: Int
    let grid: _Grid

    /// The three runs of positions in the 3×3 cells around `q` (rows above, same, below), as
    /// half-open ranges, given where each run starts. Each run is contiguous because positions
    /// are sorted by (row, column); it ends at the first cell past column + 1.
    @inline(__always)
    func candidateRuns(of q: Int, starts: (Int, Int, Int)) -> (Range<Int>, Range<Int>, Range<Int>) {
        let key = keys[q]
        let last = (key & 0xFFFF_FFFF) + 1
        let row = key >> 32
        return (starts.0..<runEnd(starts.0, through: row == 0 ? 0 : ((row - 1) << 32) | last),
                starts.1..<runEnd(starts.1, through: (row << 32) | last),
                starts.2..<runEnd(starts.2, through: ((row + 1) << 32) | last))
    }

    /// The first position at or after `start` whose cell key is beyond `last`: a few steps
    /// one by one (runs are short at most zooms), then galloping and a binary search, so that a
    /// dense cell's thousands of items cost each of them a logarithm, not a walk.
    @inline(__always)
    func runEnd(_ start: Int, through last: UInt64) -> Int {
        var p = start
        let walk = min(count, start + 8)
        while p < walk && keys[p] <= last { p += 1 }
        if p < walk || p == count { return p }
        var step = 8, lo = p
        while lo + step < count && keys[lo + step] <= last {
            lo += step
            step *= 2
        }
        var hi = min(count, lo + step)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if keys[mid] <= last { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
