/// One visible item during the build (its cell key is kept apart, in `keys`).
struct _ItemRecord {
    /// The float32 position, as supercluster's trees hold it: neighbours are measured to it.
    /// It is also a point's clustering position (a point's position is rounded to float32 when
    /// it is added to the tree, and its clusters' centroids are weighed from that); a cluster's
    /// double centroid is read from the index when needed (`_ClusteringPositions`), so a
    /// record is 16 bytes, four to a cache line, for the passes that stream them.
    var fx: Float
    var fy: Float
    var id: Int32
    /// Processing order (see `HierarchicalClusterIndex+Build`).
    var rank: UInt32

    /// The float32 position in doubles: a point's clustering position.
    @inline(__always) var pointPosition: (x: Double, y: Double) { (Double(fx), Double(fy)) }
}
