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
        sortInPlace(keys: &keys, values: &values, count: count, carryValues: true, fromBit: 0)
    }

    private static func sortInPlace(keys: inout [UInt64], values: inout [UInt32], count: Int,
                                    carryValues: Bool, fromBit: UInt64) {
        if count < 2 { return }
        if !carryValues && values.count < count {
            // The insertion sort below moves values too; give it room (small counts only).
            if count <= 48 { values = [UInt32](repeating: 0, count: count) }
        }
        if count <= 48 {
            insertionSort(keys: &keys, values: &values, count: count, fromBit: fromBit)
            return
        }
        var maxKey: UInt64 = 0
        for i in 0..<count where keys[i] > maxKey { maxKey = keys[i] }
        var tmpKeys = [UInt64](repeating: 0, count: count)
        var tmpValues = [UInt32](repeating: 0, count: carryValues ? count : 0)
        var counts = [Int](repeating: 0, count: buckets)
        var inTemp = false
        var shift: UInt64 = fromBit
        let mask = UInt64(buckets - 1)
        while shift < 64 && (maxKey >> shift) != 0 {
            let moved: Bool = keys.withUnsafeMutableBufferPointer { k in
                values.withUnsafeMutableBufferPointer { v in
                    tmpKeys.withUnsafeMutableBufferPointer { tk in
                        tmpValues.withUnsafeMutableBufferPointer { tv in
                            counts.withUnsafeMutableBufferPointer { c in
                                let (srcK, srcV, dstK, dstV) = inTemp ? (tk, tv, k, v) : (k, v, tk, tv)
                                for b in 0..<buckets { c[b] = 0 }
                                for i in 0..<count { c[Int((srcK[i] >> shift) & mask)] += 1 }
                                // A digit every key shares orders nothing: skip the pass.
                                if c[Int((srcK[0] >> shift) & mask)] == count { return false }
                                var sum = 0
                                for b in 0..<buckets {
                                    let n = c[b]
                                    c[b] = sum
                                    sum += n
                                }
                                for i in 0..<count {
                                    let key = srcK[i]
                                    let b = Int((key >> shift) & mask)
                                    let at = c[b]
                                    c[b] = at + 1
                                    dstK[at] = key
                                    if carryValues { dstV[at] = srcV[i] }
                                }
                                return true
                            }
                        }
                    }
                }
            }
            if moved { inTemp.toggle() }
            shift += digitBits
        }
        if inTemp {
            for i in 0..<count {
                keys[i] = tmpKeys[i]
                if carryValues { values[i] = tmpValues[i] }
            }
        }
    }

    /// Sorts `keys[0..<count]` by their bits from `fromBit` up, ignoring the bits below (keys
    /// that carry their own payload there). Stable.
    static func sort(keys: inout [UInt64], count: Int, fromBit: Int) {
        var none: [UInt32] = []
        sortInPlace(keys: &keys, values: &none, count: count, carryValues: false, fromBit: UInt64(fromBit))
    }

    private static func insertionSort(keys: inout [UInt64], values: inout [UInt32], count: Int,
                                      fromBit: UInt64) {
        for i in 1..<count {
            let key = keys[i]
            let value = values[i]
            var j = i
            while j > 0 && (keys[j - 1] >> fromBit) > (key >> fromBit) {
                keys[j] = keys[j - 1]
                values[j] = values[j - 1]
                j -= 1
            }
            keys[j] = key
            values[j] = value
        }
    }
}
