/// C2c, Google's grid algorithm: the world at the (rounded) zoom is cut into square cells of
/// `cellSize` points (256-point tiles), and the items of each cell form one cluster placed at
/// the cell's centre. Clusters come out in the order of their first item.
public struct GridClustering: ClusterAlgorithm {
    public var cellSize: Double

    public init(cellSize: Double = 100) throws(CairnError) {
        guard cellSize.isFinite, cellSize >= 1 else { throw .invalidArgument }
        self.cellSize = cellSize
    }

    public func cluster(_ items: ClusterItemPositions, zoom: Double, into result: inout ClusterGroups) {
        result.removeAll()
        let n = items.count
        guard n > 0 else { return }
        let cells = _ceil(256 * _exp2(Double(_discreteZoom(zoom))) / cellSize)
        var keys = [UInt64](repeating: 0, count: n)
        var order = [UInt32](repeating: 0, count: n)
        for i in 0..<n {
            let col = Swift.min(_floor(items.x[i] * cells), cells - 1)
            let row = Swift.min(_floor(items.y[i] * cells), cells - 1)
            keys[i] = UInt64(row) << 32 | UInt64(col)
            order[i] = UInt32(i)
        }
        // Sorting by cell (stable) gathers each cell's items in insertion order.
        RadixSort.sort(keys: &keys, values: &order, count: n)
        // Runs of equal keys are the cells; emit them in the order of their first item.
        var runStart: [Int] = []
        var runOf = [Int32](repeating: 0, count: n)
        for j in 0..<n {
            if j == 0 || keys[j] != keys[j - 1] { runStart.append(j) }
            runOf[Int(order[j])] = Int32(runStart.count - 1)
        }
        runStart.append(n)
        var emitted = [Bool](repeating: false, count: runStart.count)
        for i in 0..<n {
            let r = Int(runOf[i])
            if emitted[r] { continue }
            emitted[r] = true
            let key = keys[runStart[r]]
            let col = Double(key & 0xFFFF_FFFF), row = Double(key >> 32)
            result.append(x: (col + 0.5) / cells, y: (row + 0.5) / cells,
                          members: order[runStart[r]..<runStart[r + 1]].lazy.map { Int32($0) })
        }
    }
}
