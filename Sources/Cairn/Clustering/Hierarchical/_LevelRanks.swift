/// The ranks of the items visible at each level from `minZoom + 1` to `maxZoom + 1`, a bit per
/// rank, with rank support: a cluster formed at zoom z is numbered by how many items visible at
/// z + 1 rank before its seed (`+SuperclusterIDs`). An index keeps them once an edit has laid
/// out its storage in place (`+EditInPlace`), so that later edits change the bits of the items
/// whose levels changed and count positions again, instead of deriving every level from every
/// item.
final class _LevelRanks {
    let minLevel: Int
    /// Ranks below this fit (points added later may need a new set).
    let capacity: Int
    private var levels: [_Bitset]
    private var stale: [Bool]

    init(minLevel: Int, maxLevel: Int, capacity: Int) {
        self.minLevel = minLevel
        self.capacity = capacity
        levels = (minLevel...maxLevel).map { _ in
            let bits = _Bitset(capacity: capacity)
            bits.clear(capacity)
            return bits
        }
        stale = [Bool](repeating: true, count: maxLevel - minLevel + 1)
    }

    deinit {
        for bits in levels { bits.deallocate() }
    }

    var maxLevel: Int { minLevel + levels.count - 1 }

    /// Marks `rank` visible (or not) at every level of `low...high` within the levels kept.
    func set(_ rank: UInt32, levels low: Int, _ high: Int, to visible: Bool) {
        let from = max(low, minLevel), to = min(high, maxLevel)
        guard from <= to else { return }
        for level in from...to {
            let bits = levels[level - minLevel]
            if visible { bits.insert(Int(rank)) } else { bits.remove(Int(rank)) }
            stale[level - minLevel] = true
        }
    }

    /// Marks ranks `0..<count` (points, ranked by id), none of them marked yet: rank `r` visible
    /// at every level of `lowest(r)...high` (none where `lowest` gives -1). A word of 64 ranks
    /// at a time: each rank's bit goes to the mask of its lowest level, and each level's word is
    /// the union of the masks of the levels up to it, where setting bit after bit would touch
    /// every level's memory for every rank.
    func setRanks(below count: Int, lowest: (Int) -> Int, high: Int) {
        let top = min(high, maxLevel), depth = top - minLevel + 1
        guard depth > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: depth) { masks in
            for w in 0..<((count + 63) >> 6) {
                masks.initialize(repeating: 0)
                for r in (w << 6)..<min((w + 1) << 6, count) {
                    let low = lowest(r)
                    guard low >= 0, low <= top else { continue }
                    masks[max(low, minLevel) - minLevel] |= 1 << UInt64(r & 63)
                }
                var union: UInt64 = 0
                for k in 0..<depth {
                    union |= masks[k]
                    levels[k].words[w] |= union
                }
            }
        }
        for k in 0..<depth { stale[k] = true }
    }

    /// Whether a level's bits changed since its counts were last prepared (`prepare`).
    func changed(_ level: Int) -> Bool { stale[level - minLevel] }

    /// Prepares `position` at every level whose bits changed.
    func prepare() {
        for k in 0..<levels.count where stale[k] {
            _ = levels[k].index(upTo: capacity)
            stale[k] = false
        }
    }

    /// How many items visible at `level` rank before `rank` (after `prepare`).
    @inline(__always)
    func position(_ rank: UInt32, level: Int) -> UInt32 {
        UInt32(levels[level - minLevel].index(of: Int(rank)))
    }
}
