/// Dense slot numbers for a sparse set of non-negative 32-bit ids: the first id given gets slot 0,
/// the next new one slot 1, and so on, so callers keep what they know of each id in plain arrays
/// indexed by slot. An open-addressing table of its own (linear probing), because the standard
/// library's hashed collections are kept out of the WebAssembly build.
struct _ItemSlots {
    private var keys: [Int32]
    private var slots: [Int32]
    private var mask: Int
    private(set) var ids: [Int32] = []

    init(expected: Int = 16) {
        var capacity = 16
        while capacity < 2 * expected { capacity <<= 1 }
        keys = [Int32](repeating: -1, count: capacity)
        slots = [Int32](repeating: 0, count: capacity)
        mask = capacity - 1
    }

    var count: Int { ids.count }

    @inline(__always)
    private func home(_ id: Int32) -> Int {
        Int((UInt32(bitPattern: id) &* 0x9E37_79B1) >> 7) & mask
    }

    /// The slot of `id`, or nil if it has none.
    @inline(__always)
    func slot(of id: Int32) -> Int? {
        var h = home(id)
        while true {
            let k = keys[h]
            if k == id { return Int(slots[h]) }
            if k < 0 { return nil }
            h = (h + 1) & mask
        }
    }

    /// The slot of `id`, given one if it had none (`isNew` then true).
    mutating func insert(_ id: Int32) -> (slot: Int, isNew: Bool) {
        var h = home(id)
        while true {
            let k = keys[h]
            if k == id { return (Int(slots[h]), false) }
            if k < 0 { break }
            h = (h + 1) & mask
        }
        keys[h] = id
        slots[h] = Int32(ids.count)
        ids.append(id)
        if 2 * ids.count > keys.count { grow() }
        return (ids.count - 1, true)
    }

    private mutating func grow() {
        let capacity = 2 * keys.count
        keys = [Int32](repeating: -1, count: capacity)
        slots = [Int32](repeating: 0, count: capacity)
        mask = capacity - 1
        for (s, id) in ids.enumerated() {
            var h = home(id)
            while keys[h] >= 0 { h = (h + 1) & mask }
            keys[h] = id
            slots[h] = Int32(s)
        }
    }
}

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
