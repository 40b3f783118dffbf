/// C2c, Google's grid algorithm, with its arithmetic: the world at the (rounded) zoom is cut into
/// `cells` × `cells` square cells of `cellSize` points (256-point tiles), counted in Google's map
/// points (`GoogleMapPoint`): columns eastward from -180°, rows northward from the south edge,
/// each item's column and row its map point scaled and truncated toward zero. A cell is keyed
/// `cells · row + column`, so an item at longitude 180 (column `cells`) shares the key of the
/// first cell of the next row, and on the equator with an even cell count an item falls in the
/// row north of it. The items of a key form one cluster, placed at the centre of the cell of its
/// first item (for one at 180°, its column folded back onto the map). Clusters come out in the
/// order of their first item.
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
        let cells = Int64(_ceil(256 * _exp2(Double(_discreteZoom(zoom))) / cellSize))
        let scale = Double(cells)
        var keys = [UInt64](repeating: 0, count: n)
        var order = [UInt32](repeating: 0, count: n)
        func cell(_ i: Int) -> (col: Int64, row: Int64) {
            (GridClustering.truncated(scale * (1 + items.mapX[i]) / 2), GridClustering.truncated(scale * (1 + items.mapY[i]) / 2))
        }
        for i in 0..<n {
            let (col, row) = cell(i)
            // Signed keys, biased so that their order as unsigned is theirs as signed.
            keys[i] = UInt64(bitPattern: cells &* row &+ col) ^ (1 << 63)
            order[i] = UInt32(i)
        }
        // Sorting by key (stable) gathers each cell's items in insertion order.
        RadixSort.sort(keys: &keys, values: &order, count: n)
        // Runs of equal keys are the clusters; emit them in the order of their first item.
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
            let (col, row) = cell(i)
            let centreX = (Double(col) + 0.5) * 2 / scale - 1, centreY = (Double(row) + 0.5) * 2 / scale - 1
            result.append(x: GoogleMapPoint.worldX(centreX), y: GoogleMapPoint.worldY(centreY),
                          members: order[runStart[r]..<runStart[r + 1]].lazy.map { Int32($0) })
        }
    }

    /// A cell coordinate as C's conversion to `long` gives it: toward zero, and beyond its range
    /// (an item at a pole) the nearest end, as the ARM processors Google's library runs on do.
    static func truncated(_ v: Double) -> Int64 {
        if v.isNaN { return 0 }
        if v >= 9.2e18 { return Int64.max }
        if v <= -9.2e18 { return Int64.min }
        return Int64(v)
    }
}
