import XCTest
@testable import Cairn

final class ClusterOptionsTests: XCTestCase {
    func testDefaultsAreSuperclusters() {
        let o = ClusterOptions()
        XCTAssertEqual(o.radius, 40)
        XCTAssertEqual(o.extent, 512)
        XCTAssertEqual(o.minZoom, 0)
        XCTAssertEqual(o.maxZoom, 16)
        XCTAssertEqual(o.minPoints, 2)
        XCTAssertNoThrow(try o.validate())
    }

    func testEachOutOfRangeOptionIsNamed() {
        func field(_ o: ClusterOptions) -> ClusterOptions.Field? {
            do { try o.validate(); return nil } catch { if case .invalidOption(let f) = error { return f }; return nil }
        }
        XCTAssertEqual(field(ClusterOptions(radius: 0)), .radius)
        XCTAssertEqual(field(ClusterOptions(radius: .nan)), .radius)
        XCTAssertEqual(field(ClusterOptions(extent: -1)), .extent)
        XCTAssertEqual(field(ClusterOptions(extent: .infinity)), .extent)
        XCTAssertEqual(field(ClusterOptions(minZoom: -1)), .minZoom)
        XCTAssertEqual(field(ClusterOptions(minZoom: 5, maxZoom: 4)), .maxZoom)
        XCTAssertEqual(field(ClusterOptions(maxZoom: 31)), .maxZoom)
        XCTAssertEqual(field(ClusterOptions(minPoints: 0)), .minPoints)
        XCTAssertNil(field(ClusterOptions(minZoom: 30, maxZoom: 30)))
        XCTAssertThrowsError(try HierarchicalClusterIndex(options: ClusterOptions(radius: -5)))
    }

    func testWorldRadiusHalvesPerZoom() {
        let o = ClusterOptions()
        XCTAssertEqual(o.worldRadius(zoom: 0), 40.0 / 512)
        XCTAssertEqual(o.worldRadius(zoom: 3), 40.0 / 512 / 8)
    }
}
