/// Scratch for `HierarchicalClusterIndex.clusterInSpaceOrder`, kept by a build from zoom to
/// zoom. Bits are per position of the build's sorted items; the arrays are dense, one entry per
/// set bit (see `_Bitset`).
final class _SpatialPassScratch {
    /// Items with at least one possible absorber (an earlier-ranked item within the radius).
    let dependent: _Bitset
    /// Dependent items whose fate is not known yet.
    let unresolved: _Bitset
    /// Items absorbed or visited by an earlier seed: not seeds themselves.
    let claimed: _Bitset
    /// Seeds that claimed at least one item.
    let claiming: _Bitset

    /// The possible absorbers of each dependent item, as positions: those of the `k`th
    /// dependent are `absorbers[edgeStart[k] ..< edgeStart[k + 1]]`. Once an item is claimed,
    /// its first slot holds the seed that claimed it. Raw, and allocated once: the sweep writes
    /// every candidate and keeps it or not without a branch.
    let absorbers: UnsafeMutablePointer<UInt32>
    let absorberCapacity: Int
    let edgeStart: UnsafeMutablePointer<UInt32>
    /// Items waiting to be resolved, deepest last.
    var stack: [UInt32] = []

    /// The items each claiming seed claimed, seeds in position order:
    /// `members[memberStart[s] ..< memberStart[s + 1]]`.
    var memberStart: [UInt32] = []
    var members: [UInt32] = []

    init(capacity: Int) {
        absorberCapacity = capacity + 4096
        absorbers = UnsafeMutablePointer<UInt32>.allocate(capacity: absorberCapacity)
        edgeStart = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity + 1)
        dependent = _Bitset(capacity: capacity)
        unresolved = _Bitset(capacity: capacity)
        claimed = _Bitset(capacity: capacity)
        claiming = _Bitset(capacity: capacity)
    }

    deinit {
        absorbers.deallocate()
        edgeStart.deallocate()
        dependent.deallocate()
        unresolved.deallocate()
        claimed.deallocate()
        claiming.deallocate()
    }
}
