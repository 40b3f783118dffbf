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
