/// Saved indexes: a built index written to one buffer and restored from it without clustering
/// again, with the same ids, order and answers to every query.
///
/// Layout (little-endian, every section 8-byte aligned):
/// - header, 32 bytes: the magic `CAIRNIDX`, the format version (UInt32), 0 (UInt32), the
///   buffer's length (UInt64) and the `_ContentHash` of everything after the header (UInt64);
/// - the options; the points' positions and parents, and the points removed by edits (a bit
///   each, none when no point was); the clusters' positions, point counts,
///   parents, zooms, ranks and seed positions; where each zoom's clusters start and the
///   clusters by seed; the data order of every zoom (minPoints > 2); the zoom groups (zooms,
///   grid, sorted ids, fences); the aggregated columns;
/// - the host's data, opaque to the engine (the bindings keep what they add to the index there),
///   padded to 8 bytes, then its byte count (UInt64) as the buffer's last word, so a host finds
///   it from the end without parsing the rest. The hash covers it too.
///
/// What is derived on demand (supercluster's trees of each zoom) is not saved: the first query
/// of a zoom lays it out, as after a build. The points of small clusters a cluster manager asks
/// the build to list are not saved either; a saved index is for `ClusterIndex` queries.
///
/// A restore checks the header, the hash, every count against the bytes left and every stored
/// id against the index's range before it trusts anything, so no buffer, however altered, makes
/// a query read out of bounds.
extension HierarchicalClusterIndex {
    /// Why a buffer was refused as a saved index (the detail of `invalidSavedIndex`).
    public enum SavedProblem: Int32, Equatable {
        /// Shorter than its header says, or than its content needs.
        case truncated = 0
        /// Not a saved index: the magic is missing.
        case notASavedIndex = 1
        /// Saved in another format version than this engine reads.
        case otherVersion = 2
        /// The content does not match its hash: altered or damaged.
        case altered = 3
        /// Well-formed and unaltered, but its content contradicts itself.
        case inconsistent = 4
    }

    /// The format version written and the only one read.
    public static let savedFormatVersion: UInt32 = 2
    static let savedHeaderSize = 32

    /// "CAIRNIDX" as a little-endian word.
    static var magicWord: UInt64 {
        var v: UInt64 = 0
        for (k, c) in [UInt8](arrayLiteral: 0x43, 0x41, 0x49, 0x52, 0x4E, 0x49, 0x44, 0x58).enumerated() {
            v |= UInt64(c) << (8 * UInt64(k))
        }
        return v
    }

    /// The size in bytes of the saved index. Throws unless the index is built.
    public func savedByteCount(hostDataCount: Int = 0) throws(CairnError) -> Int {
        guard state == .built, !isWeighted else { throw .invalidState }
        guard hostDataCount >= 0 else { throw .invalidArgument }
        // The format holds clusters in zoom blocks, with no dead slots, and a fence every stride,
        // and every seed position as it is (none left pending by edits).
        compactStorage()
        settleSeedPositions()
        for g in groups.indices where !groups[g].hasEvenFences {
            let group = groups[g], grid = group.grid
            let fences = Swift.stride(from: 0, to: group.ids.count, by: _ZoomGroup.fenceStride).map { k in
                let p = indexPosition(group.ids[k])
                return grid.key(x: p.x, y: p.y)
            }
            groups[g] = _ZoomGroup(lowZoom: group.lowZoom, highZoom: group.highZoom, grid: grid, ids: group.ids, fences: fences)
        }
        var counter = _SavedIndexWriter(out: nil, offset: HierarchicalClusterIndex.savedHeaderSize)
        writeContent(&counter)
        // Host data padded to 8 bytes, then its length: a size beyond Int (32 bits in
        // WebAssembly) cannot be saved.
        let (padded, over) = hostDataCount.addingReportingOverflow(7)
        let (body, over2) = counter.offset.addingReportingOverflow(padded & ~7)
        let (size, over3) = body.addingReportingOverflow(8)
        guard !over, !over2, !over3 else { throw .outOfMemory(points: pointCount) }
        return size
    }

    /// Writes the saved index into `out`, which must hold `savedByteCount()` bytes; returns
    /// how many were written.
    @discardableResult
    public func save(into out: UnsafeMutableRawBufferPointer, hostData: [UInt8] = []) throws(CairnError) -> Int {
        let size = try savedByteCount(hostDataCount: hostData.count)
        guard out.count >= size, let base = out.baseAddress else { throw .invalidArgument }
        var writer = _SavedIndexWriter(out: base)
        writeAll(&writer, size: size, hostData: hostData)
        return size
    }

    /// The header and the content, the writer at the start of a buffer of `size` bytes.
    private func writeAll(_ w: inout _SavedIndexWriter, size: Int, hostData: [UInt8]) {
        guard let base = w.out else { return }
        let headerSize = HierarchicalClusterIndex.savedHeaderSize
        var content = _SavedIndexWriter(out: base, offset: headerSize)
        writeContent(&content)
        content.bytes(hostData)
        content.int(hostData.count)
        assert(content.offset == size)
        w.word(HierarchicalClusterIndex.magicWord)
        w.word(UInt64(HierarchicalClusterIndex.savedFormatVersion))
        w.int(size)
        w.word(_ContentHash.of(UnsafeRawBufferPointer(start: base + headerSize, count: size - headerSize)))
    }

    /// The saved index as bytes.
    public func save(hostData: [UInt8] = []) throws(CairnError) -> [UInt8] {
        let size = try savedByteCount(hostDataCount: hostData.count)
        var bytes = [UInt8](repeating: 0, count: size)
        bytes.withUnsafeMutableBytes { out in
            var writer = _SavedIndexWriter(out: out.baseAddress, offset: 0)
            writeAll(&writer, size: size, hostData: hostData)
        }
        return bytes
    }

    private func writeContent(_ w: inout _SavedIndexWriter) {
        w.double(options.radius)
        w.double(options.extent)
        w.int(options.minZoom)
        w.int(options.maxZoom)
        w.int(options.minPoints)
        w.array(pointPositions.xy)
        w.array(pointParent)
        w.array(removedPointCount > 0 ? removedPoints : [])
        w.array(clusterPositions.xy)
        w.array(clusterPoints)
        w.array(clusterParent)
        w.array(clusterZoom)
        w.array(clusterRank)
        w.array(clusterSeedPosition)
        w.array(zoomClusterStart.map { Int64($0) })
        w.array(clustersBySeed)
        w.int(superclusterDataOrder.count)
        for order in superclusterDataOrder { w.array(order) }
        w.int(groups.count)
        for g in groups {
            w.int(g.lowZoom)
            w.int(g.highZoom)
            w.double(g.grid.scale)
            w.array(g.ids)
            w.array(g.fences)
        }
        w.int(aggregates.count)
        for column in aggregates {
            w.int(Int(column.operation.rawValue))
            w.array(column.values)
            w.array(column.counts)
        }
    }

    /// Restores a built index from a saved one, refusing (with `invalidSavedIndex`) a buffer
    /// that is truncated, of another format version, altered, or inconsistent.
    public static func restore(from bytes: UnsafeRawBufferPointer) throws(CairnError) -> HierarchicalClusterIndex {
        var header = _SavedIndexReader(bytes, offset: 0)
        guard bytes.count >= 8 else { throw .invalidSavedIndex(.truncated) }
        guard try header.word() == magicWord else { throw .invalidSavedIndex(.notASavedIndex) }
        guard bytes.count >= savedHeaderSize else { throw .invalidSavedIndex(.truncated) }
        let version = try header.word()
        guard version == UInt64(savedFormatVersion) else { throw .invalidSavedIndex(.otherVersion) }
        let length = try header.word()
        guard length <= UInt64(bytes.count) else { throw .invalidSavedIndex(.truncated) }
        guard length == UInt64(bytes.count), length % 8 == 0 else { throw .invalidSavedIndex(.inconsistent) }
        let hash = try header.word()
        let content = UnsafeRawBufferPointer(rebasing: bytes[savedHeaderSize...])
        guard _ContentHash.of(content) == hash else { throw .invalidSavedIndex(.altered) }

        let hostStart = try hostDataRange(bytes).lowerBound & ~7
        var r = _SavedIndexReader(UnsafeRawBufferPointer(rebasing: bytes[..<hostStart]), offset: savedHeaderSize)
        let options = ClusterOptions(radius: try r.double(), extent: try r.double(),
                                     minZoom: try r.int(in: 0...ClusterOptions.highestMaxZoom),
                                     maxZoom: try r.int(in: 0...ClusterOptions.highestMaxZoom),
                                     minPoints: try r.int(in: 1...Int(Int32.max)))
        let index: HierarchicalClusterIndex
        do { index = try HierarchicalClusterIndex(options: options) } catch { throw .invalidSavedIndex(.inconsistent) }
        try index.readContent(&r)
        guard r.isAtEnd else { throw .invalidSavedIndex(.inconsistent) }
        try index.checkRestored()
        index.state = .built
        return index
    }

    /// Where the host's data lies in a saved index whose header and hash were checked.
    private static func hostDataRange(_ bytes: UnsafeRawBufferPointer) throws(CairnError) -> Range<Int> {
        var end = _SavedIndexReader(bytes, offset: bytes.count - 8)
        let count = try end.word()
        let room = UInt64(bytes.count - 8 - savedHeaderSize)
        guard count <= room, (count + 7) & ~7 <= room else { throw .invalidSavedIndex(.inconsistent) }
        let start = bytes.count - 8 - Int((count + 7) & ~7)
        return start..<(start + Int(count))
    }

    /// The host's data in a saved index, once `restore(from:)` accepted it.
    public static func hostData(ofSaved bytes: UnsafeRawBufferPointer) throws(CairnError) -> [UInt8] {
        let range = try hostDataRange(bytes)
        return [UInt8](UnsafeRawBufferPointer(rebasing: bytes[range]))
    }

    private func readContent(_ r: inout _SavedIndexReader) throws(CairnError) {
        let pointXY = try r.doubles()
        guard pointXY.count % 2 == 0, pointXY.count / 2 <= HierarchicalClusterIndex.maximumPointCount else {
            throw .invalidSavedIndex(.inconsistent)
        }
        pointPositions = _WorldPositions(xy: pointXY)
        pointParent = try r.array(of: Int32.self)
        removedPoints = try r.array(of: UInt64.self)
        removedPointCount = removedPoints.reduce(0) { $0 + $1.nonzeroBitCount }
        let clusterXY = try r.doubles()
        guard clusterXY.count % 2 == 0 else { throw .invalidSavedIndex(.inconsistent) }
        clusterPositions = _WorldPositions(xy: clusterXY)
        clusterPoints = try r.array(of: UInt32.self)
        clusterParent = try r.array(of: Int32.self)
        clusterZoom = try r.array(of: UInt8.self)
        clusterRank = try r.array(of: UInt32.self)
        clusterSeedPosition = try r.array(of: UInt32.self)
        zoomClusterStart = try r.array(of: Int64.self).map { Int($0) }
        clustersBySeed = try r.array(of: Int32.self)
        let zooms = options.maxZoom - options.minZoom + 1
        let orders = try r.int(in: 0...zooms)
        superclusterDataOrder = []
        for _ in 0..<orders { superclusterDataOrder.append(try r.array(of: Int32.self)) }
        let groupCount = try r.int(in: 0...(zooms + 1))
        groups = []
        for _ in 0..<groupCount {
            let low = try r.int(in: options.minZoom...(options.maxZoom + 1))
            let high = try r.int(in: low...(options.maxZoom + 1))
            let scale = try r.double()
            guard scale.isFinite, scale > 0 else { throw .invalidSavedIndex(.inconsistent) }
            let ids = try r.array(of: Int32.self)
            let fences = try r.array(of: UInt64.self)
            guard fences.count == (ids.count + _ZoomGroup.fenceStride - 1) / _ZoomGroup.fenceStride else {
                throw .invalidSavedIndex(.inconsistent)
            }
            groups.append(_ZoomGroup(lowZoom: low, highZoom: high, grid: _ClusterGrid(scale: scale), ids: ids, fences: fences))
        }
        let columns = try r.int(in: 0...Int(Int32.max))
        aggregates = []
        for _ in 0..<columns {
            guard let op = AggregateOperation(rawValue: Int32(try r.int(in: 0...4))) else { throw .invalidSavedIndex(.inconsistent) }
            let values = try r.doubles()
            let counts = try r.doubles()
            guard values.count == clusterPositions.count, counts.count == (op == .mean ? values.count : 0) else {
                throw .invalidSavedIndex(.inconsistent)
            }
            aggregates.append(_AggregateColumn(operation: op, values: values, counts: counts))
        }
    }

    /// Checks what queries rely on without checking again: every array as long as its count,
    /// every stored id inside the index, the zoom blocks in order. One pass over each array.
    private func checkRestored() throws(CairnError) {
        let bad = CairnError.invalidSavedIndex(.inconsistent)
        let n = pointPositions.count, clusters = clusterPositions.count
        let zooms = options.maxZoom - options.minZoom + 1
        guard n + clusters <= Int(Int32.max), pointParent.count == n,
              clusterPoints.count == clusters, clusterParent.count == clusters, clusterZoom.count == clusters,
              clusterRank.count == clusters, clusterSeedPosition.count == clusters,
              clustersBySeed.count == clusters, zoomClusterStart.count == zooms + 1,
              superclusterDataOrder.isEmpty || (recordsDataOrder && superclusterDataOrder.count == zooms)
        else { throw bad }
        if recordsDataOrder && clusters > 0 && superclusterDataOrder.isEmpty { throw bad }
        // Removed points: bits of points only, each without a parent.
        guard removedPoints.count <= n / 64 + 1 else { throw bad }
        if let last = removedPoints.last, removedPoints.count == n / 64 + 1, last >> UInt64(n & 63) != 0 { throw bad }
        for p in 0..<n where isRemoved(p) && pointParent[p] != -1 { throw bad }
        let items = Int32(n + clusters)
        // The long arrays are checked without a branch per element (a restore is mostly
        // these passes and copying), the short ones plainly.
        guard HierarchicalClusterIndex.allParents(pointParent, pointCount: n, clusterCount: clusters) else { throw bad }
        guard HierarchicalClusterIndex.allParents(clusterParent, pointCount: n, clusterCount: clusters) else { throw bad }
        guard HierarchicalClusterIndex.allBelow(clustersBySeed, UInt32(clusters)) else { throw bad }
        let lowZoom = UInt8(options.minZoom), zoomSpan = UInt8(options.maxZoom - options.minZoom)
        let rankLimit = UInt32(max(n, 1))
        var wrong = false
        for c in 0..<clusters {
            let parent = clusterParent[c]
            // Parents are formed after their children: a later cluster index.
            wrong = wrong || (parent != -1 && Int(parent) - n <= c)
                || (clusterZoom[c] &- lowZoom) > zoomSpan || clusterRank[c] >= rankLimit
        }
        if wrong { throw bad }
        // Blocks run from maxZoom down: starts decrease with the block number, within 0...clusters.
        guard zoomClusterStart[0] == clusters else { throw bad }
        for b in 0..<zooms {
            let first = zoomClusterStart[b + 1], end = zoomClusterStart[b]
            guard first >= 0, first <= end, end <= clusters else { throw bad }
        }
        for order in superclusterDataOrder where !HierarchicalClusterIndex.allBelow(order, UInt32(items)) { throw bad }
        // A cluster's seed is found again from its rank (one child has it) or, with data
        // orders, from its position in the data order of the zoom above.
        if recordsDataOrder {
            for c in 0..<clusters {
                let above = Int(clusterZoom[c]) + 1
                let visible = above > options.maxZoom ? n : superclusterDataOrder[above - options.minZoom].count
                guard Int(clusterSeedPosition[c]) < visible else { throw bad }
            }
        } else {
            var seeded = [Bool](repeating: false, count: clusters)
            seeded.withUnsafeMutableBufferPointer { mark in
                pointParent.withUnsafeBufferPointer { parents in
                    clusterRank.withUnsafeBufferPointer { ranks in
                        for p in 0..<n where parents[p] >= 0 && ranks[Int(parents[p]) - n] == UInt32(p) {
                            mark[Int(parents[p]) - n] = true
                        }
                        clusterParent.withUnsafeBufferPointer { up in
                            for c in 0..<clusters where up[c] >= 0 && ranks[Int(up[c]) - n] == ranks[c] {
                                mark[Int(up[c]) - n] = true
                            }
                        }
                    }
                }
            }
            if seeded.contains(false) { throw bad }
        }
        for g in groups where !HierarchicalClusterIndex.allBelow(g.ids, UInt32(items)) { throw bad }
        guard HierarchicalClusterIndex.allInWorld(pointPositions.xy), HierarchicalClusterIndex.allInWorld(clusterPositions.xy) else {
            throw bad
        }
    }

    /// Whether every id lies in 0..<limit (a negative one, as UInt32, does not).
    private static func allBelow(_ ids: [Int32], _ limit: UInt32) -> Bool {
        ids.withUnsafeBufferPointer { b in
            var outside = false
            for v in b { outside = outside || UInt32(bitPattern: v) >= limit }
            return !outside
        }
    }

    /// Whether every parent link is -1 (none) or names a cluster.
    private static func allParents(_ parents: [Int32], pointCount n: Int, clusterCount: Int) -> Bool {
        let first = Int32(n), clusters = UInt32(clusterCount)
        return parents.withUnsafeBufferPointer { b in
            var outside = false
            for p in b { outside = outside || (p != -1 && UInt32(bitPattern: p &- first) >= clusters) }
            return !outside
        }
    }

    /// Whether every coordinate lies in the world's 0...1 (NaN does not).
    private static func allInWorld(_ values: [Double]) -> Bool {
        values.withUnsafeBufferPointer { b in
            var outside = false
            for v in b { outside = outside || !(v >= 0 && v <= 1) }
            return !outside
        }
    }
}
