/// Writes a saved index's sections: numbers as 8-byte little-endian words, arrays as their
/// count then their elements, padded to 8 bytes so every section starts aligned. With no
/// buffer it only counts bytes, so the size is known before writing (one layout, two uses).
struct _SavedIndexWriter {
    let out: UnsafeMutableRawPointer?
    private(set) var offset: Int

    init(out: UnsafeMutableRawPointer?, offset: Int = 0) {
        self.out = out
        self.offset = offset
    }

    mutating func word(_ v: UInt64) {
        out?.storeBytes(of: v.littleEndian, toByteOffset: offset, as: UInt64.self)
        offset += 8
    }

    mutating func int(_ v: Int) { word(UInt64(bitPattern: Int64(v))) }
    mutating func double(_ v: Double) { word(v.bitPattern) }

    /// An array of fixed-size numbers, copied as they lie in memory (the engine only runs on
    /// little-endian machines: WebAssembly, arm64, x86-64).
    mutating func array<T: FixedWidthInteger>(_ values: [T]) {
        int(values.count)
        bytes(values)
    }

    mutating func array(_ values: [Double]) {
        int(values.count)
        bytes(values)
    }

    /// Elements without their count before them, padded to 8 bytes.
    mutating func bytes<T>(_ values: [T]) {
        let size = values.count * MemoryLayout<T>.stride
        if let out {
            values.withUnsafeBytes { src in
                if let s = src.baseAddress { (out + offset).copyMemory(from: s, byteCount: size) }
            }
            let padded = (size + 7) & ~7
            for k in size..<padded { out.storeBytes(of: 0, toByteOffset: offset + k, as: UInt8.self) }
        }
        offset += (size + 7) & ~7
    }
}

/// Reads what `_SavedIndexWriter` wrote, checking every count against the bytes left, so a
/// buffer cut short or with a count altered is refused rather than read past its end.
struct _SavedIndexReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func word() throws(CairnError) -> UInt64 {
        guard bytes.count - offset >= 8, let base = bytes.baseAddress else { throw .invalidSavedIndex(.truncated) }
        let v = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return UInt64(littleEndian: v)
    }

    /// A number that must lie in `range`.
    mutating func int(in range: ClosedRange<Int>) throws(CairnError) -> Int {
        let v = Int64(bitPattern: try word())
        guard v >= Int64(range.lowerBound), v <= Int64(range.upperBound) else { throw .invalidSavedIndex(.inconsistent) }
        return Int(v)
    }

    mutating func double() throws(CairnError) -> Double { Double(bitPattern: try word()) }

    mutating func array<T: FixedWidthInteger>(of: T.Type) throws(CairnError) -> [T] {
        let count = try self.count(stride: MemoryLayout<T>.stride)
        return read(count, as: T.self)
    }

    mutating func doubles() throws(CairnError) -> [Double] {
        let count = try self.count(stride: 8)
        return read(count, as: Double.self)
    }

    private mutating func count(stride: Int) throws(CairnError) -> Int {
        let raw = try word()
        let left = bytes.count - offset
        guard raw <= UInt64(left / stride) else { throw .invalidSavedIndex(.truncated) }
        return Int(raw)
    }

    /// Copied straight into the new array's storage: no zero fill first (a restore is mostly copying).
    private mutating func read<T>(_ count: Int, as: T.Type) -> [T] {
        let size = count * MemoryLayout<T>.stride
        let source = bytes.baseAddress.map { $0 + offset }
        let values = [T](unsafeUninitializedCapacity: count) { dst, initialized in
            if let d = dst.baseAddress, let source { UnsafeMutableRawPointer(d).copyMemory(from: source, byteCount: size) }
            initialized = count
        }
        offset = Swift.min(bytes.count, offset + ((size + 7) & ~7))
        return values
    }
}
