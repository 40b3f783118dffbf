// Native benchmark: the same clustering the wasm module runs, compiled natively (release), on
// the same points as the wasm benchmark (web/bench: mulberry32 seeds 1 and 2), then map frames,
// Google's screen-space algorithms, scenes and a large cluster manager. Prints figures; asserts
// nothing. `./build.sh bench` runs it beside the wasm benchmarks.
//
//   swift run -c release CairnBench [N] [clustered] [r80] [demo]
//                                  [load | update [kK] [each] | scene | frames [zN]] [--scale F] [--markdown FILE]
//
// N: points to load (default 1,000,000); --scale F multiplies every default size (points,
// markers, items) by F, for a quick run; --markdown FILE also writes the figures as a table
// (web/bench/report.js gives its date and machine line).
import Cairn
#if canImport(Glibc)
import Glibc
#endif

/// mulberry32, as web/bench/generate.js has it, so both benchmarks load the same points.
struct Mulberry32 {
    var state: UInt32
    mutating func next() -> Double {
        state = state &+ 0x6D2B79F5
        var t = (state ^ (state >> 15)) &* (1 | state)
        t = (t &+ ((t ^ (t >> 7)) &* (61 | t))) ^ t
        return Double(t ^ (t >> 14)) / 4_294_967_296
    }
}

/// `value` with `digits` decimals (no Foundation formatting here).
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1
    for _ in 0..<digits { scale *= 10 }
    let n = Int((value * Double(scale)).rounded())
    var fraction = String(n % scale)
    while fraction.count < digits { fraction = "0" + fraction }
    return digits == 0 ? String(n) : "\(n / scale).\(fraction)"
}

func milliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
}

/// The value after `--name` on the command line, if any.
func option(_ name: String) -> String? {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

/// Every default size is multiplied by this (`--scale`).
let scale = option("--scale").flatMap { Double($0) } ?? 1
/// A default size, scaled (at least 1).
func scaled(_ n: Int) -> Int { Swift.max(1, Int((Double(n) * scale).rounded())) }
let markdownPath = option("--markdown")
/// The table's rows: what was measured, and the result.
var rows: [(String, String)] = []

/// `n` with thousands separators.
func grouped(_ n: Int) -> String {
    var digits = String(n), out = ""
    while digits.count > 3 {
        out = "," + digits.suffix(3) + out
        digits = String(digits.dropLast(3))
    }
    return digits + out
}

/// A duration for the table: microseconds below a millisecond.
func duration(_ ms: Double) -> String {
    ms < 1 ? "\(fixed(ms * 1000, 1)) µs" : (ms < 1000 ? "\(fixed(ms, ms < 100 ? 2 : 0)) ms" : "\(fixed(ms / 1000, 2)) s")
}

/// The arguments that are not options nor their values.
let positional = CommandLine.arguments.dropFirst().enumerated()
    .filter { k, _ in !CommandLine.arguments[k].hasPrefix("--") }.map { $0.1 }
let count = positional.compactMap { Int($0) }.first ?? scaled(1_000_000)
/// Blobs of spreads from metres to continents, as web/bench/generate.js makes them (seed 2).
func clusteredPoints(_ n: Int) -> [Double] {
    var r = Mulberry32(state: CommandLine.arguments.contains("demo") ? 20240611 : 2)
    var blobs: [(lng: Double, lat: Double, spread: Double, weight: Double)] = []
    for b in 0..<300 {
        let lng = b % 25 == 0 ? 180 - r.next() * 2 : r.next() * 360 - 180
        let lat = r.next() * 140 - 70
        let spread = pow(10, r.next() * 4.5 - 3.5)
        let w = r.next()
        blobs.append((lng, lat, spread, w * w))
    }
    let total = blobs.reduce(0) { $0 + $1.weight }
    var acc = 0.0
    let cumulative = blobs.map { b -> Double in acc += b.weight / total; return acc }
    var out = [Double](repeating: 0, count: 2 * n)
    for i in 0..<n {
        let u = r.next()
        var lo = 0, hi = cumulative.count - 1
        while lo < hi {
            let mid = (lo + hi) >> 1
            if cumulative[mid] < u { lo = mid + 1 } else { hi = mid }
        }
        let b = blobs[lo]
        var lng = b.lng + (r.next() + r.next() + r.next() - 1.5) / 0.5 * b.spread
        if lng >= 180 { lng -= 360 }
        if lng < -180 { lng += 360 }
        out[2 * i] = lng
        out[2 * i + 1] = max(-85, min(85, b.lat + (r.next() + r.next() + r.next() - 1.5) / 0.5 * b.spread))
    }
    return out
}

let clusteredData = CommandLine.arguments.contains("clustered")
let mode = positional.first { ["load", "update", "scene", "frames"].contains($0) }

/// The uniform points of the wasm benchmark (seed 1).
func uniformPoints(_ n: Int) -> [Double] {
    var rng = Mulberry32(state: 1)
    var points = [Double](repeating: 0, count: 2 * n)
    for i in 0..<n {
        points[2 * i] = rng.next() * 360 - 180
        points[2 * i + 1] = rng.next() * 170 - 85
    }
    return points
}

// `CairnBench scene`: only the 10,000-marker scene frames, for profilers and instruction counters.
if mode == "scene" {
    _ = benchScene(markerCount: scaled(10_000), frames: 1000)
    exit(0)
}
// `CairnBench frames [N] [zN]`: only a dense cluster manager's panning frames (by default
// 300,000 items over the United States at zoom 8, a few thousand drawn), likewise.
if mode == "frames" {
    let zoom = CommandLine.arguments.compactMap { $0.hasPrefix("z") ? Double($0.dropFirst()) : nil }.first ?? 8
    let items = positional.contains { Int($0) != nil } ? count : scaled(300_000)
    benchManagerFrames(items: items, zoom: zoom, frames: 1000)
    exit(0)
}

/// Loads `points` into an index and clusters every zoom; prints and records the times.
func benchLoad(_ points: [Double], clustered: Bool) {
    let start = milliseconds()
    let index = try! HierarchicalClusterIndex(options: ClusterOptions(radius: CommandLine.arguments.contains("r80") ? 80 : 40))
    try! points.withUnsafeBufferPointer { try index.add(lngLat: $0) }
    let added = milliseconds()
    var perZoom: [String] = []
    var left = 1
    while left > 0 {
        let s = milliseconds()
        left = index.buildStep()
        perZoom.append(String(Int(milliseconds() - s)))
    }
    let built = milliseconds()
    let kind = clustered ? "clustered" : "uniform"
    print("native, \(kind), \(count) points: add \(Int(added - start)) ms, cluster zooms 0–16 \(Int(built - added)) ms, " +
          "\(index.clusterCount) clusters")
    print("  ms per zoom, 16 down to 0: \(perZoom.joined(separator: " "))")
    rows.append(("load, \(kind) \(grouped(count)) points: add; cluster zooms 0–16",
                 "\(duration(added - start)); \(duration(built - added))"))
}

// `CairnBench load [clustered]`: only the load of one data set, for profilers.
if mode == "load" {
    benchLoad(clusteredData ? clusteredPoints(count) : uniformPoints(count), clustered: clusteredData)
    exit(0)
}
// `CairnBench update [clustered] [kK]`: batches of K points (default 10) of a loaded index moved
// by up to about 100 m, each followed by a query of the world at zoom 4, as
// web/bench/update-bench.js does, for profilers; `each` prints every batch's time too (a batch
// whose repair ran out of budget and built afresh stands out); `fleet` moves the same K points
// in every batch.
if mode == "update" {
    let moved = CommandLine.arguments.compactMap { $0.hasPrefix("k") ? Int($0.dropFirst()) : nil }.first ?? 10
    let fleet = CommandLine.arguments.contains("fleet")
    var points = clusteredData ? clusteredPoints(count) : uniformPoints(count)
    let index = try! HierarchicalClusterIndex(options: ClusterOptions())
    try! points.withUnsafeBufferPointer { try index.add(lngLat: $0) }
    while index.buildStep() > 0 {}
    var r = Mulberry32(state: 42)
    var times: [Double] = [], queries: [Double] = []
    for _ in 0..<scaled(40) {
        var ids: [Int32] = [], to: [Double] = []
        var chosen = Set<Int32>()
        while ids.count < moved {
            let id = fleet ? Int32(ids.count * (count / moved)) : Int32(r.next() * Double(count))
            guard chosen.insert(id).inserted else { continue }
            let lng = points[2 * Int(id)] + (r.next() - 0.5) * 0.002
            let lat = max(-85, min(85, points[2 * Int(id) + 1] + (r.next() - 0.5) * 0.002))
            ids.append(id)
            to += [lng, lat]
            points[2 * Int(id)] = lng
            points[2 * Int(id) + 1] = lat
        }
        let start = milliseconds()
        let none = UnsafeBufferPointer<Double>(start: nil, count: 0)
        try! ids.withUnsafeBufferPointer { ids in
            try to.withUnsafeBufferPointer { try index.edit(adding: none, removing: UnsafeBufferPointer(start: nil, count: 0), moving: ids, to: $0) }
        }
        times.append(milliseconds() - start)
        if CommandLine.arguments.contains("each") { print("batch \(times.count): \(duration(times[times.count - 1]))") }
        let asked = milliseconds()
        _ = try! index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: 4)
        queries.append(milliseconds() - asked)
    }
    times.sort()
    queries.sort()
    print("native, \(clusteredData ? "clustered" : "uniform"), \(count) points, \(moved) moved: median \(duration(times[times.count / 2])), " +
          "fastest \(duration(times[0])), slowest \(duration(times[times.count - 1])); " +
          "the first query after it (the world at zoom 4): median \(duration(queries[queries.count / 2]))")
    exit(0)
}
if !clusteredData { benchLoad(uniformPoints(count), clustered: false) }
benchLoad(clusteredPoints(count), clustered: true)

// Map frames: the work of one animation frame (a batch of pointer moves, then advancing the
// camera and listing the covering tiles), flat and tilted, at two view sizes.
func benchFrames(width: Double, height: Double, bearing: Double, tilt: Double) {
    let map = try! MapController(camera: CameraPosition(latitude: 40.7, longitude: -74, zoom: 12, bearing: bearing,
                                                        tilt: tilt), viewport: Viewport(width: width, height: height))
    let frames = 20_000
    var t = 0.0, tiles = 0
    try! map.handle(.pointerDown(id: 1, kind: .touch, x: width / 2, y: height / 2, button: 0, modifiers: 0, time: 0))
    let s = milliseconds()
    for f in 0..<frames {
        for k in 0..<4 {
            t += 0.004
            let x = width / 2 + 100 * _sinApprox(Double(f * 4 + k) * 0.01)
            try! map.handle(.pointerMove(id: 1, x: x, y: height / 2, time: t))
        }
        try! map.advance(to: t)
        tiles = map.coveringTiles.count
        _ = map.drainEvents()
    }
    let us = (milliseconds() - s) * 1000 / Double(frames)
    let label = "\(Int(width))×\(Int(height)) bearing \(Int(bearing)) tilt \(Int(tilt))"
    print("native map frame, \(label): \(fixed(us, 1)) µs (4 pointer moves + advance + \(tiles) tiles)")
    rows.append(("map frame, \(Int(width))×\(Int(height)), \(tilt == 0 ? "flat" : "tilt \(Int(tilt)), bearing \(Int(bearing))"): " +
                 "4 pointer moves, advance, covering tiles", "\(duration(us / 1000)) (\(tiles) tiles)"))
}

/// A cheap periodic wiggle for the benchmark's pointer path (no libm needed here).
func _sinApprox(_ x: Double) -> Double {
    let r = x - Double(Int(x / 6.283185307179586)) * 6.283185307179586
    return r < 3.141592653589793 ? r / 3.141592653589793 - 0.5 : 1.5 - r / 3.141592653589793
}

for (w, h) in [(800.0, 600.0), (1920.0, 1080.0)] {
    benchFrames(width: w, height: h, bearing: 0, tilt: 0)
    benchFrames(width: w, height: h, bearing: 30, tilt: 60)
}

// Google's screen-space algorithms, re-run at each integer zoom change: 100,000 items.
do {
    var items = ClusterItemPositions()
    var r = Mulberry32(state: CommandLine.arguments.contains("demo") ? 20240611 : 2)
    let screenItems = scaled(100_000)
    for _ in 0..<screenItems { try! items.append(latitude: r.next() * 30 + 30, longitude: r.next() * 40 - 10) }
    var groups = ClusterGroups()
    for zoom in [4.0, 8, 12] {
        let s1 = milliseconds()
        try! DistanceClustering().cluster(items, zoom: zoom, into: &groups)
        let distanceMs = milliseconds() - s1
        let distanceCount = groups.count
        let s2 = milliseconds()
        try! GridClustering().cluster(items, zoom: zoom, into: &groups)
        let gridMs = milliseconds() - s2
        print("native screen clustering, \(screenItems) items, zoom \(Int(zoom)): distance \(Int(distanceMs)) ms " +
              "(\(distanceCount) clusters), grid \(Int(gridMs)) ms (\(groups.count) cells)")
        rows.append(("screen-space clustering of \(grouped(screenItems)) items at zoom \(Int(zoom)): distance; grid",
                     "\(duration(distanceMs)) (\(grouped(distanceCount)) clusters); \(duration(gridMs)) (\(grouped(groups.count)) cells)"))
    }
}

// Scene frames: markers placed, collided, ordered and indexed for taps; and a cluster manager
// of 1,000,000 items (hierarchical) drawn for a viewport.
/// Frames of a scene with `markerCount` markers in view, a quarter of them optional; prints the
/// time per frame and per tap. Returns the random generator for the next use.
func benchScene(markerCount: Int, frames: Int) -> Mulberry32 {
    let map = try! MapController(camera: CameraPosition(latitude: 0, longitude: 0, zoom: 14),
                                 viewport: Viewport(width: 1600, height: 1200))
    var r = Mulberry32(state: 3)
    let span = 1600.0 / (256 * 16384) * 360
    var batch: [MarkerProperties] = []
    for k in 0..<markerCount {
        var m = MarkerProperties(latitude: (r.next() - 0.5) * span * 0.7, longitude: (r.next() - 0.5) * span)
        if k % 4 == 0 { m.collision = .optionalAndHidesLowerPriority }
        batch.append(m)
    }
    _ = try! map.addMarkers(batch)
    var t = 0.0
    try! map.advance(to: t)
    let s = milliseconds()
    for _ in 0..<frames {
        t += 0.016
        try! map.advance(to: t)
    }
    let frameMs = (milliseconds() - s) / Double(frames)
    let h = milliseconds()
    for k in 0..<1000 { _ = map.scene.hit(x: Double(k % 40) * 40, y: Double(k / 40) * 48) }
    let hitUs = (milliseconds() - h)  // 1000 taps: milliseconds in all are microseconds each
    print("native scene, \(markerCount) markers in view (a quarter optional): \(fixed(frameMs, 2)) ms per frame " +
          "(\(map.scene.drawnCount) drawn, \(map.scene.hiddenCount) hidden), a tap \(fixed(hitUs, 1)) µs")
    rows.append(("scene, 1600×1200, \(grouped(markerCount)) markers in view (a quarter optional): a frame; a tap",
                 "\(duration(frameMs)) (\(grouped(map.scene.drawnCount)) drawn, \(grouped(map.scene.hiddenCount)) hidden); " +
                 duration(hitUs / 1000)))
    return r
}

for markerCount in [scaled(10_000), scaled(100_000)] {
    var r = benchScene(markerCount: markerCount, frames: 10)
    if markerCount < scaled(100_000) { continue }
    let managerItems = scaled(1_000_000)
    let clustered = try! MapController(camera: CameraPosition(latitude: 40, longitude: -100, zoom: 5),
                                       viewport: Viewport(width: 1600, height: 1200))
    let m = try! clustered.addClusterManager(.hierarchical)
    var lats: [Double] = [], lngs: [Double] = []
    for _ in 0..<managerItems {
        lats.append(25 + r.next() * 24)
        lngs.append(-125 + r.next() * 58)
    }
    _ = try! clustered.addClusterItems(m, latitudes: lats, longitudes: lngs, icons: [Int32](repeating: -1, count: lats.count))
    let c = milliseconds()
    try! clustered.cluster(m)
    let clusterMs = milliseconds() - c
    var worst = 0.0
    for (k, zoom) in [3.0, 5, 7, 9, 11].enumerated() {
        try! clustered.moveCamera(to: CameraPosition(latitude: 40, longitude: -100, zoom: zoom))
        try! clustered.advance(to: Double(k) + 1)
        let f = milliseconds()
        try! clustered.advance(to: Double(k) + 1.016)
        let frameMs = milliseconds() - f
        worst = Swift.max(worst, frameMs)
        print("  zoom \(Int(zoom)): \(Int(frameMs * 1000)) µs, \(clustered.scene.drawnCount) drawn")
        rows.append(("cluster manager of \(grouped(managerItems)) items (hierarchical, over the United States): " +
                     "the frame after a jump to zoom \(Int(zoom))",
                     "\(duration(frameMs)) (\(grouped(clustered.scene.drawnCount)) drawn)"))
    }
    print("native cluster manager, \(managerItems) items: cluster() \(Int(clusterMs)) ms, worst frame over zooms 3–11 " +
          "\(fixed(worst, 1)) ms")
    rows.insert(("cluster manager of \(grouped(managerItems)) items (hierarchical, over the United States): cluster()",
                 duration(clusterMs)), at: rows.count - 5)
}

if let path = markdownPath { writeMarkdown(path) }

/// The first line a shell command prints, or nil.
func commandOutput(_ command: String) -> String? {
    guard let pipe = popen(command, "r") else { return nil }
    var line = [CChar](repeating: 0, count: 1024)
    let read = fgets(&line, Int32(line.count), pipe) != nil
    _ = pclose(pipe)
    guard read else { return nil }
    let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    return text.hasSuffix("\n") ? String(text.dropLast()) : text
}

/// Writes the figures as a section of docs/performance.md, with the date and machine line every
/// benchmark's table has (web/bench/report.js, run from the repository's root).
func writeMarkdown(_ path: String) {
    let machine = commandOutput("node web/bench/report.js machine --swift 2>/dev/null")
        ?? "Machine not described (node web/bench/report.js did not run)."
    var text = "## Native: the engine in Swift\n\n*\(machine)*\n\n"
    text += "`swift run -c release CairnBench`: the engine compiled natively (release), without WebAssembly: the same " +
        "seeded points as the clustering table, map frames, Google's screen-space algorithms, scenes of markers, and a " +
        "cluster manager's frames. The figures a host never sees alone through WebAssembly (a tap's hit test) are here.\n\n"
    text += "| measurement | result |\n| --- | --- |\n"
    for (what, result) in rows { text += "| \(what) | \(result) |\n" }
    guard let file = fopen(path, "w") else {
        print("CairnBench: cannot write \(path)")
        exit(1)
    }
    fputs(text, file)
    fclose(file)
    print("wrote \(path)")
}

/// Panning frames of a hierarchical cluster manager with `items` uniform over the United States.
func benchManagerFrames(items: Int, zoom: Double, frames: Int) {
    let map = try! MapController(camera: CameraPosition(latitude: 40, longitude: -100, zoom: zoom),
                                 viewport: Viewport(width: 1600, height: 1200))
    let m = try! map.addClusterManager(.hierarchical)
    var r = Mulberry32(state: 5)
    var lats: [Double] = [], lngs: [Double] = []
    for _ in 0..<items {
        lats.append(25 + r.next() * 24)
        lngs.append(-125 + r.next() * 58)
    }
    _ = try! map.addClusterItems(m, latitudes: lats, longitudes: lngs, icons: [Int32](repeating: -1, count: items))
    try! map.cluster(m)
    try! map.advance(to: 1)
    try! map.advance(to: 2)
    var t = 2.0
    try! map.handle(.pointerDown(id: 1, kind: .mouse, x: 800, y: 600, button: 0, modifiers: 0, time: t))
    let s = milliseconds()
    for f in 0..<frames {
        t += 1.0 / 60
        try! map.handle(.pointerMove(id: 1, x: 800 + 40 * _sinApprox(Double(f) * 0.1), y: 600, time: t))
        try! map.advance(to: t)
    }
    print("native cluster manager frames, \(items) items, zoom \(Int(zoom)): \(fixed((milliseconds() - s) / Double(frames), 2)) ms " +
          "per panning frame, \(map.scene.drawnCount) drawn")
}
