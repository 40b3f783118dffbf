/// World positions of points or of clusters, x and y side by side so that reading one item's
/// position costs one cache miss, not two (queries read positions in scattered order).
struct _WorldPositions {
    private(set) var xy: [Double] = []

    init() {}

    /// Positions from x and y side by side (a saved index's).
    init(xy: [Double]) {
        assert(xy.count % 2 == 0)
        self.xy = xy
    }

    var count: Int { xy.count >> 1 }
    var capacity: Int { xy.capacity >> 1 }

    mutating func reserveCapacity(_ n: Int) { xy.reserveCapacity(2 * n) }

    mutating func append(_ x: Double, _ y: Double) {
        xy.append(x)
        xy.append(y)
    }

    /// Appends positions from a collection of them, with room made once and then written in place.
    mutating func append<C: Collection>(contentsOf positions: C) where C.Element == (Double, Double) {
        let start = xy.count
        xy.append(contentsOf: repeatElement(0, count: 2 * positions.count))
        xy.withUnsafeMutableBufferPointer { out in
            var k = start
            for (x, y) in positions {
                out[k] = x
                out[k + 1] = y
                k += 2
            }
        }
    }

    /// Drops the last `n` positions, keeping the room (an edit appends and drops clusters).
    mutating func removeLast(_ n: Int) { xy.removeLast(2 * n) }

    mutating func set(_ i: Int, _ x: Double, _ y: Double) {
        xy[2 * i] = x
        xy[2 * i + 1] = y
    }

    @inline(__always)
    subscript(i: Int) -> (x: Double, y: Double) { (xy[2 * i], xy[2 * i + 1]) }
}
