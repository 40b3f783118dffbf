import Cairn

// Cluster managers over the C ABI (features C1–C4, C6, C7). A manager is named by its number
// within the map; item ids are exact in a double.

/// Adds a manager: algorithm 0 hierarchical, 1 distance, 2 grid, 3 none; returns its number.
@_expose(wasm, "cairn_map_add_cluster_manager") @_cdecl("cairn_map_add_cluster_manager")
public func cairn_map_add_cluster_manager(_ handle: Int32, _ algorithm: Int32, _ minimumClusterSize: Int32,
                                          _ maximumClusterZoom: Double, _ radius: Double) -> Int32 {
    _Registry.status { () throws(CairnError) in
        guard let kind = ClusterAlgorithmKind(rawValue: algorithm) else { throw .invalidArgument }
        var rendering = ClusterRendering()
        rendering.minimumClusterSize = Int(minimumClusterSize)
        rendering.maximumClusterZoom = maximumClusterZoom
        rendering.radius = radius
        return try _Registry.map(handle).addClusterManager(kind, rendering: rendering)
    }
}

@_expose(wasm, "cairn_map_remove_cluster_manager") @_cdecl("cairn_map_remove_cluster_manager")
public func cairn_map_remove_cluster_manager(_ handle: Int32, _ manager: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in try map.removeClusterManager(manager) }
}

/// The hierarchical algorithm's other supercluster options (C2a; its radius comes with the
/// manager), NaN keeping one as it is: they apply from the next clustering. `INVALID_OPTION`
/// names one out of range or not whole.
@_expose(wasm, "cairn_map_set_cluster_hierarchy") @_cdecl("cairn_map_set_cluster_hierarchy")
public func cairn_map_set_cluster_hierarchy(_ handle: Int32, _ manager: Int32, _ extent: Double, _ minZoom: Double,
                                            _ maxZoom: Double, _ minPoints: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        let m = try map.clusterManager(manager)
        var options = m.rendering.hierarchy
        func whole(_ v: Double, _ field: ClusterOptions.Field) throws(CairnError) -> Int? {
            if v.isNaN { return nil }
            guard let n = Int32(exactly: v) else { throw .invalidOption(field) }
            return Int(n)
        }
        if !extent.isNaN { options.extent = extent }
        if let z = try whole(minZoom, .minZoom) { options.minZoom = z }
        if let z = try whole(maxZoom, .maxZoom) { options.maxZoom = z }
        if let n = try whole(minPoints, .minPoints) { options.minPoints = n }
        try m.setHierarchy(options)
    }
}

/// Custom icon buckets (`count` increasing thresholds) and their colours (0xRRGGBB, `count` of
/// them, or none for the standard colours: pass `colors` = 0).
@_expose(wasm, "cairn_map_set_cluster_buckets") @_cdecl("cairn_map_set_cluster_buckets")
public func cairn_map_set_cluster_buckets(_ handle: Int32, _ manager: Int32, _ buckets: UnsafeMutableRawPointer?,
                                          _ colors: UnsafeMutableRawPointer?, _ count: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        let m = try map.clusterManager(manager)
        guard count >= 0, count <= 1000 else { throw .invalidArgument }
        let b = try _Registry.doubles(buckets, count: Int(count))
        var thresholds: [Int] = []
        for v in b {
            guard v.isFinite, v == v.rounded(.down), abs(v) < 2e9 else { throw .invalidBuckets(.notPositive) }
            thresholds.append(Int(v))
        }
        var palette: [UInt32] = []
        if colors != nil {
            for v in try _Registry.doubles(colors, count: Int(count)) {
                guard v.isFinite, v == v.rounded(.down), v >= 0, v <= 0xFF_FFFF else { throw .invalidArgument }
                palette.append(UInt32(v))
            }
        }
        m.rendering.buckets = try ClusterIconBuckets(buckets: thresholds, colors: palette)
    }
}

/// Adds `count` items from records [latitude, longitude, icon, text flags (1 has a title, 2 has
/// a snippet), then one value per aggregated property the manager declared]; returns the first
/// id (the others follow by one), or a negative status. All or none. (A double: ids exceed 32 bits.)
@_expose(wasm, "cairn_map_add_cluster_items") @_cdecl("cairn_map_add_cluster_items")
public func cairn_map_add_cluster_items(_ handle: Int32, _ manager: Int32, _ records: UnsafeMutableRawPointer?,
                                        _ count: Int32) -> Double {
    do throws(CairnError) {
        let map = try _Registry.map(handle)
        let k = try map.clusterManager(manager).aggregateOperations.count, stride = 4 + k
        guard count > 0, Int(count) <= Int.max / (8 * stride) else { throw .invalidArgument }
        let r = try _Registry.doubles(records, count: stride * Int(count))
        var lats: [Double] = [], lngs: [Double] = [], icons: [Int32] = [], text: [UInt8] = [], values: [Double] = []
        // Reserved: appended to growing arrays, a million items would be copied about twenty times.
        lats.reserveCapacity(Int(count))
        lngs.reserveCapacity(Int(count))
        icons.reserveCapacity(Int(count))
        text.reserveCapacity(Int(count))
        values.reserveCapacity(k * Int(count))
        for i in 0..<Int(count) {
            lats.append(r[stride * i])
            lngs.append(r[stride * i + 1])
            let icon = r[stride * i + 2]
            guard icon.isFinite, icon == icon.rounded(.down), icon >= -1, icon <= Double(Int32.max) else {
                throw .invalidMarkerInBatch(index: i, field: MarkerProperties.Field.icon.rawValue)
            }
            icons.append(Int32(icon))
            let flags = r[stride * i + 3]
            guard flags == 0 || flags == 1 || flags == 2 || flags == 3 else { throw .invalidMarkerInBatch(index: i, field: 0) }
            text.append(UInt8(flags))
            for c in 0..<k { values.append(r[stride * i + 4 + c]) }
        }
        return Double(try map.addClusterItems(manager, latitudes: lats, longitudes: lngs, icons: icons, text: text,
                                              values: values))
    } catch {
        return Double(_Registry.fail(error))
    }
}

/// Adds `count` items from [longitude, latitude] pairs (followed by one value per aggregated
/// property the manager declared, when it did), all with `icon` (-1: the default pin); returns
/// the first id (the others follow by one), or a negative status. All or none. The bulk path:
/// the host copies its coordinates in as they are, with no record per item.
@_expose(wasm, "cairn_map_add_cluster_coordinates") @_cdecl("cairn_map_add_cluster_coordinates")
public func cairn_map_add_cluster_coordinates(_ handle: Int32, _ manager: Int32, _ lngLat: UnsafeMutableRawPointer?,
                                              _ count: Int32, _ icon: Int32) -> Double {
    do throws(CairnError) {
        let map = try _Registry.map(handle)
        let stride = 2 + (try map.clusterManager(manager).aggregateOperations.count)
        guard count > 0, Int(count) <= Int.max / (8 * stride) else { throw .invalidArgument }
        let pairs = try _Registry.doubles(lngLat, count: stride * Int(count))
        return Double(try map.addClusterItems(manager, lngLat: UnsafeBufferPointer(pairs), icon: icon))
    } catch {
        return Double(_Registry.fail(error))
    }
}

/// A hierarchical manager's items become the points of a built index (`cairn_index_restore`'s,
/// or one loaded and built), clustered as the index is, without clustering again; their
/// longitude/latitude pairs are written to `out` (room for 2 × the index's points). Returns the
/// first item id; the others follow it by one. The index stays valid and unchanged.
@_expose(wasm, "cairn_map_set_cluster_index") @_cdecl("cairn_map_set_cluster_index")
public func cairn_map_set_cluster_index(_ handle: Int32, _ manager: Int32, _ index: Int32,
                                        _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Double {
    do throws(CairnError) {
        let map = try _Registry.map(handle)
        let built = try _Registry.index(index)
        guard capacity >= 0, Int(capacity) >= 2 * built.pointCount else { throw .invalidArgument }
        let pairs = try _Registry.doubles(out, count: 2 * built.pointCount)
        return Double(try map.adoptClusterIndex(manager, built, positions: pairs))
    } catch {
        return Double(_Registry.fail(error))
    }
}

@_expose(wasm, "cairn_map_remove_cluster_item") @_cdecl("cairn_map_remove_cluster_item")
public func cairn_map_remove_cluster_item(_ handle: Int32, _ manager: Int32, _ item: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        try map.removeClusterItem(manager, item: try _Registry.markerID(item))
    }
}

/// Selects an item (C7, M11), closing the open info window; returns 1 when the item's opened
/// (it has a title or snippet, or custom windows are on), 0 when none is open.
@_expose(wasm, "cairn_map_select_cluster_item") @_cdecl("cairn_map_select_cluster_item")
public func cairn_map_select_cluster_item(_ handle: Int32, _ manager: Int32, _ item: Double) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let map = try _Registry.map(handle)
        try map.selectClusterItem(manager: manager, item: try _Registry.markerID(item))
        return map.selectedInfoWindowOwner == nil ? 0 : 1
    }
}

@_expose(wasm, "cairn_map_move_cluster_item") @_cdecl("cairn_map_move_cluster_item")
public func cairn_map_move_cluster_item(_ handle: Int32, _ manager: Int32, _ item: Double, _ latitude: Double,
                                        _ longitude: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        try map.clusterManager(manager).move(try _Registry.markerID(item), latitude: latitude, longitude: longitude)
    }
}

@_expose(wasm, "cairn_map_clear_cluster_items") @_cdecl("cairn_map_clear_cluster_items")
public func cairn_map_clear_cluster_items(_ handle: Int32, _ manager: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in try map.clearClusterItems(manager) }
}

/// Clusters the manager's items as they are now (nothing changes on screen until this).
@_expose(wasm, "cairn_map_cluster") @_cdecl("cairn_map_cluster")
public func cairn_map_cluster(_ handle: Int32, _ manager: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in try map.cluster(manager) }
}

/// Starts `cairn_map_cluster` in steps (one per zoom of the hierarchical index; frames show the
/// previous clustering meanwhile); returns the steps left, 0 when done, or a negative status.
@_expose(wasm, "cairn_map_cluster_begin") @_cdecl("cairn_map_cluster_begin")
public func cairn_map_cluster_begin(_ handle: Int32, _ manager: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in Int32(try _Registry.map(handle).beginCluster(manager)) }
}

/// The next step of a clustering begun: returns the steps left (0: done and shown).
@_expose(wasm, "cairn_map_cluster_step") @_cdecl("cairn_map_cluster_step")
public func cairn_map_cluster_step(_ handle: Int32, _ manager: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in Int32(try _Registry.map(handle).clusterStep(manager)) }
}

/// Turns animated changes of clustering (C5) on (1, the default) or off (0).
@_expose(wasm, "cairn_map_set_cluster_animation") @_cdecl("cairn_map_set_cluster_animation")
public func cairn_map_set_cluster_animation(_ handle: Int32, _ manager: Int32, _ on: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        guard on == 0 || on == 1 else { throw .invalidArgument }
        try map.clusterManager(manager).animatesClusters = on == 1
    }
}

/// Lays the manager's items flat on the map (1) or stands them facing the screen (0, the default).
@_expose(wasm, "cairn_map_set_cluster_items_flat") @_cdecl("cairn_map_set_cluster_items_flat")
public func cairn_map_set_cluster_items_flat(_ handle: Int32, _ manager: Int32, _ on: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        guard on == 0 || on == 1 else { throw .invalidArgument }
        try map.clusterManager(manager).flatItems = on == 1
    }
}

/// Item ids of a cluster (`offset` skipped, at most `limit`) written to `out` (up to
/// `capacity` doubles); returns how many.
@_expose(wasm, "cairn_map_cluster_leaves") @_cdecl("cairn_map_cluster_leaves")
public func cairn_map_cluster_leaves(_ handle: Int32, _ manager: Int32, _ cluster: Double, _ limit: Int32,
                                     _ offset: Int32, _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let m = try _Registry.map(handle).clusterManager(manager)
        guard capacity >= 0, limit >= 0, offset >= 0 else { throw .invalidArgument }
        let ids = try m.leaves(of: try _Registry.clusterID(cluster), limit: Int(Swift.min(limit, capacity)), offset: Int(offset))
        if ids.isEmpty { return 0 }
        let buffer = try _Registry.doubles(out, count: ids.count)
        for (i, id) in ids.enumerated() { buffer[i] = Double(id) }
        return Int32(ids.count)
    }
}

/// The clusters and items a cluster was formed from, as records [1 cluster or 0 item, id, count,
/// longitude, latitude] in `out` when all fit in `capacity` doubles; returns how many there are
/// (nothing is written when they do not fit: ask again with room for them).
@_expose(wasm, "cairn_map_cluster_children") @_cdecl("cairn_map_cluster_children")
public func cairn_map_cluster_children(_ handle: Int32, _ manager: Int32, _ cluster: Double,
                                       _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        guard capacity >= 0 else { throw .invalidArgument }
        let m = try _Registry.map(handle).clusterManager(manager), id = try _Registry.clusterID(cluster)
        let n = try m.childCount(of: id)
        guard n > 0, 5 * n <= Int(capacity) else { return Int32(clamping: n) }
        let children = try m.children(of: id)
        let buffer = try _Registry.doubles(out, count: 5 * children.count)
        for (i, c) in children.enumerated() {
            (buffer[5 * i], buffer[5 * i + 1], buffer[5 * i + 2]) = (c.isCluster ? 1 : 0, Double(c.id), Double(c.pointCount))
            (buffer[5 * i + 3], buffer[5 * i + 4]) = (c.longitude, c.latitude)
        }
        return Int32(children.count)
    }
}

/// Declares a manager's aggregated properties (C9) before it holds items: `count` operations
/// (0 sum, 1 min, 2 max, 3 count, 4 mean) as doubles in `operations`.
@_expose(wasm, "cairn_map_set_cluster_aggregates") @_cdecl("cairn_map_set_cluster_aggregates")
public func cairn_map_set_cluster_aggregates(_ handle: Int32, _ manager: Int32, _ operations: UnsafeMutableRawPointer?,
                                             _ count: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        guard count >= 0, count <= Int32(ClusterManager.maximumAggregates) else { throw .invalidArgument }
        var ops: [AggregateOperation] = []
        if count > 0 {
            let r = try _Registry.doubles(operations, count: Int(count))
            for i in 0..<Int(count) {
                guard r[i] == r[i].rounded(.down), let op = AggregateOperation(rawValue: Int32(exactly: r[i]) ?? -1)
                else { throw .invalidArgument }
                ops.append(op)
            }
        }
        try map.clusterManager(manager).setAggregates(ops)
    }
}

/// Writes a cluster's aggregated properties to `out` (one double each, NaN for none); returns
/// how many.
@_expose(wasm, "cairn_map_cluster_aggregates") @_cdecl("cairn_map_cluster_aggregates")
public func cairn_map_cluster_aggregates(_ handle: Int32, _ manager: Int32, _ cluster: Double,
                                         _ out: UnsafeMutableRawPointer?) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let values = try _Registry.map(handle).clusterManager(manager).aggregates(of: try _Registry.clusterID(cluster))
        if values.isEmpty { return 0 }
        let buffer = try _Registry.doubles(out, count: values.count)
        for (i, v) in values.enumerated() { buffer[i] = v }
        return Int32(values.count)
    }
}

@_expose(wasm, "cairn_map_cluster_expansion_zoom") @_cdecl("cairn_map_cluster_expansion_zoom")
public func cairn_map_cluster_expansion_zoom(_ handle: Int32, _ manager: Int32, _ cluster: Double) -> Int32 {
    _Registry.status { () throws(CairnError) in
        Int32(try _Registry.map(handle).clusterManager(manager).expansionZoom(of: try _Registry.clusterID(cluster)))
    }
}

/// Writes [west, south, east, north] of a cluster's items to `out` (4 doubles).
@_expose(wasm, "cairn_map_cluster_bounds") @_cdecl("cairn_map_cluster_bounds")
public func cairn_map_cluster_bounds(_ handle: Int32, _ manager: Int32, _ cluster: Double,
                                     _ out: UnsafeMutableRawPointer?) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        let b = try map.clusterManager(manager).bounds(of: try _Registry.clusterID(cluster))
        let buffer = try _Registry.doubles(out, count: 4)
        (buffer[0], buffer[1], buffer[2], buffer[3]) = (b.west, b.south, b.east, b.north)
    }
}

/// How the host measures cluster labels (feature C3): `advances` holds the width of each of
/// "0123456789+" (`count`, 11 doubles) in the bold font of `cairn_cluster_defaults`' size, `height` the
/// line's; icon diameters (drawn and tapped) grow with it from the next frame.
@_expose(wasm, "cairn_map_set_cluster_label_metrics") @_cdecl("cairn_map_set_cluster_label_metrics")
public func cairn_map_set_cluster_label_metrics(_ handle: Int32, _ manager: Int32, _ advances: UnsafeMutableRawPointer?,
                                                _ count: Int32, _ height: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        let m = try map.clusterManager(manager)
        guard count == ClusterLabelMetrics.characters.utf8.count else { throw .invalidArgument }
        let a = try _Registry.doubles(advances, count: Int(count))
        m.rendering.labelMetrics = try ClusterLabelMetrics(advances: Array(a), height: height)
    }
}

/// Writes a cluster manager's defaults to `out` when `capacity` doubles hold them: [algorithm,
/// minimumClusterSize, maximumClusterZoom, hierarchical radius, animatesClusters (1 or 0),
/// label font size, bucket count n, then the n standard buckets and their n colours
/// (0xRRGGBB)]; returns how many doubles they take. Needs no map.
@_expose(wasm, "cairn_cluster_defaults") @_cdecl("cairn_cluster_defaults")
public func cairn_cluster_defaults(_ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let r = ClusterRendering(), b = r.buckets
        var v: [Double] = [Double(ClusterAlgorithmKind.standard.rawValue), Double(r.minimumClusterSize), r.maximumClusterZoom,
                           r.radius, ClusterManager.animatesByDefault ? 1 : 0, ClusterLabelMetrics.fontSize,
                           Double(b.buckets.count)]
        v += b.buckets.map { Double($0) }
        v += b.colors.map { Double($0) }
        guard capacity >= 0 else { throw .invalidArgument }
        if Int(capacity) >= v.count {
            let buffer = try _Registry.doubles(out, count: v.count)
            for i in 0..<v.count { buffer[i] = v[i] }
        }
        return Int32(v.count)
    }
}

/// Writes a manager's icon buckets in force, then their colours (0xRRGGBB), to `out` when
/// `capacity` doubles hold both; returns how many doubles they take (twice the bucket count).
@_expose(wasm, "cairn_map_cluster_buckets") @_cdecl("cairn_map_cluster_buckets")
public func cairn_map_cluster_buckets(_ handle: Int32, _ manager: Int32, _ out: UnsafeMutableRawPointer?,
                                      _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let b = try _Registry.map(handle).clusterManager(manager).rendering.buckets
        let n = b.buckets.count
        guard capacity >= 0 else { throw .invalidArgument }
        if Int(capacity) >= 2 * n {
            let buffer = try _Registry.doubles(out, count: 2 * n)
            for i in 0..<n {
                buffer[i] = Double(b.buckets[i])
                buffer[n + i] = Double(b.colors[i])
            }
        }
        return Int32(2 * n)
    }
}

/// Writes what the engine holds of an item besides its position to `out` (2 doubles: its icon,
/// -1 for the default pin, and its text flags, 1 has a title, 2 has a snippet); returns 0.
@_expose(wasm, "cairn_map_cluster_item") @_cdecl("cairn_map_cluster_item")
public func cairn_map_cluster_item(_ handle: Int32, _ manager: Int32, _ item: Double, _ out: UnsafeMutableRawPointer?) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        let m = try map.clusterManager(manager)
        let id = try _Registry.markerID(item)
        let icon = try m.icon(of: id), text = try m.text(of: id)
        let buffer = try _Registry.doubles(out, count: 2)
        (buffer[0], buffer[1]) = (Double(icon), Double(text))
    }
}
