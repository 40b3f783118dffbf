import Cairn

// Vector tiles and PMTiles archives over the C ABI. The host sends requests in buffers from
// `cairn_alloc` and gets bytes back: exports that answer with bytes return how many there are
// in all, which may exceed the capacity (then nothing is written and the caller asks again with
// more room). The host compresses and writes files; the engine decides every byte of a tile and
// of the archive's directories and header.

/// Encodes one vector tile layer from a request (little-endian):
///   u32 extent, u32 name length, name (UTF-8),
///   u32 key count, each: u32 length, bytes (UTF-8),
///   u32 feature count, each: f64 id (NaN for none), i32 x, i32 y, u32 tag count,
///     each tag: u32 key number, u8 type, then 0 string: u32 length, bytes; 1 number: f64;
///     2 boolean: u8.
/// Returns the tile's byte length (0 for a request without features: an empty tile).
@_expose(wasm, "cairn_mvt_encode") @_cdecl("cairn_mvt_encode")
public func cairn_mvt_encode(_ request: UnsafeMutableRawPointer?, _ length: Int32,
                             _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        var reader = _ByteReader(try _Registry.bytes(request, count: Int(length)))
        let extent = try reader.uint32()
        var encoder = try VectorTileEncoder(name: try reader.bytes(try reader.count()), extent: extent)
        let keyCount = try reader.count()
        var keys: [UnsafeBufferPointer<UInt8>] = []
        for _ in 0..<min(keyCount, Int(length) / 4) { keys.append(try reader.bytes(try reader.count())) }
        guard keys.count == keyCount else { throw .invalidArgument }
        let featureCount = try reader.count()
        guard featureCount <= Int(length) / 20 else { throw .invalidArgument }
        for _ in 0..<featureCount {
            let id = try reader.float64()
            let wholeID = id.isFinite && id >= 0 && id <= 18_446_744_073_709_549_568 && id == id.rounded(.down)
            encoder.beginPoint(id: wholeID ? UInt64(id) : nil, x: try reader.int32(), y: try reader.int32())
            let tagCount = try reader.count()
            guard tagCount <= Int(length) / 5 else { throw .invalidArgument }
            for _ in 0..<tagCount {
                let k = try reader.count()
                guard k < keys.count else { throw .invalidArgument }
                switch try reader.uint8() {
                case 0: encoder.tag(keys[k], string: try reader.bytes(try reader.count()))
                case 1: encoder.tag(keys[k], number: try reader.float64())
                case 2: encoder.tag(keys[k], bool: try reader.uint8() != 0)
                default: throw .invalidArgument
                }
            }
        }
        guard reader.isAtEnd else { throw .invalidArgument }
        return try _Registry.answer(encoder.finish(), out, capacity)
    }
}

/// The features of tile z/x/y with coordinates in units of `tileExtent`, padded by `buffer` of
/// those units (0…tileExtent), or by the index's radius / extent of a tile when `buffer` is
/// negative: records [id, count, tile x, tile y].
@_expose(wasm, "cairn_index_tile_extent") @_cdecl("cairn_index_tile_extent")
public func cairn_index_tile_extent(_ handle: Int32, _ z: Int32, _ x: Int32, _ y: Int32, _ tileExtent: Double,
                                    _ buffer: Double, _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _RecordWriter.query(handle, out, capacity) { (index, writer) throws(CairnError) in
        try index.forEachTileFeature(z: Int(z), x: Int(x), y: Int(y), tileExtent: tileExtent,
                                     buffer: buffer < 0 ? nil : buffer) { f in
            writer.write(id: f.id, count: f.pointCount, Double(f.x), Double(f.y))
        }
    }
}

/// The features of `count` tiles of zoom z (u32 x, y pairs) as `cairn_index_tile_extent` gives
/// each, in one call: records [id, count, tile x, tile y], tile after tile. `ends` (`count` u32)
/// receives where each tile's records end, whether or not the records fit.
@_expose(wasm, "cairn_index_tiles_extent") @_cdecl("cairn_index_tiles_extent")
public func cairn_index_tiles_extent(_ handle: Int32, _ z: Int32, _ pairs: UnsafeMutableRawPointer?, _ count: Int32,
                                     _ tileExtent: Double, _ buffer: Double, _ ends: UnsafeMutableRawPointer?,
                                     _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _RecordWriter.query(handle, out, capacity) { (index, writer) throws(CairnError) in
        guard count >= 0, Int(count) <= Int.max / 8 else { throw .invalidArgument }
        let xy = try _Registry.words(pairs, count: 2 * Int(count))
        let tileEnds = try _Registry.words(ends, count: Int(count))
        for k in 0..<Int(count) {
            // Words above Int32.max do not fit a wasm32 Int: refused, not trapped on.
            guard let x = Int(exactly: xy[2 * k]), let y = Int(exactly: xy[2 * k + 1]) else { throw .invalidArgument }
            try index.forEachTileFeature(z: Int(z), x: x, y: y, tileExtent: tileExtent,
                                         buffer: buffer < 0 ? nil : buffer) { f in
                writer.write(id: f.id, count: f.pointCount, Double(f.x), Double(f.y))
            }
            tileEnds[k] = UInt32(writer.total)
        }
    }
}

/// Encodes `count` vector tiles of a clustering whose points carry no properties of their own
/// (`VectorTileEncoder.addClusterFeature`), in one call. The features are records [id, point
/// count, tile x, tile y] (a point count of 1: a point), tile after tile, `ends` (`count` u32)
/// where each tile's records end; `properties` the `ClusterTileProperties` bits (1 cluster_id,
/// 2 feature ids). Each tile's byte length goes to `lengths` (`count` u32; 0 for a tile without
/// features), and the tiles one after another to `out` when they all fit. Returns their total
/// length.
@_expose(wasm, "cairn_mvt_encode_clusters") @_cdecl("cairn_mvt_encode_clusters")
public func cairn_mvt_encode_clusters(_ extent: Int32, _ name: UnsafeMutableRawPointer?, _ nameLength: Int32,
                                      _ properties: Int32, _ records: UnsafeMutableRawPointer?,
                                      _ ends: UnsafeMutableRawPointer?, _ count: Int32,
                                      _ lengths: UnsafeMutableRawPointer?,
                                      _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        guard extent > 0, properties >= 0, properties <= 3, count >= 0, Int(count) <= Int.max / 8 else {
            throw .invalidArgument
        }
        let layer = try _Registry.bytes(name, count: Int(nameLength)).assumingMemoryBound(to: UInt8.self)
        let tileEnds = try _Registry.words(ends, count: Int(count))
        guard let featureCount = count == 0 ? 0 : Int(exactly: tileEnds[Int(count) - 1]),
              featureCount <= Int.max / (8 * _RecordWriter.stride) else { throw .invalidArgument }
        let features = featureCount == 0 ? UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
            : try _Registry.doubles(records, count: featureCount * _RecordWriter.stride)
        let tileLengths = try _Registry.words(lengths, count: Int(count))
        let options = ClusterTileProperties(rawValue: UInt32(properties))
        var tiles: [UInt8] = []
        var start = 0
        for k in 0..<Int(count) {
            guard let end = Int(exactly: tileEnds[k]), end >= start, end <= featureCount else { throw .invalidArgument }
            var encoder = try VectorTileEncoder(name: layer, extent: UInt32(extent))
            for f in start..<end {
                let at = f * _RecordWriter.stride
                let (id, points, x, y) = (features[at], features[at + 1], features[at + 2], features[at + 3])
                guard id >= 0, id <= 9_007_199_254_740_991, id == id.rounded(.down),
                      points >= 1, points <= Double(Int32.max), points == points.rounded(.down),
                      x >= -2_147_483_648, x <= 2_147_483_647, x == x.rounded(.down),
                      y >= -2_147_483_648, y <= 2_147_483_647, y == y.rounded(.down) else { throw .invalidArgument }
                encoder.addClusterFeature(id: UInt64(id), pointCount: Int(points), x: Int32(x), y: Int32(y),
                                          properties: options)
            }
            let tile = encoder.finish()
            guard tiles.count <= Int(Int32.max) - tile.count else { throw .invalidArgument }
            tileLengths[k] = UInt32(tile.count)
            tiles.append(contentsOf: tile)
            start = end
        }
        return try _Registry.answer(tiles, out, capacity)
    }
}

/// The tiles of zoom z that may hold a feature of `cairn_index_tile_extent` with the same
/// extent and buffer: u32 x, y pairs, each tile once, by column then row (order 0) or in PMTiles
/// tile id order (1). Returns how many pairs there are; they are written only when they fit in
/// `capacity` pairs.
@_expose(wasm, "cairn_index_tile_cover") @_cdecl("cairn_index_tile_cover")
public func cairn_index_tile_cover(_ handle: Int32, _ z: Int32, _ tileExtent: Double, _ buffer: Double, _ order: Int32,
                                   _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let index = try _Registry.index(handle)
        guard order == 0 || order == 1, capacity >= 0 else { throw .invalidArgument }
        let pairs = try index.tileCover(z: Int(z), tileExtent: tileExtent, buffer: buffer < 0 ? nil : buffer,
                                        order: order == 1 ? .tileID : .columns)
        let count = pairs.count / 2
        if count > 0, count <= Int(capacity) {
            let target = try _Registry.words(out, count: pairs.count)
            for k in 0..<pairs.count { target[k] = pairs[k] }
        }
        return Int32(count)
    }
}

/// Sorts `count` tiles of zoom z, x, y pairs of u32, into PMTiles tile id (Hilbert) order.
@_expose(wasm, "cairn_tiles_hilbert_sort") @_cdecl("cairn_tiles_hilbert_sort")
public func cairn_tiles_hilbert_sort(_ z: Int32, _ pairs: UnsafeMutableRawPointer?, _ count: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        guard z >= 0, z <= 30, count >= 0, Int(count) <= Int.max / 8 else { throw .invalidArgument }
        let words = try _Registry.words(pairs, count: 2 * Int(count))
        let side = UInt32(1) << UInt32(z)
        for w in words where w >= side { throw .invalidArgument }
        HilbertTileID.sort(z: Int(z), pairs: words, count: Int(count))
        return count
    }
}

/// Starts the directory of a PMTiles archive; returns its handle.
@_expose(wasm, "cairn_pmtiles_create") @_cdecl("cairn_pmtiles_create")
public func cairn_pmtiles_create() -> Int32 {
    _Registry.archives.insert(PMTilesDirectory()) ?? _Registry.fail(.tooManyIndexes(limit: _HandleTable<PMTilesDirectory>.maxSlots))
}

@_expose(wasm, "cairn_pmtiles_destroy") @_cdecl("cairn_pmtiles_destroy")
public func cairn_pmtiles_destroy(_ handle: Int32) -> Int32 {
    _Registry.archives.remove(handle) ? 0 : _Registry.fail(.invalidHandle)
}

/// Adds tile z/x/y's stored bytes (tiles in tile id order); returns 1 when the host must append
/// them to the tile data, 0 when they equal a tile's added before (stored once).
@_expose(wasm, "cairn_pmtiles_add") @_cdecl("cairn_pmtiles_add")
public func cairn_pmtiles_add(_ handle: Int32, _ z: Int32, _ x: Int32, _ y: Int32,
                              _ bytes: UnsafeMutableRawPointer?, _ length: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let archive = try _Registry.archives.object(handle)
        guard z >= 0, z <= 30, x >= 0, y >= 0, x < Int32(1) << z, y < Int32(1) << z else { throw .invalidArgument }
        let id = HilbertTileID.id(z: Int(z), x: UInt32(x), y: UInt32(y))
        return try archive.add(id: id, bytes: try _Registry.bytes(bytes, count: Int(length)).assumingMemoryBound(to: UInt8.self)) ? 1 : 0
    }
}

/// Adds `count` tiles of zoom z in one call, as `cairn_pmtiles_add` adds each: u32 x, y pairs
/// in tile id order, their stored lengths (`count` u32) and bytes one after another. `fresh`
/// (`count` bytes) receives 1 for each tile whose bytes the host must append to the tile data,
/// 0 for one stored before. Nothing is added when any tile is refused. Returns the fresh tiles.
@_expose(wasm, "cairn_pmtiles_add_tiles") @_cdecl("cairn_pmtiles_add_tiles")
public func cairn_pmtiles_add_tiles(_ handle: Int32, _ z: Int32, _ pairs: UnsafeMutableRawPointer?,
                                    _ lengths: UnsafeMutableRawPointer?, _ bytes: UnsafeMutableRawPointer?,
                                    _ count: Int32, _ fresh: UnsafeMutableRawPointer?) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let archive = try _Registry.archives.object(handle)
        guard z >= 0, z <= 30, count >= 0, Int(count) <= Int.max / 8 else { throw .invalidArgument }
        if count == 0 { return 0 }
        let xy = try _Registry.words(pairs, count: 2 * Int(count))
        let sizes = try _Registry.words(lengths, count: Int(count))
        let marks = try _Registry.mutableBytes(fresh, count: Int(count))
        // Every check first, so that a refused call adds nothing (only the first id's order
        // against the tiles added before is the directory's to check).
        let side = UInt32(1) << UInt32(z)
        var ids: [UInt64] = []
        ids.reserveCapacity(Int(count))
        var total = 0
        for k in 0..<Int(count) {
            guard xy[2 * k] < side, xy[2 * k + 1] < side, let size = Int(exactly: sizes[k]), size > 0,
                  size <= Int.max - total else { throw .invalidArgument }
            let id = HilbertTileID.id(z: Int(z), x: xy[2 * k], y: xy[2 * k + 1])
            guard ids.last.map({ $0 < id }) ?? true else { throw .invalidArgument }
            ids.append(id)
            total += size
        }
        let data = try _Registry.bytes(bytes, count: total).assumingMemoryBound(to: UInt8.self)
        var start = 0
        var added: Int32 = 0
        for k in 0..<Int(count) {
            let tile = UnsafeBufferPointer(rebasing: data[start..<(start + Int(sizes[k]))])
            let isNew = try archive.add(id: ids[k], bytes: tile)
            marks[k] = isNew ? 1 : 0
            if isNew { added += 1 }
            start += Int(sizes[k])
        }
        return added
    }
}

/// The number of directory entries.
@_expose(wasm, "cairn_pmtiles_entry_count") @_cdecl("cairn_pmtiles_entry_count")
public func cairn_pmtiles_entry_count(_ handle: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in Int32(try _Registry.archives.object(handle).entryCount) }
}

/// Leaf directory `leaf` of `leafSize` entries each, serialised (uncompressed); returns its length.
@_expose(wasm, "cairn_pmtiles_leaf") @_cdecl("cairn_pmtiles_leaf")
public func cairn_pmtiles_leaf(_ handle: Int32, _ leafSize: Int32, _ leaf: Int32,
                               _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let archive = try _Registry.archives.object(handle)
        let leaves = try archive.leafCount(leafSize: Int(leafSize))
        guard leaf >= 0, Int(leaf) < leaves else { throw .invalidArgument }
        let start = Int(leaf) * Int(leafSize)
        let bytes = try archive.serialize(start..<(start + min(Int(leafSize), archive.entryCount - start)))
        return try _Registry.answer(bytes, out, capacity)
    }
}

/// The root directory, serialised (uncompressed): every entry when `leafSize` is 0, else one
/// entry per leaf of `leafSize` entries, the leaves' stored lengths given as `count` doubles.
@_expose(wasm, "cairn_pmtiles_root") @_cdecl("cairn_pmtiles_root")
public func cairn_pmtiles_root(_ handle: Int32, _ leafSize: Int32, _ leafLengths: UnsafeMutableRawPointer?,
                               _ count: Int32, _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let archive = try _Registry.archives.object(handle)
        if leafSize == 0 { return try _Registry.answer(try archive.serialize(0..<archive.entryCount), out, capacity) }
        let lengths = count == 0 ? UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
            : try _Registry.doubles(leafLengths, count: Int(count))
        return try _Registry.answer(try archive.root(leafSize: Int(leafSize), leafLengths: UnsafeBufferPointer(lengths)), out, capacity)
    }
}

/// The archive's header from 12 doubles: stored lengths of the root directory, metadata and
/// leaf directories; min and max zoom; west, south, east, north; center zoom, longitude,
/// latitude. Returns its length (127).
@_expose(wasm, "cairn_pmtiles_header") @_cdecl("cairn_pmtiles_header")
public func cairn_pmtiles_header(_ handle: Int32, _ fields: UnsafeMutableRawPointer?,
                                 _ out: UnsafeMutableRawPointer?, _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let archive = try _Registry.archives.object(handle)
        let f = try _Registry.doubles(fields, count: 12)
        func length(_ v: Double) throws(CairnError) -> UInt64 {
            guard v >= 0, v <= 9_007_199_254_740_991, v == v.rounded(.down) else { throw .invalidArgument }
            return UInt64(v)
        }
        func zoom(_ v: Double) throws(CairnError) -> UInt8 {
            guard v >= 0, v <= 30, v == v.rounded(.down) else { throw .invalidArgument }
            return UInt8(v)
        }
        var header = PMTilesHeader(directory: archive)
        header.rootLength = try length(f[0])
        header.metadataLength = try length(f[1])
        header.leavesLength = try length(f[2])
        header.minZoom = try zoom(f[3])
        header.maxZoom = try zoom(f[4])
        header.bounds = (f[5], f[6], f[7], f[8])
        header.centerZoom = try zoom(f[9])
        header.center = (f[10], f[11])
        return try _Registry.answer(try header.serialize(), out, capacity)
    }
}
