import Foundation
import XCTest
@testable import Cairn

/// supercluster's cluster ids and result order through the Swift API, against
/// `places-order.reference.json` (see Tests/Fixtures/README.md). The index holds the 162
/// places with a geometry, so its ids count 162 points where supercluster's count 163
/// features: a reference id is this index's plus one.
final class HierarchicalClusterIndexOrderTests: XCTestCase {
    /// A result as the reference names it: a cluster by its supercluster id, a point by index.
    private enum Name: Equatable { case cluster(Int64), point(Int) }

    private static func name(_ f: ClusterFeature) -> Name { f.isCluster ? .cluster(f.id + 1) : .point(Int(f.id)) }

    private static func names(_ any: Any) -> [Name] {
        (any as! [Any]).map { v in
            if let o = v as? [String: Any] { return .cluster((o["cluster"] as! NSNumber).int64Value) }
            return .point((v as! NSNumber).intValue)
        }
    }

    private func reference() throws -> [String: Any] {
        let url = try Fixtures.require().appendingPathComponent("places-order.reference.json")
        return try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    }

    private func options(_ o: [String: Any]) -> ClusterOptions {
        ClusterOptions(radius: (o["radius"] as? NSNumber)?.doubleValue ?? 40,
                       extent: (o["extent"] as? NSNumber)?.doubleValue ?? 512,
                       minZoom: 0, maxZoom: (o["maxZoom"] as? Int) ?? 16, minPoints: (o["minPoints"] as? Int) ?? 2)
    }

    func testIdsChildrenLeavesAndExpansionZoomsAreSuperclustersAtEveryZoom() throws {
        let points = try Fixtures.points("places.json")
        var checkedClusters = 0
        for run in try reference()["runs"] as! [[String: Any]] {
            let o = options(run["options"] as! [String: Any])
            let index = try Fixtures.makeIndex(points, o)
            for zoom in run["zooms"] as! [[String: Any]] {
                let z = zoom["z"] as! Int
                let where_ = "\(o) zoom \(z)"
                let items = try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(z))
                XCTAssertEqual(items.map(Self.name), Self.names(zoom["items"]!), "\(where_): clusters")
                let children = zoom["children"] as! [String: Any]
                let leaves = zoom["leaves"] as! [String: Any]
                let expansion = zoom["expansionZoom"] as! [String: Any]
                for (key, expected) in children {
                    let id = Int64(key)! - 1
                    XCTAssertEqual(try index.children(of: id).map(Self.name), Self.names(expected), "\(where_): children of \(key)")
                    XCTAssertEqual(try index.leaves(of: id, limit: Int.max).map(Self.name), Self.names(leaves[key]!),
                                   "\(where_): leaves of \(key)")
                    XCTAssertEqual(try index.expansionZoom(of: id), expansion[key] as! Int, "\(where_): expansion zoom of \(key)")
                    checkedClusters += 1
                }
            }
        }
        XCTAssertGreaterThan(checkedClusters, 200)
    }

    func testTilesListSuperclustersFeaturesInItsOrder() throws {
        let points = try Fixtures.points("places.json")
        for tile in try reference()["tiles"] as! [[String: Any]] {
            let o = tile["options"] as! [String: Any]
            let (z, x, y) = (tile["z"] as! Int, tile["x"] as! Int, tile["y"] as! Int)
            let index = try Fixtures.makeIndex(points, options(o))
            let features = try index.tile(z: z, x: x, y: y)
            let expected = (tile["features"] as? [[String: Any]]) ?? []
            XCTAssertEqual(features.count, expected.count, "tile \(z)/\(x)/\(y) \(o)")
            for (mine, theirs) in zip(features, expected) {
                let geometry = (theirs["geometry"] as! [[Int]])[0]
                XCTAssertEqual([mine.x, mine.y], geometry, "tile \(z)/\(x)/\(y) \(o)")
                let tags = theirs["tags"] as! [String: Any]
                if mine.isCluster {
                    XCTAssertEqual(mine.id + 1, (tags["cluster_id"] as! NSNumber).int64Value)
                    XCTAssertEqual(mine.pointCount, tags["point_count"] as! Int)
                } else if o["generateId"] as? Bool == true {
                    XCTAssertEqual(mine.id, (theirs["id"] as! NSNumber).int64Value)
                }
            }
        }
    }

    func testAStaleOrForgedIdNamesNoCluster() throws {
        let index = try Fixtures.makeIndex(try Fixtures.points("places.json"), ClusterOptions())
        XCTAssertNoThrow(try index.children(of: 163))   // supercluster's 164
        for id: Int64 in [162 + (10_000 << 5) + 1, 162 + 31, 162 + 18, 162 + 1 + (1 << 40)] {
            XCTAssertThrowsError(try index.children(of: id), "\(id)") { error in
                XCTAssertEqual(error as? CairnError, .unknownCluster(id: id))
            }
        }
    }
}
