/// The clustering a manager draws now, as transitions compare it with the one before (see
/// `_DrawnClustering`).
extension ClusterManager {
    /// The state now drawn, for a camera zoom.
    func currentState(cameraZoom: Double) -> _DrawnClustering {
        let asClusters = cameraZoom <= rendering.maximumClusterZoom
        if let index, algorithm == .hierarchical {
            let z = (try? index.limitZoom(cameraZoom)) ?? 0
            return _DrawnClustering(zoom: z, asClusters: asClusters, minimumClusterSize: rendering.minimumClusterSize)
        }
        var state = _DrawnClustering(zoom: groupsZoom ?? 0, asClusters: asClusters,
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
