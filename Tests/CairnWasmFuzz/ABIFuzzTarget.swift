import Cairn
import CairnWasm

// A coverage-guided fuzz target over the C ABI, for libFuzzer (`./build.sh fuzz-native`): the
// input's bytes are a program of export calls, each byte choosing an export and the next ones
// its arguments: handles and ids the program made (live or destroyed) or made up, numbers at
// the engine's edges or raw, buffers it allocated (at or past their start), freed, null or
// anywhere. Buffers are filled from the input too. Every input ends by destroying and freeing
// all it made, so that what AddressSanitizer reports as leaked, the engine leaked.
//
// It is no SwiftPM target: build.sh compiles it with the engine's sources and
// `-sanitize=fuzzer,address`, which `swift test` does not use.

/// The input, read a value at a time; past its end every read gives zeros.
private struct Program {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    var done: Bool { at >= bytes.count }

    mutating func byte() -> UInt8 {
        guard at < bytes.count else { return 0 }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func raw<T: FixedWidthInteger>(_: T.Type) -> T {
        var v: T = 0
        for i in 0..<(T.bitWidth / 8) { v |= T(truncatingIfNeeded: byte()) << (8 * i) }
        return v
    }

    /// Small whole numbers mostly, or an edge, or four raw bytes.
    mutating func int32() -> Int32 {
        let mode = byte()
        switch mode {
        case 0..<160: return Int32(mode % 40) - 2
        case 160..<224: return Program.edgeInts[Int(mode - 160) % Program.edgeInts.count]
        default: return raw(Int32.self)
        }
    }

    /// A double: an edge, a whole number, a value in the world's range, or eight raw bytes.
    mutating func double() -> Double {
        let mode = byte()
        switch mode {
        case 0..<48: return Program.edgeDoubles[Int(mode) % Program.edgeDoubles.count]
        case 48..<112: return Double(Int(mode) - 64)
        case 112..<240: return (Double(raw(UInt16.self)) / 65535 - 0.5) * 360
        default: return Double(bitPattern: raw(UInt64.self))
        }
    }

    static let edgeInts: [Int32] = [0, 1, -1, 2, 3, 4, 8, 16, 30, 31, 32, 255, 256, 1023, 1024, 1025, 4096, 65535,
                                    65536, 1 << 24, (1 << 24) + 1, 1 << 30, .max, .min, .min + 1, -2]
    static let edgeDoubles: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, 1, -1, 0.5, 5e-324, 1e-300, 1e300,
                                        -1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 85.0511287798,
                                        -85.0511287798, 90, -90, 90.000001, 180, -180, 180.000001, 360, 22, 30, 31,
                                        4096, 4097, 2147483647, 2147483648, -2147483649, 4294967296, 9007199254740991,
                                        9007199254740992, 1e21, 16777216, 16777217, 1024, 2, 3, 20, 40]
}

/// What a program made: handles, ids and buffers, live and gone.
private struct World {
    var indexes: [Int32] = []
    var maps: [Int32] = []
    var managers: [(map: Int32, number: Int32)] = []
    var gone: [Int32] = []
    var ids: [Double] = []
    var buffers: [(pointer: UnsafeMutableRawPointer, bytes: Int)] = []
    var freed: [UInt] = []

    /// Most buffer bytes one input allocates: large enough for thousands of items.
    static let maximumBufferBytes = 1 << 20

    mutating func remember(_ id: Double) {
        if ids.count >= 256 { ids.removeFirst(ids.count - 255) }
        ids.append(id)
    }

    mutating func handle(_ live: [Int32], _ p: inout Program) -> Int32 {
        let mode = p.byte()
        if mode < 200, !live.isEmpty { return live[Int(mode) % live.count] }
        if mode < 230, !gone.isEmpty { return gone[Int(mode) % gone.count] }
        return p.int32()
    }

    mutating func index(_ p: inout Program) -> Int32 { handle(indexes, &p) }
    mutating func map(_ p: inout Program) -> Int32 { handle(maps, &p) }

    mutating func manager(_ p: inout Program) -> Int32 {
        let numbers = managers.map(\.number)
        return handle(numbers, &p)
    }

    mutating func id(_ p: inout Program) -> Double {
        let mode = p.byte()
        if mode < 200, !ids.isEmpty { return ids[Int(mode) % ids.count] + (mode % 16 == 0 ? 1 : 0) }
        return p.double()
    }

    /// A pointer: a buffer at its start mostly, or past it, freed, null, or anywhere.
    mutating func pointer(_ p: inout Program) -> (UnsafeMutableRawPointer?, Int) {
        let mode = p.byte()
        if mode < 200, !buffers.isEmpty {
            let b = buffers[Int(mode) % buffers.count]
            return (b.pointer, b.bytes)
        }
        if mode < 215, !buffers.isEmpty {
            let b = buffers[Int(mode) % buffers.count]
            let offset = [1, 8, b.bytes - 8, b.bytes, b.bytes + 8][Int(mode) % 5]
            return (b.pointer + offset, b.bytes - offset)
        }
        if mode < 230, !freed.isEmpty { return (UnsafeMutableRawPointer(bitPattern: freed[Int(mode) % freed.count]), 0) }
        if mode < 240 { return (nil, 0) }
        return (UnsafeMutableRawPointer(bitPattern: UInt(truncatingIfNeeded: p.raw(UInt64.self)) | 1), 0)
    }

    /// A count for a buffer of `bytes`: records of `stride` doubles that fit, or any int.
    func count(_ bytes: Int, stride: Int, _ p: inout Program) -> Int32 {
        let fits = Swift.max(0, bytes / (8 * stride))
        let mode = p.byte()
        if mode < 128, fits > 0 { return Int32(1 + Int(mode) % Swift.min(fits, 128)) }
        if mode < 192 { return Int32(clamping: fits) }
        return p.int32()
    }

    /// Fills a buffer's first doubles from the program.
    func fill(_ pointer: UnsafeMutableRawPointer?, _ bytes: Int, _ p: inout Program) {
        guard let pointer, bytes >= 8, buffers.contains(where: { $0.pointer == pointer }) else { return }
        let n = Swift.min(bytes / 8, Int(p.byte()) * 4)
        let doubles = pointer.assumingMemoryBound(to: Double.self)
        // A run of one value (a pile of points), or values read one by one.
        if p.byte() < 64 {
            let v = p.double()
            for i in 0..<n { doubles[i] = v }
        } else {
            for i in 0..<n { doubles[i] = p.done ? Double(i % 7) : p.double() }
        }
    }

    /// Destroys and frees what the program made.
    mutating func clear() {
        for h in maps { _ = cairn_map_destroy(h) }
        for h in indexes { _ = cairn_index_destroy(h) }
        for b in buffers { _ = cairn_free(b.pointer) }
        self = World()
    }
}

private var time = 0.0

/// Runs one call chosen by the next byte.
private func step(_ p: inout Program, _ w: inout World) {
    let op = p.byte() % 72
    switch op {
    case 0:
        var bytes = Int(p.raw(UInt16.self)) * 16 + 8
        if w.buffers.reduce(0, { $0 + $1.bytes }) + bytes > World.maximumBufferBytes { bytes = 8 }
        if let b = cairn_alloc(bytes) { w.buffers.append((b, bytes)) }
    case 1:
        let (pointer, _) = w.pointer(&p)
        if cairn_free(pointer) == 0, let pointer {
            w.buffers.removeAll { $0.pointer == pointer }
            w.freed.append(UInt(bitPattern: pointer))
        }
    case 2:
        // Sizes the allocator refuses (not positive, above the limit); large ones it would give are not asked for.
        let bytes = Int(p.int32()) << Int(p.byte() % 8)
        if bytes <= 1 << 16 || bytes > Int(cairn_buffer_limit()) { _ = cairn_alloc(bytes).map { cairn_free($0) } }
    case 3:
        let h = cairn_index_create(p.double(), p.double(), p.int32(), p.int32(), p.int32())
        if h > 0 { w.indexes.append(h) }
    case 4:
        let h = w.index(&p)
        if cairn_index_destroy(h) == 0 { w.indexes.removeAll { $0 == h }; w.gone.append(h) }
    case 5: _ = cairn_index_reserve(w.index(&p), p.int32() % 100_000)
    case 6:
        let h = w.index(&p)
        let (pointer, bytes) = w.pointer(&p)
        w.fill(pointer, bytes, &p)
        _ = cairn_index_add(h, pointer, w.count(bytes, stride: 2, &p))
    case 7:
        let h = w.index(&p)
        for _ in 0..<(Int(p.byte()) % 32) where cairn_index_build_step(h) > 0 {}
    case 8: _ = cairn_index_point_count(w.index(&p)) &+ cairn_index_cluster_count(w.index(&p))
    case 9:
        let h = w.index(&p)
        let (west, south, east, north, zoom) = (p.double(), p.double(), p.double(), p.double(), p.double())
        let (out, bytes) = w.pointer(&p)
        let n = cairn_index_clusters(h, west, south, east, north, zoom, out, w.count(bytes, stride: 4, &p))
        if n > 0, let out, w.buffers.contains(where: { $0.pointer == out }) {
            for k in 0..<Swift.min(Int(n), bytes / 32, 16) { w.remember(out.load(fromByteOffset: 32 * k, as: Double.self)) }
        }
    case 10:
        let (h, id) = (w.index(&p), w.id(&p))
        let (out, bytes) = w.pointer(&p)
        _ = cairn_index_children(h, id, out, w.count(bytes, stride: 4, &p))
    case 11:
        let (h, id, limit, offset) = (w.index(&p), w.id(&p), p.double(), p.double())
        let (out, bytes) = w.pointer(&p)
        _ = cairn_index_leaves(h, id, limit, offset, out, w.count(bytes, stride: 4, &p))
    case 12: _ = cairn_index_expansion_zoom(w.index(&p), w.id(&p))
    case 13:
        let (h, z, x, y) = (w.index(&p), p.int32(), p.int32(), p.int32())
        let (out, bytes) = w.pointer(&p)
        _ = cairn_index_tile(h, z, x, y, out, w.count(bytes, stride: 4, &p))
    case 14:
        let (h, operation) = (w.index(&p), p.int32())
        let (values, bytes) = w.pointer(&p)
        w.fill(values, bytes, &p)
        _ = cairn_index_aggregate_add(h, operation, values, w.count(bytes, stride: 1, &p))
    case 15:
        let (h, column) = (w.index(&p), p.int32())
        let (ids, bytes) = w.pointer(&p)
        w.fill(ids, bytes, &p)
        let count = w.count(bytes, stride: 1, &p)
        _ = cairn_index_aggregate_values(h, column, ids, count, w.pointer(&p).0)
    case 16:
        let h = cairn_map_create(p.double(), p.double(), p.double(), p.double(), p.double(), p.double(), p.double())
        if h > 0 { w.maps.append(h) }
    case 17:
        let h = w.map(&p)
        if cairn_map_destroy(h) == 0 {
            w.maps.removeAll { $0 == h }
            w.managers.removeAll { $0.map == h }
            w.gone.append(h)
        }
    case 18: _ = cairn_map_layout(p.int32())
    case 19: _ = cairn_map_set_viewport(w.map(&p), p.double(), p.double(), p.double(), p.double(), p.double(), p.double())
    case 20: _ = cairn_map_set_limits(w.map(&p), p.double(), p.double(), p.double(), p.int32())
    case 21: _ = cairn_map_set_settings(w.map(&p), p.int32())
    case 22:
        let h = w.map(&p)
        let (records, bytes) = w.pointer(&p)
        w.fill(records, bytes, &p)
        _ = cairn_map_push_events(h, records, w.count(bytes, stride: 9, &p))
    case 23, 24:
        let h = w.map(&p)
        time += Double(p.byte()) / 100
        let (out, bytes) = w.pointer(&p)
        _ = cairn_map_frame(h, p.byte() < 240 ? time : p.double(), out, w.count(bytes, stride: 1, &p))
    case 25: _ = cairn_map_move_camera(w.map(&p), p.double(), p.double(), p.double(), p.double(), p.double())
    case 26: _ = cairn_map_animate_camera(w.map(&p), p.double(), p.double(), p.double(), p.double(), p.double(), p.double(), p.int32())
    case 27: _ = cairn_map_show_bounds(w.map(&p), p.double(), p.double(), p.double(), p.double(), p.double(), p.double())
    case 28: _ = cairn_map_zoom_by(w.map(&p), p.double(), p.double(), p.double(), p.double())
    case 29: _ = cairn_map_stop_animation(w.map(&p))
    case 30: _ = cairn_map_set_my_location(w.map(&p), p.double(), p.double(), p.double())
    case 31:
        let (h, lat, lng, altitude, mode) = (w.map(&p), p.double(), p.double(), p.double(), p.int32())
        _ = cairn_map_screen_point(h, lat, lng, altitude, mode, w.pointer(&p).0)
    case 32:
        let (h, x, y) = (w.map(&p), p.double(), p.double())
        _ = cairn_map_coordinate(h, x, y, w.pointer(&p).0)
    case 33:
        let icon = cairn_map_register_icon(w.map(&p), p.double(), p.double(), p.double(), p.double(), p.double(),
                                           p.double(), p.double(), p.double())
        if icon >= 0 { w.remember(Double(icon)) }
    case 34, 35:
        let h = w.map(&p)
        let (records, bytes) = w.pointer(&p)
        w.fill(records, bytes, &p)
        let count = w.count(bytes, stride: Int(cairn_map_layout(5)), &p)
        let (ids, idBytes) = w.pointer(&p)
        let n = cairn_map_add_markers(h, records, count, ids)
        if n > 0, let ids { for k in 0..<Swift.min(Int(n), idBytes / 8, 16) { w.remember(ids.load(fromByteOffset: 8 * k, as: Double.self)) } }
    case 36:
        let (h, id) = (w.map(&p), w.id(&p))
        let (record, bytes) = w.pointer(&p)
        w.fill(record, bytes, &p)
        _ = cairn_map_update_marker(h, id, record)
    case 37: _ = cairn_map_remove_marker(w.map(&p), w.id(&p))
    case 38: _ = cairn_map_clear_markers(w.map(&p))
    case 39: _ = cairn_map_select_marker(w.map(&p), w.id(&p))
    case 40: _ = cairn_map_select_cluster_item(w.map(&p), w.manager(&p), w.id(&p))
    case 41:
        let (h, id) = (w.map(&p), w.id(&p))
        _ = cairn_map_marker_anchor(h, id, w.pointer(&p).0)
    case 42: _ = cairn_map_selection(w.map(&p), w.pointer(&p).0)
    case 43:
        let h = w.map(&p)
        let (corners, bytes) = w.pointer(&p)
        w.fill(corners, bytes, &p)
        let building = cairn_map_add_indoor_building(h, corners, w.count(bytes, stride: 2, &p), p.int32(), p.int32())
        if building >= 0 { w.remember(Double(building)) }
    case 44:
        let (h, id) = (w.map(&p), w.id(&p))
        _ = cairn_map_remove_indoor_building(h, id.isFinite ? Int32(clamping: Int(Swift.max(-1e18, Swift.min(1e18, id)))) : -1)
    case 45: _ = cairn_map_activate_indoor_level(w.map(&p), p.int32(), p.int32())
    case 46: _ = cairn_map_set_info_window_size(w.map(&p), p.double(), p.double())
    case 47: _ = cairn_map_answer_tap(w.map(&p), p.int32())
    case 48, 49:
        let h = w.map(&p)
        let number = cairn_map_add_cluster_manager(h, p.int32(), p.int32(), p.double(), p.double())
        if number >= 0 { w.managers.append((h, number)) }
    case 50:
        let (h, m) = (w.map(&p), w.manager(&p))
        if cairn_map_remove_cluster_manager(h, m) == 0 { w.managers.removeAll { $0 == (h, m) } }
    case 51:
        let (h, m) = (w.map(&p), w.manager(&p))
        let (buckets, bytes) = w.pointer(&p)
        w.fill(buckets, bytes, &p)
        let (colors, _) = w.pointer(&p)
        _ = cairn_map_set_cluster_buckets(h, m, buckets, colors, w.count(bytes, stride: 1, &p))
    case 52, 53:
        let (h, m) = (w.map(&p), w.manager(&p))
        let (records, bytes) = w.pointer(&p)
        w.fill(records, bytes, &p)
        let first = cairn_map_add_cluster_items(h, m, records, w.count(bytes, stride: 3 + Int(p.byte() % 3), &p))
        if first >= 0 { w.remember(first) }
    case 54, 55:
        let (h, m) = (w.map(&p), w.manager(&p))
        let (lngLat, bytes) = w.pointer(&p)
        w.fill(lngLat, bytes, &p)
        let first = cairn_map_add_cluster_coordinates(h, m, lngLat, w.count(bytes, stride: 2, &p), p.int32())
        if first >= 0 { w.remember(first) }
    case 56: _ = cairn_map_remove_cluster_item(w.map(&p), w.manager(&p), w.id(&p))
    case 57: _ = cairn_map_move_cluster_item(w.map(&p), w.manager(&p), w.id(&p), p.double(), p.double())
    case 58: _ = cairn_map_clear_cluster_items(w.map(&p), w.manager(&p))
    case 59: _ = cairn_map_cluster(w.map(&p), w.manager(&p))
    case 60: _ = cairn_map_cluster_begin(w.map(&p), w.manager(&p))
    case 61:
        let (h, m) = (w.map(&p), w.manager(&p))
        for _ in 0..<(Int(p.byte()) % 32) where cairn_map_cluster_step(h, m) > 0 {}
    case 62: _ = cairn_map_set_cluster_animation(w.map(&p), w.manager(&p), p.int32())
    case 63:
        let (h, m, id, limit, offset) = (w.map(&p), w.manager(&p), w.id(&p), p.int32(), p.int32())
        let (out, bytes) = w.pointer(&p)
        _ = cairn_map_cluster_leaves(h, m, id, limit, offset, out, w.count(bytes, stride: 1, &p))
    case 64: _ = cairn_map_set_cluster_hierarchy(w.map(&p), w.manager(&p), p.double(), p.double(), p.double(), p.double())
    case 65:
        let (h, m) = (w.map(&p), w.manager(&p))
        let (operations, bytes) = w.pointer(&p)
        w.fill(operations, bytes, &p)
        _ = cairn_map_set_cluster_aggregates(h, m, operations, w.count(bytes, stride: 1, &p))
    case 66:
        let (h, m, id) = (w.map(&p), w.manager(&p), w.id(&p))
        _ = cairn_map_cluster_aggregates(h, m, id, w.pointer(&p).0)
    case 67:
        let (h, m, id) = (w.map(&p), w.manager(&p), w.id(&p))
        let (out, bytes) = w.pointer(&p)
        let n = cairn_map_cluster_children(h, m, id, out, w.count(bytes, stride: 1, &p))
        if n > 0, let out, w.buffers.contains(where: { $0.pointer == out }) {
            for k in 0..<Swift.min(Int(n), bytes / 40, 16) { w.remember(out.load(fromByteOffset: 40 * k + 8, as: Double.self)) }
        }
    case 68: _ = cairn_map_cluster_expansion_zoom(w.map(&p), w.manager(&p), w.id(&p))
    case 69:
        let (h, m, id) = (w.map(&p), w.manager(&p), w.id(&p))
        _ = cairn_map_cluster_bounds(h, m, id, w.pointer(&p).0)
    case 70:
        let (h, id) = (w.index(&p), w.id(&p))
        let (out, bytes) = w.pointer(&p)
        _ = cairn_index_reduce_children(h, id, out, w.count(bytes, stride: 4, &p))
    default:
        _ = cairn_abi_version() &+ cairn_record_stride() &+ cairn_buffer_limit() &+ cairn_status_count()
        _ = cairn_last_error_detail()
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var program = Program(bytes: UnsafeBufferPointer(start: data, count: size))
    var world = World()
    // A few buffers to start with, so that short programs reach past argument checks.
    for bytes in [64, 4096, 65536] { if let b = cairn_alloc(bytes) { world.buffers.append((b, bytes)) } }
    time = 0
    var calls = 0
    while !program.done && calls < 4096 {
        step(&program, &world)
        calls += 1
    }
    world.clear()
    return 0
}
