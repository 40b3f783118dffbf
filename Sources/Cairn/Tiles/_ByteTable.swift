/// Distinct byte strings, numbered in the order first seen: a vector tile layer's keys and
/// values are stored once each and referred to by number. Open addressing over FNV-1a hashes;
/// equal hashes are confirmed byte for byte.
struct _ByteTable {
    /// The strings end to end, and where each one ends.
    private(set) var storage: [UInt8] = []
    private(set) var ends: [Int] = []
    private var slots = _HashSlots(capacity: 64)
    private var hashes: [UInt64] = []

    var count: Int { ends.count }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        slots.removeAll()
    }

    func range(_ k: Int) -> Range<Int> { (k == 0 ? 0 : ends[k - 1])..<ends[k] }

    /// The number of `bytes`, adding them when new.
    mutating func number(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let hash = _fnv1a(bytes, seed: 0xcbf2_9ce4_8422_2325)
        let found = slots.find(hash) { hashes[$0] == hash && equal($0, bytes) }
        if found.entry >= 0 { return found.entry }
        let k = ends.count
        storage.append(contentsOf: bytes)
        ends.append(storage.count)
        hashes.append(hash)
        let all = hashes
        slots.insert(k, at: found.slot, count: ends.count) { all[$0] }
        return k
    }

    private func equal(_ k: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let r = range(k)
        guard r.count == bytes.count else { return false }
        var i = r.lowerBound
        for b in bytes {
            if storage[i] != b { return false }
            i += 1
        }
        return true
    }
}

/// FNV-1a over bytes, from `seed`.
func _fnv1a(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
    var h = seed
    for b in bytes {
        h ^= UInt64(b)
        h = h &* 0x0000_0100_0000_01b3
    }
    return h
}
