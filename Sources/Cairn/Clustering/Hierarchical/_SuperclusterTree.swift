/// The items visible at one zoom, laid out as supercluster's k-d tree lays out its data (kdbush
/// with nodes of 64 and float32 coordinates), so that box and radius searches list them in the
/// order supercluster lists them.
///
/// The order of a search's results is a property of the layout: the items start in data order
/// (rank order); each node is split at its middle index by a Floyd–Rivest selection on one
/// axis (x, then y, alternating), whose exact sequence of swaps decides where equal and
/// near-equal items land; and a search walks the nodes depth first from a stack, the upper
/// half of a node before the lower one, each node's middle item before its halves. All three
/// are reproduced step for step here; any other arrangement gives the same sets in another
/// order.
struct _SuperclusterTree {
    /// Item ids, in layout order.
    private(set) var items: [Int32]
    /// Float32 positions, x and y interleaved, in layout order.
    private(set) var coords: [Float]

    static let nodeSize = 64

    /// Lays out items given in data order with their float32 positions (interleaved).
    init(dataOrder items: [Int32], coords: [Float]) {
        assert(coords.count == 2 * items.count)
        self.items = items
        self.coords = coords
        if items.count > 1 {
            self.items.withUnsafeMutableBufferPointer { ids in
                self.coords.withUnsafeMutableBufferPointer { xy in
                    _SuperclusterTree.sort(ids, xy, 0, ids.count - 1, 0)
                }
            }
        }
    }

    var count: Int { items.count }

    // MARK: Layout

    private static func sort(_ ids: UnsafeMutableBufferPointer<Int32>, _ xy: UnsafeMutableBufferPointer<Float>,
                             _ left: Int, _ right: Int, _ axis: Int) {
        if right - left <= nodeSize { return }
        let m = (left + right) >> 1
        select(ids, xy, m, left, right, axis)
        sort(ids, xy, left, m - 1, 1 - axis)
        sort(ids, xy, m + 1, right, 1 - axis)
    }

    /// Rearranges `left...right` so that the item at `k` is the one a full sort on `axis` would
    /// put there, smaller ones before it and larger ones after: Floyd–Rivest selection, which
    /// first narrows large ranges to a sample around `k`.
    private static func select(_ ids: UnsafeMutableBufferPointer<Int32>, _ xy: UnsafeMutableBufferPointer<Float>,
                               _ k: Int, _ left0: Int, _ right0: Int, _ axis: Int) {
        var left = left0, right = right0
        while right > left {
            if right - left > 600 {
                let n = Double(right - left + 1)
                let m = Double(k - left + 1)
                let z = _log(n)
                let s = 0.5 * _exp(2 * z / 3)
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                let newLeft = max(left, Int(_floor(Double(k) - m * s / n + sd)))
                let newRight = min(right, Int(_floor(Double(k) + (n - m) * s / n + sd)))
                select(ids, xy, k, newLeft, newRight, axis)
            }
            let t = xy[2 * k + axis]
            var i = left
            var j = right
            swapItems(ids, xy, left, k)
            if xy[2 * right + axis] > t { swapItems(ids, xy, left, right) }
            while i < j {
                swapItems(ids, xy, i, j)
                i += 1
                j -= 1
                while xy[2 * i + axis] < t { i += 1 }
                while xy[2 * j + axis] > t { j -= 1 }
            }
            if xy[2 * left + axis] == t {
                swapItems(ids, xy, left, j)
            } else {
                j += 1
                swapItems(ids, xy, j, right)
            }
            if j <= k { left = j + 1 }
            if k <= j { right = j - 1 }
        }
    }

    @inline(__always)
    private static func swapItems(_ ids: UnsafeMutableBufferPointer<Int32>, _ xy: UnsafeMutableBufferPointer<Float>,
                                  _ i: Int, _ j: Int) {
        ids.swapAt(i, j)
        xy.swapAt(2 * i, 2 * j)
        xy.swapAt(2 * i + 1, 2 * j + 1)
    }

    // MARK: Searches

    /// Calls `body` with every item whose position lies in the rectangle (inclusive, compared
    /// in double precision), in supercluster's order.
    func forEach(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int32) -> Void) {
        walk({ x, y in x >= minX && x <= maxX && y >= minY && y <= maxY },
             lower: { axis, x, y in axis == 0 ? minX <= x : minY <= y },
             upper: { axis, x, y in axis == 0 ? maxX >= x : maxY >= y }, body)
    }

    /// Calls `body` with every item within `r` of (qx, qy), in supercluster's order.
    func forEach(within r: Double, of qx: Double, _ qy: Double, _ body: (Int32) -> Void) {
        let r2 = r * r
        walk({ x, y in
                let dx = x - qx, dy = y - qy
                return dx * dx + dy * dy <= r2 },
             lower: { axis, x, y in axis == 0 ? qx - r <= x : qy - r <= y },
             upper: { axis, x, y in axis == 0 ? qx + r >= x : qy + r >= y }, body)
    }

    /// The depth-first walk both searches share: `lower` and `upper` say whether the search
    /// reaches below or above a node's middle item on the node's axis.
    @inline(__always)
    private func walk(_ inside: (Double, Double) -> Bool, lower: (Int, Double, Double) -> Bool,
                      upper: (Int, Double, Double) -> Bool, _ body: (Int32) -> Void) {
        if items.isEmpty { return }
        items.withUnsafeBufferPointer { ids in
            coords.withUnsafeBufferPointer { xy in
                // Each node pushed takes 3 entries; the tree is at most 32 levels deep.
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * 64) { stack in
                    stack[0] = 0
                    stack[1] = ids.count - 1
                    stack[2] = 0
                    var sp = 3
                    while sp > 0 {
                        let axis = stack[sp - 1], right = stack[sp - 2], left = stack[sp - 3]
                        sp -= 3
                        if right - left <= _SuperclusterTree.nodeSize {
                            for i in left...right where inside(Double(xy[2 * i]), Double(xy[2 * i + 1])) { body(ids[i]) }
                            continue
                        }
                        let m = (left + right) >> 1
                        let x = Double(xy[2 * m]), y = Double(xy[2 * m + 1])
                        if inside(x, y) { body(ids[m]) }
                        if lower(axis, x, y) {
                            stack[sp] = left; stack[sp + 1] = m - 1; stack[sp + 2] = 1 - axis
                            sp += 3
                        }
                        if upper(axis, x, y) {
                            stack[sp] = m + 1; stack[sp + 1] = right; stack[sp + 2] = 1 - axis
                            sp += 3
                        }
                    }
                }
            }
        }
    }
}
