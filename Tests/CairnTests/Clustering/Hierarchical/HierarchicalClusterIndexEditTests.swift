import XCTest
@testable import Cairn

/// Edits of a built index: after any batch of adds, removes and moves, every query answers as a
/// fresh build of the points left, in the same order, would (point ids as the edits kept them,
/// cluster ids numbered past the highest point id).
final class HierarchicalClusterIndexEditTests: XCTestCase {
    /// The points the edited index should hold, by id (nil once removed).
    private struct Model {
        var points: [(Double, Double)?]

        var live: [(id: Int, lng: Double, lat: Double)] {
            points.enumerated().compactMap { i, p in p.map { (i, $0.0, $0.1) } }
        }

        func rebuilt(_ options: ClusterOptions) throws -> HierarchicalClusterIndex {
            try Fixtures.makeIndex(live.flatMap { [$0.lng, $0.lat] }, options)
        }
    }

    /// The rebuild's feature with the edited index's ids: its points' by the model, its clusters'
    /// moved past the ids of the removed points.
    private func renamed(_ f: ClusterFeature, _ live: [(id: Int, lng: Double, lat: Double)], total: Int) -> ClusterFeature {
        var g = f
        g.id = f.isCluster ? f.id + Int64(total - live.count) : Int64(live[Int(f.id)].id)
        return g
    }

    private func assertSame(_ a: [ClusterFeature], _ b: [ClusterFeature], _ what: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, what, file: file, line: line)
        for (x, y) in zip(a, b) {
            guard x.id == y.id, x.pointCount == y.pointCount, x.isCluster == y.isCluster,
                  abs(x.x - y.x) < 1e-12, abs(x.y - y.y) < 1e-12 else {
                XCTFail("\(what): \(x) against the rebuild's \(y)", file: file, line: line)
                return
            }
        }
    }

    /// Every zoom's clusters over the world and across the antimeridian, in order, and the
    /// children, leaves and expansion zoom of each cluster, and the tiles of the low zooms.
    private func assertEqualsRebuild(_ index: HierarchicalClusterIndex, _ model: Model, _ what: String,
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let fresh = try model.rebuilt(index.options)
        let live = model.live, total = model.points.count
        XCTAssertEqual(index.livePointCount, live.count, file: file, line: line)
        XCTAssertEqual(index.clusterCount, fresh.clusterCount, "\(what): clusters over all zooms", file: file, line: line)
        for (g, group) in index.groups.enumerated() {
            let keys = group.ids.map { item -> UInt64 in
                let p = index.indexPosition(item)
                return group.grid.key(x: p.x, y: p.y)
            }
            XCTAssertTrue(keys == keys.sorted(), "\(what): group \(g) sorted by cell", file: file, line: line)
            // Fences name their ids' keys, in increasing places, none too far from the next.
            let places = group.fences.indices.map { group.fencePlace($0) }, most = 2 * _ZoomGroup.fenceStride
            XCTAssertEqual(group.fences.count, places.count, file: file, line: line)
            XCTAssertTrue(places.allSatisfy { $0 >= 0 && $0 < keys.count } && group.fences == places.map { keys[$0] },
                          "\(what): group \(g)'s fences", file: file, line: line)
            let stretches = zip([0] + places, places + [keys.count]).map { $1 - $0 }
            XCTAssertTrue(stretches.dropFirst().dropLast().allSatisfy { $0 > 0 } && stretches.allSatisfy { $0 <= most },
                          "\(what): group \(g)'s fences increase and are at most \(most) apart: \(stretches.filter { $0 > most || $0 <= 0 })",
                          file: file, line: line)
        }
        if index.smallClustersBelow > 0 {
            let lists = index.smallClusterPointLists(below: index.smallClustersBelow)
            XCTAssertTrue(index.smallClusterPoints.start == lists.start && index.smallClusterPoints.points == lists.points,
                          "\(what): the small clusters' point lists", file: file, line: line)
        }
        for zoom in index.options.minZoom...(index.options.maxZoom + 1) {
            let all = try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
            let expected = try fresh.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
            assertSame(all, expected.map { renamed($0, live, total: total) }, "\(what), zoom \(zoom)", file: file, line: line)
            assertSame(try index.clusters(west: 170, south: -20, east: -170, north: 40, zoom: Double(zoom)),
                       try fresh.clusters(west: 170, south: -20, east: -170, north: 40, zoom: Double(zoom)).map { renamed($0, live, total: total) },
                       "\(what), zoom \(zoom) across the antimeridian", file: file, line: line)
            for (cluster, theirs) in zip(all, expected) where cluster.isCluster && theirs.isCluster {
                assertSame(try index.children(of: cluster.id), try fresh.children(of: theirs.id).map { renamed($0, live, total: total) },
                           "\(what), children at zoom \(zoom)", file: file, line: line)
                assertSame(try index.leaves(of: cluster.id, limit: 5, offset: 1), try fresh.leaves(of: theirs.id, limit: 5, offset: 1).map { renamed($0, live, total: total) },
                           "\(what), leaves at zoom \(zoom)", file: file, line: line)
                XCTAssertEqual(try index.expansionZoom(of: cluster.id), try fresh.expansionZoom(of: theirs.id), file: file, line: line)
            }
            if zoom <= 2 {
                for x in 0..<(1 << zoom) { for y in 0..<(1 << zoom) {
                    let ours = try index.tile(z: zoom, x: x, y: y)
                    let theirs = try fresh.tile(z: zoom, x: x, y: y).map { f -> TileFeature in
                        var g = f
                        g.id = f.isCluster ? f.id + Int64(total - live.count) : Int64(live[Int(f.id)].id)
                        return g
                    }
                    XCTAssertEqual(ours, theirs, "\(what), tile \(zoom)/\(x)/\(y)", file: file, line: line)
                } }
            }
        }
    }

    private func edit(_ index: HierarchicalClusterIndex, _ model: inout Model,
                      add: [Double] = [], remove: [Int32] = [], move: [Int32] = [], to: [Double] = []) throws {
        let first = try add.withUnsafeBufferPointer { a in
            try remove.withUnsafeBufferPointer { r in
                try move.withUnsafeBufferPointer { m in
                    try to.withUnsafeBufferPointer { t in try index.edit(adding: a, removing: r, moving: m, to: t) }
                }
            }
        }
        XCTAssertEqual(first, model.points.count)
        for id in remove { model.points[Int(id)] = nil }
        for (k, id) in move.enumerated() { model.points[Int(id)] = (to[2 * k], to[2 * k + 1]) }
        for i in stride(from: 0, to: add.count, by: 2) { model.points.append((add[i], add[i + 1])) }
    }

    /// A built index of `count` mixed points; its edits are repaired in place unless
    /// `repairLimit` says otherwise (small indexes would be built afresh).
    private func start(_ count: Int, seed: UInt32, _ options: ClusterOptions,
                       repairLimit: Int? = Int.max) throws -> (HierarchicalClusterIndex, Model, SeededRandom) {
        var rng = SeededRandom(seed: seed)
        let points = rng.mixedPoints(count)
        let index = try Fixtures.makeIndex(points, options)
        index.editRepairLimit = repairLimit
        let model = Model(points: stride(from: 0, to: points.count, by: 2).map { (points[$0], points[$0 + 1]) })
        return (index, model, rng)
    }

    func testOneMovedPointMatchesARebuild() throws {
        var (index, model, _) = try start(800, seed: 3, ClusterOptions())
        try edit(index, &model, move: [5], to: [2.36, 48.86])
        try assertEqualsRebuild(index, model, "one point moved into a blob")
        try edit(index, &model, move: [5], to: [-179.99, 10.1])
        try assertEqualsRebuild(index, model, "the same point moved across the antimeridian")
    }

    func testRemovingSeedsMatchesARebuild() throws {
        var (index, model, _) = try start(800, seed: 5, ClusterOptions())
        // Low ids seed the clusters they belong to: removing them frees their members.
        try edit(index, &model, remove: [0, 1, 2, 3, 4, 6, 9])
        try assertEqualsRebuild(index, model, "seeds removed")
    }

    func testAddingPointsMatchesARebuild() throws {
        var (index, model, _) = try start(600, seed: 7, ClusterOptions())
        let pile = [Double](repeating: 0, count: 60).enumerated().map { $0.offset % 2 == 0 ? 151.2 : -33.9 }
        try edit(index, &model, add: [179.999, 10, -179.999, 10] + pile)
        try assertEqualsRebuild(index, model, "points added across the antimeridian and on one spot")
    }

    /// Random batches, each checked against a rebuild: moves, removes and adds mixed, across the
    /// antimeridian, onto one spot, of seeds and of the points just added.
    /// With decisions reading the seeds by cell throughout and never, with the dead slots an
    /// edit may leave at their default (an eighth of the clusters), never laid out afresh for
    /// them, and laid out afresh at each.
    func testRandomEditBatchesMatchRebuilds() throws {
        try randomEditBatches(seeds: [11], repairLimit: Int.max)
        try randomEditBatches(seeds: [11, 14], repairLimit: Int.max, seedsByCell: true)
        try randomEditBatches(seeds: [15], repairLimit: Int.max, seedsByCell: false)
        let loose = try randomEditBatches(seeds: [12], repairLimit: Int.max, deadSlotLimit: Int.max)
        XCTAssertTrue(loose.storageIsLoose)
        XCTAssertGreaterThan(loose.deadClusterCount, 50, "dead slots kept")
        let compact = try randomEditBatches(seeds: [13], repairLimit: Int.max, deadSlotLimit: 0)
        XCTAssertEqual(compact.deadClusterCount, 0)
    }

    /// The same, with batches past the repair limit built afresh (the limit at its default for
    /// 1,500 points: every batch; and at 20 edits: some each way).
    func testRandomEditBatchesBuiltAfreshMatchRebuilds() throws {
        try randomEditBatches(seeds: [21], repairLimit: nil)
        try randomEditBatches(seeds: [22, 23], repairLimit: 20)
    }

    /// Batches built afresh before and after the first removal: while no point was ever
    /// removed the fresh index's numbering is taken as it is, after one it is renamed.
    func testBatchesBuiltAfreshWithAndWithoutRemovedPointsMatchRebuilds() throws {
        var (index, model, _) = try start(900, seed: 41, ClusterOptions(), repairLimit: 0)
        try edit(index, &model, move: [0, 7, 300], to: [2.36, 48.86, -179.99, 10.1, 151.2, -33.9])
        try assertEqualsRebuild(index, model, "moves built afresh")
        try edit(index, &model, add: [10, 10, 10, 10, 179.999, 10])
        try assertEqualsRebuild(index, model, "adds built afresh")
        try edit(index, &model, remove: [0, 5], move: [7], to: [3, 3])
        try assertEqualsRebuild(index, model, "a removal built afresh")
        try edit(index, &model, move: [8, 901], to: [20, 20, 21, 21])
        try assertEqualsRebuild(index, model, "moves built afresh after a removal")
    }

    /// A repair that reads more than its budget stops, puts everything back and builds afresh:
    /// with the budget lowered, some batches stop at every stage (adds, removes and moves
    /// included); and a pile of points on one spot whose seed is removed, which a repair would
    /// read over and over were its members' decisions searches, stops with the default budget
    /// when they are.
    func testStoppedRepairsMatchRebuilds() throws {
        for budget in [50, 400, 3000] {
            var (index, model, rng) = try start(1200, seed: 31, ClusterOptions(maxZoom: 10))
            index.editReadBudget = budget
            for batch in 0..<4 {
                let ids = (0..<6).map { _ in Int32(rng.next() * 1200) }.reduce(into: [Int32]()) { if !$0.contains($1) && model.points[Int($1)] != nil { $0.append($1) } }
                let remove = Array(ids.prefix(2)), move = Array(ids.dropFirst(2))
                try edit(index, &model, add: [2.35, 48.85, -179.99, 10], remove: remove, move: move,
                         to: move.flatMap { _ in [2.3501, 48.85] })
                try assertEqualsRebuild(index, model, "budget \(budget), batch \(batch)")
            }
            if budget == 50 { XCTAssertGreaterThan(index.stoppedRepairs, 0) }
        }
        var pile = [Double]()
        for i in 0..<3000 { pile += [151.2 + Double(i % 7) * 1e-9, -33.9] }
        let index = try Fixtures.makeIndex(pile + [10, 10], ClusterOptions())
        index.editRepairLimit = Int.max
        index.editSeedsByCell = false
        var model = Model(points: stride(from: 0, to: pile.count + 2, by: 2).map { i in i < pile.count ? (pile[i], pile[i + 1]) : (10, 10) })
        try edit(index, &model, remove: [0])
        XCTAssertEqual(index.stoppedRepairs, 1)
        try assertEqualsRebuild(index, model, "a pile without its seed")
        index.editReadBudget = Int.max
        try edit(index, &model, remove: [3000])
        XCTAssertEqual(index.stoppedRepairs, 1, "a point far from the pile is repaired")
        try assertEqualsRebuild(index, model, "the far point removed")
    }

    /// A cluster that nearly all its points leave (a crowd of 100,000, one zoom up a cluster of
    /// its own, joins a seed moved in ranked before) keeps its last few points where a fresh
    /// build centres them: their sum is not the old centre's less the crowd's, whose rounding
    /// would be magnified by the few points left.
    func testAClusterMostPointsLeaveIsCentredAsARebuild() throws {
        let r3 = 40.0 / (512 * 8) * 360   // zoom 3's radius, in degrees of longitude
        // 0: the seed moved in; 1: the cluster's seed, 2 its neighbour one zoom up, 3 a member
        // only at zoom 3; then the crowd, within zoom 3's radius of 1 and of where 0 goes.
        // (At a spot where the old centre less the crowd's is off by 2.4e-12.)
        let lng = 30.93, lat = 18.51
        var points: [Double] = [100, lat, lng, lat, lng + 0.1 * r3, lat, lng - 0.7 * r3, lat]
        for i in 0..<100_000 { points += [lng + 0.8 * r3 + Double(i % 10) * 1e-7, lat + Double(i / 10 % 10) * 1e-7] }
        let index = try Fixtures.makeIndex(points, ClusterOptions())
        index.editRepairLimit = Int.max
        var model = Model(points: stride(from: 0, to: points.count, by: 2).map { (points[$0], points[$0 + 1]) })
        let zoom3 = try index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: 3)
        XCTAssertTrue(zoom3.contains { $0.pointCount == 100_003 }, "the crowd is in the seed's cluster at zoom 3")
        try edit(index, &model, move: [0], to: [lng + 1.6 * r3, lat])
        let left = try index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: 3).filter { $0.pointCount == 3 }
        XCTAssertEqual(left.count, 1, "three points are left in it")
        // At their mean (of the float32 positions clustering reads), as summing them gives.
        var meanX = 0.0, meanY = 0.0
        for k in 1...3 {
            let p = HierarchicalClusterIndex.project(longitude: points[2 * k], latitude: points[2 * k + 1])
            meanX += Double(Float(p.0)) / 3
            meanY += Double(Float(p.1)) / 3
        }
        XCTAssertEqual(left.first?.x ?? 0, meanX, accuracy: 1e-14)
        XCTAssertEqual(left.first?.y ?? 0, meanY, accuracy: 1e-14)
        XCTAssertEqual(index.stoppedRepairs, 0)
        try assertEqualsRebuild(index, model, "a crowd leaving its seed for another")
    }

    /// Points of a crowd that do not seed it, removed or moved within it: only seeds enter other
    /// items' decisions, so the repair searches the crowd a few times per zoom instead of once
    /// per member, and finishes within the default budget a search per member would overrun.
    /// Its seed leaving frees every member, each of which decides again: reading the seeds
    /// by cell, not searching the crowd, that finishes within the budget too.
    func testCrowdMembersAreRepairedWithoutStopping() throws {
        var pile = [Double]()
        for i in 0..<3000 { pile += [151.2 + Double(i % 7) * 1e-9, -33.9 + Double(i % 5) * 1e-9] }
        let index = try Fixtures.makeIndex(pile, ClusterOptions())
        index.editRepairLimit = Int.max
        var model = Model(points: stride(from: 0, to: pile.count, by: 2).map { (pile[$0], pile[$0 + 1]) })
        try edit(index, &model, remove: [1500])
        try assertEqualsRebuild(index, model, "a member removed from the pile")
        try edit(index, &model, move: [2000, 2999], to: [151.2 + 5e-9, -33.9, 151.2, -33.9 + 3e-9])
        try assertEqualsRebuild(index, model, "members moved within the pile")
        XCTAssertEqual(index.stoppedRepairs, 0)
        try edit(index, &model, remove: [0])
        try assertEqualsRebuild(index, model, "the pile without its seed")
        try edit(index, &model, add: [151.2, -33.9], move: [1], to: [151.2 + 2e-9, -33.9])
        try assertEqualsRebuild(index, model, "a point added to the pile and its new seed moved within it")
        XCTAssertEqual(index.stoppedRepairs, 0)
    }

    /// Points moved where a zoom group spans many zooms: the group's items around a moved point
    /// are read once for all of them (`_NearItems`), and where they are too many to keep, a dense
    /// patch in a sparse world, each zoom searches as usual. Either way the index equals a rebuild.
    func testPointsMovedInAGroupOfManyZoomsMatchRebuilds() throws {
        var rng = SeededRandom(seed: 7)
        var points = [Double]()
        for _ in 0..<2000 { points += [rng.next() * 360 - 180, rng.next() * 170 - 85] }
        let patch = points.count / 2
        for i in 0..<150 { points += [2.35 + Double(i % 15) * 1e-4, 48.85 + Double(i / 15) * 1e-4] }
        let index = try Fixtures.makeIndex(points, ClusterOptions())
        index.editRepairLimit = Int.max
        let wide = try XCTUnwrap(index.groups.first { $0.highZoom - $0.lowZoom >= 4 }, "a group of many zooms")
        XCTAssertTrue(wide.ids.contains(Int32(patch)) && wide.ids.count > _NearItems.limit)
        var model = Model(points: stride(from: 0, to: points.count, by: 2).map { (points[$0], points[$0 + 1]) })
        try edit(index, &model, move: [Int32(patch), Int32(patch + 77)], to: [2.35 + 3e-5, 48.85, 2.35 + 5e-4, 48.85 + 2e-4])
        try assertEqualsRebuild(index, model, "the patch's seed and a member moved within it")
        try edit(index, &model, move: [3, 4, 5], to: [2.35 + 15e-4, 48.85 + 9.5e-4, 100.5, 10.25, 100.5 + 1e-3, 10.25])
        try assertEqualsRebuild(index, model, "a point moved to a corner of the patch, which it seeds, and two beside each other")
        XCTAssertEqual(index.stoppedRepairs, 0)
    }

    /// Points nudged a little, a few at a time (a fleet's next positions): mostly laid out in
    /// place, clusters keeping their slots and ids; some nudges change which items seed, and
    /// those are laid out anew. Either way the index equals a rebuild, small clusters' point
    /// lists (kept for cluster managers) included.
    func testNudgedPointsAreLaidOutInPlaceAndMatchRebuilds() throws {
        var rng = SeededRandom(seed: 41)
        let points = rng.mixedPoints(1500)
        let index = try HierarchicalClusterIndex(options: ClusterOptions(maxZoom: 14))
        index.smallClustersBelow = 4
        try points.withUnsafeBufferPointer { try index.add(lngLat: $0) }
        index.build()
        index.editRepairLimit = Int.max
        var model = Model(points: stride(from: 0, to: points.count, by: 2).map { (points[$0], points[$0 + 1]) })
        var looseEdits = 0
        for batch in 0..<40 {
            var move: [Int32] = [], to: [Double] = []
            for _ in 0..<(1 + Int(rng.next() * 4)) {
                let i = Int32(rng.next() * 1500)
                guard !move.contains(i), let p = model.points[Int(i)] else { continue }
                let step = [1e-5, 1e-3, 0.05][batch % 3]
                move.append(i)
                to += [p.0 + (rng.next() - 0.5) * step, p.1 + (rng.next() - 0.5) * step]
            }
            let wasLoose = index.storageIsLoose, dead = index.deadClusterCount, clusters = index.clusterPositions.count
            try edit(index, &model, move: move, to: to)
            if index.storageIsLoose != wasLoose || index.deadClusterCount != dead || index.clusterPositions.count != clusters { looseEdits += 1 }
            try assertEqualsRebuild(index, model, "batch \(batch), \(move.count) nudged")
        }
        XCTAssertEqual(index.editsLaidOutInPlace, 40, "few dead slots: none laid out afresh")
        XCTAssertGreaterThan(looseEdits, 0, "some nudges change an item's standing")
        XCTAssertLessThan(looseEdits, 40, "most do not")
    }

    /// A fleet: the same points moved again and again by small steps, while around them other
    /// points are added, removed and moved onto the fleet, and fleet members jump: after every
    /// batch the index equals a rebuild.
    func testAFleetMovedAgainAndAgainMatchesRebuilds() throws {
        var (index, model, rng) = try start(1200, seed: 77, ClusterOptions(maxZoom: 14))
        // Every 20th point, so spread ones, ones in crowds, duplicates (and seeds of each).
        let fleet = (0..<60).map { Int32($0 * 20) }
        for batch in 0..<24 {
            var add: [Double] = [], remove: [Int32] = [], move: [Int32] = [], to: [Double] = []
            let step = [1e-4, 1e-5, 3e-4][batch % 3]
            for id in fleet {
                guard let p = model.points[Int(id)] else { continue }
                move.append(id)
                if batch % 5 == 4 && id % 200 == 0 {
                    to += [p.0 + (rng.next() - 0.5) * 0.5, max(-85, min(85, p.1 + (rng.next() - 0.5) * 0.5))]   // a jump
                } else {
                    to += [p.0 + (rng.next() - 0.5) * step, max(-85, min(85, p.1 + (rng.next() - 0.5) * step))]
                }
            }
            if batch % 4 == 3 {
                // Around the fleet: points added on and beside members, others moved onto
                // members, a few removed (seeds among them, fleet members too).
                for k in 0..<6 {
                    guard let p = model.points[Int(fleet[(batch + 7 * k) % fleet.count])] else { continue }
                    let off = [0, 2e-3, 1e-2, 0.1][k % 4]
                    add += [p.0 + off, p.1]
                }
                for k in 0..<4 {
                    let id = Int32(1 + (batch * 37 + k * 101) % 1199)
                    guard !fleet.contains(id), model.points[Int(id)] != nil, let p = model.points[Int(fleet[(k + batch) % fleet.count])] else { continue }
                    move.append(id)
                    to += [p.0 + 1e-3 * Double(k), p.1]
                }
                // A point ranked before a member moved onto it: it seeds there and takes the
                // member in, which moved too.
                let early = Int32(batch), member = fleet[30 + batch % 30]
                if !move.contains(early), model.points[Int(early)] != nil, let p = model.points[Int(member)] {
                    move.append(early)
                    to += [p.0, p.1]
                }
                for k in 0..<3 {
                    let id = Int32((batch * 53 + k * 211 + 5) % 1200)
                    guard !move.contains(id), !remove.contains(id), model.points[Int(id)] != nil else { continue }
                    remove.append(id)
                }
                if batch == 11, let i = move.firstIndex(of: fleet[9]) {
                    move.remove(at: i)
                    to.removeSubrange((2 * i)..<(2 * i + 2))
                    remove.append(fleet[9])
                }
            }
            try edit(index, &model, add: add, remove: remove, move: move, to: to)
            try assertEqualsRebuild(index, model, "batch \(batch), \(move.count) moved, \(add.count / 2) added, \(remove.count) removed")
        }
        XCTAssertEqual(index.stoppedRepairs, 0)
    }

    /// Edits with no query between them leave their seed position changes pending; the first
    /// query, or a save, applies them: ids, children and tiles then equal a rebuild's, and a
    /// restored index's too.
    func testSeedPositionsPendingOverManyEditsMatchARebuild() throws {
        var (index, model, rng) = try start(1500, seed: 19, ClusterOptions(maxZoom: 12))
        var pendingSeen = false
        for round in 0..<2 {
            for _ in 0..<8 {
                var add: [Double] = [], remove: [Int32] = [], move: [Int32] = [], to: [Double] = []
                var named = Set<Int32>()
                for _ in 0..<12 {
                    let i = Int32(rng.next() * Double(model.points.count))
                    guard let p = model.points[Int(i)], named.insert(i).inserted else { continue }
                    move.append(i)
                    let step = rng.next() < 0.5 ? 1e-3 : 0.3
                    to += [p.0 + (rng.next() - 0.5) * step, max(-85, min(85, p.1 + (rng.next() - 0.5) * step))]
                }
                for _ in 0..<4 {
                    let i = Int32(rng.next() * Double(model.points.count))
                    if model.points[Int(i)] != nil, named.insert(i).inserted { remove.append(i) }
                }
                for _ in 0..<6 { add += [2.35 + (rng.next() - 0.5) * 0.5, 48.85 + (rng.next() - 0.5) * 0.5] }
                try edit(index, &model, add: add, remove: remove, move: move, to: to)
                pendingSeen = pendingSeen || !index.pendingSeedShifts.isEmpty
            }
            if round == 0 {
                try assertEqualsRebuild(index, model, "after 8 edits, queried")
            } else {
                let bytes = try index.save()
                let restored = try bytes.withUnsafeBytes { try HierarchicalClusterIndex.restore(from: $0) }
                XCTAssertTrue(index.pendingSeedShifts.isEmpty, "a save applies what is pending")
                try assertEqualsRebuild(restored, model, "after 8 more edits, saved and restored")
                try assertEqualsRebuild(index, model, "after 8 more edits")
            }
        }
        XCTAssertTrue(pendingSeen, "edits left seed position changes pending")
        XCTAssertGreaterThan(index.editsLaidOutInPlace, 8, "most laid out in place, where changes are left pending")
    }

    /// Two points just beyond the radius of each other at zoom 10, moved toward each other a
    /// little at every edit until they cluster there: they do when a rebuild does.
    func testTwoPointsClosingInClusterWhenARebuildDoes() throws {
        let r = 40.0 / 512 / 1024 * 360   // zoom 10's radius in degrees of longitude
        var points: [Double] = [10, 0, 10 + 1.2 * r, 0]
        for k in 0..<6 { points += [-100 + Double(k) * 30, 40] }
        let index = try Fixtures.makeIndex(points, ClusterOptions(maxZoom: 12))
        index.editRepairLimit = Int.max
        var model = Model(points: stride(from: 0, to: points.count, by: 2).map { (points[$0], points[$0 + 1]) })
        func together() throws -> Bool {
            try index.clusters(west: 9, south: -1, east: 11, north: 1, zoom: 10).count == 1
        }
        XCTAssertFalse(try together())
        for batch in 0..<16 {
            let a = model.points[0]!, b = model.points[1]!
            try edit(index, &model, move: [0, 1], to: [a.0 + 0.01 * r, 0, b.0 - 0.01 * r, 0])
            try assertEqualsRebuild(index, model, "batch \(batch)")
        }
        XCTAssertTrue(try together())
    }

    /// Two points that swap places swap clusters: every cluster is made again with the same
    /// seed and as many points, so all keep their slots and ids, and the small clusters' point
    /// lists are rewritten in place.
    func testSwappedPointsSwapClustersInPlace() throws {
        // Seeds 0 and 1, with points 2 and 3 beside them (ranked after both); others far away.
        let points: [Double] = [10, 10, 20, 20, 10.0001, 10, 20.0001, 20, -60, -30, 100, 50]
        let index = try HierarchicalClusterIndex(options: ClusterOptions())
        index.smallClustersBelow = 4
        try points.withUnsafeBufferPointer { try index.add(lngLat: $0) }
        index.build()
        index.editRepairLimit = Int.max
        let before = try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 8).filter(\.isCluster)
        var model = Model(points: stride(from: 0, to: points.count, by: 2).map { (points[$0], points[$0 + 1]) })
        try edit(index, &model, move: [2, 3], to: [20.0001, 20, 10.0001, 10])
        XCTAssertEqual(index.editsLaidOutInPlace, 1)
        try assertEqualsRebuild(index, model, "swapped")
        let after = try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 8).filter(\.isCluster)
        XCTAssertEqual(after.map(\.id), before.map(\.id), "the same cluster ids")
        XCTAssertEqual(try after.map { try index.leaves(of: $0.id, limit: 10, offset: 0).map(\.id).sorted() }, [[0, 3], [1, 2]])
    }

    @discardableResult
    private func randomEditBatches(seeds: [UInt32], repairLimit: Int?, deadSlotLimit: Int? = nil,
                                   seedsByCell: Bool? = nil) throws -> HierarchicalClusterIndex {
        var last: HierarchicalClusterIndex? = nil
        for seed in seeds {
            var (index, model, rng) = try start(1500, seed: seed, ClusterOptions(maxZoom: 12), repairLimit: repairLimit)
            index.deadSlotLimit = deadSlotLimit
            index.editSeedsByCell = seedsByCell
            last = index
            for batch in 0..<6 {
                var add: [Double] = [], remove: [Int32] = [], move: [Int32] = [], to: [Double] = []
                var named = Set<Int32>()
                func pickLive() -> Int32? {
                    for _ in 0..<20 {
                        let low = rng.next() < 0.3
                        let i = Int32(rng.next() * Double(low ? min(40, model.points.count) : model.points.count))
                        if model.points[Int(i)] != nil && !named.contains(i) { named.insert(i); return i }
                    }
                    return nil
                }
                func somewhere() -> (Double, Double) {
                    switch Int(rng.next() * 4) {
                    case 0: return (rng.next(in: -180...180), rng.next(in: -85...85))
                    case 1: return (rng.next() < 0.5 ? 179.9 + rng.next() * 0.1 : -180 + rng.next() * 0.1, 10 + rng.next())
                    case 2: return (2.35, 48.85)   // one spot, many times
                    default: return (-74 + (rng.next() - 0.5) * 0.5, 40.7 + (rng.next() - 0.5) * 0.5)
                    }
                }
                for _ in 0..<Int(rng.next() * 40) { if let i = pickLive() { move.append(i); let p = somewhere(); to += [p.0, p.1] } }
                for _ in 0..<Int(rng.next() * 30) { if let i = pickLive() { remove.append(i) } }
                for _ in 0..<Int(rng.next() * 40) { let p = somewhere(); add += [p.0, p.1] }
                try edit(index, &model, add: add, remove: remove, move: move, to: to)
                try assertEqualsRebuild(index, model, "seed \(seed), batch \(batch), \(add.count / 2 + remove.count + move.count) edits")
            }
        }
        return last!
    }

    func testBadEditsChangeNothing() throws {
        var (index, model, _) = try start(300, seed: 17, ClusterOptions())
        let before = try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 3)
        func refused(_ expected: CairnError, add: [Double] = [], remove: [Int32] = [], move: [Int32] = [], to: [Double] = []) {
            XCTAssertThrowsError(try edit(index, &model, add: add, remove: remove, move: move, to: to)) { error in
                XCTAssertEqual(error as? CairnError, expected)
            }
        }
        refused(.unknownPoint(id: 300), remove: [300])
        refused(.unknownPoint(id: -1), move: [-1], to: [0, 0])
        refused(.invalidArgument, remove: [4, 4])
        refused(.invalidArgument, remove: [4], move: [4], to: [0, 0])
        refused(.latitudeOutOfRange(index: 7), move: [7], to: [0, 91])
        refused(.nonFiniteCoordinate(index: 301), add: [1, 1, .nan, 2])
        refused(.invalidArgument, add: [1])
        XCTAssertEqual(try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 3), before)
        try edit(index, &model, remove: [8])
        refused(.unknownPoint(id: 8), move: [8], to: [1, 1])
        XCTAssertEqual(index.livePointCount, 299)
        try assertEqualsRebuild(index, model, "after refused edits")
    }

    /// A saved edited index restores with its removed points, answers as before, and takes
    /// further edits.
    func testEditedIndexSavesAndRestores() throws {
        var (index, model, _) = try start(700, seed: 19, ClusterOptions())
        index.deadSlotLimit = Int.max
        try edit(index, &model, add: [10, 10, 10.001, 10], remove: [0, 3, 699], move: [5, 6], to: [10, 10.0005, -179.99, 0])
        XCTAssertTrue(index.storageIsLoose, "laid out in place, with clusters out of zoom order")
        let ids = try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 3).map(\.id)
        let bytes = try index.save()
        XCTAssertFalse(index.storageIsLoose, "saving lays the storage out in zoom order")
        XCTAssertEqual(try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 3).map(\.id), ids, "with the same ids")
        let restored = try bytes.withUnsafeBytes { try HierarchicalClusterIndex.restore(from: $0) }
        XCTAssertEqual(restored.livePointCount, index.livePointCount)
        try assertEqualsRebuild(restored, model, "restored")
        try edit(restored, &model, remove: [700], move: [1], to: [10, 10])
        try assertEqualsRebuild(restored, model, "restored, then edited")
        XCTAssertThrowsError(try [Double]().withUnsafeBufferPointer { e in
            try [Int32(3)].withUnsafeBufferPointer { i in try restored.edit(adding: e, removing: i, moving: UnsafeBufferPointer(start: nil, count: 0), to: e) }
        }) { XCTAssertEqual($0 as? CairnError, .unknownPoint(id: 3)) }
    }

    func testEditsNeedMinPointsTwoAndNoAggregates() throws {
        let wide = try Fixtures.makeIndex([1, 1, 1.001, 1, 5, 5], ClusterOptions(minPoints: 3))
        XCTAssertThrowsError(try [Double]().withUnsafeBufferPointer { e in
            try [Int32]().withUnsafeBufferPointer { i in try wide.edit(adding: e, removing: i, moving: i, to: e) }
        }) { XCTAssertEqual($0 as? CairnError, .invalidState) }
    }
}
