/// A stable least-significant-digit radix sort of 64-bit keys, optionally carrying 32-bit values.
///
/// The stdlib `sort()` measured about 3x slower in the wasm build than natively; this one does a
/// few linear passes (11-bit digits, skipping digits that are the same in every key) and is as
/// fast in wasm as natively. Equal keys keep their input order, which keeps results
/// deterministic.
enum RadixSort {
    private static let digitBits: UInt64 = 11
    private static let buckets = 1 << 11

    /// Sorts `keys[0..<count]` ascending and applies the same permutation to `values`.
    static func sort(keys: inout [UInt64], values: inout [UInt32], count: Int) {
        guard count >= 2 else { return }
        var scratchKeys = [UInt64](repeating: 0, count: count)
        var scratchValues = [UInt32](repeating: 0, count: count)
        keys.withUnsafeMutableBufferPointer { k in
            values.withUnsafeMutableBufferPointer { v in
                scratchKeys.withUnsafeMutableBufferPointer { sk in
                    scratchValues.withUnsafeMutableBufferPointer { sv in
                        sort(k.baseAddress!, v.baseAddress, count: count, fromBit: 0,
                             scratch: sk.baseAddress!, sv.baseAddress)
                    }
                }
            }
        }
    }

    /// Sorts `keys[0..<count]` by their bits from `fromBit` up, ignoring the bits below (keys
    /// that carry their own payload there).
    static func sort(keys: inout [UInt64], count: Int, fromBit: Int) {
        guard count >= 2 else { return }
        var scratch = [UInt64](repeating: 0, count: count)
        keys.withUnsafeMutableBufferPointer { k in
            scratch.withUnsafeMutableBufferPointer { s in
                sort(k.baseAddress!, nil, count: count, fromBit: fromBit, scratch: s.baseAddress!, nil)
            }
        }
    }

    /// The sort on raw buffers, with the caller's scratch space (`count` keys, and `count`
    /// values when values are carried), so a hot caller can reuse it.
    static func sort(_ keys: UnsafeMutablePointer<UInt64>, _ values: UnsafeMutablePointer<UInt32>?,
                     count: Int, fromBit: Int, scratch: UnsafeMutablePointer<UInt64>,
                     _ scratchValues: UnsafeMutablePointer<UInt32>?) {
        if count < 2 { return }
        let low = UInt64(fromBit)
        if count <= 48 {
            insertionSort(keys, values, count: count, fromBit: low)
            return
        }
        var maxKey: UInt64 = 0
        for i in 0..<count where keys[i] > maxKey { maxKey = keys[i] }
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: buckets)
        defer { counts.deallocate() }
        var src = (keys, values), dst = (scratch, scratchValues)
        var shift = low
        let mask = UInt64(buckets - 1)
        while shift < 64 && (maxKey >> shift) != 0 {
            defer { shift += digitBits }
            for b in 0..<buckets { counts[b] = 0 }
            for i in 0..<count { counts[Int((src.0[i] >> shift) & mask)] += 1 }
            // A digit every key shares orders nothing: skip the pass.
            if counts[Int((src.0[0] >> shift) & mask)] == count { continue }
            var sum = 0
            for b in 0..<buckets {
                let n = counts[b]
                counts[b] = sum
                sum += n
            }
            for i in 0..<count {
                let key = src.0[i]
                let b = Int((key >> shift) & mask)
                let at = counts[b]
                counts[b] = at + 1
                dst.0[at] = key
                if let sv = src.1, let dv = dst.1 { dv[at] = sv[i] }
            }
            swap(&src, &dst)
        }
        if src.0 != keys {
            keys.update(from: src.0, count: count)
            if let v = values, let sv = src.1 { v.update(from: sv, count: count) }
        }
    }

    private static func insertionSort(_ keys: UnsafeMutablePointer<UInt64>, _ values: UnsafeMutablePointer<UInt32>?,
                                      count: Int, fromBit: UInt64) {
        for i in 1..<count {
            let key = keys[i]
            let value = values?[i] ?? 0
            var j = i
            while j > 0 && (keys[j - 1] >> fromBit) > (key >> fromBit) {
                keys[j] = keys[j - 1]
                values?[j] = values![j - 1]
                j -= 1
            }
            keys[j] = key
            values?[j] = value
        }
    }
}
