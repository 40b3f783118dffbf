/// A stable least-significant-digit radix sort of 64-bit keys carrying values (32-bit ones, or
/// whole small records, so a caller can sort its data along instead of gathering it after).
///
/// The stdlib `sort()` is slow in wasm, so this is a radix sort: a few linear passes (one per
/// digit of up to 11 bits, or 13 for large sorts, over only the bits that differ between keys,
/// found by one pass before the histograms), as fast in wasm as natively. Equal keys keep their
/// input order, which keeps results deterministic.
enum RadixSort {
    /// The widest digit: 11 bits, or 13 from `wideFrom` keys on. The passes are memory bound and
    /// 8,192 buckets still fit the caches, so for many keys a pass saved (a million keys of 26
    /// bits in two passes, not three) is worth the larger histograms; for fewer keys they cost
    /// more than a pass saves.
    private static let digitBits = 11
    private static let wideDigitBits = 13
    private static let wideFrom = 1 << 18

    /// Sorts `keys[0..<count]` ascending and applies the same permutation to `values`.
    static func sort(keys: inout [UInt64], values: inout [UInt32], count: Int) {
        guard count >= 2 else { return }
        var scratchKeys = [UInt64](repeating: 0, count: count)
        var scratchValues = [UInt32](repeating: 0, count: count)
        keys.withUnsafeMutableBufferPointer { k in
            values.withUnsafeMutableBufferPointer { v in
                scratchKeys.withUnsafeMutableBufferPointer { sk in
                    scratchValues.withUnsafeMutableBufferPointer { sv in
                        sort(k.baseAddress!, v.baseAddress!, count: count, scratch: sk.baseAddress!, sv.baseAddress!)
                    }
                }
            }
        }
    }

    /// The sort on raw buffers, with the caller's scratch space (`count` keys and values), so
    /// a caller can lend memory it already has.
    static func sort<Value>(_ keys: UnsafeMutablePointer<UInt64>, _ values: UnsafeMutablePointer<Value>,
                            count: Int, scratch: UnsafeMutablePointer<UInt64>, _ scratchValues: UnsafeMutablePointer<Value>) {
        if count < 2 { return }
        if count <= 48 {
            var unlimited = Int.max
            insertionSort(keys, values, count: count, budget: &unlimited)
            return
        }
        // Digits every key shares order nothing: find them first (bits that differ somewhere),
        // so neither the histograms nor the passes spend work on them.
        var anyOne: UInt64 = 0, allOnes: UInt64 = ~0
        var start = 0
        while start < count {
            let end = Swift.min(start + _callChunk, count)
            bitsSet(keys, start, end, anyOne: &anyOne, allOnes: &allOnes)
            start = end
        }
        let differing = anyOne ^ allOnes
        // As few digits as cover the differing bits, all of one width.
        let widest = count >= wideFrom ? wideDigitBits : digitBits
        let passes = (differing.nonzeroBitCount + widest - 1) / widest
        let width = passes == 0 ? 1 : (differing.nonzeroBitCount + passes - 1) / passes
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 64) { shifts in
            // Each digit starts at the lowest differing bit its predecessor left out; bits
            // between (shared by every key) are skipped.
            var digits = 0
            var rest = differing
            while rest != 0 {
                let shift = UInt64(rest.trailingZeroBitCount)
                shifts[digits] = shift
                digits += 1
                rest = shift + UInt64(width) >= 64 ? 0 : rest & ~((1 << (shift + UInt64(width))) - 1)
            }
            sortByDigits(keys, values, count: count, scratch: scratch, scratchValues, shifts: shifts.baseAddress!,
                         digits: digits, bits: width)
        }
    }

    /// The passes, one per digit of `bits` bits at `shifts[0..<digits]`.
    private static func sortByDigits<Value>(_ keys: UnsafeMutablePointer<UInt64>, _ values: UnsafeMutablePointer<Value>,
                                            count: Int, scratch: UnsafeMutablePointer<UInt64>,
                                            _ scratchValues: UnsafeMutablePointer<Value>, shifts: UnsafePointer<UInt64>,
                                     digits: Int, bits: Int) {
        if digits == 0 { return }
        let buckets = 1 << bits
        let mask = UInt64(buckets - 1)
        // Their histograms in one pass over the keys, instead of one pass per digit.
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: digits * buckets)
        defer { counts.deallocate() }
        counts.update(repeating: 0, count: digits * buckets)
        var start = 0
        while start < count {
            let end = Swift.min(start + _callChunk, count)
            countDigits(keys, start, end, counts: counts, buckets: buckets, shifts: shifts, digits: digits)
            start = end
        }
        var src = (keys, values), dst = (scratch, scratchValues)
        for d in 0..<digits {
            let shift = shifts[d]
            let table = counts + d * buckets
            var sum = 0
            for b in 0..<buckets {
                let n = table[b]
                table[b] = sum
                sum += n
            }
            var start = 0
            while start < count {
                let end = Swift.min(start + _callChunk, count)
                scatter(src, dst, start, end, table: table, shift: shift, mask: mask)
                start = end
            }
            swap(&src, &dst)
        }
        if src.0 != keys {
            keys.update(from: src.0, count: count)
            values.update(from: src.1, count: count)
        }
    }

    // The loops of a sort over every key, one call per chunk of keys (see `_callChunk`).

    /// The bits set in some key and in every key of `keys[start..<end]`, folded into the two.
    @inline(never)
    private static func bitsSet(_ keys: UnsafeMutablePointer<UInt64>, _ start: Int, _ end: Int,
                                anyOne: inout UInt64, allOnes: inout UInt64) {
        var some = anyOne, every = allOnes
        for i in start..<end {
            some |= keys[i]
            every &= keys[i]
        }
        anyOne = some
        allOnes = every
    }

    /// Adds the digits of `keys[start..<end]` to the histograms, `buckets` counts per digit.
    @inline(never)
    private static func countDigits(_ keys: UnsafeMutablePointer<UInt64>, _ start: Int, _ end: Int,
                                    counts: UnsafeMutablePointer<Int>, buckets: Int,
                                    shifts: UnsafePointer<UInt64>, digits: Int) {
        let mask = UInt64(buckets - 1)
        for i in start..<end {
            let key = keys[i]
            for d in 0..<digits { counts[d * buckets + Int((key >> shifts[d]) & mask)] += 1 }
        }
    }

    /// Moves the keys and values of `src[start..<end]` to their buckets' next places in `dst`
    /// (`table`: each bucket's next place, advanced as it fills).
    @inline(never)
    private static func scatter<Value>(_ src: (UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<Value>),
                                       _ dst: (UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<Value>),
                                       _ start: Int, _ end: Int,
                                       table: UnsafeMutablePointer<Int>, shift: UInt64, mask: UInt64) {
        for i in start..<end {
            let key = src.0[i]
            let b = Int((key >> shift) & mask)
            let at = table[b]
            table[b] = at + 1
            dst.0[at] = key
            dst.1[at] = src.1[i]
        }
    }

    /// Stable insertion sort of `count` keys with their values; stops, returning false, once it
    /// has moved keys `budget` places in all (the caller's bound on nearly sorted input).
    @discardableResult
    static func insertionSort<Value>(_ keys: UnsafeMutablePointer<UInt64>, _ values: UnsafeMutablePointer<Value>,
                                     count: Int, budget: inout Int) -> Bool {
        if count < 2 { return true }
        for i in 1..<count {
            let key = keys[i]
            if keys[i - 1] <= key { continue }
            let value = values[i]
            var j = i
            while j > 0 && keys[j - 1] > key {
                keys[j] = keys[j - 1]
                values[j] = values[j - 1]
                j -= 1
            }
            keys[j] = key
            values[j] = value
            budget -= i - j
            if budget < 0 { return false }
        }
        return true
    }
}
