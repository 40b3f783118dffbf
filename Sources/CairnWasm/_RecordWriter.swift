import Cairn

/// Writes result records of `cairn_record_stride` doubles into a caller's buffer, counting
/// every record offered but writing only as many as fit.
struct _RecordWriter {
    static let stride = 4
    private let buffer: UnsafeMutableBufferPointer<Double>
    private let capacity: Int
    private(set) var total: Int32 = 0

    init(_ pointer: UnsafeMutableRawPointer?, capacity: Int32) throws(CairnError) {
        // In 32 bits, capacity × stride × 8 could overflow (and trap) before the buffer check.
        guard capacity >= 0, Int(capacity) <= Int.max / (8 * _RecordWriter.stride) else { throw .invalidArgument }
        self.capacity = Int(capacity)
        // An empty request (capacity 0) may pass no buffer: it only counts.
        buffer = capacity == 0 ? UnsafeMutableBufferPointer(start: nil, count: 0)
            : try _Registry.doubles(pointer, count: Int(capacity) * _RecordWriter.stride)
    }

    mutating func write(id: Int64, count: Int, _ x: Double, _ y: Double) {
        let i = Int(total)
        if i < capacity {
            let at = i * _RecordWriter.stride
            buffer[at] = Double(id)
            buffer[at + 1] = Double(count)
            buffer[at + 2] = x
            buffer[at + 3] = y
        }
        if total < Int32.max { total += 1 }
    }

    mutating func write(_ feature: ClusterFeature) {
        write(id: feature.id, count: feature.pointCount, feature.longitude, feature.latitude)
    }
}

extension _RecordWriter {
    /// The shape of every export that answers with records: find the index, check the caller's
    /// buffer, let `body` write, and return the total (or the error's status).
    static func query(_ handle: Int32, _ out: UnsafeMutableRawPointer?, _ capacity: Int32,
                      _ body: (HierarchicalClusterIndex, inout _RecordWriter) throws(CairnError) -> Void) -> Int32 {
        _Registry.status { () throws(CairnError) in
            let index = try _Registry.index(handle)
            var writer = try _RecordWriter(out, capacity: capacity)
            try body(index, &writer)
            return writer.total
        }
    }
}
