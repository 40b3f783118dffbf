/// C2b, Google's non-hierarchical distance-based algorithm (the utility library's default), with
/// its arithmetic. For the rounded zoom, items are walked in insertion order; each item not yet
/// taken seeds a cluster at its own position, and every item in the box of half-width
/// `distance` points around the seed joins it, unless it already belongs to a cluster whose seed
/// is strictly closer (a tie moves it to the newer seed). Not hierarchical: each zoom is computed
/// on its own.
///
/// Everything is computed in Google's map points (`GoogleMapPoint`), as Google does: the box is
/// `[fl(px − r), fl(px + r)]` with r = distance · 2 / 2^(zoom + 8) and its edges included, and
/// distances are squared differences of map points, so the same items in the same order give
/// the same clusters, ties included. Items beyond ±85.0511° are not on Google's map: no search
/// finds them, so they are in no cluster, though each still seeds one that nearer items may
/// join (a cluster left with no items is dropped).
public struct DistanceClustering: ClusterAlgorithm {
    /// Half-width of the box around a seed, in points at the zoom (256-point tiles).
    public var distance: Double

    public init(distance: Double = 100) throws(CairnError) {
        guard distance.isFinite, distance > 0 else { throw .invalidArgument }
        self.distance = distance
    }

    public func cluster(_ items: ClusterItemPositions, zoom: Double, into result: inout ClusterGroups) {
        result.removeAll()
        let n = items.count
        guard n > 0 else { return }
        let px = items.mapX, py = items.mapY
        let radius = distance * 2 / _exp2(Double(_discreteZoom(zoom)) + 8)
        let cells = _CellIndex(items, cellSize: 2 * radius)
        var taken = [Bool](repeating: false, count: n)
        var owner = [Int32](repeating: -1, count: n)
        var ownerDistance = [Double](repeating: 0, count: n)
        var seeds: [Int32] = []
        for seed in 0..<n where !taken[seed] {
            let sx = px[seed], sy = py[seed]
            let minX = sx - radius, maxX = sx + radius, minY = sy - radius, maxY = sy + radius
            let c = Int32(seeds.count)
            seeds.append(Int32(seed))
            cells.forEach(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { i in
                let x = px[i], y = py[i]
                guard x <= maxX && x >= minX && y <= maxY && y >= minY else { return }
                taken[i] = true
                let dx = sx - x, dy = sy - y
                let d = dx * dx + dy * dy
                if owner[i] >= 0 && ownerDistance[i] < d { return }
                owner[i] = c
                ownerDistance[i] = d
            }
        }
        // Group members by cluster, keeping insertion order within each; items on no cluster
        // (off the map) are left out, and so are clusters left empty.
        var start = [Int32](repeating: 0, count: seeds.count + 1)
        for i in 0..<n where owner[i] >= 0 { start[Int(owner[i]) + 1] += 1 }
        for c in 0..<seeds.count { start[c + 1] += start[c] }
        var fill = start
        var members = [Int32](repeating: 0, count: Int(start[seeds.count]))
        for i in 0..<n where owner[i] >= 0 {
            let c = Int(owner[i])
            members[Int(fill[c])] = Int32(i)
            fill[c] += 1
        }
        for (c, seed) in seeds.enumerated() where start[c + 1] > start[c] {
            result.append(x: items.x[Int(seed)], y: items.y[Int(seed)],
                          members: members[Int(start[c])..<Int(start[c + 1])])
        }
    }
}
