/// The state of a build's sparse zooms (see `HierarchicalClusterIndex+SparseZooms`): which
/// points may have a neighbour at each zoom, and the counts the phase keeps up to date.
final class _SparseZoomState {
    /// The highest zoom clustered densely; the zooms above it are sparse.
    let denseFrom: Int
    /// How many points may have a point within the radius at each zoom (their nearest point is
    /// within it, or they were not measured), by zoom from the top: at zoom z,
    /// `activeCount[maxZoom - z]`. It decides when the sparse zooms end.
    var activeCount: [Int] = []
    /// The pairs of measured points within the radius at some sparse zoom, as positions
    /// `j << 32 | p`, highest zoom first: those within the radius at zoom z are
    /// `pairs[0 ..< pairEnd[maxZoom - z]]`.
    var pairs: [UInt64] = []
    var pairEnd: [Int] = []
    /// The points not measured (in crowded cells, or past the pairs' limit): their pairs are
    /// not listed, and they search for them at each zoom. Bits by position, and the list.
    let unmeasured: _Bitset
    var unmeasuredPoints: [UInt32] = []
    /// Items visible at the zoom being clustered.
    var visible: Int

    init(denseFrom: Int, count: Int) {
        self.denseFrom = denseFrom
        unmeasured = _Bitset(capacity: count)
        visible = count
    }

    deinit { unmeasured.deallocate() }
}
