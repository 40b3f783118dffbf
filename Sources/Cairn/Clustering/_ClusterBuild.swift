/// The working state of `HierarchicalClusterIndex.build()`: the items visible at the zoom being
/// clustered, sorted by grid row then x (so each item's possible neighbours lie in three
/// contiguous runs), plus scratch arrays reused from zoom to zoom. It is dropped when the build
/// ends.
///
/// The large per-item arrays are raw buffers allocated once for the whole build: the hot loops
/// read and write them without bounds checks or copy-on-write, and they are never reallocated.
final class _ClusterBuild {
    /// The next zoom to cluster (it goes down from maxZoom to minZoom).
    var zoom: Int
    /// Visible items: id and clustering position, sorted by `_rowKey` at `cellBits`.
    let ids: UnsafeMutablePointer<Int32>
    let xs: UnsafeMutablePointer<Double>
    let ys: UnsafeMutablePointer<Double>
    /// Per position: 0 not yet visited, 1 kept for the next zoom, 2 absorbed into a cluster.
    let marks: UnsafeMutablePointer<UInt8>
    let capacity: Int
    var count: Int = 0
    var cellBits: Int

    // Items with at least one neighbour: their position, where their three candidate runs
    // start, and their rank order.
    var activePos: [UInt32] = []
    var activeStarts: [UInt32] = []
    var sortKeys: [UInt64] = []
    var sortValues: [UInt32] = []

    /// Clusters formed at this zoom (cluster indices), and every item absorbed at this zoom.
    var newClusters: [Int32] = []
    var absorbed: [Int32] = []

    /// The zoom group being gathered: its highest zoom, and the items that stopped being
    /// visible inside it (they belong to the group but are no longer in `ids`).
    var groupHighZoom: Int
    var groupExtra: [Int32] = []

    // Scratch for merging two runs of rows.
    var runIDs: [Int32] = []
    var runXs: [Double] = []
    var runYs: [Double] = []

    init(zoom: Int, capacity: Int, cellBits: Int, groupHighZoom: Int) {
        self.zoom = zoom
        self.capacity = capacity
        let c = capacity > 0 ? capacity : 1
        ids = UnsafeMutablePointer<Int32>.allocate(capacity: c)
        xs = UnsafeMutablePointer<Double>.allocate(capacity: c)
        ys = UnsafeMutablePointer<Double>.allocate(capacity: c)
        marks = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        self.cellBits = cellBits
        self.groupHighZoom = groupHighZoom
    }

    deinit {
        ids.deallocate()
        xs.deallocate()
        ys.deallocate()
        marks.deallocate()
    }

    @inline(__always)
    func row(_ p: Int) -> Int { _cell(Float(ys[p]), cellBits: cellBits) }

    @inline(__always)
    func column(_ p: Int) -> Int { _cell(Float(xs[p]), cellBits: cellBits) }

    /// Row and column packed so that comparing keys compares (row, column).
    @inline(__always)
    func cellKey(_ p: Int) -> UInt64 { (UInt64(row(p)) << 32) | UInt64(column(p)) }

    @inline(__always)
    func key(_ p: Int, cellBits bits: Int) -> UInt64 {
        _rowKey(x: Float(xs[p]), y: Float(ys[p]), cellBits: bits)
    }

    /// Whether the float32 index position of `p` lies within `r2` (squared) of the clustering
    /// position of `q`, computed exactly as kdbush's `within` does.
    @inline(__always)
    func isNeighbour(_ p: Int, of q: Int, r2: Double) -> Bool {
        let dx = Double(Float(xs[p])) - xs[q]
        let dy = Double(Float(ys[p])) - ys[q]
        return dx * dx + dy * dy <= r2
    }

    /// The three runs of positions in the 3×3 cells around `q` (rows above, same, below), as
    /// half-open ranges, given where each run starts. Each run is contiguous because positions
    /// are sorted by (row, x); it ends at the first position past column + 1 or off the row.
    @inline(__always)
    func candidateRuns(of q: Int, starts: (Int, Int, Int)) -> (Range<Int>, Range<Int>, Range<Int>) {
        let r = row(q), c = column(q)
        return (starts.0..<runEnd(starts.0, row: r - 1, lastColumn: c + 1),
                starts.1..<runEnd(starts.1, row: r, lastColumn: c + 1),
                starts.2..<runEnd(starts.2, row: r + 1, lastColumn: c + 1))
    }

    @inline(__always)
    private func runEnd(_ start: Int, row r: Int, lastColumn: Int) -> Int {
        var p = start
        while p < count && row(p) == r && column(p) <= lastColumn { p += 1 }
        return p
    }
}
