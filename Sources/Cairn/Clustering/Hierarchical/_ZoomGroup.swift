/// The spatial index of a run of consecutive zooms whose visible items barely change.
///
/// `ids` holds every item visible at any zoom in `lowZoom...highZoom`, sorted by grid cell
/// (row, then column) of its float32 position. A rectangle query walks the rows it covers,
/// finds the first column in each by binary search, and keeps the items inside the rectangle
/// that are visible at the zoom asked. Zooms are grouped while the extra items (visible in the
/// group but not at its lowest zoom) stay under a quarter, so a query never reads much more
/// than it returns while a zoom whose clustering changed little costs no memory of its own.
struct _ZoomGroup {
    var lowZoom: Int
    var highZoom: Int
    var grid: _ClusterGrid
    var ids: [Int32]
    /// The cell key of every `fenceStride`-th id: a binary search runs over these (a small,
    /// contiguous array) and only the last few steps read item positions, which are scattered.
    var fences: [UInt64]

    static let fenceStride = 16

    init(lowZoom: Int, highZoom: Int, grid: _ClusterGrid, ids: [Int32], fences: [UInt64]) {
        assert(fences.count == (ids.count + _ZoomGroup.fenceStride - 1) / _ZoomGroup.fenceStride)
        self.lowZoom = lowZoom
        self.highZoom = highZoom
        self.grid = grid
        self.ids = ids
        self.fences = fences
    }
}
