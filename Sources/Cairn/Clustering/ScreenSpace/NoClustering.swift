/// C2d: every item on its own.
public struct NoClustering: ClusterAlgorithm {
    public init() {}

    public func cluster(_ items: ClusterItemPositions, zoom: Double, into result: inout ClusterGroups) {
        result.removeAll()
        for i in 0..<items.count {
            result.append(x: items.x[i], y: items.y[i], members: CollectionOfOne(Int32(i)))
        }
    }
}
