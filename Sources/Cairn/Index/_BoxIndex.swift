/// A static index of boxes in world coordinates for box queries: the boxes sorted along a
/// Z-order curve of their centres, sixteen to a node with the box around them, sixteen nodes
/// to a node above, up to one root. Built once per clustering, queried every frame, so a
/// frame visits the boxes near the view rather than all of them.
struct _BoxIndex {
    static let nodeSize = 16
    /// Box numbers in curve order.
    private var order: [UInt32] = []
    /// The boxes in curve order, four doubles each: minX, minY, maxX, maxY.
    private var boxes: [Double] = []
    /// The nodes' boxes, level by level from the one above the boxes up to the root; level l
    /// starts at node `levelStart[l]`.
    private var nodes: [Double] = []
    private var levelStart: [Int] = []

    init() {}

    /// Indexes `count` boxes, each given by number (finite bounds).
    init(count n: Int, box: (Int) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)) {
        if n == 0 { return }
        var keys = [UInt64](repeating: 0, count: n)
        order = [UInt32](repeating: 0, count: n)
        for i in 0..<n {
            let b = box(i)
            keys[i] = _BoxIndex.curveKey(x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2)
            order[i] = UInt32(i)
        }
        RadixSort.sort(keys: &keys, values: &order, count: n)
        boxes = [Double](repeating: 0, count: 4 * n)
        for k in 0..<n {
            let b = box(Int(order[k]))
            boxes[4 * k] = b.minX
            boxes[4 * k + 1] = b.minY
            boxes[4 * k + 2] = b.maxX
            boxes[4 * k + 3] = b.maxY
        }
        // Each level's boxes around sixteen of the level below, until one holds everything.
        var below = boxes, count = n
        repeat {
            levelStart.append(nodes.count / 4)
            let parents = (count + _BoxIndex.nodeSize - 1) / _BoxIndex.nodeSize
            var level = [Double](repeating: 0, count: 4 * parents)
            for p in 0..<parents {
                var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
                for c in (p * _BoxIndex.nodeSize)..<Swift.min((p + 1) * _BoxIndex.nodeSize, count) {
                    minX = Swift.min(minX, below[4 * c])
                    minY = Swift.min(minY, below[4 * c + 1])
                    maxX = Swift.max(maxX, below[4 * c + 2])
                    maxY = Swift.max(maxY, below[4 * c + 3])
                }
                level[4 * p] = minX
                level[4 * p + 1] = minY
                level[4 * p + 2] = maxX
                level[4 * p + 3] = maxY
            }
            nodes.append(contentsOf: level)
            below = level
            count = parents
        } while count > 1
    }

    /// The box around every box (nil when there are none).
    var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        guard !nodes.isEmpty else { return nil }
        let r = 4 * (nodes.count / 4 - 1)
        return (nodes[r], nodes[r + 1], nodes[r + 2], nodes[r + 3])
    }

    /// A position along the Z-order curve of a point of the unit square (16 bits a side).
    private static func curveKey(x: Double, y: Double) -> UInt64 {
        func cell(_ v: Double) -> UInt64 {
            let c = v * 65_536
            return c >= 65_535 ? 65_535 : (c > 0 ? UInt64(c) : 0)
        }
        func spread(_ v: UInt64) -> UInt64 {
            var v = v & 0xFFFF
            v = (v | (v << 8)) & 0x00FF_00FF
            v = (v | (v << 4)) & 0x0F0F_0F0F
            v = (v | (v << 2)) & 0x3333_3333
            return (v | (v << 1)) & 0x5555_5555
        }
        return spread(cell(x)) | spread(cell(y)) << 1
    }

    /// Calls `body` with the number of every box that meets `q` (edges included), in no
    /// particular order.
    func forEach(meeting q: (minX: Double, minY: Double, maxX: Double, maxY: Double), _ body: (Int) -> Void) {
        if order.isEmpty { return }
        let size = _BoxIndex.nodeSize, count = order.count
        boxes.withUnsafeBufferPointer { boxes in
            nodes.withUnsafeBufferPointer { nodes in
                @inline(__always)
                func meets(_ b: UnsafeBufferPointer<Double>, _ i: Int) -> Bool {
                    b[4 * i] <= q.maxX && b[4 * i + 2] >= q.minX && b[4 * i + 1] <= q.maxY && b[4 * i + 3] >= q.minY
                }
                // Nodes to visit, as (level, node within the level).
                withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: size * (levelStart.count + 1)) { stack in
                    stack[0] = (levelStart.count - 1, 0)
                    var top = 1
                    while top > 0 {
                        top -= 1
                        let (level, node) = stack[top]
                        let first = node * size
                        if level == 0 {
                            for k in first..<Swift.min(first + size, count) where meets(boxes, k) { body(Int(order[k])) }
                            continue
                        }
                        let start = levelStart[level - 1], end = levelStart[level]
                        for c in first..<Swift.min(first + size, end - start) where meets(nodes, start + c) {
                            stack[top] = (level - 1, c)
                            top += 1
                        }
                    }
                }
            }
        }
    }
}
