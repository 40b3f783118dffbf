/// The clustering position of a build's item, from its record: a point's is its float32
/// position (supercluster rounds a point to float32 when it adds it, and weighs centroids from
/// that), a cluster's its double centroid, read from the index's cluster positions. Centroids
/// are weighted means of points' world positions, which lie in 0...1, so they do too (what
/// `_RoundingDoubtBand` relies on). A weighted item heavier than one point stands for a cluster
/// and is placed as one: at its double position (see `+WeightedItems`).
struct _ClusteringPositions {
    let pointCount: Int
    let clusterXY: UnsafeBufferPointer<Double>
    /// Each point's weight, empty unless the index holds weighted items, and the points' positions.
    var weights = UnsafeBufferPointer<UInt32>(start: nil, count: 0)
    var pointXY = UnsafeBufferPointer<Double>(start: nil, count: 0)

    @inline(__always)
    func of(_ e: _ItemRecord) -> (x: Double, y: Double) {
        let i = Int(e.id)
        if i < pointCount {
            if weights.isEmpty || weights[i] == 1 { return e.pointPosition }
            return (pointXY[2 * i], pointXY[2 * i + 1])
        }
        let c = 2 * (i - pointCount)
        return (clusterXY[c], clusterXY[c + 1])
    }
}

/// Whether a float32 index position lies within `r2` (squared) of a clustering position,
/// computed exactly as kdbush's `within` does.
@inline(__always)
func _isWithin(_ x: Float, _ y: Float, _ centre: (x: Double, y: Double), _ r2: Double) -> Bool {
    let dx = Double(x) - centre.x
    let dy = Double(y) - centre.y
    return dx * dx + dy * dy <= r2
}
