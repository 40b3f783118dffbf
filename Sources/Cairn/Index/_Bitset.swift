/// One bit per position of a build's sorted items, with rank support: after `index(upTo:)`,
/// `index(of:)` counts the set bits before a position in constant time, so the positions with
/// a bit set can keep dense side arrays (one entry per set bit, in position order) instead of
/// an entry per position.
struct _Bitset {
    let words: UnsafeMutablePointer<UInt64>
    /// Set bits in all words before each word (filled by `index(upTo:)`).
    private let before: UnsafeMutablePointer<UInt32>
    private let capacity: Int

    init(capacity bits: Int) {
        capacity = bits / 64 + 1
        words = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
        before = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
    }

    func deallocate() {
        words.deallocate()
        before.deallocate()
    }

    /// Clears the bits of the first `count` positions (at most the capacity given at creation).
    func clear(_ count: Int) {
        words.update(repeating: 0, count: count / 64 + 1)
    }

    /// Sets the bits of the first `count` positions and clears the rest of their last word.
    func fill(_ count: Int) {
        words.update(repeating: ~0, count: count / 64)
        words[count / 64] = (1 << UInt64(count & 63)) &- 1
    }

    /// Makes the first `count` bits equal to `other`'s.
    func copy(_ other: _Bitset, _ count: Int) {
        words.update(from: other.words, count: count / 64 + 1)
    }

    @inline(__always)
    func contains(_ p: Int) -> Bool { words[p >> 6] & (1 << UInt64(p & 63)) != 0 }

    @inline(__always)
    func insert(_ p: Int) { words[p >> 6] |= 1 << UInt64(p & 63) }

    @inline(__always)
    func remove(_ p: Int) { words[p >> 6] &= ~(1 << UInt64(p & 63)) }

    /// Prepares `index(of:)` for the first `count` positions; returns how many bits are set.
    func index(upTo count: Int) -> Int {
        var total: UInt32 = 0
        for w in 0..<(count / 64 + 1) {
            before[w] = total
            total &+= UInt32(words[w].nonzeroBitCount)
        }
        return Int(total)
    }

    /// The number of set bits before `p` (valid after `index(upTo:)`, until a bit changes).
    @inline(__always)
    func index(of p: Int) -> Int {
        let below = words[p >> 6] & ((1 << UInt64(p & 63)) &- 1)
        return Int(before[p >> 6]) + below.nonzeroBitCount
    }

    /// Calls `body` with every set position in `range`, in increasing order.
    @inline(__always)
    func forEach(in range: Range<Int>, _ body: (Int) -> Void) {
        if range.isEmpty { return }
        for w in (range.lowerBound >> 6)...((range.upperBound - 1) >> 6) {
            var bits = words[w]
            while bits != 0 {
                let p = w << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                if p < range.lowerBound { continue }
                if p >= range.upperBound { return }
                body(p)
            }
        }
    }

    /// Calls `body` with every set position below `count`, in increasing order.
    @inline(__always)
    func forEach(below count: Int, _ body: (Int) -> Void) {
        for w in 0..<(count / 64 + 1) {
            var bits = words[w]
            while bits != 0 {
                let p = w << 6 | bits.trailingZeroBitCount
                if p >= count { return }
                body(p)
                bits &= bits &- 1
            }
        }
    }
}
