/// Latitude of a world y in 0...1 from a table of polynomials, for the hot paths that turn
/// positions back into degrees: a query writes one latitude per result, and the formula's
/// `atan` and `exp` would be a quarter of a thousand-result query's time in wasm.
///
/// The map's y range is cut into `pieces` equal pieces; each holds the polynomial of degree
/// `terms - 1` that interpolates the formula (`WebMercator.latitude(y:)`) at the piece's
/// Chebyshev points, in a variable that runs from 0 to 1 across the piece, with the formula's
/// own value at the piece's start as its constant term. So the table gives the formula's
/// result exactly at every piece's start (the equator, y = 0.5, gives 0, as the formula does)
/// and at y = 1 (a last entry), and the coefficients carry only the variation across a piece,
/// whose rounding stays small: at most 1.3e-13° from the formula in the test's 200,000 points
/// and every piece's ends (it allows 1.5e-13), a few units in the last place of a latitude, the
/// order of the formula's own rounding. Neighbouring pieces meet to within that too, not
/// exactly. The latitude's complex singularities lie a quarter of the range (64 pieces) off the
/// real axis, so the pieces converge quickly: degree 5 is at 2e-13°, and 7 leaves a margin.
struct _LatitudeTable {
    static let pieces = 256
    /// Eight coefficients a piece, 64 bytes, each piece on one cache line (the table is
    /// aligned to 64; `latitude` is written for eight).
    static let terms = 8

    /// Monomial coefficients, piece after piece, lowest degree first, then the entry for y = 1.
    /// Allocated once and kept for the life of the process (one table, 16 KiB).
    private let coefficients: UnsafeMutablePointer<Double>

    init() {
        let n = _LatitudeTable.pieces, m = _LatitudeTable.terms
        coefficients = UnsafeMutableRawPointer.allocate(byteCount: (n + 1) * m * MemoryLayout<Double>.stride, alignment: 64)
            .bindMemory(to: Double.self, capacity: (n + 1) * m)
        // The cosines of the interpolation sums (row 1 holds the Chebyshev points in -1...1),
        // and the coefficients of the Chebyshev polynomials in u = (s + 1) / 2, the piece's own
        // variable: Ti(2u - 1), from T0 = 1, T1 = 2u - 1, Ti = 2(2u - 1)·Ti-1 - Ti-2.
        var cosines = [Double](repeating: 0, count: m * m)
        var chebyshev = [Double](repeating: 0, count: m * m)
        for i in 0..<m {
            for j in 0..<m { cosines[i * m + j] = _cos(Double.pi * Double(i) * (Double(j) + 0.5) / Double(m)) }
        }
        chebyshev[0] = 1
        chebyshev[m] = -1
        chebyshev[m + 1] = 2
        for i in 2..<m {
            for d in 0..<m {
                let up = d > 0 ? 4 * chebyshev[(i - 1) * m + d - 1] : 0
                chebyshev[i * m + d] = up - 2 * chebyshev[(i - 1) * m + d] - chebyshev[(i - 2) * m + d]
            }
        }
        var samples = [Double](repeating: 0, count: m)
        for k in 0..<n {
            let start = Double(k) / Double(n), width = 1 / Double(n)
            let first = WebMercator.latitude(y: start)
            for j in 0..<m {
                samples[j] = WebMercator.latitude(y: start + width * (cosines[m + j] + 1) / 2) - first
            }
            let piece = coefficients + k * m
            for d in 0..<m { piece[d] = 0 }
            for i in 0..<m {
                var c = 0.0
                for j in 0..<m { c += samples[j] * cosines[i * m + j] }
                c *= (i == 0 ? 1 : 2) / Double(m)
                for d in 0..<m { piece[d] += c * chebyshev[i * m + d] }
            }
            // The interpolant's own constant term is the variation at the start, zero but for
            // the interpolation error (the points leave out the ends) and rounding: the
            // formula's value takes its place.
            piece[0] = first
        }
        let end = coefficients + n * m
        end[0] = WebMercator.latitude(y: 1)
        for d in 1..<m { end[d] = 0 }
    }

    /// The latitude of `y`, which must lie in 0...1.
    @inline(__always)
    func latitude(_ y: Double) -> Double {
        assert(y >= 0 && y <= 1)
        let t = y * Double(_LatitudeTable.pieces)
        let k = Int(t)
        let u = t - Double(k)
        let c = coefficients + k &* _LatitudeTable.terms
        // Estrin's scheme, written out for the eight terms: pairs, then pairs of pairs, so the
        // multiplications do not wait on each other in one chain, as with Horner's rule (seven
        // multiply-adds each waiting for the one before); a loop would compile to such a
        // chain, with its counter's checks.
        let u2 = u * u
        let low = (c[0] + c[1] * u) + u2 * (c[2] + c[3] * u)
        let high = (c[4] + c[5] * u) + u2 * (c[6] + c[7] * u)
        return low + (u2 * u2) * high
    }
}

/// The one table, built at its first use (about 2,300 evaluations of the formula).
let _latitudeTable = _LatitudeTable()
