/// A stable least-significant-digit radix sort of 64-bit keys carrying 32-bit values.
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
                        sort(k.baseAddress!, v.baseAddress!, count: count, scratch: sk.baseAddress!, sv.baseAddress!)
                    }
                }
            }
        }
    }

    /// The sort on raw buffers, with the caller's scratch space (`count` keys and values), so
    /// a caller can lend memory it already has.
    static func sort(_ keys: UnsafeMutablePointer<UInt64>, _ values: UnsafeMutablePointer<UInt32>,
                     count: Int, scratch: UnsafeMutablePointer<UInt64>, _ scratchValues: UnsafeMutablePointer<UInt32>) {
        if count < 2 { return }
        if count <= 48 {
            insertionSort(keys, values, count: count)
            return
        }
        // Every digit's histogram in one pass over the keys, instead of one pass per digit.
        let digits = 6   // 6 × 11 bits cover 64
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: digits * buckets)
        defer { counts.deallocate() }
        counts.update(repeating: 0, count: digits * buckets)
        let mask = UInt64(buckets - 1)
        for i in 0..<count {
            var key = keys[i]
            for d in 0..<digits {
                counts[d * buckets + Int(key & mask)] += 1
                key >>= digitBits
            }
        }
        var src = (keys, values), dst = (scratch, scratchValues)
        for d in 0..<digits {
            let shift = UInt64(d) * digitBits
            let table = counts + d * buckets
            // A digit every key shares orders nothing: skip the pass.
            if table[Int((src.0[0] >> shift) & mask)] == count { continue }
            var sum = 0
            for b in 0..<buckets {
                let n = table[b]
                table[b] = sum
                sum += n
            }
            for i in 0..<count {
                let key = src.0[i]
                let b = Int((key >> shift) & mask)
                let at = table[b]
                table[b] = at + 1
                dst.0[at] = key
                dst.1[at] = src.1[i]
            }
            swap(&src, &dst)
        }
        if src.0 != keys {
            keys.update(from: src.0, count: count)
            values.update(from: src.1, count: count)
        }
    }

    private static func insertionSort(_ keys: UnsafeMutablePointer<UInt64>, _ values: UnsafeMutablePointer<UInt32>,
                                      count: Int) {
        for i in 1..<count {
            let key = keys[i]
            let value = values[i]
            var j = i
            while j > 0 && keys[j - 1] > key {
                keys[j] = keys[j - 1]
                values[j] = values[j - 1]
                j -= 1
            }
            keys[j] = key
            values[j] = value
        }
    }
}
