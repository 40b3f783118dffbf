// Native benchmark: the same clustering the wasm module runs, compiled natively (release).
// Prints figures; asserts nothing. `./build.sh bench` runs it beside the wasm benchmark.
import Cairn
#if canImport(Glibc)
import Glibc
#endif

/// Small deterministic generator (mulberry32), the same as the JS benchmark's.
struct Mulberry32 {
    var state: UInt32
    mutating func next() -> Double {
        state = state &+ 0x6D2B79F5
        var t = (state ^ (state >> 15)) &* (1 | state)
        t = (t &+ ((t ^ (t >> 7)) &* (61 | t))) ^ t
        return Double(t ^ (t >> 14)) / 4_294_967_296
    }
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
}

func uniform(_ n: Int) -> [Double] {
    var rng = Mulberry32(state: 42)
    var out = [Double](repeating: 0, count: 2 * n)
    for i in 0..<n {
        out[2 * i] = rng.next() * 360 - 180
        out[2 * i + 1] = rng.next() * 170 - 85
    }
    return out
}

/// Gaussian-ish blobs of different spreads, some across the antimeridian.
func clustered(_ n: Int) -> [Double] {
    var rng = Mulberry32(state: 7)
    var out = [Double](repeating: 0, count: 2 * n)
    for i in 0..<n {
        let b = Int(rng.next() * 1000)
        let cx = Double((b * 7919) % 3600) / 10 - 180
        let cy = Double((b * 104_729) % 1400) / 10 - 70
        let spread = 0.1 + Double(b % 10) * 0.3
        func g(_ rng: inout Mulberry32) -> Double { rng.next() + rng.next() + rng.next() - 1.5 }
        out[2 * i] = WebMercator.wrapLongitude(cx + g(&rng) * spread)
        out[2 * i + 1] = max(-85, min(85, cy + g(&rng) * spread))
    }
    return out
}

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1_000_000 : 1_000_000
let only = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : ""
for name in ["uniform", "clustered"] where only.isEmpty || only == name {
    let points = name == "uniform" ? uniform(count) : clustered(count)
    let start = now()
    let index = try! HierarchicalClusterIndex()
    try! points.withUnsafeBufferPointer { try index.add(lngLat: $0) }
    let added = now()
    var steps: [String] = []
    var left = 1
    while left > 0 {
        let s = now()
        left = index.buildStep()
        steps.append(String(Int(now() - s)))
    }
    let built = now()
    print("native \(name) \(count) points: add \(Int(added - start)) ms, build \(Int(built - added)) ms, \(index.clusterCount) clusters")
    print("  ms per zoom 16→0: \(steps.joined(separator: " "))")
}
