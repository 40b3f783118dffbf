/// C2b, Google's non-hierarchical distance-based algorithm (the utility library's default).
/// For the rounded zoom, items are walked in insertion order; each item not yet taken seeds a
/// cluster at its own position, and every item within the square of half-width `distance`
/// points around the seed joins it, unless it already belongs to a cluster whose seed is
/// strictly closer (a tie moves it to the newer seed). Not hierarchical: each zoom is computed
/// on its own.
public struct DistanceClustering: ClusterAlgorithm {
    /// Half-width of the square around a seed, in points at the zoom (256-point tiles).
    public var distance: Double

    public init(distance: Double = 100) throws(CairnError) {
        guard distance.isFinite, distance > 0 else { throw .invalidArgument }
        self.distance = distance
    }

    public func cluster(_ items: ClusterItemPositions, zoom: Double, into result: inout ClusterGroups) {
        result.removeAll()
        let n = items.count
        guard n > 0 else { return }
        let span = distance / (256 * _exp2(Double(_discreteZoom(zoom))))
        let cells = _CellIndex(items, cellSize: 2 * span)
        var taken = [Bool](repeating: false, count: n)
        var owner = [Int32](repeating: -1, count: n)
        var ownerDistance = [Double](repeating: 0, count: n)
        var seeds: [Int32] = []
        for seed in 0..<n where !taken[seed] {
            let sx = items.x[seed], sy = items.y[seed]
            let c = Int32(seeds.count)
            seeds.append(Int32(seed))
            cells.forEach(minX: sx - span, minY: sy - span, maxX: sx + span, maxY: sy + span) { i in
                let dx = items.x[i] - sx, dy = items.y[i] - sy
                guard abs(dx) <= span && abs(dy) <= span else { return }
                let d = dx * dx + dy * dy
                if owner[i] >= 0 && ownerDistance[i] < d { return }
                owner[i] = c
                ownerDistance[i] = d
                taken[i] = true
            }
        }
        // Group members by cluster, keeping insertion order within each.
        var start = [Int32](repeating: 0, count: seeds.count + 1)
        for i in 0..<n { start[Int(owner[i]) + 1] += 1 }
        for c in 0..<seeds.count { start[c + 1] += start[c] }
        var fill = start
        var members = [Int32](repeating: 0, count: n)
        for i in 0..<n {
            let c = Int(owner[i])
            members[Int(fill[c])] = Int32(i)
            fill[c] += 1
        }
        for (c, seed) in seeds.enumerated() {
            result.append(x: items.x[Int(seed)], y: items.y[Int(seed)],
                          members: members[Int(start[c])..<Int(start[c + 1])])
        }
    }
}
