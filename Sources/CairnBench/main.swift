// Native benchmark: the same clustering the wasm module runs, compiled natively (release), on
// the same uniform points as the wasm benchmark (web/bench: mulberry32 seed 1). Prints figures;
// asserts nothing. `./build.sh bench` runs it beside the wasm benchmark.
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

func milliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
}

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1_000_000 : 1_000_000
var rng = Mulberry32(state: 1)
var points = [Double](repeating: 0, count: 2 * count)
for i in 0..<count {
    points[2 * i] = rng.next() * 360 - 180
    points[2 * i + 1] = rng.next() * 170 - 85
}

let start = milliseconds()
let index = try! HierarchicalClusterIndex()
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
print("native, uniform, \(count) points: add \(Int(added - start)) ms, cluster zooms 0–16 \(Int(built - added)) ms, " +
      "\(index.clusterCount) clusters")
print("  ms per zoom, 16 down to 0: \(perZoom.joined(separator: " "))")
