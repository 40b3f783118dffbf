/// A small deterministic generator (mulberry32) so randomized tests repeat exactly.
struct SeededRandom {
    var state: UInt32

    init(seed: UInt32) { state = seed }

    mutating func next() -> Double {
        state = state &+ 0x6D2B79F5
        var t = (state ^ (state >> 15)) &* (1 | state)
        t = (t &+ ((t ^ (t >> 7)) &* (61 | t))) ^ t
        return Double(t ^ (t >> 14)) / 4_294_967_296
    }

    mutating func next(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + next() * (range.upperBound - range.lowerBound)
    }

    /// Points in a few tight blobs plus a uniform background, some across the antimeridian,
    /// with exact duplicates: the shapes that exercise clustering hardest.
    mutating func mixedPoints(_ count: Int) -> [Double] {
        var out: [Double] = []
        let centres: [(Double, Double)] = [(179.5, 10), (-179.8, 10.2), (2.35, 48.85), (-74, 40.7), (151.2, -33.9)]
        for i in 0..<count {
            switch i % 4 {
            case 0:
                out += [next(in: -180...180), next(in: -85...85)]
            case 1, 2:
                let c = centres[Int(next() * Double(centres.count))]
                let spread = 0.001 + next() * 2
                out += [c.0 + (next() - 0.5) * spread, max(-85, min(85, c.1 + (next() - 0.5) * spread))]
            default:
                out += i >= 8 ? [out[2 * (i - 7)], out[2 * (i - 7) + 1]] : [0, 0]  // duplicates
            }
        }
        return out
    }
}
