import XCTest
@testable import Cairn

/// Cluster membership equals supercluster's at every zoom (SPEC C2a), on the reference
/// fixtures.
final class ParityTests: XCTestCase {
    func testPlacesMembershipAndPositionsMatchSupercluster() throws {
        let points = try Fixtures.points("places.json")
        for run in try Fixtures.runs("places.reference.json") {
            let index = try Fixtures.makeIndex(points, run.options)
            for zoom in run.zooms {
                let m = try Fixtures.membership(index, zoom: zoom.z)
                XCTAssertEqual(m.count, zoom.items, "items at z\(zoom.z) \(run.options)")
                XCTAssertEqual(m.filter { $0.feature.isCluster }.count, zoom.clusters, "clusters at z\(zoom.z)")
                XCTAssertEqual(Fixtures.fingerprint(m), zoom.sha, "membership at z\(zoom.z) \(run.options)")
                guard let detail = zoom.detail, detail.count == m.count else { continue }
                for (mine, theirs) in zip(m, detail) {
                    XCTAssertEqual(mine.leaves, theirs.leaves)
                    XCTAssertEqual(mine.feature.longitude, theirs.lng, accuracy: 1e-9)
                    XCTAssertEqual(mine.feature.latitude, theirs.lat, accuracy: 1e-9)
                }
            }
        }
    }

    func testClustered50kMembershipMatchesSupercluster() throws {
        let points = try Fixtures.points("clustered-50k.csv")
        for run in try Fixtures.runs("clustered-50k.reference.json") {
            let index = try Fixtures.makeIndex(points, run.options)
            for zoom in run.zooms {
                let m = try Fixtures.membership(index, zoom: zoom.z)
                XCTAssertEqual(m.count, zoom.items, "items at z\(zoom.z) \(run.options)")
                XCTAssertEqual(m.filter { $0.feature.isCluster }.count, zoom.clusters, "clusters at z\(zoom.z)")
                XCTAssertEqual(Fixtures.fingerprint(m), zoom.sha, "membership at z\(zoom.z) \(run.options)")
            }
        }
    }
}
