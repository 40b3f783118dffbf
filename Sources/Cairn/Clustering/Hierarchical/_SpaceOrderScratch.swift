/// Scratch for `HierarchicalClusterIndex.clusterInSpaceOrder`, kept by a build from zoom to
/// zoom. Bits are per position of the build's sorted items; the arrays are dense, one entry per
/// set bit (see `_Bitset`).
final class _SpaceOrderScratch {
    /// Items with at least one possible absorber (an earlier-ranked item within the radius).
    let dependent: _Bitset
    /// Dependent items whose fate is not known yet.
    let unresolved: _Bitset
    /// Items absorbed or visited by an earlier seed: not seeds themselves.
    let claimed: _Bitset
    /// Seeds that claimed at least one item.
    let claiming: _Bitset

    /// The possible absorbers of each dependent item, as positions: those of the `k`th dependent
    /// are `absorbers[edgeStart[k] ..< edgeStart[k + 1]]`. Once an item is claimed, its first slot
    /// holds the seed that claimed it. Raw, and allocated once: the lists are written a row at a
    /// time (see `_PendingAbsorberPairs`), with no check of capacity per entry. Both lie in one block, `raw`,
    /// in which the greedy pass keeps its active items on the zooms this pass gives up
    /// (`_ClusterBuild.actives`), the build's first sort its scratch keys, staging its held-back
    /// parent links (`_BucketedParentLinks`) and the step to the next zoom its sort of the new clusters
    /// (`_sortNearReferenceRows`), so they are bound to their type where each pass starts.
    var absorbers: UnsafeMutablePointer<UInt32> { raw.bindMemory(to: UInt32.self, capacity: absorberCapacity) }
    var edgeStart: UnsafeMutablePointer<UInt32> {
        (raw + absorberCapacity * MemoryLayout<UInt32>.stride).bindMemory(to: UInt32.self, capacity: edgeCapacity)
    }
    let raw: UnsafeMutableRawPointer
    let absorberCapacity: Int
    private let edgeCapacity: Int
    /// The block's size.
    var byteCount: Int { (absorberCapacity + edgeCapacity) * MemoryLayout<UInt32>.stride }
    /// Pairs found but not listed yet (see `_PendingAbsorberPairs`).
    var pendingPairs = _PendingAbsorberPairs()
    /// Items waiting to be resolved, deepest on top.
    var resolving = _Stack()
    /// The seed that claimed each claimed item, in position order of the items.
    var claimers: [UInt32] = []

    /// The items each claiming seed claimed, seeds in position order:
    /// `members[memberStart[s] ..< memberStart[s + 1]]`.
    var memberStart: [UInt32] = []
    var members: [UInt32] = []

    init(capacity: Int) {
        absorberCapacity = capacity + 4096
        edgeCapacity = capacity + 1
        raw = UnsafeMutableRawPointer.allocate(byteCount: (absorberCapacity + edgeCapacity) * MemoryLayout<UInt32>.stride,
                                               alignment: Swift.max(MemoryLayout<UInt64>.alignment, MemoryLayout<_ActiveItem>.alignment))
        dependent = _Bitset(capacity: capacity)
        unresolved = _Bitset(capacity: capacity)
        claimed = _Bitset(capacity: capacity)
        claiming = _Bitset(capacity: capacity)
    }

    deinit {
        raw.deallocate()
        dependent.deallocate()
        unresolved.deallocate()
        claimed.deallocate()
        claiming.deallocate()
        resolving.deallocate()
        pendingPairs.deallocate()
    }
}
