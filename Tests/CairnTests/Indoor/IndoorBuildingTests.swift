import XCTest
@testable import Cairn

/// A building's footprint and levels (feature G4).
final class IndoorBuildingTests: XCTestCase {
    func testG4_FootprintsAcrossTheAntimeridianAndBadBuildings() throws {
        let b = try IndoorBuilding(latitudes: [-1, -1, 1, 1], longitudes: [179.5, -179.5, -179.5, 179.5],
                                   levelCount: 2, defaultLevel: 0)
        for lng in [179.8, -179.8, 180.0] {
            XCTAssertTrue(b.contains(x: WebMercator.x(longitude: WebMercator.wrapLongitude(lng)), y: 0.5), "\(lng)")
        }
        XCTAssertFalse(b.contains(x: WebMercator.x(longitude: 179), y: 0.5))
        XCTAssertFalse(b.contains(x: WebMercator.x(longitude: 180.5), y: WebMercator.y(latitude: 2)))
        XCTAssertThrowsError(try IndoorBuilding(latitudes: [0, 1], longitudes: [0, 1], levelCount: 2, defaultLevel: 0))
        XCTAssertThrowsError(try IndoorBuilding.square(levels: 2, defaultLevel: 2))
        XCTAssertThrowsError(try IndoorBuilding.square(levels: 0, defaultLevel: 0))
        XCTAssertThrowsError(try IndoorBuilding(latitudes: [0, .nan, 1], longitudes: [0, 1, 1], levelCount: 2,
                                                defaultLevel: 0)) { XCTAssertEqual($0 as? CairnError, .nonFiniteCoordinate(index: 1)) }
    }

    func testG4_WithoutADefaultLevelTheTopOneIsShownFirst() throws {
        let b = try IndoorBuilding(latitudes: [0, 0, 1], longitudes: [0, 1, 1], levelCount: 3)
        XCTAssertEqual([b.defaultLevel, b.activeLevel], [0, 0])
        XCTAssertEqual(try IndoorBuilding(latitudes: [0, 0, 1], longitudes: [0, 1, 1], levelCount: 3, defaultLevel: 2).activeLevel, 2)
        XCTAssertThrowsError(try IndoorBuilding(latitudes: [0, 0, 1], longitudes: [0, 1, 1], levelCount: 3, defaultLevel: -1))
    }
}
