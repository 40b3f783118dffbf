/// Changes to the seed positions of one zoom's clusters that an index has yet to apply: each a
/// rank whose item became visible one zoom up (+1) or stopped being (-1), which moves the
/// position of every seed ranked after it (see `HierarchicalClusterIndex+EditInPlace`). An edit
/// adds its changes here rather than passing over all the zoom's clusters; the first read of a
/// position of that zoom applies what has gathered, in one pass. Meanwhile a stored position is
/// the true one less the shift of the changes kept here.
struct _PendingSeedShifts {
    /// Ranks, increasing, each with the sum of its changes (never zero).
    private(set) var ranks: [UInt32] = []
    private(set) var deltas: [Int32] = []

    var isEmpty: Bool { ranks.isEmpty }
    var count: Int { ranks.count }

    /// The changes, by rank.
    var changes: [(rank: UInt32, delta: Int32)] { zip(ranks, deltas).map { ($0, $1) } }

    /// Adds `changes`, sorted by rank (a rank may come more than once).
    mutating func add(_ changes: [(rank: UInt32, delta: Int32)]) {
        var r: [UInt32] = [], d: [Int32] = []
        r.reserveCapacity(ranks.count + changes.count)
        d.reserveCapacity(ranks.count + changes.count)
        func append(_ rank: UInt32, _ delta: Int32) {
            if let last = r.last, last == rank {
                d[d.count - 1] &+= delta
                if d[d.count - 1] == 0 { r.removeLast(); d.removeLast() }
            } else if delta != 0 {
                r.append(rank)
                d.append(delta)
            }
        }
        var i = 0, j = 0
        while i < ranks.count || j < changes.count {
            if j == changes.count || (i < ranks.count && ranks[i] <= changes[j].rank) {
                append(ranks[i], deltas[i])
                i += 1
            } else {
                append(changes[j].rank, changes[j].delta)
                j += 1
            }
        }
        ranks = r
        deltas = d
    }

    /// The running sums of the deltas, for `shift(below:sums:)`.
    func sums() -> [Int32] {
        var total: Int32 = 0
        return deltas.map { total &+= $0; return total }
    }

    /// How far the changes move the position of a seed ranked `rank`: the sum of those ranked
    /// before it. `sums` is `sums()`.
    func shift(below rank: UInt32, sums: [Int32]) -> Int32 {
        var lo = 0, hi = ranks.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if ranks[mid] < rank { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? 0 : sums[lo - 1]
    }

    mutating func removeAll() {
        ranks.removeAll()
        deltas.removeAll()
    }
}
