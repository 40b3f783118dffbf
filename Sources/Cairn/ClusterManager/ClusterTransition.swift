/// Animated changes of clustering (SPEC C5, `animatesClusters`, 0.5 s). Zooming in, what a
/// cluster splits into flies out from where the cluster was; zooming out, what merges flies
/// into the cluster that absorbs it, fading as it goes. Anything drawn at the same place before
/// and after does not move, so surviving clusters are neither redrawn nor re-animated.
///
/// Entities are matched through one member item: a drawn cluster or item is known by a member,
/// and a clustering says where any item is drawn (`_ClusterState.position(ofItem:)`).
public struct ClusterTransition {
    var start: Double
    var zoomingIn: Bool
    /// Zooming in: the state before, to find where each new entity comes from.
    var before: _ClusterState
    /// Zooming out: what was drawn before and must fly into its new place (on the copy of the
    /// world it was drawn on, counted from the one nearest the target).
    var ghosts: [(item: SceneItem, fromX: Double, fromY: Double, toX: Double, toY: Double, copy: Int)]

    static let duration = 0.5

    func progress(at time: Double) -> Double {
        Easing.easeInOut.apply((time - start) / ClusterTransition.duration)
    }

    func isFinished(at time: Double) -> Bool { time - start >= ClusterTransition.duration }
}

/// One clustering as drawn: which items show as a cluster and where.
struct _ClusterState {
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
    /// found by following parents from there — a step or two, where from the point up it took
    /// one scattered read per zoom it was merged at, for every item of every transition frame.
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

extension ClusterManager {
    /// The state now drawn, for a camera zoom.
    func currentState(cameraZoom: Double) -> _ClusterState {
        let asClusters = cameraZoom <= rendering.maximumClusterZoom
        if let index, algorithm == .hierarchical {
            let z = (try? index.limitZoom(cameraZoom)) ?? 0
            return _ClusterState(zoom: z, asClusters: asClusters, minimumClusterSize: rendering.minimumClusterSize)
        }
        var state = _ClusterState(zoom: groupsZoom ?? 0, asClusters: asClusters,
                                  minimumClusterSize: rendering.minimumClusterSize)
        state.groupOfItem = [Int32](repeating: 0, count: snapshot.count)
        for g in 0..<groups.count {
            for member in groups.members(of: g) { state.groupOfItem[Int(member)] = Int32(g) }
            state.groupX.append(groups.x[g])
            state.groupY.append(groups.y[g])
            state.groupSize.append(Int32(groups.size(of: g)))
        }
        return state
    }
}
