import Cairn

/// Reads the little-endian fields of a host's request buffer, refusing to read past its end.
struct _ByteReader {
    private let base: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ base: UnsafeRawBufferPointer) { self.base = base }

    var isAtEnd: Bool { offset == base.count }

    private mutating func take(_ count: Int) throws(CairnError) -> Int {
        guard count >= 0, count <= base.count - offset else { throw .invalidArgument }
        let at = offset
        offset += count
        return at
    }

    mutating func uint8() throws(CairnError) -> UInt8 { base[try take(1)] }

    mutating func uint32() throws(CairnError) -> UInt32 {
        let at = try take(4)
        var v: UInt32 = 0
        for k in 0..<4 { v |= UInt32(base[at + k]) << UInt32(8 * k) }
        return v
    }

    /// A u32 count or length, refused when it cannot be an `Int` (32 bits on wasm32).
    mutating func count() throws(CairnError) -> Int {
        let v = try uint32()
        guard v <= UInt32(Int32.max) else { throw .invalidArgument }
        return Int(v)
    }

    mutating func int32() throws(CairnError) -> Int32 { Int32(bitPattern: try uint32()) }

    mutating func float64() throws(CairnError) -> Double {
        let at = try take(8)
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(base[at + k]) << UInt64(8 * k) }
        return Double(bitPattern: v)
    }

    /// `count` bytes in place.
    mutating func bytes(_ count: Int) throws(CairnError) -> UnsafeBufferPointer<UInt8> {
        let at = try take(count)
        return UnsafeBufferPointer(rebasing: base.bindMemory(to: UInt8.self)[at..<(at + count)])
    }
}
