/// The tile directory of a PMTiles v3 archive, built tile by tile in id order while the host
/// writes the tile data: each tile's bytes are stored once (a tile equal to one stored before
/// points at the same bytes, and a run of equal tiles in consecutive ids is one entry), and
/// the entries serialise into the root and leaf directories of the spec.
public final class PMTilesDirectory {
    /// Entries, in tile id order: first id, run length, offset in the tile data, byte length.
    private(set) var tileIDs: [UInt64] = []
    private(set) var runLengths: [UInt32] = []
    private(set) var offsets: [UInt64] = []
    private(set) var lengths: [UInt32] = []
    /// Stored contents by hash: two independent 64-bit hashes and the length name a content.
    private var slots = _HashSlots(capacity: 1024)
    private var contentHashes: [UInt64] = []
    private var contentChecks: [UInt64] = []
    private var contentLengths: [UInt32] = []
    private var contentOffsets: [UInt64] = []
    /// The last content added, for runs.
    private var lastContent = -1

    public private(set) var dataLength: UInt64 = 0
    public private(set) var addressedTiles: UInt64 = 0
    public var entryCount: Int { tileIDs.count }
    public var contentCount: Int { contentOffsets.count }

    public init() {}

    /// Adds tile `id` holding `bytes` (its stored form, compressed as the archive says). Returns
    /// true when the bytes are new and the host must append them to the tile data; false when
    /// they equal a tile's stored before. Ids must increase.
    public func add(id: UInt64, bytes: UnsafeBufferPointer<UInt8>) throws(CairnError) -> Bool {
        guard bytes.count > 0, UInt64(bytes.count) <= UInt64(UInt32.max) else { throw .invalidArgument }
        if let last = tileIDs.last, id < last + UInt64(runLengths[runLengths.count - 1]) { throw .invalidArgument }
        let hash = _fnv1a(bytes, seed: 0xcbf2_9ce4_8422_2325)
        let check = _fnv1a(bytes, seed: 0x6c62_272e_07bb_0142) ^ UInt64(bytes.count) << 32
        let length = UInt32(bytes.count)
        let search = slots.find(hash) { contentHashes[$0] == hash && contentChecks[$0] == check && contentLengths[$0] == length }
        let found = search.entry
        addressedTiles += 1
        if found >= 0 {
            let e = tileIDs.count - 1
            if found == lastContent, tileIDs[e] + UInt64(runLengths[e]) == id {
                runLengths[e] += 1
            } else {
                append(id: id, offset: contentOffsets[found], length: contentLengths[found])
            }
            lastContent = found
            return false
        }
        let c = contentOffsets.count
        contentHashes.append(hash)
        contentChecks.append(check)
        contentLengths.append(UInt32(bytes.count))
        contentOffsets.append(dataLength)
        let all = contentHashes
        slots.insert(c, at: search.slot, count: contentOffsets.count) { all[$0] }
        append(id: id, offset: dataLength, length: UInt32(bytes.count))
        dataLength += UInt64(bytes.count)
        lastContent = c
        return true
    }

    private func append(id: UInt64, offset: UInt64, length: UInt32) {
        tileIDs.append(id)
        runLengths.append(1)
        offsets.append(offset)
        lengths.append(length)
    }

    /// Entries `range` serialised as a directory (the spec's columns of varints: id deltas,
    /// run lengths, lengths, then offsets as 0 for "right after the previous" or offset + 1).
    public func serialize(_ range: Range<Int>) throws(CairnError) -> [UInt8] {
        guard range.lowerBound >= 0, range.upperBound <= tileIDs.count else { throw .invalidArgument }
        var out = _ProtobufWriter()
        out.varint(UInt64(range.count))
        var last: UInt64 = 0
        for e in range {
            out.varint(tileIDs[e] - last)
            last = tileIDs[e]
        }
        for e in range { out.varint(UInt64(runLengths[e])) }
        for e in range { out.varint(UInt64(lengths[e])) }
        for e in range {
            if e > range.lowerBound, offsets[e] == offsets[e - 1] + UInt64(lengths[e - 1]) {
                out.varint(0)
            } else {
                out.varint(offsets[e] + 1)
            }
        }
        return out.bytes
    }

    /// The number of leaf directories of `leafSize` entries each (the last may hold fewer).
    public func leafCount(leafSize: Int) throws(CairnError) -> Int {
        guard leafSize > 0 else { throw .invalidArgument }
        return tileIDs.count / leafSize + (tileIDs.count % leafSize == 0 ? 0 : 1)
    }

    /// A root directory pointing at leaves of `leafSize` entries whose stored (compressed)
    /// lengths are `leafLengths`, laid end to end in the leaf directory section: each root
    /// entry has its leaf's first tile id and a run length of 0, which marks a leaf.
    public func root(leafSize: Int, leafLengths: UnsafeBufferPointer<Double>) throws(CairnError) -> [UInt8] {
        let leaves = try leafCount(leafSize: leafSize)
        guard leafLengths.count == leaves else { throw .invalidArgument }
        var out = _ProtobufWriter()
        out.varint(UInt64(leaves))
        var last: UInt64 = 0
        for l in 0..<leaves {
            let id = tileIDs[l * leafSize]
            out.varint(id - last)
            last = id
        }
        for _ in 0..<leaves { out.varint(0) }
        for l in 0..<leaves {
            let length = leafLengths[l]
            guard length >= 1, length <= Double(UInt32.max), length == length.rounded(.down) else { throw .invalidArgument }
            out.varint(UInt64(length))
        }
        for l in 0..<leaves { out.varint(l == 0 ? 1 : 0) }
        return out.bytes
    }
}
