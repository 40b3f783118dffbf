/// A fast 64-bit hash of a saved index's content, to refuse one that was altered. Not
/// cryptographic: it catches damage (bit flips, edits, a buffer cut and padded), not forgery.
///
/// Four independent lanes of multiply–rotate mixing, 32 bytes a round, so the multiplications of
/// one round overlap instead of waiting on each other: hashing runs near memory speed, which
/// keeps checking a million-point index to a few milliseconds.
enum _ContentHash {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9

    @inline(__always)
    private static func rotl(_ v: UInt64, _ r: UInt64) -> UInt64 { (v << r) | (v >> (64 - r)) }

    @inline(__always)
    private static func mix(_ acc: UInt64, _ word: UInt64) -> UInt64 {
        rotl(acc &+ word &* p2, 31) &* p1
    }

    /// The hash of `bytes`, whose count must be a multiple of 8.
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        precondition(bytes.count % 8 == 0)
        let words = bytes.count / 8
        guard let base = bytes.baseAddress else { return p3 }
        var a = p1 &+ p2, b = p2, c: UInt64 = 0, d = 0 &- p1
        var i = 0
        while i + 4 <= words {
            a = mix(a, base.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))
            b = mix(b, base.loadUnaligned(fromByteOffset: 8 * i + 8, as: UInt64.self))
            c = mix(c, base.loadUnaligned(fromByteOffset: 8 * i + 16, as: UInt64.self))
            d = mix(d, base.loadUnaligned(fromByteOffset: 8 * i + 24, as: UInt64.self))
            i += 4
        }
        var h = rotl(a, 1) &+ rotl(b, 7) &+ rotl(c, 12) &+ rotl(d, 18)
        while i < words {
            h = rotl(h ^ mix(0, base.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)), 27) &* p1 &+ p3
            i += 1
        }
        h ^= UInt64(bytes.count)
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        h = h &* p3
        h ^= h >> 32
        return h
    }
}
