/// A set of items clustered together for the screen (feature C1): items are added one by one or
/// in bulk, removed, moved, cleared; `cluster()` takes the items as they are then, and only
/// then does the drawing change (Google's rule), except `clear`, which empties the map at once.
///
/// Items keep insertion order (Google's algorithms depend on it): removed items leave gaps that
/// are squeezed out when the manager next clusters.
public final class ClusterManager {
    public private(set) var algorithm: ClusterAlgorithmKind
    public var rendering: ClusterRendering
    /// Items by slot: id, world position, icon, text flags (`ClusterItemText`), and whether
    /// still present.
    var ids: [Int64] = []
    var worldX: [Double] = []
    var worldY: [Double] = []
    /// Google's map points of the items (`GoogleMapPoint`), what the screen-space algorithms
    /// compute in; empty for the hierarchical algorithm, which does not use them.
    var mapX: [Double] = []
    var mapY: [Double] = []
    var icons: [Int32] = []
    var text: [UInt8] = []
    var alive: [Bool] = []
    /// Aggregated properties (C9): their operations, and each item's values (slot-major,
    /// `aggregateOperations.count` per item; NaN for none).
    public private(set) var aggregateOperations: [AggregateOperation] = []
    var values: [Double] = []
    var nextID: Int64 = 1
    public private(set) var count = 0

    /// What `cluster()` took: the items in order, and (screen-space algorithms) their positions
    /// as the algorithms take them.
    var snapshot: [_ClusteredItem] = []
    var snapshotPositions = ClusterItemPositions()
    /// The hierarchical index of the snapshot (hierarchical algorithm only), and one point of
    /// each of its clusters (for transitions).
    var index: HierarchicalClusterIndex?
    /// A hierarchical index being built (`beginCluster`), shown once `clusterStep` finishes it,
    /// and the items it is built from (items may change between steps; they wait for the next
    /// clustering, as any change does).
    var pending: HierarchicalClusterIndex?
    var pendingItems: (ids: [Int64], x: [Double], y: [Double], icons: [Int32], values: [Double])?
    /// The slots the latest hierarchical clustering (shown or being built) was made of: its
    /// point i is slot i. Moves and removals of those slots since are listed in `changedSlots`,
    /// and slots past it were added since, so the next clustering can edit the index in place
    /// (`ClusterManager+IndexEdits`) when `indexIsEditable`: the index shown is the manager's
    /// own and made of those slots (not adopted, not waiting for a build to finish).
    var clusteredSlots = 0
    var changedSlots: [Int32] = []
    var indexIsEditable = false
    /// The snapshot's item values, as `values` (C9), and each screen-space group's aggregates
    /// (group-major), computed once per grouping: icons ask for them every frame.
    var snapshotValues: [Double] = []
    var groupAggregates: [Double] = []
    var clusterMember: [Int32] = []
    /// The points of the clusters smaller than `smallBelow` points (drawn as their items).
    var smallStart: [Int32] = []
    var smallPoints: [Int32] = []
    var smallBelow = 0
    /// Screen-space groups of the snapshot and the zoom they were made for (other algorithms).
    var groups = ClusterGroups()
    var groupsZoom: Int?
    /// The box around each group and its items, indexed, for the clustering `generation` it
    /// was made for (see `ClusterManager+Scene`), and the groups a frame finds in it.
    var groupIndex = (generation: Int64(-1), boxes: _BoxIndex())
    var groupMarks: [UInt64] = []
    /// A zoom the camera moved to, and since when: clusters follow it once the camera has held
    /// still for `reclusterDelay` (C6); and the camera the manager last saw.
    var pendingZoom: (zoom: Int, since: Double)?
    var lastCamera: CameraPosition?
    /// Bumped by every re-clustering, so ids of screen-space clusters from before are refused.
    var generation: Int64 = 0
    /// The cluster spread out around its centre, if any (C10).
    public internal(set) var spiderfied: Spiderfy?
    /// Animate changes of clustering (C5, on by default).
    public var animatesClusters = ClusterManager.animatesByDefault
    public static let animatesByDefault = true
    /// Items lie flat on the map under tilt and turn with it, as flat markers do; clusters face
    /// the screen either way. Off by default: items stand upright, as markers do.
    public var flatItems = false
    /// How this frame draws items (set as a frame's entities are collected, from `flatItems`).
    var itemLie = _uprightIcon
    /// What was drawn last frame, for transitions (C5).
    var lastKey: _DrawnKey?
    var lastState: _DrawnClustering?
    var lastDrawn: [Drawn] = []
    /// The buffer of the frame before last, reused for the next frame's list: a few thousand
    /// entities a frame would otherwise grow a new array from empty every frame.
    var spareDrawn: [Drawn] = []
    public internal(set) var transition: ClusterTransition?

    /// Seconds the camera must hold before screen-space clusters are recomputed for a new
    /// rounded zoom (GMU).
    public static let reclusterDelay = 0.2

    public init(algorithm: ClusterAlgorithmKind, rendering: ClusterRendering = ClusterRendering()) throws(CairnError) {
        self.algorithm = algorithm
        self.rendering = try rendering.validated()
    }

    // MARK: Items

    /// The hierarchical algorithm's options (C2a), from the next clustering; `invalidOption`
    /// names one out of range (the radius also stays within 0…4096).
    public func setHierarchy(_ options: ClusterOptions) throws(CairnError) {
        var r = rendering
        r.hierarchy = options
        rendering = try r.validated()
    }

    /// Declares the aggregated properties clusters report (C9), before any item is added.
    public func setAggregates(_ operations: [AggregateOperation]) throws(CairnError) {
        guard ids.isEmpty else { throw .invalidState }
        guard operations.count <= ClusterManager.maximumAggregates else { throw .invalidArgument }
        aggregateOperations = operations
    }

    /// At most this many aggregated properties per manager.
    public static let maximumAggregates = 16

    /// Adds items at longitude/latitude pairs with an icon each (-1: the default pin), whether
    /// each has a title or snippet (`ClusterItemText` bits; empty for none at all) and, for the
    /// aggregated properties, `values` (item-major, NaN for none; empty for none at all);
    /// returns the first new id (the others follow it by one). All or none.
    public func add(latitudes: [Double], longitudes: [Double], icons itemIcons: [Int32], text itemText: [UInt8] = [],
                    values itemValues: [Double] = []) throws(CairnError) -> Int64 {
        let k = aggregateOperations.count
        guard latitudes.count == longitudes.count, itemIcons.count == latitudes.count,
              itemText.isEmpty || itemText.count == latitudes.count,
              itemValues.isEmpty || itemValues.count == k * latitudes.count else { throw .invalidArgument }
        for i in 0..<itemIcons.count where itemIcons[i] < MarkerProperties.defaultPin { throw .invalidArgument }
        for t in itemText where t & ~ClusterItemText.all != 0 { throw .invalidArgument }
        return try append(latitudes.count, latitude: { latitudes[$0] }, longitude: { longitudes[$0] },
                          icon: { itemIcons[$0] }, text: { itemText.isEmpty ? 0 : itemText[$0] },
                          value: { itemValues.isEmpty ? .nan : itemValues[$0] })
    }

    /// Adds items from records [longitude, latitude, then one value per aggregated property
    /// (NaN for none)], all with `icon`: the bulk path, read straight from the host's buffer
    /// (without aggregates, plain pairs). Such items have no title or snippet. Returns the
    /// first new id; all or none.
    public func add(lngLat: UnsafeBufferPointer<Double>, icon: Int32) throws(CairnError) -> Int64 {
        let k = aggregateOperations.count, stride = 2 + k
        guard lngLat.count % stride == 0, icon >= MarkerProperties.defaultPin else { throw .invalidArgument }
        return try append(lngLat.count / stride, latitude: { lngLat[stride * $0 + 1] }, longitude: { lngLat[stride * $0] },
                          icon: { _ in icon }, text: { _ in 0 },
                          value: { lngLat[stride * ($0 / Swift.max(1, k)) + 2 + $0 % Swift.max(1, k)] })
    }

    /// Checks `n` items (positions by index, aggregated values item-major by index: finite or
    /// NaN), then appends them; returns the first new id. Inlined into both callers, so the
    /// accessors are too (a million items per call).
    @inline(__always)
    private func append(_ n: Int, latitude: (Int) -> Double, longitude: (Int) -> Double,
                        icon: (Int) -> Int32, text itemText: (Int) -> UInt8,
                        value: (Int) -> Double) throws(CairnError) -> Int64 {
        // More than the manager holds is refused before any of it is read.
        guard count + n <= MarkerStore.capacity else { throw .tooManyItems(limit: MarkerStore.capacity) }
        for i in 0..<n {
            let lat = latitude(i), lng = longitude(i)
            guard lat.isFinite, lng.isFinite else { throw .nonFiniteCoordinate(index: i) }
            guard lat >= -90, lat <= 90 else { throw .latitudeOutOfRange(index: i) }
        }
        let k = aggregateOperations.count
        for j in 0..<(n * k) where value(j).isInfinite { throw .nonFiniteValue(index: j / k) }
        // Room for a large batch at once (a million appends to growing arrays copy them about
        // twenty times), but still doubling, so items added one by one stay linear.
        let total = ids.count + n
        if total > ids.capacity {
            let room = Swift.max(total, 2 * ids.capacity)
            ids.reserveCapacity(room)
            worldX.reserveCapacity(room)
            worldY.reserveCapacity(room)
            if usesMapPoints {
                mapX.reserveCapacity(room)
                mapY.reserveCapacity(room)
            }
            icons.reserveCapacity(room)
            text.reserveCapacity(room)
            alive.reserveCapacity(room)
        }
        let first = nextID
        for j in 0..<(n * aggregateOperations.count) { values.append(value(j)) }
        for i in 0..<n {
            ids.append(nextID)
            nextID += 1
            let lng = WebMercator.wrapLongitude(longitude(i)), lat = latitude(i)
            worldX.append(WebMercator.x(longitude: lng))
            worldY.append(WebMercator.y(latitude: lat))
            if usesMapPoints {
                mapX.append(GoogleMapPoint.x(longitude: lng))
                mapY.append(GoogleMapPoint.y(latitude: lat))
            }
            icons.append(icon(i))
            text.append(itemText(i))
            alive.append(true)
        }
        count += n
        return first
    }

    /// The slot of a present item; `unknownMarker` for anything else (ids only grow, so a
    /// binary search over the slots finds it).
    func slot(of id: Int64) throws(CairnError) -> Int {
        let s = _lowerBound(ids, id)
        guard s < ids.count, ids[s] == id, alive[s] else { throw .unknownMarker(id: id) }
        return s
    }

    /// Whether the item in a slot has a title or a snippet: its info window has something to show.
    func hasText(slot: Int) -> Bool { text[slot] != 0 }

    /// An item's `ClusterItemText` bits.
    public func text(of id: Int64) throws(CairnError) -> UInt8 { text[try slot(of: id)] }

    /// An item's icon (-1: the default pin).
    public func icon(of id: Int64) throws(CairnError) -> Int32 { icons[try slot(of: id)] }

    public func remove(_ id: Int64) throws(CairnError) {
        let s = try slot(of: id)
        alive[s] = false
        count -= 1
        noteChange(slot: s)
    }

    public func move(_ id: Int64, latitude: Double, longitude: Double) throws(CairnError) {
        let s = try slot(of: id)
        guard latitude.isFinite, longitude.isFinite, latitude >= -90, latitude <= 90 else { throw .invalidArgument }
        let lng = WebMercator.wrapLongitude(longitude)
        worldX[s] = WebMercator.x(longitude: lng)
        worldY[s] = WebMercator.y(latitude: latitude)
        if usesMapPoints {
            mapX[s] = GoogleMapPoint.x(longitude: lng)
            mapY[s] = GoogleMapPoint.y(latitude: latitude)
        }
        noteChange(slot: s)
    }

    /// Removes every item and, unlike other changes, clears the drawing at once.
    public func clear() {
        ids.removeAll()
        worldX.removeAll()
        worldY.removeAll()
        mapX.removeAll()
        mapY.removeAll()
        icons.removeAll()
        text.removeAll()
        alive.removeAll()
        values.removeAll()
        count = 0
        snapshot.removeAll()
        snapshotPositions = ClusterItemPositions()
        snapshotValues.removeAll()
        index = nil
        pending = nil
        pendingItems = nil
        groups = ClusterGroups()
        groupsZoom = nil
        generation += 1
        spiderfied = nil
        clusteredSlots = 0
        changedSlots.removeAll()
        indexIsEditable = false
    }

    /// Takes the items as they are now and clusters them (the hierarchical index for every
    /// zoom; the other algorithms for `zoom`).
    public func cluster(zoom: Double) throws(CairnError) {
        var left = try beginCluster(zoom: zoom)
        while left > 0 { left = clusterStep() }
    }

    /// Starts clustering the items as they are now and returns the steps left (one per zoom of
    /// the hierarchical index; 0 when already done, as for the other algorithms). Until the
    /// last `clusterStep`, frames keep showing the previous clustering, so a host can build a
    /// million items' hierarchy a zoom at a time without freezing its page.
    public func beginCluster(zoom: Double) throws(CairnError) -> Int {
        pending = nil
        pendingItems = nil
        if try editIndex() { return 0 }
        indexIsEditable = false
        // The screen-space snapshot shares the item arrays: let go of it before they are
        // written, or the squeeze would copy them all (it is taken again below).
        if usesMapPoints { snapshotPositions = ClusterItemPositions() }
        // Squeeze out removed items, keeping order.
        var kept = 0
        let k = aggregateOperations.count
        for s in 0..<ids.count where alive[s] {
            ids[kept] = ids[s]
            worldX[kept] = worldX[s]
            worldY[kept] = worldY[s]
            if usesMapPoints {
                mapX[kept] = mapX[s]
                mapY[kept] = mapY[s]
            }
            icons[kept] = icons[s]
            text[kept] = text[s]
            alive[kept] = true
            for c in 0..<k { values[kept * k + c] = values[s * k + c] }
            kept += 1
        }
        values.removeLast(values.count - kept * k)
        ids.removeLast(ids.count - kept)
        worldX.removeLast(worldX.count - kept)
        worldY.removeLast(worldY.count - kept)
        mapX.removeLast(mapX.count - (usesMapPoints ? kept : 0))
        mapY.removeLast(mapY.count - (usesMapPoints ? kept : 0))
        icons.removeLast(icons.count - kept)
        text.removeLast(text.count - kept)
        alive.removeLast(alive.count - kept)
        clusteredSlots = kept
        changedSlots.removeAll()
        guard algorithm == .hierarchical else {
            takeSnapshot(ids: ids, x: worldX, y: worldY, icons: icons, values: values)
            snapshotPositions = ClusterItemPositions(x: worldX, y: worldY, mapX: mapX, mapY: mapY)
            regroup(zoom: _discreteZoom(zoom))
            return 0
        }
        let built = try HierarchicalClusterIndex(options: rendering.hierarchy)
        built.smallClustersBelow = rendering.minimumClusterSize
        try built.add(worldX: worldX, worldY: worldY)
        pending = built
        pendingItems = (ids, worldX, worldY, icons, values)
        return clusterStep()
    }

    /// Clusters the next zoom of a clustering `beginCluster` started; returns the steps left.
    /// The last step puts the new clustering in place. Does nothing (0) when none is under way.
    public func clusterStep() -> Int {
        guard let built = pending, let items = pendingItems else { return 0 }
        let left = built.buildStep()
        if left > 0 { return left }
        pending = nil
        pendingItems = nil
        takeSnapshot(ids: items.ids, x: items.x, y: items.y, icons: items.icons, values: items.values)
        let k = aggregateOperations.count
        for (c, operation) in aggregateOperations.enumerated() {
            let column = (0..<items.ids.count).map { items.values[$0 * k + c] }
            _ = column.withUnsafeBufferPointer { try? built.addAggregate(operation, values: $0) }
        }
        index = built
        indexIsEditable = aggregateOperations.isEmpty
        showClusters(of: built)
        return 0
    }

    /// What the drawing reads of the index besides its queries: one point of each cluster, and
    /// the points of the clusters drawn as their items.
    func showClusters(of built: HierarchicalClusterIndex) {
        clusterMember = built.oneMemberPerCluster()
        smallBelow = built.smallClustersBelow
        (smallStart, smallPoints) = built.smallClusterPoints
    }

    /// Replaces the items with the points of a built hierarchical index (one restored from a
    /// saved index, or built elsewhere) and shows its clustering at once, as if the points had
    /// been added in order (with the default pin, no title or snippet) and clustered: the index
    /// is used as it is, not built again, and its options become the manager's hierarchy. The
    /// index is only read, so it may go on answering queries. For a hierarchical manager
    /// without aggregated properties (`invalidState` otherwise, or for an index not built).
    /// Returns the first new id; the others follow it by one.
    public func adopt(_ built: HierarchicalClusterIndex) throws(CairnError) -> Int64 {
        guard algorithm == .hierarchical, aggregateOperations.isEmpty, built.isBuilt else { throw .invalidState }
        let n = built.pointCount
        guard n <= MarkerStore.capacity else { throw .tooManyItems(limit: MarkerStore.capacity) }
        try setHierarchy(built.options)
        clear()
        let first = nextID
        ids = (0..<n).map { first + Int64($0) }
        nextID = first + Int64(n)
        worldX = (0..<n).map { built.pointPositions[$0].x }
        worldY = (0..<n).map { built.pointPositions[$0].y }
        icons = [Int32](repeating: MarkerProperties.defaultPin, count: n)
        text = [UInt8](repeating: 0, count: n)
        alive = [Bool](repeating: true, count: n)
        count = n
        takeSnapshot(ids: ids, x: worldX, y: worldY, icons: icons, values: [])
        index = built
        clusterMember = built.oneMemberPerCluster()
        smallBelow = rendering.minimumClusterSize
        (smallStart, smallPoints) = built.smallClusterPointLists(below: smallBelow)
        return first
    }

    /// Whether items keep their Google map points: the screen-space algorithms compute in them.
    var usesMapPoints: Bool { algorithm != .hierarchical }

    /// Whether a clustering started by `beginCluster` is under way.
    public var isClustering: Bool { pending != nil }

    /// The items a clustering was made from become what the drawing shows.
    private func takeSnapshot(ids: [Int64], x: [Double], y: [Double], icons: [Int32], values: [Double]) {
        snapshot = (0..<ids.count).map { _ClusteredItem(x: x[$0], y: y[$0], id: ids[$0], icon: icons[$0]) }
        snapshotValues = values
        generation += 1
        spiderfied = nil
    }

    func regroup(zoom z: Int) {
        group(snapshotPositions, zoom: z, into: &groups)
        let k = aggregateOperations.count
        groupAggregates.removeAll(keepingCapacity: true)
        for g in 0..<(k > 0 ? groups.count : 0) {
            let members = groups.members(of: g)
            for (c, operation) in aggregateOperations.enumerated() {
                groupAggregates.append(operation.reduce(members.lazy.map { self.snapshotValues[Int($0) * k + c] }))
            }
        }
        groupsZoom = z
        generation += 1
        spiderfied = nil
    }

    /// Groups positions with this manager's screen-space algorithm (none for the hierarchical one).
    func group(_ positions: ClusterItemPositions, zoom z: Int, into result: inout ClusterGroups) {
        let zoom = Double(z)
        switch algorithm {
        case .distance: (try! DistanceClustering()).cluster(positions, zoom: zoom, into: &result)
        case .grid: (try! GridClustering()).cluster(positions, zoom: zoom, into: &result)
        case .none, .hierarchical: NoClustering().cluster(positions, zoom: zoom, into: &result)
        }
    }

    /// Seconds from `time` until what the manager draws changes on its own: 0 while a change
    /// of clustering animates (C5), the rest of the `reclusterDelay` while a new zoom waits to
    /// be followed (C6), infinity otherwise.
    func nextChange(at time: Double) -> Double {
        if transition != nil { return 0 }
        if let p = pendingZoom { return Swift.max(0, p.since + ClusterManager.reclusterDelay - time) }
        return .infinity
    }

    /// C6: follows the camera's rounded zoom as Google's cluster manager does: every change of
    /// the camera while its rounded zoom differs from the one clustered (re)starts a
    /// `reclusterDelay` timer, and the clusters are made when one runs out.
    func followZoom(_ camera: CameraPosition, time: Double) {
        let changed = lastCamera != camera
        lastCamera = camera
        guard algorithm != .hierarchical, groupsZoom != nil else { return }
        let z = _discreteZoom(camera.zoom)
        if z == groupsZoom {
            // Google's last request would still run out, clustering for this zoom: the same clusters.
            pendingZoom = nil
            return
        }
        if changed || pendingZoom == nil { pendingZoom = (z, time) }
        if let p = pendingZoom, time - p.since >= ClusterManager.reclusterDelay {
            pendingZoom = nil
            regroup(zoom: z)
        }
    }
}

/// Whether a cluster item has a title and a snippet, as bits (the text stays with the host): an
/// item's info window opens only with one of them, unless the host may draw windows of its own
/// (features I2, I7, C7).
public enum ClusterItemText {
    public static let hasTitle: UInt8 = 1
    public static let hasSnippet: UInt8 = 2
    static let all: UInt8 = hasTitle | hasSnippet
}
