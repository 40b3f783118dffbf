/// The state of a build's sparse zooms (see `HierarchicalClusterIndex+SparseZooms`): which
/// points may have a neighbour at each zoom, and the counts the phase keeps up to date.
final class _SparseZooms {
    /// The highest zoom clustered densely; the zooms above it are sparse.
    let denseFrom: Int
    /// Per position of the build's sorted points: the highest zoom at which its nearest point
    /// lies within the radius (0 if none above `denseFrom`), an upper bound where a cell
    /// held too many points to measure.
    var activation: [UInt8]
    /// The positions with an activation zoom, highest zoom first: those active at zoom z are
    /// `active[0 ..< activeEnd[maxZoom - z]]`.
    var active: [UInt32] = []
    var activeEnd: [Int] = []
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
        activation = [UInt8](repeating: 0, count: count)
        unmeasured = _Bitset(capacity: count)
        visible = count
    }

    deinit { unmeasured.deallocate() }
}
