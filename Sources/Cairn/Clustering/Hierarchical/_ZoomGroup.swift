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
    /// The cell keys of some ids, in list order: a binary search runs over these (a small,
    /// contiguous array) and only the last few steps read item positions, which are scattered.
    var fences: [UInt64]
    /// Where each fence's id lies in `ids`, increasing, the first at 0, none more than
    /// `2 × fenceStride` from the next (or from the end); empty while the fences are those a
    /// build lays, one at every `fenceStride`-th place, so that a build allocates nothing for
    /// them (see `fencePlace`). An edit that moves ids along lists the places first
    /// (`listFencePlaces`) and moves fences with their ids, so that it reads no positions for
    /// the fences of ids that only shifted.
    var fencePlaces: [Int32]

    static let fenceStride = 16

    /// A group whose fences are the keys of every `fenceStride`-th id.
    init(lowZoom: Int, highZoom: Int, grid: _ClusterGrid, ids: [Int32], fences: [UInt64]) {
        assert(fences.count == (ids.count + _ZoomGroup.fenceStride - 1) / _ZoomGroup.fenceStride)
        self.lowZoom = lowZoom
        self.highZoom = highZoom
        self.grid = grid
        self.ids = ids
        self.fences = fences
        self.fencePlaces = []
    }

    /// Where fence `f`'s id lies in `ids`.
    @inline(__always)
    func fencePlace(_ f: Int) -> Int {
        fencePlaces.isEmpty ? f * _ZoomGroup.fenceStride : Int(fencePlaces[f])
    }

    /// Lists every fence's place in `fencePlaces`, for an edit to move them.
    mutating func listFencePlaces() {
        if fencePlaces.isEmpty { fencePlaces = (0..<fences.count).map { Int32($0 * _ZoomGroup.fenceStride) } }
    }

    /// Whether the fences are the keys of every `fenceStride`-th id, as a build leaves them
    /// (and as a saved index stores them).
    var hasEvenFences: Bool {
        fences.count == (ids.count + _ZoomGroup.fenceStride - 1) / _ZoomGroup.fenceStride
            && fences.indices.allSatisfy { fencePlace($0) == $0 * _ZoomGroup.fenceStride }
    }
}
