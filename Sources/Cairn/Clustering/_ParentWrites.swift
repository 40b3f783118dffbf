/// The parent links a zoom's staging sets, held back and written a bucket of item ids at a time.
///
/// Staging goes through the items in space order, but a point's id is its input index, in no
/// order at all: setting each parent as its cluster formed was a write to a random place in
/// the parent arrays per absorbed point, about 80 ms of the uniform wasm load. Here a link goes
/// to the bucket of its id (64 buckets, each a range of ids); a full bucket is written out at
/// once, into its own small part of the parent arrays.
struct _ParentWrites {
    private static let buckets = 64
    private static let bucketSize = 1024
    private let links: UnsafeMutablePointer<UInt64>
    private let filled: UnsafeMutablePointer<Int>
    private let shift: Int
    private let items: _ItemAccess

    /// Buckets for ids below `idLimit`, written to `items`' parent arrays.
    init(idLimit: Int, items: _ItemAccess) {
        links = UnsafeMutablePointer<UInt64>.allocate(capacity: Self.buckets * Self.bucketSize)
        filled = UnsafeMutablePointer<Int>.allocate(capacity: Self.buckets)
        filled.initialize(repeating: 0, count: Self.buckets)
        let bits = Int.bitWidth - Swift.max(idLimit, 1).leadingZeroBitCount
        shift = Swift.max(0, bits - 6)
        self.items = items
    }

    /// Writes what is held back, and frees the buckets.
    func finish() {
        for b in 0..<Self.buckets { flush(b) }
        links.deallocate()
        filled.deallocate()
    }

    @inline(__always)
    func add(_ id: Int32, parent: Int32) {
        let b = Int(id) >> shift
        let k = filled[b]
        links[b * Self.bucketSize + k] = UInt64(UInt32(bitPattern: id)) << 32 | UInt64(UInt32(bitPattern: parent))
        filled[b] = k + 1
        if k + 1 == Self.bucketSize { flush(b) }
    }

    private func flush(_ b: Int) {
        let bucket = links + b * Self.bucketSize
        for k in 0..<filled[b] {
            let link = bucket[k]
            items.setParent(of: Int32(truncatingIfNeeded: link >> 32), Int32(truncatingIfNeeded: link))
        }
        filled[b] = 0
    }
}
