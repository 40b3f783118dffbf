/// Per position of a build's sorted items: visited (seen by the greedy pass, or absorbed) and
/// absorbed (into a cluster). Two bits an item, so a million items' marks fit in the L2 cache:
/// the greedy pass checks them in random order.
struct _Marks {
    let visited: UnsafeMutablePointer<UInt64>
    let absorbed: UnsafeMutablePointer<UInt64>
    let words: Int

    init(capacity: Int) {
        words = capacity / 64 + 1
        visited = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
        absorbed = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
    }

    func deallocate() {
        visited.deallocate()
        absorbed.deallocate()
    }

    /// Clears the marks of the first `count` positions.
    func reset(_ count: Int) {
        for w in 0..<(count / 64 + 1) {
            visited[w] = 0
            absorbed[w] = 0
        }
    }

    @inline(__always)
    func isVisited(_ p: Int) -> Bool { visited[p >> 6] & (1 << UInt64(p & 63)) != 0 }

    @inline(__always)
    func isAbsorbed(_ p: Int) -> Bool { absorbed[p >> 6] & (1 << UInt64(p & 63)) != 0 }

    @inline(__always)
    func visit(_ p: Int) { visited[p >> 6] |= 1 << UInt64(p & 63) }

    @inline(__always)
    func absorb(_ p: Int) {
        visited[p >> 6] |= 1 << UInt64(p & 63)
        absorbed[p >> 6] |= 1 << UInt64(p & 63)
    }
}
