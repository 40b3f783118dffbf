/// The orders a frame puts its items in — draw order (zIndex, then screen y) and collision
/// priority (priority, zIndex, then screen y), each then by kind, owner and id — by radix sorts
/// of 64-bit keys rather than a comparison sort: thousands of items every frame, where a merge
/// sort with a comparator was the largest single cost of a frame in wasm.
///
/// A key holds the rank of the item's (first, second) pair among the few distinct pairs of the
/// frame (apps use a handful of zIndex and priority values) above its screen y, quantised
/// monotonically and finely. Keys that compare less mean items that compare less; items with
/// equal keys (the same pair, rows within a quantum: an item's copies of the world, items piled
/// on one point) are then put in order by their exact row, kind, owner and id, read once into
/// lists of their own: a short run by insertion, a long one by one radix sort per field. The
/// result is exactly the comparator's, equal items keeping their order. Frames with too many
/// distinct pairs say so, and the caller sorts by comparison.
struct _ScreenOrder {
    /// At most this many distinct (first, second) pairs are ranked (beyond: comparison sort).
    static let maxPairs = 64
    /// Runs of equal keys up to this long are put in order by insertion, longer ones by radix.
    static let insertionRun = 16

    /// What orders items of one pair and row: ascending kind (as the caller ranks kinds),
    /// owner, then id.
    struct Tie: Equatable {
        var kind: Int32
        var owner: Int32
        var id: Int64
    }

    private var pairs: [(Double, Double)] = []
    private var pairOf: [Int32] = []
    private var rankOf: [UInt32] = []
    private var keys: [UInt64] = []
    private var scratchKeys: [UInt64] = []
    private var scratchValues: [UInt32] = []
    /// Each listed item's exact row and tie, by item number.
    private var rows: [Double] = []
    private var ties: [Tie] = []
    /// The items sorted (those that follow none), and whether each item follows the one before.
    private var leaders: [UInt32] = []
    private var follows: [Bool] = []

    init() {}

    /// Sorts `order` (item numbers) ascending by (first, second, y, tie), equal items keeping
    /// their order; returns false, leaving `order` as it was, when the items have more than
    /// `maxPairs` distinct pairs. Inlined into its two callers, so their key closures are too:
    /// called through pointers they were a fifth of a frame of ten thousand markers in wasm.
    ///
    /// An item equal to the one before it in `order` whose number follows that one's (an item
    /// on the next copy of the world) is not sorted: it stays behind the one it follows, where
    /// a stable sort leaves it (no other item equal to both can come between them). At the
    /// lowest zooms that halves what the sort moves.
    @inline(__always)
    mutating func sort(_ order: inout [UInt32], first: (UInt32) -> Double, second: (UInt32) -> Double,
                       y: (UInt32) -> Double, tie: (UInt32) -> Tie) -> Bool {
        let n = order.count
        if n < 2 { return true }
        var items = 0
        for k in 0..<n { items = Swift.max(items, Int(order[k]) + 1) }
        if rows.count < items {
            rows = [Double](repeating: 0, count: items)
            ties = [Tie](repeating: Tie(kind: 0, owner: 0, id: 0), count: items)
            follows = [Bool](repeating: false, count: items)
        }
        if scratchKeys.count < n {
            scratchKeys = [UInt64](repeating: 0, count: n)
            scratchValues = [UInt32](repeating: 0, count: n)
        }
        pairs.removeAll(keepingCapacity: true)
        pairOf.removeAll(keepingCapacity: true)
        leaders.removeAll(keepingCapacity: true)
        // One pass over the items reads all the sort needs of them.
        let complete = rows.withUnsafeMutableBufferPointer { rows in
            ties.withUnsafeMutableBufferPointer { ties in
                follows.withUnsafeMutableBufferPointer { follows in
                    var last = -1
                    var previous = (item: UInt32(0), pair: (0.0, 0.0), row: 0.0, tie: Tie(kind: 0, owner: 0, id: 0))
                    for k in 0..<n {
                        let i = order[k]
                        // -0 and 0 are one row, as the comparators have it.
                        let row = y(i) + 0, t = tie(i), pair = (first(i), second(i))
                        if k > 0 && i == previous.item &+ 1 && row == previous.row && t == previous.tie && pair == previous.pair {
                            follows[Int(i)] = true
                            previous.item = i
                            continue
                        }
                        previous = (i, pair, row, t)
                        rows[Int(i)] = row
                        ties[Int(i)] = t
                        leaders.append(i)
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
                            guard pairs.count < _ScreenOrder.maxPairs, pair.0 == pair.0, pair.1 == pair.1 else {
                                for j in 0..<n { follows[Int(order[j])] = false }
                                return false
                            }
                            pairs.append(pair)
                            found = pairs.count - 1
                        }
                        last = found
                        pairOf.append(Int32(found))
                    }
                    return true
                }
            }
        }
        if !complete { return false }
        rankPairs()
        let m = leaders.count
        keys.removeAll(keepingCapacity: true)
        keys.append(contentsOf: repeatElement(0, count: m))
        rows.withUnsafeBufferPointer { rows in
            ties.withUnsafeBufferPointer { ties in
                keys.withUnsafeMutableBufferPointer { k in
                    leaders.withUnsafeMutableBufferPointer { v in
                        scratchKeys.withUnsafeMutableBufferPointer { sk in
                            scratchValues.withUnsafeMutableBufferPointer { sv in
                                for j in 0..<m {
                                    k[j] = UInt64(rankOf[Int(pairOf[j])]) << 52 | _ScreenOrder.quantised(rows[Int(v[j])])
                                }
                                RadixSort.sort(k.baseAddress!, v.baseAddress!, count: m, scratch: sk.baseAddress!,
                                               sv.baseAddress!)
                                _ScreenOrder.orderRuns(keys: k.baseAddress!, order: v.baseAddress!, count: m,
                                                       rows: rows.baseAddress!, ties: ties.baseAddress!,
                                                       scratch: sk.baseAddress!, sv.baseAddress!)
                            }
                        }
                    }
                }
            }
        }
        // Each sorted item, then those that follow it.
        leaders.withUnsafeBufferPointer { sorted in
            follows.withUnsafeMutableBufferPointer { follows in
                order.withUnsafeMutableBufferPointer { out in
                    var k = 0
                    for j in 0..<m {
                        var i = Int(sorted[j])
                        out[k] = UInt32(i)
                        k += 1
                        i += 1
                        while i < items && follows[i] {
                            follows[i] = false
                            out[k] = UInt32(i)
                            k += 1
                            i += 1
                        }
                    }
                }
            }
        }
        return true
    }

    /// Puts each run of equal keys in order by exact row, then tie. The run's keys are spent on
    /// the way (each run's end is found before its keys are overwritten).
    private static func orderRuns(keys: UnsafeMutablePointer<UInt64>, order: UnsafeMutablePointer<UInt32>, count n: Int,
                                  rows: UnsafePointer<Double>, ties: UnsafePointer<Tie>,
                                  scratch: UnsafeMutablePointer<UInt64>, _ scratchValues: UnsafeMutablePointer<UInt32>) {
        var start = 0
        while start < n {
            var end = start + 1
            while end < n && keys[end] == keys[start] { end += 1 }
            let count = end - start
            if count > insertionRun {
                // Least significant field first; each sort keeps the order of the one before
                // among equal values, so the run ends up by (row, kind, owner, id).
                let run = order + start, runKeys = keys + start
                for field in 0..<4 {
                    for j in 0..<count {
                        let i = Int(run[j]), t = ties[i]
                        switch field {
                        case 0: runKeys[j] = UInt64(bitPattern: t.id) ^ (1 << 63)
                        case 1: runKeys[j] = UInt64(UInt32(bitPattern: t.owner) ^ 0x8000_0000)
                        case 2: runKeys[j] = UInt64(UInt32(bitPattern: t.kind) ^ 0x8000_0000)
                        default: runKeys[j] = _ScreenOrder.orderedBits(rows[i])
                        }
                    }
                    RadixSort.sort(runKeys, run, count: count, scratch: scratch, scratchValues)
                }
            } else if count > 1 {
                var i = start + 1
                while i < end {
                    let v = order[i]
                    var j = i
                    while j > start && below(v, order[j - 1], rows, ties) {
                        order[j] = order[j - 1]
                        j -= 1
                    }
                    order[j] = v
                    i += 1
                }
            }
            start = end
        }
    }

    /// Whether item a comes before item b by row, then tie.
    @inline(__always)
    private static func below(_ a: UInt32, _ b: UInt32, _ rows: UnsafePointer<Double>, _ ties: UnsafePointer<Tie>) -> Bool {
        let ra = rows[Int(a)], rb = rows[Int(b)]
        if ra != rb { return ra < rb }
        let ta = ties[Int(a)], tb = ties[Int(b)]
        if ta.kind != tb.kind { return ta.kind < tb.kind }
        if ta.owner != tb.owner { return ta.owner < tb.owner }
        return ta.id < tb.id
    }

    /// A double's bits as an unsigned key in the double's order (no NaN; -0 made 0 before).
    @inline(__always)
    static func orderedBits(_ v: Double) -> UInt64 {
        let b = v.bitPattern
        return b >> 63 == 0 ? b | (1 << 63) : ~b
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

    /// Screen y as 52 bits, monotonic: 2⁻²⁰ px steps (about what a double holds at 2³¹ px) over
    /// about ±2·10⁹ px, clamped beyond (and NaN at the bottom), so items share a key only when
    /// their rows agree to a millionth of a pixel: an item's copies of the world, items piled
    /// on one point. The offset puts -512…1,536 px (a view and its margins) in one aligned span
    /// of 2,048 px whose keys differ only in their low 31 bits: three of the radix sort's digits.
    @inline(__always)
    static func quantised(_ y: Double) -> UInt64 {
        let v = (y + 2_147_484_160) * 1_048_576   // (2³¹ + 512 px) · 2²⁰
        if !(v > 0) { return 0 }
        return v >= 4_503_599_627_370_495 ? 4_503_599_627_370_495 : UInt64(v)
    }
}
