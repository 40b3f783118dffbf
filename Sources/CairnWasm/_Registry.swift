import Cairn

/// The state behind the C ABI: live indexes and maps by handle, live buffers by address, and the detail
/// of the last error. Nothing else: behaviour lives in `Cairn`.
enum _Registry {
    static var indexes = _HandleTable<HierarchicalClusterIndex>()
    static var maps = _HandleTable<MapController>()
    static var archives = _HandleTable<PMTilesDirectory>()

    // Live allocations made through `cairn_alloc`, so every pointer an export receives can be
    // checked to lie inside one of them before it is read or written.
    static var bufferStarts: [UInt] = []
    static var bufferSizes: [Int] = []

    static var lastErrorDetail: Double = 0

    static func newHandle(_ index: HierarchicalClusterIndex) -> Int32 {
        indexes.insert(index) ?? fail(.tooManyIndexes(limit: _HandleTable<HierarchicalClusterIndex>.maxSlots))
    }

    static func index(_ handle: Int32) throws(CairnError) -> HierarchicalClusterIndex {
        try indexes.object(handle)
    }

    /// The frame a map advanced to but could not write (the host's buffer too small), until any
    /// other call reaches a map: asked again at once, at the same time, with room, the map
    /// writes it without advancing and building it a second time.
    static var heldFrame: (handle: Int32, time: Double)?

    /// The map behind `handle`, for any call but the frame's (which `heldFrame` then no longer
    /// stands for).
    static func map(_ handle: Int32) throws(CairnError) -> MapController {
        heldFrame = nil
        return try maps.object(handle)
    }

    /// Whether `[pointer, pointer + byteCount)` lies inside one live buffer, aligned for `align`.
    static func isValid(_ pointer: UnsafeMutableRawPointer?, byteCount: Int, align: Int) -> Bool {
        guard let pointer, byteCount >= 0 else { return false }
        let start = UInt(bitPattern: pointer)
        guard start % UInt(align) == 0 else { return false }
        for i in 0..<bufferStarts.count {
            let base = bufferStarts[i]
            if start >= base && start - base <= UInt(bufferSizes[i]) &&
                UInt(byteCount) <= UInt(bufferSizes[i]) - (start - base) {
                return true
            }
        }
        return false
    }

    /// A checked view of `count` doubles at `pointer`.
    static func doubles(_ pointer: UnsafeMutableRawPointer?, count: Int) throws(CairnError) -> UnsafeMutableBufferPointer<Double> {
        guard count >= 0, count <= Int.max / 8,
              isValid(pointer, byteCount: count * 8, align: 8), let pointer else { throw .invalidArgument }
        return UnsafeMutableBufferPointer(start: pointer.assumingMemoryBound(to: Double.self), count: count)
    }

    /// A checked view of `count` bytes at `pointer` (none needed for zero bytes).
    static func bytes(_ pointer: UnsafeMutableRawPointer?, count: Int) throws(CairnError) -> UnsafeRawBufferPointer {
        guard count >= 0 else { throw .invalidArgument }
        if count == 0 { return UnsafeRawBufferPointer(start: nil, count: 0) }
        guard isValid(pointer, byteCount: count, align: 1), let pointer else { throw .invalidArgument }
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }

    /// A checked view of `count` 32-bit words at `pointer`.
    static func words(_ pointer: UnsafeMutableRawPointer?, count: Int) throws(CairnError) -> UnsafeMutableBufferPointer<UInt32> {
        guard count >= 0, count <= Int.max / 4 else { throw .invalidArgument }
        if count == 0 { return UnsafeMutableBufferPointer(start: nil, count: 0) }
        guard isValid(pointer, byteCount: count * 4, align: 4), let pointer else { throw .invalidArgument }
        return UnsafeMutableBufferPointer(start: pointer.assumingMemoryBound(to: UInt32.self), count: count)
    }

    /// Writes `bytes` to a caller's buffer when they fit; returns their length either way.
    static func answer(_ bytes: [UInt8], _ out: UnsafeMutableRawPointer?, _ capacity: Int32) throws(CairnError) -> Int32 {
        guard capacity >= 0, bytes.count <= Int(Int32.max) else { throw .invalidArgument }
        if bytes.count <= Int(capacity), bytes.count > 0 {
            let target = try mutableBytes(out, count: bytes.count)
            bytes.withUnsafeBytes { target.copyMemory(from: $0) }
        }
        return Int32(bytes.count)
    }

    static func mutableBytes(_ pointer: UnsafeMutableRawPointer?, count: Int) throws(CairnError) -> UnsafeMutableRawBufferPointer {
        guard count > 0, isValid(pointer, byteCount: count, align: 1), let pointer else { throw .invalidArgument }
        return UnsafeMutableRawBufferPointer(start: pointer, count: count)
    }

    /// Records the error's detail and returns its status (the negated code).
    static func fail(_ error: CairnError) -> Int32 {
        lastErrorDetail = Double(error.detail)
        return -error.code
    }

    /// Runs `body`, turning a thrown error into its status.
    static func status(_ body: () throws(CairnError) -> Int32) -> Int32 {
        do {
            return try body()
        } catch {
            return fail(error)
        }
    }

    /// A cluster id passed as a double: it must be a whole number an index could have made.
    static func clusterID(_ value: Double) throws(CairnError) -> Int64 {
        guard let id = wholeID(value) else { throw .unknownCluster(id: -1) }
        return id
    }

    /// A marker or cluster item id passed as a double, on the same terms.
    static func markerID(_ value: Double) throws(CairnError) -> Int64 {
        guard let id = wholeID(value) else { throw .unknownMarker(id: -1) }
        return id
    }

    /// A whole number from 0 to 2^53 − 1 (ids are exact in a double), or nil.
    private static func wholeID(_ value: Double) -> Int64? {
        guard value.isFinite, value >= 0, value <= 9_007_199_254_740_991, value == value.rounded(.down) else { return nil }
        return Int64(value)
    }
}
