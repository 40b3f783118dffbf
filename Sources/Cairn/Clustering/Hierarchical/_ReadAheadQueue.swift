/// A first-in first-out queue of sorted items read ahead of where they will be written.
///
/// `advance` drops absorbed items and merges new clusters in one forward pass over the same
/// buffer: a new cluster written before the items it displaces would overwrite items not read
/// yet, so those wait here. It holds a handful of items at a time (a cluster lies within the
/// radius of the items it absorbed, so displacement stays local) and grows if ever needed.
struct _ReadAheadQueue {
    private var keys: UnsafeMutablePointer<UInt64>
    private var entries: UnsafeMutablePointer<_ItemRecord>
    private var capacity = 64
    private var head = 0
    private(set) var count = 0

    init() {
        keys = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
        entries = UnsafeMutablePointer<_ItemRecord>.allocate(capacity: capacity)
    }

    func deallocate() {
        keys.deallocate()
        entries.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    var frontKey: UInt64 { keys[head] }

    mutating func push(_ key: UInt64, _ entry: _ItemRecord) {
        if count == capacity { grow() }
        let at = (head + count) & (capacity - 1)
        keys[at] = key
        entries[at] = entry
        count += 1
    }

    mutating func pop() -> (UInt64, _ItemRecord) {
        let item = (keys[head], entries[head])
        head = (head + 1) & (capacity - 1)
        count -= 1
        return item
    }

    private mutating func grow() {
        let newKeys = UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * capacity)
        let newEntries = UnsafeMutablePointer<_ItemRecord>.allocate(capacity: 2 * capacity)
        for k in 0..<count {
            newKeys[k] = keys[(head + k) & (capacity - 1)]
            newEntries[k] = entries[(head + k) & (capacity - 1)]
        }
        deallocate()
        keys = newKeys
        entries = newEntries
        capacity *= 2
        head = 0
    }
}
