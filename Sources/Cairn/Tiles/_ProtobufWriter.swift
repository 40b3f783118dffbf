/// The few pieces of the protocol buffer wire format that vector tiles and their archives use:
/// varints, zigzag, field keys and length-delimited fields, appended to a byte array.
struct _ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    /// Wire types: 0 varint, 1 fixed 64 bits, 2 length-delimited.
    static let varintWire: UInt64 = 0
    static let fixed64Wire: UInt64 = 1
    static let lengthWire: UInt64 = 2

    var count: Int { bytes.count }

    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Signed values as protocol buffers' `sint`: small magnitudes of either sign stay short.
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    mutating func key(_ field: UInt64, _ wire: UInt64) { varint(field << 3 | wire) }

    mutating func varintField(_ field: UInt64, _ value: UInt64) {
        key(field, _ProtobufWriter.varintWire)
        varint(value)
    }

    mutating func fixed64Field(_ field: UInt64, _ value: UInt64) {
        key(field, _ProtobufWriter.fixed64Wire)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func bytesField(_ field: UInt64, _ content: UnsafeBufferPointer<UInt8>) {
        key(field, _ProtobufWriter.lengthWire)
        varint(UInt64(content.count))
        bytes.append(contentsOf: content)
    }

    mutating func bytesField(_ field: UInt64, _ content: [UInt8]) {
        content.withUnsafeBufferPointer { bytesField(field, $0) }
    }

    mutating func append(_ content: [UInt8]) { bytes.append(contentsOf: content) }
}
