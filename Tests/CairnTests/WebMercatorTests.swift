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
