/// One clustering as drawn: which items show as a cluster and where.
struct _DrawnClustering {
    /// The hierarchical index's integer zoom, or the screen-space groups' zoom.
    var zoom: Int
    /// Whether groups large enough were drawn as clusters (camera zoom ≤ maximumClusterZoom).
    var asClusters: Bool
    var minimumClusterSize: Int
    /// Screen-space groups: each item's group, and the groups' positions and sizes.
    var groupOfItem: [Int32] = []
    var groupX: [Double] = []
    var groupY: [Double] = []
    var groupSize: [Int32] = []

    /// Where an item of the snapshot is drawn in this state: at its cluster, or on its own.
    /// `drawnAs` is what holds it where it is drawn now (hierarchical: its cluster or itself,
    /// -1 when not known): a state's zoom is never above the one drawn, so its cluster there is
    /// found by following parents from there: a step or two, where climbing from the point
    /// would take a scattered read per zoom it was merged at, for every item of every
    /// transition frame.
    func position(ofItem i: Int, drawnAs node: Int32 = -1, manager m: ClusterManager) -> (x: Double, y: Double) {
        if let index = m.index, m.algorithm == .hierarchical {
            let rep = index.representative(of: node >= 0 ? node : Int32(i), atZoom: zoom)
            if asClusters && index.isCluster(rep) && index.pointCount(of: rep) >= minimumClusterSize {
                return index.reportedPosition(rep)
            }
        } else if i < groupOfItem.count {
            let g = Int(groupOfItem[i])
            if asClusters && Int(groupSize[g]) >= minimumClusterSize { return (groupX[g], groupY[g]) }
        }
        return (m.snapshot[i].x, m.snapshot[i].y)
    }
}
