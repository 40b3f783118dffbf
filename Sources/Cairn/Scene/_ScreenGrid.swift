/// A uniform grid over the screen holding item numbers by the cells their bounds cover, for
/// collisions and taps: a small open-addressing table from cell to a linked list of items,
/// rebuilt each frame (no Swift Dictionary, whose hashing Embedded Swift avoids).
struct _ScreenGrid {
    let cellSize: Double
    /// Items by cell, cells found by key in a flat open-addressing table (no hashing of
    /// Swift's, which Embedded Swift avoids).
    private var keys: [Int64] = []
    private var heads: [Int32] = []
    private var next: [Int32] = []
    private var values: [Int32] = []
    private var used = 0

    init(cellSize: Double) {
        self.cellSize = cellSize
        keys = [Int64](repeating: Int64.min, count: 256)
        heads = [Int32](repeating: -1, count: 256)
    }

    private func cellRange(_ b: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> (Int64, Int64, Int64, Int64)? {
        guard b.minX.isFinite, b.minY.isFinite, b.maxX.isFinite, b.maxY.isFinite else { return nil }
        // Off-screen items far away are clamped into a band of cells: still correct, just slower.
        func cell(_ v: Double) -> Int64 { Int64(_floor((v < -1e6 ? -1e6 : (v > 1e6 ? 1e6 : v)) / cellSize)) }
        let c0 = cell(b.minX), r0 = cell(b.minY)
        // Icons are at most a few thousand pixels: cap the span so no box can cost millions.
        return (c0, r0, Swift.min(cell(b.maxX), c0 + 128), Swift.min(cell(b.maxY), r0 + 128))
    }

    private static func key(_ col: Int64, _ row: Int64) -> Int64 { row << 32 ^ (col & 0xFFFF_FFFF) }

    private func slot(_ key: Int64) -> Int {
        var h = UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        return Int(h & UInt64(keys.count - 1))
    }

    private func find(_ key: Int64) -> Int {
        var i = slot(key)
        while keys[i] != Int64.min && keys[i] != key { i = (i + 1) & (keys.count - 1) }
        return i
    }

    private mutating func grow() {
        let oldKeys = keys, oldHeads = heads
        keys = [Int64](repeating: Int64.min, count: oldKeys.count * 2)
        heads = [Int32](repeating: -1, count: oldKeys.count * 2)
        for (i, k) in oldKeys.enumerated() where k != Int64.min {
            let j = find(k)
            keys[j] = k
            heads[j] = oldHeads[i]
        }
    }

    mutating func insert(_ item: Int32, _ bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)) {
        guard let (c0, r0, c1, r1) = cellRange(bounds) else { return }
        for r in r0...r1 {
            for c in c0...c1 {
                if 2 * (used + 1) > keys.count { grow() }
                let k = _ScreenGrid.key(c, r)
                let i = find(k)
                if keys[i] == Int64.min {
                    keys[i] = k
                    used += 1
                }
                values.append(item)
                next.append(heads[i])
                heads[i] = Int32(values.count - 1)
            }
        }
    }

    /// Visits the items whose cells meet the bounds (an item may come more than once).
    func forEach(near bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double), _ body: (Int32) -> Void) {
        guard let (c0, r0, c1, r1) = cellRange(bounds) else { return }
        for r in r0...r1 {
            for c in c0...c1 {
                let i = find(_ScreenGrid.key(c, r))
                guard keys[i] != Int64.min else { continue }
                var e = heads[i]
                while e >= 0 {
                    body(values[Int(e)])
                    e = next[Int(e)]
                }
            }
        }
    }
}
