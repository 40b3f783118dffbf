/// The orders a frame puts its items in — draw order (zIndex, then screen y) and collision
/// priority (priority, zIndex, then screen y) — by a radix sort of 64-bit keys rather than a
/// comparison sort: thousands of items every frame, where a merge sort with a comparator was the
/// largest single cost of a frame in wasm.
///
/// A key holds the rank of the item's (first, second) pair among the few distinct pairs of the
/// frame (apps use a handful of zIndex and priority values) above its screen y, quantised
/// monotonically. Keys that compare less mean items that compare less; items with equal keys
/// (the same pair, y within a quantum) are then put in order by the full comparator, so the
/// result is exactly the comparator's. Frames with too many distinct pairs say so, and the
/// caller sorts by comparison.
struct _ScreenOrder {
    /// At most this many distinct (first, second) pairs are ranked (beyond: comparison sort).
    static let maxPairs = 64
    private var pairs: [(Double, Double)] = []
    private var pairOf: [Int32] = []
    private var rankOf: [UInt32] = []
    private var keys: [UInt64] = []
    private var scratchKeys: [UInt64] = []
    private var scratchValues: [UInt32] = []

    init() {}

    /// Sorts `order` (item numbers) ascending by (first, second, y), ties by `less`; returns false,
    /// leaving `order` as it was, when the items have more than `maxPairs` distinct pairs.
    /// Inlined into its two callers, so their key closures are too: called through pointers
    /// they were a fifth of a frame of ten thousand markers in wasm.
    @inline(__always)
    mutating func sort(_ order: inout [UInt32], first: (UInt32) -> Double, second: (UInt32) -> Double,
                       y: (UInt32) -> Double, less: (UInt32, UInt32) -> Bool) -> Bool {
        let n = order.count
        if n < 2 { return true }
        pairs.removeAll(keepingCapacity: true)
        pairOf.removeAll(keepingCapacity: true)
        var last = -1
        for k in 0..<n {
            let pair = (first(order[k]), second(order[k]))
            // Runs of one pair are the common case: check the last pair found first.
            if last >= 0 && pairs[last] == pair {
                pairOf.append(Int32(last))
                continue
            }
            var found = -1
            for p in 0..<pairs.count where pairs[p] == pair {
                found = p
                break
            }
            if found < 0 {
                guard pairs.count < _ScreenOrder.maxPairs, pair.0 == pair.0, pair.1 == pair.1 else { return false }
                pairs.append(pair)
                found = pairs.count - 1
            }
            last = found
            pairOf.append(Int32(found))
        }
        rankPairs()
        keys.removeAll(keepingCapacity: true)
        for k in 0..<n {
            keys.append(UInt64(rankOf[Int(pairOf[k])]) << 40 | _ScreenOrder.quantised(y(order[k])))
        }
        if scratchKeys.count < n {
            scratchKeys = [UInt64](repeating: 0, count: n)
            scratchValues = [UInt32](repeating: 0, count: n)
        }
        keys.withUnsafeMutableBufferPointer { k in
            order.withUnsafeMutableBufferPointer { v in
                scratchKeys.withUnsafeMutableBufferPointer { sk in
                    scratchValues.withUnsafeMutableBufferPointer { sv in
                        RadixSort.sort(k.baseAddress!, v.baseAddress!, count: n, scratch: sk.baseAddress!, sv.baseAddress!)
                    }
                }
            }
        }
        // Runs of equal keys: in order by the comparator (insertion sort; runs are short).
        var start = 0
        while start < n {
            var end = start + 1
            while end < n && keys[end] == keys[start] { end += 1 }
            if end - start > 1 {
                for i in (start + 1)..<end {
                    let v = order[i]
                    var j = i
                    while j > start && less(v, order[j - 1]) {
                        order[j] = order[j - 1]
                        j -= 1
                    }
                    order[j] = v
                }
            }
            start = end
        }
        return true
    }

    /// `rankOf[p]`: the place of pair p among the distinct pairs, in ascending order.
    private mutating func rankPairs() {
        let m = pairs.count
        var sorted = [Int](0..<m)
        for i in 1..<Swift.max(m, 1) {
            let v = sorted[i]
            var j = i
            while j > 0 && (pairs[sorted[j - 1]].0 > pairs[v].0 ||
                            (pairs[sorted[j - 1]].0 == pairs[v].0 && pairs[sorted[j - 1]].1 > pairs[v].1)) {
                sorted[j] = sorted[j - 1]
                j -= 1
            }
            sorted[j] = v
        }
        rankOf.removeAll(keepingCapacity: true)
        rankOf.append(contentsOf: repeatElement(0, count: m))
        for (rank, p) in sorted.enumerated() { rankOf[p] = UInt32(rank) }
    }

    /// Screen y as 40 bits, monotonic: 1/256 px steps over about ±2·10⁹ px, clamped beyond (and
    /// NaN at the bottom); items that round together are ordered by the comparator. The offset
    /// puts y = 0 in the middle of a 16,384-px span whose keys differ only in their low 22
    /// bits, so a frame's keys differ in two of the radix sort's digits, not four.
    @inline(__always)
    static func quantised(_ y: Double) -> UInt64 {
        let v = (y + 2_147_491_840) * 256   // 2³¹ + 8,192 px
        if !(v > 0) { return 0 }
        return v >= 1_099_511_627_775 ? 1_099_511_627_775 : UInt64(v)
    }
}
