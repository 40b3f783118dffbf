/// Per position of a build's sorted items: visited (seen by the greedy pass, or absorbed) and
/// absorbed (into a cluster). Two bits an item, so a million items' marks fit in the L2 cache:
/// the greedy pass checks them in random order.
struct _VisitedAbsorbedBits {
    private let visited: _Bitset
    private let absorbed: _Bitset

    init(capacity: Int) {
        visited = _Bitset(capacity: capacity)
        absorbed = _Bitset(capacity: capacity)
    }

    func deallocate() {
        visited.deallocate()
        absorbed.deallocate()
    }

    /// Clears the marks of the first `count` positions.
    func reset(_ count: Int) {
        visited.clear(count)
        absorbed.clear(count)
    }

    @inline(__always)
    func isVisited(_ p: Int) -> Bool { visited.contains(p) }

    @inline(__always)
    func isAbsorbed(_ p: Int) -> Bool { absorbed.contains(p) }

    @inline(__always)
    func visit(_ p: Int) { visited.insert(p) }

    @inline(__always)
    func absorb(_ p: Int) {
        visited.insert(p)
        absorbed.insert(p)
    }
}
