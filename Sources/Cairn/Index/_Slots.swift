/// Dense slot numbers for a sparse set of keys (non-negative 32-bit ids, or 64-bit cell keys
/// short of all ones): the first key given gets slot 0, the next new one slot 1, and so on, so
/// callers keep what they know of each key in plain arrays indexed by slot. An open-addressing
/// table of its own (linear probing), because the standard library's hashed collections are
/// kept out of the WebAssembly build.
struct _Slots<Key: FixedWidthInteger> {
    private var keys: [Key]
    private var slots: [Int32]
    private var mask: Int
    private(set) var ids: [Key] = []

    /// The key no caller uses, marking an empty place (-1 for ids).
    private static var empty: Key { ~Key.zero }

    init(expected: Int = 16) {
        var capacity = 16
        while capacity < 2 * expected { capacity <<= 1 }
        keys = [Key](repeating: Self.empty, count: capacity)
        slots = [Int32](repeating: 0, count: capacity)
        mask = capacity - 1
    }

    var count: Int { ids.count }

    /// Fibonacci hashing: a cell key's row and column both reach the bits kept.
    @inline(__always)
    private func home(_ key: Key) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The slot of `key`, or nil if it has none.
    @inline(__always)
    func slot(of key: Key) -> Int? {
        var h = home(key)
        while true {
            let k = keys[h]
            if k == key { return Int(slots[h]) }
            if k == Self.empty { return nil }
            h = (h + 1) & mask
        }
    }

    /// The slot of `key`, given one if it had none (`isNew` then true).
    mutating func insert(_ key: Key) -> (slot: Int, isNew: Bool) {
        var h = home(key)
        while true {
            let k = keys[h]
            if k == key { return (Int(slots[h]), false) }
            if k == Self.empty { break }
            h = (h + 1) & mask
        }
        keys[h] = key
        slots[h] = Int32(ids.count)
        ids.append(key)
        if 2 * ids.count > keys.count { grow() }
        return (ids.count - 1, true)
    }

    private mutating func grow() {
        let capacity = 2 * keys.count
        keys = [Key](repeating: Self.empty, count: capacity)
        slots = [Int32](repeating: 0, count: capacity)
        mask = capacity - 1
        for (s, key) in ids.enumerated() {
            var h = home(key)
            while keys[h] != Self.empty { h = (h + 1) & mask }
            keys[h] = key
            slots[h] = Int32(s)
        }
    }
}

/// Slots for item ids.
typealias _ItemSlots = _Slots<Int32>

/// A min-heap of 64-bit keys (an edit orders its items by rank in the high half).
struct _MinHeap {
    private var heap: [UInt64] = []

    var isEmpty: Bool { heap.isEmpty }

    mutating func push(_ key: UInt64) {
        heap.append(key)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            if heap[parent] <= key { break }
            heap[i] = heap[parent]
            i = parent
        }
        heap[i] = key
    }

    mutating func pop() -> UInt64? {
        guard let last = heap.popLast() else { return nil }
        if heap.isEmpty { return last }
        let top = heap[0]
        var i = 0
        let n = heap.count
        while true {
            var child = 2 * i + 1
            if child >= n { break }
            if child + 1 < n && heap[child + 1] < heap[child] { child += 1 }
            if heap[child] >= last { break }
            heap[i] = heap[child]
            i = child
        }
        heap[i] = last
        return top
    }
}
