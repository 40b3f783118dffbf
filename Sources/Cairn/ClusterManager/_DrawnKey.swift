/// What identifies the clustering drawn: its zoom, whether clusters show, and the clustering.
struct _DrawnKey: Equatable {
    var zoom: Int
    var asClusters: Bool
    var generation: Int64
}
