import XCTest
@testable import Cairn

/// Seeded randomized invariants of the hierarchy, over several option sets: every point in
/// exactly one item per zoom, counts add up, children are exactly the items whose parent the
/// cluster is, and leaves are the union of the children's leaves.
final class HierarchicalClusterIndexPropertyTests: XCTestCase {
    private let optionSets = [
        ClusterOptions(),
        ClusterOptions(radius: 80, extent: 512, minZoom: 2, maxZoom: 10, minPoints: 3),
        ClusterOptions(radius: 20, extent: 256, minZoom: 0, maxZoom: 19, minPoints: 2),
    ]

    func testEveryPointIsInExactlyOneItemPerZoom() throws {
        for (k, options) in optionSets.enumerated() {
            var rng = SeededRandom(seed: UInt32(100 + k))
            let n = 1200
            let index = try Fixtures.makeIndex(rng.mixedPoints(n), options)
            for zoom in options.minZoom...(options.maxZoom + 1) {
                let items = try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
                var owner = [Int](repeating: -1, count: n)
                var total = 0
                for (i, item) in items.enumerated() {
                    total += item.pointCount
                    let leaves = item.isCluster ? try index.leaves(of: item.id, limit: Int.max).map { Int($0.id) } : [Int(item.id)]
                    XCTAssertEqual(leaves.count, item.pointCount)
                    for leaf in leaves {
                        XCTAssertEqual(owner[leaf], -1, "point \(leaf) in two items at zoom \(zoom)")
                        owner[leaf] = i
                    }
                }
                XCTAssertEqual(total, n, "counts add up at zoom \(zoom) \(options)")
                XCTAssertFalse(owner.contains(-1), "every point shown at zoom \(zoom)")
            }
        }
    }

    func testChildrenAreTheItemsWhoseParentTheClusterIs() throws {
        for (k, options) in optionSets.enumerated() {
            var rng = SeededRandom(seed: UInt32(200 + k))
            let index = try Fixtures.makeIndex(rng.mixedPoints(800), options)
            func item(_ f: ClusterFeature) throws -> Int32 {
                f.isCluster ? try index.clusterItem(publicID: f.id) : Int32(f.id)
            }
            for zoom in options.minZoom...options.maxZoom {
                for cluster in try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
                where cluster.isCluster {
                    let me = try item(cluster)
                    let origin = Int(index.clusterZoom[Int(me) - index.pointCount]) + 1
                    let expected = try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(origin))
                        .filter { try index.parent(of: item($0)) == me }
                    let children = try index.children(of: cluster.id)
                    XCTAssertEqual(Set(children.map(\.id)), Set(expected.map(\.id)))
                    XCTAssertEqual(children.count, expected.count)
                    XCTAssertEqual(children.reduce(0) { $0 + $1.pointCount }, cluster.pointCount)
                    var fromChildren: [Int64] = []
                    for child in children {
                        fromChildren += child.isCluster ? try index.leaves(of: child.id, limit: Int.max).map(\.id) : [child.id]
                    }
                    XCTAssertEqual(fromChildren.sorted(), try index.leaves(of: cluster.id, limit: Int.max).map(\.id).sorted())
                }
            }
        }
    }

    func testRectangleQueriesMatchABruteForceScan() throws {
        var rng = SeededRandom(seed: 77)
        let options = ClusterOptions()
        let index = try Fixtures.makeIndex(rng.mixedPoints(3000), options)
        let all = (0..<(index.pointCount + index.clusterCount)).map { Int32($0) }
        for _ in 0..<300 {
            let zoom = Int(rng.next() * 18)
            let size = [0.001, 0.02, 0.3, 1.2][Int(rng.next() * 4)]
            let minX = rng.next(in: -0.1...1), minY = rng.next(in: -0.1...1)
            let maxX = minX + size * rng.next(), maxY = minY + size * rng.next()
            var found: [Int32] = []
            index.forEachItem(minX: minX, minY: minY, maxX: maxX, maxY: maxY, zoom: zoom) { found.append($0) }
            let expected = all.filter { item in
                let p = index.indexPosition(item)
                return Double(p.x) >= minX && Double(p.x) <= maxX && Double(p.y) >= minY && Double(p.y) <= maxY &&
                    index.isVisible(item, zoom: zoom)
            }
            XCTAssertEqual(found.sorted(), expected, "zoom \(zoom) rect \(minX),\(minY) \(maxX),\(maxY)")
        }
    }

    func testSameInputGivesTheSameOutput() throws {
        var rng = SeededRandom(seed: 31)
        let points = rng.mixedPoints(2000)
        let a = try Fixtures.makeIndex(points, ClusterOptions())
        let b = try Fixtures.makeIndex(points, ClusterOptions())
        for zoom in 0...17 {
            XCTAssertEqual(try a.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom)),
                           try b.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom)))
        }
    }
}
