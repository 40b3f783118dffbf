import XCTest
@testable import Cairn

final class WebMercatorTests: XCTestCase {
    func testLongitudeMapsLinearlyOntoTheUnitSquare() {
        XCTAssertEqual(WebMercator.x(longitude: -180), 0)
        XCTAssertEqual(WebMercator.x(longitude: 0), 0.5)
        XCTAssertEqual(WebMercator.x(longitude: 180), 1)
        XCTAssertEqual(WebMercator.x(longitude: 90), 0.75)
    }

    func testLatitudeProjectsAndClampsAtTheMercatorLimit() {
        XCTAssertEqual(WebMercator.y(latitude: 0), 0.5, accuracy: 1e-15)
        XCTAssertEqual(WebMercator.y(latitude: WebMercator.maxLatitude), 0, accuracy: 1e-12)
        XCTAssertEqual(WebMercator.y(latitude: -WebMercator.maxLatitude), 1, accuracy: 1e-12)
        XCTAssertEqual(WebMercator.y(latitude: 89.9), 0)
        XCTAssertEqual(WebMercator.y(latitude: -90), 1)
        // 45°N: 0.5 - ln(tan(67.5°)) / (2π)
        XCTAssertEqual(WebMercator.y(latitude: 45), 0.35972503691520497, accuracy: 1e-15)
    }

    func testRoundTripsWithinTheMap() {
        for lat in stride(from: -85.0, through: 85.0, by: 0.5) {
            XCTAssertEqual(WebMercator.latitude(y: WebMercator.y(latitude: lat)), lat, accuracy: 1e-9)
        }
        for lng in stride(from: -180.0, through: 180.0, by: 7.5) {
            XCTAssertEqual(WebMercator.longitude(x: WebMercator.x(longitude: lng)), lng, accuracy: 1e-12)
        }
    }

    func testTabulatedLatitudeMatchesTheFormulaToItsRounding() {
        var rng = SeededRandom(seed: 42)
        var worst = 0.0
        // Random points, and each piece's ends and middle.
        var ys = (0..<200_000).map { _ in rng.next() } + [1e-12, 1 - 1e-12]
        for k in 0..._LatitudeTable.pieces {
            let y = Double(k) / Double(_LatitudeTable.pieces)
            ys += [y, y.nextDown, y.nextUp, y + 0.5 / Double(_LatitudeTable.pieces)]
        }
        for y in ys where y >= 0 && y <= 1 {
            worst = max(worst, abs(WebMercator.tabulatedLatitude(y: y) - WebMercator.latitude(y: y)))
        }
        // A few units in the last place of a latitude (1.4e-14° from 64° on).
        XCTAssertLessThan(worst, 1.5e-13)
        XCTAssertGreaterThan(worst, 0, "compared with the formula, not with itself")
        // Exactly the formula at the equator, at each piece's start and at the map's edges.
        XCTAssertEqual(WebMercator.tabulatedLatitude(y: 0.5), 0)
        for y in [0.0, 0.25, 0.75, 1.0, 3.0 / 256] {
            XCTAssertEqual(WebMercator.tabulatedLatitude(y: y), WebMercator.latitude(y: y))
        }
        // Outside the map the formula answers.
        XCTAssertEqual(WebMercator.tabulatedLatitude(y: -0.25), WebMercator.latitude(y: -0.25))
        XCTAssertTrue(WebMercator.tabulatedLatitude(y: .nan).isNaN)
        // Query results go through it.
        XCTAssertEqual(ClusterFeature(id: 0, pointCount: 1, isCluster: false, x: 0.5, y: 0.3).latitude,
                       WebMercator.tabulatedLatitude(y: 0.3))
    }

    func testLongitudeWraps() {
        XCTAssertEqual(WebMercator.wrapLongitude(180), 180)
        XCTAssertEqual(WebMercator.wrapLongitude(-180), -180)
        XCTAssertEqual(WebMercator.wrapLongitude(190), -170)
        XCTAssertEqual(WebMercator.wrapLongitude(-190), 170)
        XCTAssertEqual(WebMercator.wrapLongitude(540), -180)
        XCTAssertEqual(WebMercator.wrapLongitude(725), 5, accuracy: 1e-12)
    }

    func testLatitudeClampForDisplay() {
        XCTAssertEqual(WebMercator.clampLatitude(90), WebMercator.maxLatitude)
        XCTAssertEqual(WebMercator.clampLatitude(-90), -WebMercator.maxLatitude)
        XCTAssertEqual(WebMercator.clampLatitude(12.5), 12.5)
    }
}
