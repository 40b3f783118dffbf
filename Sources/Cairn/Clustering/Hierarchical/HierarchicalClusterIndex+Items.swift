/// Items: points and clusters under one id space. Ids below `pointCount` are points, in input
/// order; a cluster's id is `pointCount` plus its index in creation order.
extension HierarchicalClusterIndex {
    /// Whether an item id names a cluster (ids below `pointCount` are points).
    @inline(__always)
    func isCluster(_ item: Int32) -> Bool { Int(item) >= pointPositions.count }

    /// The position the spatial index compares against: float32, as in supercluster's trees.
    @inline(__always)
    func indexPosition(_ item: Int32) -> (x: Float, y: Float) {
        let i = Int(item)
        let n = pointPositions.count
        let p = i < n ? pointPositions[i] : clusterPositions[i - n]
        return (Float(p.x), Float(p.y))
    }

    /// The position reported to callers: exact for points, the centroid for clusters.
    @inline(__always)
    func reportedPosition(_ item: Int32) -> (x: Double, y: Double) {
        let i = Int(item)
        let n = pointPositions.count
        return i < n ? pointPositions[i] : clusterPositions[i - n]
    }

    @inline(__always)
    func pointCount(of item: Int32) -> Int {
        let i = Int(item)
        let n = pointPositions.count
        if i < n { return pointWeights.isEmpty ? 1 : Int(pointWeights[i]) }
        return Int(clusterPoints[i - n])
    }

    @inline(__always)
    /// One point of every cluster, by cluster index, found in one pass: a point gives itself to
    /// the cluster that absorbs it, and a cluster passes its point on to its parent (visiting
    /// children first reaches every cluster; a dead slot of a loose storage gets none).
    func oneMemberPerCluster() -> [Int32] {
        let n = pointPositions.count
        var member = [Int32](repeating: -1, count: clusterParent.count)
        for p in 0..<n where pointParent[p] >= 0 && member[Int(pointParent[p]) - n] < 0 {
            member[Int(pointParent[p]) - n] = Int32(p)
        }
        forEachClusterChildrenFirst { c in
            guard clusterParent[c] >= 0, member[c] >= 0 else { return }
            let q = Int(clusterParent[c]) - n
            if member[q] < 0 { member[q] = member[c] }
        }
        return member
    }

    /// The points of each cluster with fewer than `k` points, by cluster index, as a build
    /// with `smallClustersBelow = k` lists them (`smallClusterPoints`), for an index built
    /// without (a restored one): each point climbs through its clusters while they are small
    /// (a parent holds more points than its child, so fewer than `k` steps), counted, then placed.
    func smallClusterPointLists(below k: Int) -> (start: [Int32], points: [Int32]) {
        let n = pointPositions.count, m = clusterParent.count
        var start = [Int32](repeating: 0, count: m + 1)
        var points: [Int32] = []
        pointParent.withUnsafeBufferPointer { pointParent in
            clusterParent.withUnsafeBufferPointer { clusterParent in
                clusterPoints.withUnsafeBufferPointer { clusterPoints in
                    // Counted, then placed: the same climb twice, in the points' order.
                    start.withUnsafeMutableBufferPointer { start in
                        for p in 0..<n {
                            var q = Int(pointParent[p]) - n
                            while q >= 0, Int(clusterPoints[q]) < k {
                                start[q + 1] += 1
                                q = Int(clusterParent[q]) - n
                            }
                        }
                        for c in 0..<m { start[c + 1] += start[c] }
                    }
                    var next = start
                    points = [Int32](repeating: 0, count: Int(start[m]))
                    points.withUnsafeMutableBufferPointer { points in
                        next.withUnsafeMutableBufferPointer { next in
                            for p in 0..<n {
                                var q = Int(pointParent[p]) - n
                                while q >= 0, Int(clusterPoints[q]) < k {
                                    points[Int(next[q])] = Int32(p)
                                    next[q] += 1
                                    q = Int(clusterParent[q]) - n
                                }
                            }
                        }
                    }
                }
            }
        }
        return (start, points)
    }

    /// The item that stands for `item` at integer zoom `z`: the item itself, or the cluster
    /// that has absorbed it by then (clusters formed at zoom Z show at zooms up to Z).
    func representative(of item: Int32, atZoom z: Int) -> Int32 {
        var current = item
        var p = parent(of: current)
        while p >= 0 && Int(clusterZoom[Int(p) - pointPositions.count]) >= z {
            current = p
            p = parent(of: current)
        }
        return current
    }

    func parent(of item: Int32) -> Int32 {
        let i = Int(item)
        let n = pointPositions.count
        return i < n ? pointParent[i] : clusterParent[i - n]
    }

    /// Whether an item is visible at an integer zoom in minZoom...maxZoom+1: from the zoom it
    /// was formed at (points: maxZoom + 1) down to one above the zoom its parent was formed at.
    @inline(__always)
    func isVisible(_ item: Int32, zoom: Int) -> Bool {
        let i = Int(item)
        let n = pointPositions.count
        if zoom > options.maxZoom { return i < n }  // above maxZoom: every point, no cluster
        if i >= n && zoom > Int(clusterZoom[i - n]) { return false }
        let p = Int(i < n ? pointParent[i] : clusterParent[i - n])
        return p < 0 || zoom > Int(clusterZoom[p - n])
    }
}
