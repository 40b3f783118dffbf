/// Searches over a build's sorted cell keys from a position no sweep is passing, for the sparse
/// zooms' neighbour runs (see `HierarchicalClusterIndex+SparseZooms`).
extension _SortedItems {
    /// The first position whose cell key is not below `key`, searched outward from `hint`
    /// (galloping, then a binary search): a position known to lie near the answer, such as an
    /// item's own for the runs around it, costs a few probes nearby instead of a search over
    /// all items with a cache miss at each of its steps.
    func lowerBound(_ key: UInt64, near hint: Int) -> Int {
        // Every position up to a hint below the key is below too: look forward.
        if hint < count && keys[hint] < key { return _lowerBound(UnsafePointer(keys), count: count, key, from: hint + 1) }
        // Every position from the hint on is at or above: look back.
        var hi = min(hint, count), probe = hi - 1, step = 1
        while probe >= 0 && keys[probe] >= key {
            hi = probe
            probe -= step
            step <<= 1
        }
        var lo = max(probe + 1, 0)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The three runs of positions in the 3×3 cells around the cell of `key`, for a position no
    /// sweep is passing (or a position not among the items), searched from `hint` (see
    /// `lowerBound(_:near:)`; any position will do, a near one is faster).
    func runs(around key: UInt64, near hint: Int) -> (Range<Int>, Range<Int>, Range<Int>) {
        let row = key >> 32, column = key & 0xFFFF_FFFF
        let first = column > 0 ? column - 1 : 0
        func run(_ r: UInt64) -> Range<Int> {
            let start = lowerBound((r << 32) | first, near: hint)
            return start..<runEnd(start, through: (r << 32) | (column + 1))
        }
        return (row > 0 ? run(row - 1) : count..<count, run(row), run(row + 1))
    }
}
