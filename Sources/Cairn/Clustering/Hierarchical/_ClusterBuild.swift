/// The working state of `HierarchicalClusterIndex.build()`: the items visible at the zoom being
/// clustered, sorted by grid cell (row, then column, so each item's possible neighbours lie in
/// three contiguous runs), plus scratch reused from zoom to zoom. It is dropped when the build
/// ends.
///
/// Cell keys sit in an array of their own (the sweep streams through them three times per
/// zoom), and the rest of an item in one 16-byte record: the greedy pass visits items in rank
/// order, which is random in space, and one record keeps all it reads about a candidate on one
/// cache line. A cluster's double centroid is not in it (see `_ItemRecord`). The buffers are raw and
/// never grow, so the hot loops run without bounds checks, copy-on-write or reallocation; the
/// keys and records only shrink, between zooms (`releaseGoneItems`).
final class _ClusterBuild {
    /// The next zoom to cluster (it goes down from maxZoom to minZoom).
    var zoom: Int
    /// Visible items, sorted by cell key: the key (`row << 32 | column`, computed once and
    /// halved when the cells double), and the rest of the item.
    private(set) var keys: UnsafeMutablePointer<UInt64>
    private(set) var entries: UnsafeMutablePointer<_ItemRecord>
    /// Items `keys` and `entries` have room for (`keys` one more, for a sentinel).
    private var itemCapacity: Int
    /// Per position: visited by the greedy pass, absorbed into a cluster.
    let marks: _VisitedAbsorbedBits
    /// The sparse zooms' state while they last (see `HierarchicalClusterIndex+SparseZooms`).
    var sparse: _SparseZoomState?
    /// Scratch of the space-order pass (`HierarchicalClusterIndex+SpaceOrder`).
    let spaceOrder: _SpaceOrderScratch
    var count: Int = 0
    var grid: _ClusterGrid

    /// Items with at least one neighbour ("active"), with their rank and candidate runs; sorted
    /// by rank in place before the greedy pass. They lie in the space-order pass's scratch
    /// block, free whenever the greedy pass runs (on the zooms that pass gives up): room for
    /// 40 % of the items, which only the densest data outgrows (then a buffer of their own is
    /// allocated). A buffer of their own for every build would cost 2.5 bytes per point.
    var actives: UnsafeMutablePointer<_ActiveItem> {
        ownActives ?? spaceOrder.raw.bindMemory(to: _ActiveItem.self, capacity: activeCapacity)
    }
    private var ownActives: UnsafeMutablePointer<_ActiveItem>?
    private(set) var activeCapacity: Int
    var activeCount = 0
    /// A sum of what the greedy pass read ahead (kept so the reads are not optimised away).
    var touched: UInt32 = 0

    /// Clusters formed at this zoom: staged during the greedy pass, then their cluster indices.
    var staged: [_StagedCluster] = []
    var newClusters: [Int32] = []
    var newRanks: [UInt32] = []
    /// Whether the clusters staged at this zoom are one per seed of the space-order pass, in
    /// the seeds' position order (the seeds are then `spaceOrder.claiming`): their cells are
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
    /// With minPoints > 2, supercluster's tree of the zoom above the one being clustered: its
    /// search lists the items a seed moves, in the order they then follow it.
    var searchTree: _SuperclusterTree? = nil

    /// Records the items at positions `moved` as following the seed of rank `seedRank` in the
    /// data order, in the order supercluster's search from the seed's `centre` lists them.
    func appendMoved(_ moved: [Int32], seedRank: UInt32, centre: (x: Double, y: Double), radius: Double) {
        let e = entries
        var k: UInt64 = 0
        func add(_ p: Int32) {
            k += 1
            movedPos.append(p)
            movedKeys.append(UInt64(seedRank) << 32 | k)
        }
        guard let tree = searchTree else {
            for p in moved.sorted(by: { e[Int($0)].rank < e[Int($1)].rank }) { add(p) }
            return
        }
        tree.forEach(within: radius, of: centre.x, centre.y) { item in
            for p in moved where e[Int(p)].id == item { add(p) }
        }
        assert(Int(k) == moved.count)
    }

    /// The zoom group being gathered: its highest zoom, and the items that stopped being
    /// visible inside it (they belong to the group but are no longer in `entries`).
    var groupHighZoom: Int
    var groupExtra: [Int32] = []

    /// Items read ahead while new clusters are merged in (see `_ReadAheadQueue`).
    var readAhead = _ReadAheadQueue()

    /// Scratch for merging two runs of rows: the first run is copied here.
    var runKeys: UnsafeMutablePointer<UInt64>
    var run: UnsafeMutablePointer<_ItemRecord>
    var runCapacity = 256

    /// Bytes the buffers below take per item: key, record, the space-order block (absorbers and
    /// their starts) and the bits of the marks and the space-order pass.
    static let bytesPerItem = MemoryLayout<UInt64>.stride + MemoryLayout<_ItemRecord>.stride + 2 * MemoryLayout<UInt32>.stride + 1

    init(zoom: Int, capacity: Int, grid: _ClusterGrid, groupHighZoom: Int) {
        self.zoom = zoom
        let c = capacity > 0 ? capacity : 1
        itemCapacity = c
        keys = UnsafeMutablePointer<UInt64>.allocate(capacity: c + 1)   // and a sentinel (`forEachForward`)
        entries = UnsafeMutablePointer<_ItemRecord>.allocate(capacity: c)
        marks = _VisitedAbsorbedBits(capacity: c)
        spaceOrder = _SpaceOrderScratch(capacity: c)
        activeCapacity = spaceOrder.byteCount / MemoryLayout<_ActiveItem>.stride
        run = UnsafeMutablePointer<_ItemRecord>.allocate(capacity: runCapacity)
        runKeys = UnsafeMutablePointer<UInt64>.allocate(capacity: runCapacity)
        self.grid = grid
        self.groupHighZoom = groupHighZoom
    }

    deinit {
        keys.deallocate()
        entries.deallocate()
        marks.deallocate()
        ownActives?.deallocate()
        readAhead.deallocate()
        run.deallocate()
        runKeys.deallocate()
    }

    /// Makes room for half as many active items again, in a buffer of their own, and returns
    /// it.
    func growActives() -> UnsafeMutablePointer<_ActiveItem> {
        let capacity = activeCapacity + activeCapacity / 2
        let grown = UnsafeMutablePointer<_ActiveItem>.allocate(capacity: capacity)
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
        run = UnsafeMutablePointer<_ItemRecord>.allocate(capacity: runCapacity)
        runKeys = UnsafeMutablePointer<UInt64>.allocate(capacity: runCapacity)
    }

    /// A snapshot of the sorted items for the hot loops: plain values, so reading them costs
    /// no exclusivity checks on this class's `var`s.
    var items: _SortedItems { _SortedItems(keys: keys, entries: entries, count: count, grid: grid) }
}
