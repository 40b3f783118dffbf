/// A square grid over the world (the unit square) whose cells are at least the clustering
/// radius plus float32 rounding wide, so every neighbour of an item lies in the 3×3 cells around
/// it. Cells are as small as that allows (not rounded to a power of two): a 3×3 block then holds
/// about 2.9 times the items of the radius circle instead of up to 11 times.
///
/// The grid of zoom z - 1 has cells exactly twice as wide as that of zoom z (the scale halves,
/// which is exact in floating point), so each cell of the coarser grid is exactly 2×2 cells of
/// the finer one and rows merge pairwise.
struct _ClusterGrid: Equatable {
    /// Cells per world unit.
    let scale: Double

    /// The grid for clustering at `zoom`.
    static func forClustering(_ options: ClusterOptions, zoom: Int) -> _ClusterGrid {
        // A query centre (double) and the float32 position of the same item differ by less than
        // 2^-25; one ulp more keeps every neighbour inside the 3×3 cells.
        let slack = 1.0 / 16_777_216
        let top = 1 / (options.worldRadius(zoom: options.maxZoom) + slack)
        return _ClusterGrid(scale: top / Double(1 << (options.maxZoom - zoom)))
    }

    /// The grid with cells twice as wide.
    var coarser: _ClusterGrid { _ClusterGrid(scale: scale / 2) }

    /// The cell (row or column) of a float32 world coordinate in 0...1.
    @inline(__always)
    func cell(_ v: Float) -> UInt64 {
        let c = Double(v) * scale
        return c > 0 ? UInt64(c) : 0
    }

    /// The cell of a position as `row << 32 | column`: sorting by it sorts by row, then column.
    @inline(__always)
    func key(x: Float, y: Float) -> UInt64 {
        (cell(y) << 32) | cell(x)
    }
}

/// A cell key in the grid with cells twice as wide: row and column both shift by one bit.
@inline(__always)
func _halved(_ key: UInt64) -> UInt64 { ((key >> 33) << 32) | ((key & 0xFFFF_FFFF) >> 1) }
