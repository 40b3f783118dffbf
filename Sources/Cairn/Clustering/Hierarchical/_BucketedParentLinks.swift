/// The parent links a zoom's staging sets, held back and written a bucket of item ids at a time.
///
/// Staging goes through the items in space order, but a point's id is its input index, in no
/// order at all: setting each parent as its cluster forms would write to a random place in
/// the parent arrays per absorbed point. Here a link goes to the bucket of its id (64 buckets,
/// each a range of ids); a full bucket is written out at once, into its own small part of the
/// parent arrays. The buckets live in memory the caller lends (the space-order block, free
/// while staging), so that the build's heap does not grow for them at each zoom.
struct _BucketedParentLinks {
    private static let buckets = 64
    private let bucketSize: Int
    private let links: UnsafeMutablePointer<UInt64>
    private let filled: UnsafeMutablePointer<Int>
    private let shift: Int
    private let items: _ItemAccess

    /// Buckets for ids below `idLimit`, written to `items`' parent arrays, in `byteCount`
    /// bytes at `memory` (up to 1,024 links a bucket, fewer if that is all there is).
    init(memory: UnsafeMutableRawPointer, byteCount: Int, idLimit: Int, items: _ItemAccess) {
        bucketSize = Swift.max(1, Swift.min(1024, byteCount / MemoryLayout<UInt64>.stride / Self.buckets))
        links = memory.bindMemory(to: UInt64.self, capacity: Self.buckets * bucketSize)
        filled = UnsafeMutablePointer<Int>.allocate(capacity: Self.buckets)
        filled.initialize(repeating: 0, count: Self.buckets)
        let bits = Int.bitWidth - Swift.max(idLimit, 1).leadingZeroBitCount
        shift = Swift.max(0, bits - 6)
        self.items = items
    }

    /// Writes what is held back, and frees the buckets.
    func finish() {
        for b in 0..<Self.buckets { flush(b) }
        filled.deallocate()
    }

    @inline(__always)
    func add(_ id: Int32, parent: Int32) {
        let b = Int(id) >> shift
        let k = filled[b]
        links[b * bucketSize + k] = UInt64(UInt32(bitPattern: id)) << 32 | UInt64(UInt32(bitPattern: parent))
        filled[b] = k + 1
        if k + 1 == bucketSize { flush(b) }
    }

    private func flush(_ b: Int) {
        let bucket = links + b * bucketSize
        for k in 0..<filled[b] {
            let link = bucket[k]
            items.setParent(of: Int32(truncatingIfNeeded: link >> 32), Int32(truncatingIfNeeded: link))
        }
        filled[b] = 0
    }
}
