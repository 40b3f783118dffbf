import Cairn

// The hierarchical cluster index over the C ABI. Every function returns a status: a count or
// handle (≥ 0) on success, the negated `CairnError.code` on failure, with the error's detail in
// `cairn_last_error_detail`. Results are records of `cairn_record_stride` doubles written to a
// caller's buffer; the return value is how many there are in all, which may exceed the
// capacity (then only `capacity` are written and the caller asks again with more room).

/// Creates an index; returns its handle.
@_expose(wasm, "cairn_index_create") @_cdecl("cairn_index_create")
public func cairn_index_create(_ radius: Double, _ extent: Double, _ minZoom: Int32, _ maxZoom: Int32,
                               _ minPoints: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let options = ClusterOptions(radius: radius, extent: extent, minZoom: Int(minZoom),
                                     maxZoom: Int(maxZoom), minPoints: Int(minPoints))
        return _Registry.newHandle(try HierarchicalClusterIndex(options: options))
    }
}

@_expose(wasm, "cairn_index_destroy") @_cdecl("cairn_index_destroy")
public func cairn_index_destroy(_ handle: Int32) -> Int32 {
    _Registry.indexes.remove(handle) ? 0 : _Registry.fail(.invalidHandle)
}

/// Makes room for `count` more points.
@_expose(wasm, "cairn_index_reserve") @_cdecl("cairn_index_reserve")
public func cairn_index_reserve(_ handle: Int32, _ count: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let index = try _Registry.index(handle)
        try index.reserveCapacity(Int(count))
        return 0
    }
}

/// Adds `count` points from longitude/latitude pairs; returns the index's point count. On a bad
/// point nothing is added and the detail is that point's index.
@_expose(wasm, "cairn_index_add") @_cdecl("cairn_index_add")
public func cairn_index_add(_ handle: Int32, _ lngLat: UnsafeMutableRawPointer?, _ count: Int32) -> Int32 {
    _addRecords(handle, lngLat, count, stride: 2) { (index, pairs) throws(CairnError) in try index.add(lngLat: pairs) }
}

/// Adds `count` weighted items from records [x, y, weight] in world coordinates (see
/// `HierarchicalClusterIndex.add(weightedItems:)`); returns the item count.
@_expose(wasm, "cairn_index_add_weighted") @_cdecl("cairn_index_add_weighted")
public func cairn_index_add_weighted(_ handle: Int32, _ records: UnsafeMutableRawPointer?, _ count: Int32) -> Int32 {
    _addRecords(handle, records, count, stride: 3) { (index, values) throws(CairnError) in
        try index.add(weightedItems: values)
    }
}

/// The shape of both adds: `count` records of `stride` doubles from the caller's buffer, handed
/// to `add`; the index's point count after.
private func _addRecords(_ handle: Int32, _ records: UnsafeMutableRawPointer?, _ count: Int32, stride: Int,
                         _ add: (HierarchicalClusterIndex, UnsafeBufferPointer<Double>) throws(CairnError) -> Void) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let index = try _Registry.index(handle)
        guard count >= 0, Int(count) <= Int.max / stride else { throw .invalidArgument }
        let values = try _Registry.doubles(records, count: stride * Int(count))
        try add(index, UnsafeBufferPointer(values))
        return Int32(index.pointCount)
    }
}

/// Clusters the next zoom; returns the number of zooms left (0 = built). Before the first zoom
/// it checks that the memory left can hold the build (OUT_OF_MEMORY otherwise).
@_expose(wasm, "cairn_index_build_step") @_cdecl("cairn_index_build_step")
public func cairn_index_build_step(_ handle: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let index = try _Registry.index(handle)
        try index.checkBuildRoom()
        return Int32(index.buildStep())
    }
}

@_expose(wasm, "cairn_index_point_count") @_cdecl("cairn_index_point_count")
public func cairn_index_point_count(_ handle: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in Int32(try _Registry.index(handle).pointCount) }
}

@_expose(wasm, "cairn_index_cluster_count") @_cdecl("cairn_index_cluster_count")
public func cairn_index_cluster_count(_ handle: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in Int32(try _Registry.index(handle).clusterCount) }
}

/// Every item visible at `zoom`, in no particular order: records [id, count, x, y] with the
/// exact world position (0...1), which longitudes and latitudes would round.
@_expose(wasm, "cairn_index_world_items") @_cdecl("cairn_index_world_items")
public func cairn_index_world_items(_ handle: Int32, _ zoom: Double, _ out: UnsafeMutableRawPointer?,
                                    _ capacity: Int32) -> Int32 {
    _RecordWriter.query(handle, out, capacity) { (index, writer) throws(CairnError) in
        try index.forEachItem(zoom: zoom) { writer.write(id: $0.id, count: $0.pointCount, $0.x, $0.y) }
    }
}

/// Clusters and points at `zoom` in a longitude/latitude box: records [id, count, lng, lat].
@_expose(wasm, "cairn_index_clusters") @_cdecl("cairn_index_clusters")
public func cairn_index_clusters(_ handle: Int32, _ west: Double, _ south: Double, _ east: Double,
                                 _ north: Double, _ zoom: Double, _ out: UnsafeMutableRawPointer?,
                                 _ capacity: Int32) -> Int32 {
    _RecordWriter.query(handle, out, capacity) { (index, writer) throws(CairnError) in
        try index.forEachCluster(west: west, south: south, east: east, north: north, zoom: zoom) {
            writer.write($0)
        }
    }
}

/// The children of a cluster: records [id, count, lng, lat].
@_expose(wasm, "cairn_index_children") @_cdecl("cairn_index_children")
public func cairn_index_children(_ handle: Int32, _ clusterID: Double, _ out: UnsafeMutableRawPointer?,
                                 _ capacity: Int32) -> Int32 {
    _RecordWriter.query(handle, out, capacity) { (index, writer) throws(CairnError) in
        try index.forEachChild(of: try _Registry.clusterID(clusterID)) { writer.write($0) }
    }
}

/// The points of a cluster, `offset` skipped, at most `limit` (may be +Infinity): records
/// [index, 1, lng, lat].
@_expose(wasm, "cairn_index_leaves") @_cdecl("cairn_index_leaves")
public func cairn_index_leaves(_ handle: Int32, _ clusterID: Double, _ limit: Double, _ offset: Double,
                               _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _RecordWriter.query(handle, out, capacity) { (index, writer) throws(CairnError) in
        guard limit >= 0, offset >= 0, offset.isFinite, !limit.isNaN else { throw .invalidArgument }
        let maxCount = Double(Int32.max)
        try index.forEachLeaf(of: try _Registry.clusterID(clusterID),
                              limit: limit >= maxCount ? Int(Int32.max) : Int(limit),
                              offset: offset >= maxCount ? Int(Int32.max) : Int(offset)) { writer.write($0) }
    }
}

/// The zoom at which a cluster splits.
@_expose(wasm, "cairn_index_expansion_zoom") @_cdecl("cairn_index_expansion_zoom")
public func cairn_index_expansion_zoom(_ handle: Int32, _ clusterID: Double) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let index = try _Registry.index(handle)
        return Int32(try index.expansionZoom(of: try _Registry.clusterID(clusterID)))
    }
}

/// The features of tile z/x/y: records [id, count, tile x, tile y].
@_expose(wasm, "cairn_index_tile") @_cdecl("cairn_index_tile")
public func cairn_index_tile(_ handle: Int32, _ z: Int32, _ x: Int32, _ y: Int32,
                             _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _RecordWriter.query(handle, out, capacity) { (index, writer) throws(CairnError) in
        try index.forEachTileFeature(z: Int(z), x: Int(x), y: Int(y)) { f in
            writer.write(id: f.id, count: f.pointCount, Double(f.x), Double(f.y))
        }
    }
}

/// Adds an aggregated property (operation 0 sum, 1 min, 2 max, 3 count, 4 mean) from one value
/// per point (NaN for none); returns its column number. The index must be built.
@_expose(wasm, "cairn_index_aggregate_add") @_cdecl("cairn_index_aggregate_add")
public func cairn_index_aggregate_add(_ handle: Int32, _ operation: Int32, _ values: UnsafeMutableRawPointer?,
                                      _ count: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let index = try _Registry.index(handle)
        guard let op = AggregateOperation(rawValue: operation), count >= 0 else { throw .invalidArgument }
        let buffer = try _Registry.doubles(values, count: Int(count))
        return Int32(try index.addAggregate(op, values: UnsafeBufferPointer(buffer)))
    }
}

/// The values of aggregated property `column` for `count` cluster ids (doubles), written to
/// `out` (as many doubles); returns `count`.
@_expose(wasm, "cairn_index_aggregate_values") @_cdecl("cairn_index_aggregate_values")
public func cairn_index_aggregate_values(_ handle: Int32, _ column: Int32, _ ids: UnsafeMutableRawPointer?,
                                         _ count: Int32, _ out: UnsafeMutableRawPointer?) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let index = try _Registry.index(handle)
        guard count >= 0 else { throw .invalidArgument }
        let idBuffer = try _Registry.doubles(ids, count: Int(count))
        let outBuffer = try _Registry.doubles(out, count: Int(count))
        for k in 0..<Int(count) {
            outBuffer[k] = try index.aggregate(Int(column), of: try _Registry.clusterID(idBuffer[k]))
        }
        return count
    }
}

/// The children of a cluster in the order supercluster's `reduce` folds them (its seed first):
/// records [id, count, lng, lat].
@_expose(wasm, "cairn_index_reduce_children") @_cdecl("cairn_index_reduce_children")
public func cairn_index_reduce_children(_ handle: Int32, _ clusterID: Double, _ out: UnsafeMutableRawPointer?,
                                        _ capacity: Int32) -> Int32 {
    _RecordWriter.query(handle, out, capacity) { (index, writer) throws(CairnError) in
        try index.forEachChildInReduceOrder(of: try _Registry.clusterID(clusterID)) { writer.write($0) }
    }
}

/// Every item's parent, as records [id, parent id or -1] of two doubles: the points in input
/// order, then the clusters in the order they were formed. Returns the item count; the records
/// are written only when all fit in `capacity` records.
@_expose(wasm, "cairn_index_parents") @_cdecl("cairn_index_parents")
public func cairn_index_parents(_ handle: Int32, _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let index = try _Registry.index(handle)
        guard capacity >= 0 else { throw .invalidArgument }
        guard index.isBuilt else { throw .invalidState }
        let total = index.itemCount
        guard total > 0, Int(capacity) >= total else { return Int32(total) }
        let buffer = try _Registry.doubles(out, count: 2 * total)
        var k = 0
        try index.forEachParentLink { id, parent in
            buffer[k] = Double(id)
            buffer[k + 1] = Double(parent)
            k += 2
        }
        return Int32(total)
    }
}

/// Edits a built index: adds `addCount` points (longitude/latitude pairs at `add`), removes the
/// `removeCount` point ids at `remove` (32-bit) and moves the `moveCount` point ids at `move` to
/// the pairs at `moveLngLat`, repairing the clustering (see `HierarchicalClusterIndex+Edits`).
/// Returns the id of the first point added. All checked first: on an error nothing changes.
@_expose(wasm, "cairn_index_edit") @_cdecl("cairn_index_edit")
public func cairn_index_edit(_ handle: Int32, _ add: UnsafeMutableRawPointer?, _ addCount: Int32,
                             _ remove: UnsafeMutableRawPointer?, _ removeCount: Int32,
                             _ move: UnsafeMutableRawPointer?, _ moveLngLat: UnsafeMutableRawPointer?,
                             _ moveCount: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let index = try _Registry.index(handle)
        guard addCount >= 0, removeCount >= 0, moveCount >= 0 else { throw .invalidArgument }
        func pairs(_ p: UnsafeMutableRawPointer?, _ count: Int32) throws(CairnError) -> UnsafeBufferPointer<Double> {
            // Two doubles a pair: a count past a quarter of the address space names no buffer
            // (and would overflow a 32-bit Int when doubled).
            guard Int(count) <= Int.max / 16 else { throw .invalidArgument }
            return count == 0 ? UnsafeBufferPointer(start: nil, count: 0) : UnsafeBufferPointer(try _Registry.doubles(p, count: 2 * Int(count)))
        }
        func ids(_ p: UnsafeMutableRawPointer?, _ count: Int32) throws(CairnError) -> UnsafeBufferPointer<Int32> {
            let words = try _Registry.words(p, count: Int(count))
            return UnsafeBufferPointer(start: words.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: Int32.self) }, count: words.count)
        }
        let first = try index.edit(adding: try pairs(add, addCount), removing: try ids(remove, removeCount),
                                   moving: try ids(move, moveCount), to: try pairs(moveLngLat, moveCount))
        return Int32(first)
    }
}

/// The bounds of the points as the index placed them (longitudes wrapped, latitudes clamped),
/// as one record [west, south, east, north] written when `capacity` holds it (the world's for
/// an index without points); returns 1, the records there are.
@_expose(wasm, "cairn_index_placed_bounds") @_cdecl("cairn_index_placed_bounds")
public func cairn_index_placed_bounds(_ handle: Int32, _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let index = try _Registry.index(handle)
        guard capacity >= 0 else { throw .invalidArgument }
        let world = (west: -180.0, south: -WebMercator.maxLatitude, east: 180.0, north: WebMercator.maxLatitude)
        let b = index.placedBounds ?? world
        guard capacity >= 1 else { return 1 }
        let record = try _Registry.doubles(out, count: 4)
        (record[0], record[1], record[2], record[3]) = (b.west, b.south, b.east, b.north)
        return 1
    }
}

/// How many of the index's points it placed other than given (a longitude wrapped, a latitude
/// clamped).
@_expose(wasm, "cairn_index_placed_elsewhere") @_cdecl("cairn_index_placed_elsewhere")
public func cairn_index_placed_elsewhere(_ handle: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        Int32(clamping: try _Registry.index(handle).pointsPlacedElsewhere)
    }
}

/// The size in bytes of the built index saved with `hostCount` bytes of the host's data.
@_expose(wasm, "cairn_index_saved_size") @_cdecl("cairn_index_saved_size")
public func cairn_index_saved_size(_ handle: Int32, _ hostCount: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let index = try _Registry.index(handle)
        // Natively an index can outgrow what a 32-bit status counts.
        guard let size = Int32(exactly: try index.savedByteCount(hostDataCount: Int(hostCount))) else {
            throw .outOfMemory(points: index.pointCount)
        }
        return size
    }
}

/// Writes the built index, saved with `hostCount` bytes of the host's data (kept as they are,
/// the buffer's end: see the format), to `out` (`capacity` bytes, at least the saved size);
/// returns the bytes written.
@_expose(wasm, "cairn_index_save") @_cdecl("cairn_index_save")
public func cairn_index_save(_ handle: Int32, _ host: UnsafeMutableRawPointer?, _ hostCount: Int32,
                             _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let index = try _Registry.index(handle)
        guard hostCount >= 0, hostCount == 0 || _Registry.isValid(host, byteCount: Int(hostCount), align: 1) else { throw .invalidArgument }
        guard capacity >= 0, _Registry.isValid(out, byteCount: Int(capacity), align: 8), let out else { throw .invalidArgument }
        let hostData = host.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: Int(hostCount))) } ?? []
        return Int32(try index.save(into: UnsafeMutableRawBufferPointer(start: out, count: Int(capacity)), hostData: hostData))
    }
}

/// Restores a built index from `count` bytes a save wrote; returns its handle. A buffer that is
/// truncated, of another format version or altered is INVALID_SAVED_INDEX.
@_expose(wasm, "cairn_index_restore") @_cdecl("cairn_index_restore")
public func cairn_index_restore(_ bytes: UnsafeMutableRawPointer?, _ count: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        guard count >= 0, _Registry.isValid(bytes, byteCount: Int(count), align: 1), let bytes else { throw .invalidArgument }
        let index = try HierarchicalClusterIndex.restore(from: UnsafeRawBufferPointer(start: bytes, count: Int(count)))
        let handle = _Registry.newHandle(index)
        if handle < 0 { throw .tooManyIndexes(limit: _HandleTable<HierarchicalClusterIndex>.maxSlots) }
        return handle
    }
}

/// supercluster's k-d tree of a zoom as it holds it, in the tree's layout order: records of three
/// doubles per item, its position in that zoom's data, then its float32 world x and y. Returns
/// how many items there are; they are written only when they fit in `capacity` records.
@_expose(wasm, "cairn_index_supercluster_tree") @_cdecl("cairn_index_supercluster_tree")
public func cairn_index_supercluster_tree(_ handle: Int32, _ zoom: Double, _ out: UnsafeMutableRawPointer?,
                                          _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let index = try _Registry.index(handle)
        guard capacity >= 0 else { throw .invalidArgument }
        // The count alone when the records do not fit: the host asks again with room.
        let count = try index.superclusterTreeCount(zoom: zoom)
        if count > 0, count <= Int(capacity) {
            let tree = try index.superclusterTreeLayout(zoom: zoom)
            let records = try _Registry.doubles(out, count: 3 * count)
            for k in 0..<count {
                records[3 * k] = Double(tree.ids[k])
                records[3 * k + 1] = Double(tree.coords[2 * k])
                records[3 * k + 2] = Double(tree.coords[2 * k + 1])
            }
        }
        return Int32(count)
    }
}
