/// What a pass needs of the index, through raw buffers: clustering positions and point counts
/// of earlier clusters, and the parent links it sets.
struct _ItemAccess {
    let positions: _ClusteringPositions
    let points: UnsafeBufferPointer<UInt32>
    let pointParent: UnsafeMutableBufferPointer<Int32>
    let clusterParent: UnsafeMutableBufferPointer<Int32>

    var pointCount: Int { positions.pointCount }

    @inline(__always)
    func pointCount(_ item: Int32) -> Int {
        let i = Int(item)
        if i < pointCount { return positions.weights.isEmpty ? 1 : Int(positions.weights[i]) }
        return Int(points[i - pointCount])
    }

    @inline(__always)
    func clusteringPosition(_ e: _ItemRecord) -> (x: Double, y: Double) { positions.of(e) }

    @inline(__always)
    func setParent(of item: Int32, _ parent: Int32) {
        let i = Int(item)
        if i < pointCount { pointParent[i] = parent } else { clusterParent[i - pointCount] = parent }
    }
}
