/// Supercluster-compatible hierarchical greedy clustering (feature C2a), precomputed for every zoom
/// from `minZoom` to `maxZoom + 1`.
///
/// Life cycle: add points (one, or many from a buffer of longitude/latitude pairs), then
/// `build()` (or `buildStep()` zoom by zoom, for progress), then query. Cluster membership at
/// every zoom equals supercluster's, and so do cluster ids and the order of query results
/// (see `+SuperclusterIDs` and `+SuperclusterOrder`); the reference fixtures check them.
///
/// Storage is flat and shared between zooms: every point and every cluster is stored once, with
/// the range of zooms in which it is visible, and the spatial index keeps one sorted id list per
/// group of zooms whose contents barely change (see `_ZoomGroup`). That keeps a million points
/// well under 100 bytes per point, where a tree per zoom would take several hundred.
public final class HierarchicalClusterIndex {
    public let options: ClusterOptions

    // Points, by input index. Positions are the exact projection (reported positions and
    // tile coordinates); clustering uses their float32 rounding, as supercluster does.
    var pointPositions = _WorldPositions()
    var pointParent: [Int32] = []     // item id of the cluster that absorbs the point, or -1
    /// Points removed by edits, a bit per point (empty while none is): their ids stay taken,
    /// and they belong to no zoom (see `+Edits`).
    var removedPoints: [UInt64] = []
    var removedPointCount = 0
    /// Each point's weight when the index was given weighted items (`add(weightedItems:)`),
    /// empty while every point counts one.
    var pointWeights: [UInt32] = []
    /// The weights' sum, while the index holds weighted items.
    var totalWeight = 0

    // Clusters, by creation order ("cluster index"). A cluster's item id is pointCount + index.
    var clusterPositions = _WorldPositions()   // weighted centroids
    var clusterPoints: [UInt32] = []   // number of points inside
    var clusterParent: [Int32] = []
    var clusterZoom: [UInt8] = []     // zoom it was formed at: the highest zoom it is visible at
    // supercluster's numbering, filled once built (see `+SuperclusterIDs`): each cluster's rank,
    // where its seed stood in the data of the zoom above, each zoom's clusters by seed position
    // (`clustersBySeed`), and where each zoom's run of that list starts (`zoomClusterStart`).
    // While the storage is not loose (below), the runs are also the zooms' blocks of clusters.
    var clusterRank: [UInt32] = []
    var clusterSeedPosition: [UInt32] = []
    /// Seed position changes of edits laid out in place, by zoom (index zoom - minZoom), not yet
    /// applied to `clusterSeedPosition` (empty: none); read positions through `seedPosition`.
    var pendingSeedShifts: [_PendingSeedShifts] = []
    var zoomClusterStart: [Int] = []
    var clustersBySeed: [Int32] = []
    /// Whether an edit laid its clusters out in place (`+EditInPlace`): clusters it made stored
    /// after the others whatever their zoom, those it dissolved left as dead slots, so cluster
    /// indices no longer follow zoom order. Laying the storage out afresh (`compactStorage`)
    /// puts it back in order.
    var storageIsLoose = false
    /// The dead slots of a loose storage, a bit per cluster index (empty while none is): no item
    /// refers to them and no list holds them.
    var deadClusters: [UInt64] = []
    var deadClusterCount = 0
    /// Each level's visible ranks, kept by edits laid out in place (nil until one is).
    var levelRanks: _LevelRanks? = nil
    /// supercluster's tree of each zoom, laid out when a query first needs it (`+SuperclusterOrder`).
    var superclusterTrees: [_SuperclusterTree?] = []
    /// With minPoints > 2, supercluster's data order depends on its searches (see
    /// `+SuperclusterOrder`), so the build records it: each zoom's items in data order, by zoom
    /// slot (maxZoom + 1, every point in input order, is not stored), and each cluster's seed
    /// position as the greedy pass found it.
    var superclusterDataOrder: [[Int32]] = []
    var builtSeedPositions: [UInt32] = []

    var groups: [_ZoomGroup] = []
    var aggregates: [_AggregateColumn] = []

    /// When above 0 (set before building), the build lists the points of every cluster with
    /// fewer points than this, as it forms them: `smallClusterPoints`. Cluster managers draw
    /// such clusters as their items every frame (GMU's minimum cluster size); listing them
    /// afterwards would mean a climb from every point through scattered parents.
    var smallClustersBelow = 0
    /// The points of each small cluster, by cluster index: `points[start[c] ..< start[c + 1]]`
    /// (empty for the others), in increasing point order.
    var smallClusterPoints: (start: [Int32], points: [Int32]) = ([0], [])
    var builder: _ClusterBuild? = nil
    /// Whether zooms are clustered in space order where the data allows (see
    /// `+SpaceOrder`); tests turn it off to compare with the greedy pass.
    var useSpaceOrder = true
    /// When set, the build clusters densely from this zoom down, sparsely above (see
    /// `+SparsePlan`), instead of the zoom it estimates; tests set it to exercise both.
    var denseFromZoomOverride: Int? = nil
    /// How many zooms the build clustered with the greedy pass (tests check the choice).
    var greedyZooms = 0
    /// How many items the space-order sweep measured again to their absorbers' clustering
    /// positions, the float32 ones having left a pair in doubt (tests check it happens).
    var itemsMeasuredExactly = 0
    /// How many points the sparse zooms searched for their pairs, rather than take them as the
    /// plan measured them (tests check both ways).
    var searchedSparsePoints = 0
    /// How many zooms' new clusters (two or more) took the radix sort, not the faster sort by
    /// their seeds' rows (`_sortNearReferenceRows`); tests check which way is taken.
    var radixSortedClusterZooms = 0
    /// How many items must be gone from the build's buffers before it gives their room back
    /// (`_ClusterBuild.releaseGoneItems`), and how many times it did; tests lower the first to
    /// release at every zoom.
    var releaseItemRoomFrom = 16_384
    var itemRoomReleases = 0
    /// The most edits in one batch that are repaired in place; more are applied by building
    /// afresh (`+Edits`). Nil: one per 1,000 points held (at least one); tests set it to take
    /// either way.
    var editRepairLimit: Int? = nil
    /// The item reads a repair may make before it stops and builds afresh (`+Edits`). Nil: four
    /// per point held, and 65,536; tests lower it to stop repairs midway.
    var editReadBudget: Int? = nil
    /// Whether a repair's decisions read the seeds by cell (`_CellSeeds`) rather than search.
    /// Nil: where a search of the same cell read more than 256 items; tests set it to take
    /// either way throughout.
    var editSeedsByCell: Bool? = nil
    /// How many repairs stopped for their budget (tests check both ways are taken).
    var stoppedRepairs = 0
    /// Edits laid out in place (`+EditInPlace`), for tests and benchmarks.
    var editsLaidOutInPlace = 0
    /// The most dead slots a loose storage keeps before an edit lays it out afresh. Nil: an
    /// eighth of the clusters; tests set it to take either way.
    var deadSlotLimit: Int? = nil
    var state: State = .adding

    enum State { case adding, building, built }

    /// Creates an empty index; throws if an option is out of range.
    public init(options: ClusterOptions = ClusterOptions()) throws(CairnError) {
        try options.validate()
        self.options = options
    }

    /// The number of points added.
    public var pointCount: Int { pointPositions.count }

    /// How many of the points added the index placed other than given: a longitude wrapped, a
    /// latitude clamped (see `placedBounds`).
    public internal(set) var pointsPlacedElsewhere = 0

    /// The number of clusters formed over all zooms (0 before `build()`).
    public var clusterCount: Int { clusterPositions.count - deadClusterCount }

    /// Whether `build()` has finished, so queries may be made.
    public var isBuilt: Bool { state == .built }

    /// Largest number of points one index holds: item ids are 32-bit (points plus clusters),
    /// and a 32-bit WebAssembly module has 4 GiB for everything.
    public static let maximumPointCount = Int.bitWidth == 32 ? 1 << 24 : 1 << 29

    /// Makes room for `count` more points, so that adding them does not reallocate. Throws if
    /// the index cannot hold or build that many (see `add(lngLat:)`).
    public func reserveCapacity(_ count: Int) throws(CairnError) {
        guard state == .adding else { throw .invalidState }
        guard count >= 0 else { throw .invalidArgument }
        try checkRoom(for: count)
        if pointPositions.count == 0 && count > pointPositions.capacity {
            // A load of known size: its memory in one growth, before its points are written.
            // Each growth of a WebAssembly memory can cost the host a full garbage collection
            // (V8 counts the whole memory again), which is long beside a page's data already in
            // the JS heap; the build then allocates in what this prepared.
            _AddressSpace.prepareHeap(forAllocating: loadBytes(pointCount: count))
        }
        pointPositions.reserveCapacity(pointPositions.count + count)
    }

    /// Throws unless the memory left can build the points added: other indexes and buffers
    /// may have taken memory since they were added, and a failed allocation during the build
    /// would trap a WebAssembly module.
    public func checkBuildRoom() throws(CairnError) {
        guard state == .adding else { return }
        if Int64(pointPositions.count) * _AddressSpace.buildBytesPerPoint > _AddressSpace.remaining {
            throw .outOfMemory(points: pointPositions.count)
        }
    }

    /// Throws unless `count` more points fit in one index and in the memory left to store
    /// and build them.
    func checkRoom(for count: Int) throws(CairnError) {
        guard count <= HierarchicalClusterIndex.maximumPointCount - pointPositions.count else { throw .tooManyPoints }
        let total = Int64(pointPositions.count + count)
        let unreserved = Int64(max(0, pointPositions.count + count - pointPositions.capacity))
        if unreserved * 16 + total * _AddressSpace.buildBytesPerPoint > _AddressSpace.remaining {
            throw .outOfMemory(points: count)
        }
    }

    /// Adds one point. Longitudes outside -180...180 wrap; latitudes beyond ±90 and non-finite
    /// coordinates are rejected.
    public func add(longitude: Double, latitude: Double) throws(CairnError) {
        guard state == .adding, !isWeighted else { throw .invalidState }
        let index = pointPositions.count
        try HierarchicalClusterIndex.check(longitude: longitude, latitude: latitude, index: index)
        try checkRoom(for: 1)
        let (x, y) = HierarchicalClusterIndex.project(longitude: longitude, latitude: latitude)
        pointPositions.append(x, y)
        if HierarchicalClusterIndex.placesElsewhere(longitude: longitude, latitude: latitude) { pointsPlacedElsewhere += 1 }
    }

    /// Adds `lngLat.count / 2` points from longitude/latitude pairs. Every pair is checked first:
    /// on an error nothing is added, and the error names the first bad point by its index in
    /// the whole index (points added before plus its position here).
    public func add(lngLat: UnsafeBufferPointer<Double>) throws(CairnError) {
        guard state == .adding, !isWeighted else { throw .invalidState }
        guard lngLat.count % 2 == 0 else { throw .invalidArgument }
        let first = pointPositions.count
        let n = lngLat.count / 2
        try checkRoom(for: n)
        var elsewhere = 0
        for i in 0..<n {
            try HierarchicalClusterIndex.check(longitude: lngLat[2 * i], latitude: lngLat[2 * i + 1], index: first + i)
            if HierarchicalClusterIndex.placesElsewhere(longitude: lngLat[2 * i], latitude: lngLat[2 * i + 1]) { elsewhere += 1 }
        }
        pointsPlacedElsewhere += elsewhere
        // All at once, written in place: an append per point would go through this class's
        // property each time, at about the cost of projecting the point.
        pointPositions.append(contentsOf: (0..<n).lazy.map { i in
            HierarchicalClusterIndex.project(longitude: lngLat[2 * i], latitude: lngLat[2 * i + 1])
        })
    }

    /// Adds points already in world coordinates (as `WebMercator` gives them, in 0...1: the
    /// build relies on it, see `_RoundingDoubtBand`), for cluster managers that keep their items
    /// projected.
    func add(worldX: [Double], worldY: [Double]) throws(CairnError) {
        guard state == .adding, !isWeighted else { throw .invalidState }
        assert(zip(worldX, worldY).allSatisfy { $0.0 >= 0 && $0.0 <= 1 && $0.1 >= 0 && $0.1 <= 1 })
        try checkRoom(for: worldX.count)
        pointPositions.reserveCapacity(pointPositions.count + worldX.count)
        for i in 0..<worldX.count { pointPositions.append(worldX[i], worldY[i]) }
    }

    static func check(longitude: Double, latitude: Double, index: Int) throws(CairnError) {
        guard longitude.isFinite && latitude.isFinite else { throw .nonFiniteCoordinate(index: index) }
        guard latitude >= -90 && latitude <= 90 else { throw .latitudeOutOfRange(index: index) }
    }

    /// A point's world position: its longitude wrapped into the world, its latitude clamped.
    @inline(__always)
    static func project(longitude: Double, latitude: Double) -> (Double, Double) {
        (WebMercator.x(longitude: WebMercator.wrapLongitude(longitude)), WebMercator.y(latitude: latitude))
    }
}
