/// The sorted items of a build at one zoom, as a raw buffer and plain values.
struct _SortedItems {
    let keys: UnsafeMutablePointer<UInt64>
    let entries: UnsafeMutablePointer<_ItemRecord>
    let count: Int
    let grid: _ClusterGrid

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

/// One of three runs, by number, without building an array in the hot loop.
@inline(__always)
func _run(_ runs: (Range<Int>, Range<Int>, Range<Int>), _ d: Int) -> Range<Int> {
    d == 0 ? runs.0 : (d == 1 ? runs.1 : runs.2)
}
