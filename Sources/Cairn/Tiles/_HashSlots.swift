/// The slots of an open-addressing hash table (linear probing) whose entries, numbered in the
/// order added, live in the owner's own arrays: the owner keeps each entry's hash and says
/// which entry matches.
struct _HashSlots {
    private var slots: [Int32]

    init(capacity: Int) { slots = Array(repeating: -1, count: capacity) }

    mutating func removeAll() {
        for k in 0..<slots.count { slots[k] = -1 }
    }

    /// The entry with `hash` that `matches`, or -1, and the slot where the search ended (where
    /// a new entry with that hash goes).
    func find(_ hash: UInt64, _ matches: (Int) -> Bool) -> (entry: Int, slot: Int) {
        let mask = slots.count - 1
        var s = Int(truncatingIfNeeded: hash) & mask
        while slots[s] >= 0 {
            if matches(Int(slots[s])) { return (Int(slots[s]), s) }
            s = (s + 1) & mask
        }
        return (-1, s)
    }

    /// Puts entry `entry` (the `count`-th) in the slot `find` gave, and doubles the slots when
    /// they are half full, placing every entry again by `hashOf`.
    mutating func insert(_ entry: Int, at slot: Int, count: Int, hashOf: (Int) -> UInt64) {
        slots[slot] = Int32(entry)
        guard 2 * count > slots.count else { return }
        slots = Array(repeating: -1, count: 2 * slots.count)
        let mask = slots.count - 1
        for e in 0..<count {
            var s = Int(truncatingIfNeeded: hashOf(e)) & mask
            while slots[s] >= 0 { s = (s + 1) & mask }
            slots[s] = Int32(e)
        }
    }
}
