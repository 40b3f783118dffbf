import XCTest
@testable import Cairn

/// The space-order sweep measures to an absorber's float32 position and reads a cluster's double
/// centroid only where `_RoundingDoubtBand` says the outcome is in doubt: outside the band, the float32
/// position must decide exactly as the centroid does.
final class RoundingDoubtBandTests: XCTestCase {
    func testOutsideTheBandTheRoundedPositionDecidesAsTheCentroid() {
        var rng = SeededRandom(seed: 29)
        let shift = 0x1p-25 * 2.0.squareRoot()
        var decided = 0, doubtful = 0, roundingMattered = 0
        // The radius of every zoom a build clusters (radius 40 of extent 512), down to where
        // it is smaller than the rounding itself.
        for zoom in 0...26 {
            let r = 40.0 / 512 / Double(1 << zoom)
            let r2 = r * r
            let band = _RoundingDoubtBand(r2: r2)
            for _ in 0..<20_000 {
                // A centroid anywhere, and a point about the radius away: within a few
                // roundings of it, or anywhere up to twice the radius.
                let centroid = (x: rng.next(in: 0...1), y: rng.next(in: 0...1))
                let near = rng.next() < 0.8
                let distance = max(0, near ? r + rng.next(in: -4...4) * shift : rng.next(in: 0...(2 * r)))
                var u = rng.next(in: -1...1), v = rng.next(in: -1...1)
                let length = (u * u + v * v).squareRoot()
                if length < 1e-3 { continue }
                u /= length
                v /= length
                let px = centroid.x + u * distance, py = centroid.y + v * distance
                if px < 0 || px > 1 || py < 0 || py > 1 { continue }
                let point = (x: Float(px), y: Float(py))
                let exact = _isWithin(point.x, point.y, centroid, r2)
                let dx = Double(point.x) - Double(Float(centroid.x))
                let dy = Double(point.y) - Double(Float(centroid.y))
                let d2 = dx * dx + dy * dy
                if (d2 <= r2) != exact { roundingMattered += 1 }
                if band.isInDoubt(d2) {
                    doubtful += 1
                } else {
                    decided += 1
                    XCTAssertEqual(d2 <= r2, exact, "zoom \(zoom): outside the band, rounding changed the outcome")
                }
            }
        }
        // The test meets both sides of the band, and cases where rounding the centroid does
        // change the outcome (all of which must have been in doubt).
        XCTAssertGreaterThan(decided, 100_000)
        XCTAssertGreaterThan(doubtful, 1_000)
        XCTAssertGreaterThan(roundingMattered, 100)
    }

    func testTheLargestRoundingIsInDoubt() {
        // A centroid halfway between float32 values in both coordinates rounds by 2^-25 in
        // each (to even: down), the most anywhere in 0...1; a point beyond it on the diagonal
        // is then about 2^-25·√2 farther from the rounding than from the centroid. With the
        // radius exactly its distance to the centroid, the point is within it, but not measured
        // to the rounding: the band must hold that distance, for radii from below the rounding
        // itself to a twentieth of the world.
        let centroid = (x: 0.75 + 0x1p-25, y: 0.625 + 0x1p-25)
        XCTAssertEqual(Double(Float(centroid.x)), 0.75)
        XCTAssertEqual(Double(Float(centroid.y)), 0.625)
        for distance in [0x1p-27, 0x1p-25, 0x1p-23, 1e-6, 1e-4, 0.05] {
            let step = distance / 2.0.squareRoot()
            let point = (x: Float(centroid.x + step), y: Float(centroid.y + step))
            let ex = Double(point.x) - centroid.x, ey = Double(point.y) - centroid.y
            let r2 = ex * ex + ey * ey
            XCTAssertTrue(_isWithin(point.x, point.y, centroid, r2))
            let dx = Double(point.x) - 0.75, dy = Double(point.y) - 0.625
            let d2 = dx * dx + dy * dy
            XCTAssertGreaterThan(d2, r2, "distance \(distance)")
            XCTAssertTrue(_RoundingDoubtBand(r2: r2).isInDoubt(d2), "distance \(distance)")
        }
    }

    func testTheBandIsNarrowAtTheZoomsThatCluster() {
        // At zoom 16 (radius 1.2e-6 of the world) the band is a few hundredths of the radius
        // wide, and it narrows by half with every zoom below, so the centroid is rarely read.
        let r = 40.0 / 512 / 65536
        let band = _RoundingDoubtBand(r2: r * r)
        XCTAssertTrue(band.isInDoubt(r * r))
        XCTAssertFalse(band.isInDoubt(r * r * 0.9 * 0.9))
        XCTAssertFalse(band.isInDoubt(r * r * 1.1 * 1.1))
    }
}
