/// Animated changes of clustering (feature C5, `animatesClusters`, 0.5 s). Zooming in, what a
/// cluster splits into flies out from where the cluster was; zooming out, what merges flies
/// into the cluster that absorbs it, fading as it goes. Anything drawn at the same place before
/// and after does not move, so surviving clusters are neither redrawn nor re-animated.
///
/// Entities are matched through one member item: a drawn cluster or item is known by a member,
/// and a clustering says where any item is drawn (`_DrawnClustering.position(ofItem:)`).
public struct ClusterTransition {
    var start: Double
    var zoomingIn: Bool
    /// Zooming in: the state before, to find where each new entity comes from.
    var before: _DrawnClustering
    /// Zooming out: what was drawn before and must fly into its new place (on the copy of the
    /// world it was drawn on, counted from the one nearest the target).
    var ghosts: [(item: SceneItem, fromX: Double, fromY: Double, toX: Double, toY: Double, copy: Int)]

    static let duration = 0.5

    func progress(at time: Double) -> Double {
        Easing.easeInOut.apply((time - start) / ClusterTransition.duration)
    }

    func isFinished(at time: Double) -> Bool { time - start >= ClusterTransition.duration }
}
