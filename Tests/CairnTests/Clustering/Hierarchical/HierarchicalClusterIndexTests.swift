import XCTest
@testable import Cairn

/// Behaviour of the index through its Swift API: input checks, life cycle, and supercluster's
/// documented edge cases.
final class HierarchicalClusterIndexTests: XCTestCase {
    private func index(_ points: [Double], _ options: ClusterOptions = ClusterOptions()) throws -> HierarchicalClusterIndex {
        try Fixtures.makeIndex(points, options)
    }

    private func world(_ index: HierarchicalClusterIndex, _ zoom: Double) throws -> [ClusterFeature] {
        try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: zoom)
    }

    func testBadPointsAreRejectedByIndexAndNothingIsAdded() throws {
        let index = try HierarchicalClusterIndex()
        try index.add(longitude: 10, latitude: 10)
        let bad: [Double] = [1, 1, 2, .nan, 3, 3]
        XCTAssertThrowsError(try bad.withUnsafeBufferPointer { try index.add(lngLat: $0) }) {
            XCTAssertEqual($0 as? CairnError, .nonFiniteCoordinate(index: 2))
        }
        XCTAssertEqual(index.pointCount, 1, "a failed batch adds nothing")
        XCTAssertThrowsError(try index.add(longitude: 0, latitude: 95)) {
            XCTAssertEqual($0 as? CairnError, .latitudeOutOfRange(index: 1))
        }
        XCTAssertThrowsError(try index.add(longitude: .infinity, latitude: 0))
        XCTAssertThrowsError(try [1.0, 2, 3].withUnsafeBufferPointer { try index.add(lngLat: $0) }) {
            XCTAssertEqual($0 as? CairnError, .invalidArgument, "odd number of coordinates")
        }
        XCTAssertEqual(index.pointCount, 1)
    }

    func testLifeCycleErrors() throws {
        let index = try HierarchicalClusterIndex()
        XCTAssertThrowsError(try world(index, 0)) { XCTAssertEqual($0 as? CairnError, .invalidState) }
        try index.add(longitude: 0, latitude: 0)
        index.build()
        XCTAssertTrue(index.isBuilt)
        XCTAssertThrowsError(try index.add(longitude: 1, latitude: 1)) { XCTAssertEqual($0 as? CairnError, .invalidState) }
        index.build()  // a second build is a no-op
        XCTAssertEqual(try world(index, 0).count, 1)
    }

    func testBuildStepCountsDownTheZooms() throws {
        let index = try HierarchicalClusterIndex(options: ClusterOptions(minZoom: 2, maxZoom: 5))
        try index.add(longitude: 0, latitude: 0)
        XCTAssertEqual(index.buildStep(), 3)
        XCTAssertEqual(index.buildStep(), 2)
        XCTAssertEqual(index.buildStep(), 1)
        XCTAssertEqual(index.buildStep(), 0)
        XCTAssertTrue(index.isBuilt)
        XCTAssertEqual(index.buildStep(), 0)
    }

    func testZeroPoints() throws {
        let index = try self.index([])
        XCTAssertEqual(try world(index, 0), [])
        XCTAssertEqual(try index.tile(z: 0, x: 0, y: 0), [])
        XCTAssertEqual(index.clusterCount, 0)
    }

    func testLongitudesOutsideTheWorldWrap() throws {
        let index = try self.index([190, 10])
        let only = try world(index, 20)
        XCTAssertEqual(only.count, 1)
        XCTAssertEqual(only[0].longitude, -170, accuracy: 1e-9)
    }

    func testAllPointsAtOneLocationFormOneClusterThatNeverSplits() throws {
        let points = [Double](repeating: 0, count: 2 * 30).enumerated().map { $0.offset % 2 == 0 ? 12.5 : -7.25 }
        let index = try self.index(points)
        for zoom in 0...16 {
            let items = try world(index, Double(zoom))
            XCTAssertEqual(items.count, 1, "zoom \(zoom)")
            XCTAssertEqual(items[0].pointCount, 30)
            XCTAssertTrue(items[0].isCluster)
        }
        XCTAssertEqual(try world(index, 17).count, 30, "above maxZoom every point stands alone")
        let cluster = try world(index, 0)[0]
        // The cluster seen at zoom 0 was formed at 16; its children show at 17.
        XCTAssertEqual(try index.expansionZoom(of: cluster.id), 17)
        var seen: [Int64] = []
        for offset in stride(from: 0, to: 30, by: 7) {
            seen += try index.leaves(of: cluster.id, limit: 7, offset: offset).map(\.id)
        }
        XCTAssertEqual(seen.sorted(), (0..<30).map(Int64.init))
        XCTAssertEqual(try index.leaves(of: cluster.id, limit: 100, offset: 29).count, 1)
        XCTAssertEqual(try index.leaves(of: cluster.id, limit: 100, offset: 30).count, 0)
        XCTAssertEqual(try index.leaves(of: cluster.id).count, 10, "supercluster's default limit")
    }

    func testMinPointsKeepsSmallGroupsApart() throws {
        var rng = SeededRandom(seed: 11)
        let points = rng.mixedPoints(2000)
        let index = try self.index(points, ClusterOptions(minPoints: 5))
        for zoom in 0...17 {
            for item in try world(index, Double(zoom)) where item.isCluster {
                XCTAssertGreaterThanOrEqual(item.pointCount, 5, "zoom \(zoom)")
            }
            let total = try world(index, Double(zoom)).reduce(0) { $0 + $1.pointCount }
            XCTAssertEqual(total, 2000)
        }
    }

    func testNonIntegerZoomShowsTheFloor() throws {
        var rng = SeededRandom(seed: 5)
        let index = try self.index(rng.mixedPoints(500))
        XCTAssertEqual(try world(index, 3.7), try world(index, 3))
        XCTAssertEqual(try world(index, -2), try world(index, 0))
        XCTAssertEqual(try world(index, 99), try world(index, 17))
        XCTAssertThrowsError(try world(index, .nan)) { XCTAssertEqual($0 as? CairnError, .invalidArgument) }
    }

    func testBoxesAcrossTheAntimeridianAndWiderThanTheWorld() throws {
        var rng = SeededRandom(seed: 21)
        let index = try self.index(rng.mixedPoints(3000))
        for zoom in [0.0, 2, 5, 9] {
            let across = try index.clusters(west: 170, south: -30, east: -170, north: 40, zoom: zoom)
            let east = try index.clusters(west: 170, south: -30, east: 180, north: 40, zoom: zoom)
            let west = try index.clusters(west: -180, south: -30, east: -170, north: 40, zoom: zoom)
            XCTAssertEqual(across, east + west, "zoom \(zoom)")
            XCTAssertFalse(across.isEmpty)
            // 350°..370° is the same box as 170°..-170°, shifted by a turn.
            XCTAssertEqual(try index.clusters(west: -190, south: -30, east: -170, north: 40, zoom: zoom), across)
            let wide = try index.clusters(west: -500, south: -100, east: 500, north: 100, zoom: zoom)
            XCTAssertEqual(wide, try world(index, zoom))
        }
    }

    func testUnknownAndStaleClusterIDsAreErrorsNotCrashes() throws {
        var rng = SeededRandom(seed: 8)
        let index = try self.index(rng.mixedPoints(1000))
        let cluster = try XCTUnwrap(try world(index, 2).first { $0.isCluster })
        for bad: Int64 in [-1, 0, 5, 999, cluster.id + 1, cluster.id + 32 * 1_000_000, Int64.max / 2, Int64.max, Int64.min] {
            XCTAssertThrowsError(try index.children(of: bad), "\(bad)") {
                XCTAssertEqual($0 as? CairnError, .unknownCluster(id: bad))
            }
            XCTAssertThrowsError(try index.leaves(of: bad))
            XCTAssertThrowsError(try index.expansionZoom(of: bad))
        }
        XCTAssertNoThrow(try index.children(of: cluster.id))
        XCTAssertThrowsError(try index.leaves(of: cluster.id, limit: -1)) { XCTAssertEqual($0 as? CairnError, .invalidArgument) }
    }

    func testExpansionZoomIsWhereTheClusterSplits() throws {
        var rng = SeededRandom(seed: 4)
        let index = try self.index(rng.mixedPoints(1500))
        for zoom in 0...15 {
            for item in try world(index, Double(zoom)) where item.isCluster {
                let expansion = try index.expansionZoom(of: item.id)
                XCTAssertGreaterThan(expansion, zoom)
                // At the expansion zoom the cluster is gone, replaced by its children.
                let there = try world(index, Double(expansion))
                XCTAssertFalse(there.contains { $0.id == item.id })
                let children = try index.children(of: item.id)
                XCTAssertGreaterThan(children.count, 1)
                for child in children { XCTAssertTrue(there.contains(child)) }
            }
        }
    }

    func testTilesMatchTheClustersInThemAndWrapAround() throws {
        let index = try self.index([179.9, 0, -179.9, 0, 0, 0])
        // From zoom 8 on, the two points 0.2° apart across the antimeridian stand alone, each
        // within the radius (the tile padding) of the other's tile edge.
        let left = try index.tile(z: 8, x: 0, y: 128)
        let right = try index.tile(z: 8, x: 255, y: 128)
        XCTAssertTrue(left.contains { $0.id == 1 }, "its own point")
        XCTAssertTrue(left.contains { $0.id == 0 && $0.x < 0 }, "the point just west of the antimeridian, wrapped")
        XCTAssertTrue(right.contains { $0.id == 1 && $0.x > 512 }, "and the other way round")
        XCTAssertEqual(left.count, 2)
        // Clustering does not wrap across the antimeridian (nor does supercluster's): at zoom 1
        // the two stay single, though 0.2° apart.
        let z1 = try (0..<2).flatMap { x in try (0..<2).flatMap { y in try index.tile(z: 1, x: x, y: y) } }
        XCTAssertTrue(z1.allSatisfy { !$0.isCluster })
        XCTAssertEqual(Set(z1.map(\.id)), [0, 1, 2])
        let z10 = try index.tile(z: 10, x: 512, y: 512)
        XCTAssertEqual(z10.map(\.id), [2])
        XCTAssertEqual(z10[0].x, 0)
        XCTAssertEqual(z10[0].y, 0)
        XCTAssertThrowsError(try index.tile(z: 1, x: 2, y: 0)) { XCTAssertEqual($0 as? CairnError, .invalidArgument) }
        XCTAssertThrowsError(try index.tile(z: -1, x: 0, y: 0))
    }

    func testTileCoordinatesRoundLikeJavaScript() {
        XCTAssertEqual(_jsRound(2.5), 3)
        XCTAssertEqual(_jsRound(-2.5), -2)
        XCTAssertEqual(_jsRound(-2.51), -3)
        XCTAssertEqual(_jsRound(1e300), 2_147_483_647)
    }
}

extension HierarchicalClusterIndexTests {
    /// supercluster moves a seed's neighbours that are too few to cluster next to the seed in
    /// its data order; here that decides who clusters one zoom lower.
    func testNeighboursTooFewToClusterFollowTheirSeed() throws {
        let index = try Fixtures.makeIndex([16, 5, 7.5, 9.5, 13, 19, 0, 10.5, 2, 18, 1.5, 10.5],
                                           ClusterOptions(minPoints: 3))
        let m = try Fixtures.membership(index, zoom: 1).map(\.leaves)
        XCTAssertEqual(m, [[0], [1], [2], [3, 4, 5]])
    }
}

/// Seeded randomized invariants of the hierarchy, over several option sets: every point in
/// exactly one item per zoom, counts add up, children are exactly the items whose parent the
/// cluster is, and leaves are the union of the children's leaves.
extension HierarchicalClusterIndexTests {
    private static let invariantOptionSets = [
        ClusterOptions(),
        ClusterOptions(radius: 80, extent: 512, minZoom: 2, maxZoom: 10, minPoints: 3),
        ClusterOptions(radius: 20, extent: 256, minZoom: 0, maxZoom: 19, minPoints: 2),
    ]

    func testEveryPointIsInExactlyOneItemPerZoom() throws {
        for (k, options) in Self.invariantOptionSets.enumerated() {
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
        for (k, options) in Self.invariantOptionSets.enumerated() {
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

/// Cluster membership equals supercluster's at every zoom (feature C2a), on the reference
/// fixtures.
extension HierarchicalClusterIndexTests {
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
