import XCTest
@testable import Cairn

/// A hierarchical manager's next clustering after a few changes edits the index it shows
/// instead of building one: the result must be what a manager given the same items afresh
/// shows, at every zoom, in its index and on the map.
final class ClusterManagerEditTests: XCTestCase {
    /// A manager's items as the test keeps them: by id, where they are (nil once removed).
    private struct Items {
        var position: [Int64: (lat: Double, lng: Double)] = [:]
        var order: [Int64] = []

        var live: [(id: Int64, lat: Double, lng: Double)] {
            order.compactMap { id in position[id].map { (id, $0.lat, $0.lng) } }
        }
    }

    /// A manager on a map, with `count` mixed points added and clustered.
    private func start(_ count: Int, seed: UInt32, rendering: ClusterRendering = ClusterRendering())
        throws -> (MapController, Int32, Items, SeededRandom) {
        var rng = SeededRandom(seed: seed)
        let points = rng.mixedPoints(count)
        let map = MapController.make(lat: 10, lng: 179.5, zoom: 3)
        let m = try map.addClusterManager(.hierarchical, rendering: rendering)
        var items = Items()
        let lats = stride(from: 1, to: points.count, by: 2).map { points[$0] }
        let lngs = stride(from: 0, to: points.count, by: 2).map { points[$0] }
        let first = try map.addClusterItems(m, latitudes: lats, longitudes: lngs, icons: [Int32](repeating: -1, count: lats.count))
        for k in 0..<lats.count {
            items.position[first + Int64(k)] = (lats[k], lngs[k])
            items.order.append(first + Int64(k))
        }
        try map.cluster(m)
        try map.clusterManager(m).animatesClusters = false
        return (map, m, items, rng)
    }

    /// What a manager shows at every zoom, in its index's order: each cluster with its count,
    /// position and items, each item alone by its place among the live items.
    private func shown(_ manager: ClusterManager, _ live: [Int64]) throws -> [[String]] {
        let place = Dictionary(uniqueKeysWithValues: live.enumerated().map { ($1, $0) })
        let index = try XCTUnwrap(manager.index)
        func name(_ item: Int64) -> String { place[item].map(String.init) ?? "unknown \(item)" }
        return try (index.options.minZoom...(index.options.maxZoom + 1)).map { zoom in
            try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom)).map { f in
                let at = "\((f.x * 1e9).rounded()),\((f.y * 1e9).rounded())"
                guard f.isCluster else { return "item \(name(manager.snapshot[Int(f.id)].id)) at \(at)" }
                let leaves = try manager.leaves(of: f.id, limit: Int.max, offset: 0).map(name).sorted()
                return "cluster of \(f.pointCount) at \(at): \(leaves)"
            }
        }
    }

    /// What the map draws of a manager at a few zooms: kind, count and position of each entity.
    private func drawn(_ map: MapController) throws -> [[String]] {
        try [3.0, 6, 9, 13].map { zoom in
            try map.moveCamera(to: CameraPosition(latitude: 10, longitude: 179.5, zoom: zoom))
            map.frame(zoom)
            return map.scene.items.map { "\($0.kind) \($0.count) at \(($0.x * 1e6).rounded()),\(($0.y * 1e6).rounded())" }.sorted()
        }
    }

    /// A manager given the same live items afresh, in the same order, shows the same.
    private func assertMatchesAFreshManager(_ map: MapController, _ m: Int32, _ items: Items, _ what: String,
                                            file: StaticString = #filePath, line: UInt = #line) throws {
        let live = items.live
        let fresh = MapController.make(lat: 10, lng: 179.5, zoom: 3)
        let f = try fresh.addClusterManager(.hierarchical, rendering: try map.clusterManager(m).rendering)
        let first = try fresh.addClusterItems(f, latitudes: live.map(\.lat), longitudes: live.map(\.lng),
                                              icons: [Int32](repeating: -1, count: live.count))
        try fresh.cluster(f)
        try fresh.clusterManager(f).animatesClusters = false
        assertSame(try shown(map.clusterManager(m), live.map(\.id)),
                   try shown(fresh.clusterManager(f), (0..<live.count).map { first + Int64($0) }), "\(what), zoom", file: file, line: line)
        assertSame(try drawn(map), try drawn(fresh), "\(what): on the map, view", file: file, line: line)
    }

    /// Lists per zoom (or view) equal, or the first difference named.
    private func assertSame(_ ours: [[String]], _ theirs: [[String]], _ what: String, file: StaticString, line: UInt) {
        XCTAssertEqual(ours.count, theirs.count, file: file, line: line)
        for (k, (a, b)) in zip(ours, theirs).enumerated() where a != b {
            XCTFail("\(what) \(k): \(a.count) entries against a fresh manager's \(b.count); first difference " +
                    "\(zip(a, b).first { $0 != $1 }.map { "\($0) / \($1)" } ?? "in length")", file: file, line: line)
            return
        }
    }

    func testClusteringAfterAFewChangesEditsTheIndexAndShowsWhatAFreshManagerWould() throws {
        var (map, m, items, rng) = try start(3000, seed: 5)
        let manager = try map.clusterManager(m)
        let index = try XCTUnwrap(manager.index)
        // 3,000 items would allow three changes per clustering: let batches of dozens be repaired.
        index.editRepairLimit = 200
        for batch in 0..<8 {
            for _ in 0..<(5 + Int(rng.next() * 30)) {
                let live = items.live
                let pick = live[Int(rng.next() * Double(live.count))]
                switch rng.next() {
                case ..<0.4:
                    // Nearby, far, or across the antimeridian; some moved twice.
                    let lat = rng.next() < 0.5 ? pick.lat + (rng.next() - 0.5) * 0.01 : (rng.next() - 0.5) * 120
                    let lng = rng.next() < 0.3 ? (pick.lng > 0 ? -179.9 : 179.9) : pick.lng + (rng.next() - 0.5) * 0.02
                    try map.clusterManager(m).move(pick.id, latitude: lat, longitude: lng)
                    items.position[pick.id] = (lat, WebMercator.wrapLongitude(lng))
                case ..<0.7:
                    try map.removeClusterItem(m, item: pick.id)
                    items.position[pick.id] = nil
                default:
                    // Beside an item (often a seed's neighbour), and sometimes removed again at once.
                    let lat = pick.lat + (rng.next() - 0.5) * 0.001, lng = pick.lng + (rng.next() - 0.5) * 0.001
                    let id = try map.addClusterItems(m, latitudes: [lat], longitudes: [lng], icons: [-1])
                    items.order.append(id)
                    items.position[id] = (lat, lng)
                    if rng.next() < 0.2 {
                        try map.removeClusterItem(m, item: id)
                        items.position[id] = nil
                    }
                }
            }
            XCTAssertEqual(try map.beginCluster(m), 0, "batch \(batch): edited in one step")
            XCTAssertTrue(manager.index === index, "batch \(batch): the same index, edited")
            XCTAssertEqual(manager.count, items.live.count)
            try assertMatchesAFreshManager(map, m, items, "batch \(batch)")
        }
        XCTAssertEqual(index.stoppedRepairs, 0)
        // Nothing changed: clustering again keeps the index and what it shows.
        try map.cluster(m)
        XCTAssertTrue(manager.index === index)
        try assertMatchesAFreshManager(map, m, items, "no change")
    }

    func testManyChangesNewOptionsAndAggregatesBuildAfresh() throws {
        var (map, m, items, rng) = try start(3000, seed: 9)
        let manager = try map.clusterManager(m)
        // One change per 1,000 items, at least one: a single move is an edit…
        let index = try XCTUnwrap(manager.index)
        let one = items.live[17]
        try map.clusterManager(m).move(one.id, latitude: one.lat + 0.001, longitude: one.lng)
        items.position[one.id] = (one.lat + 0.001, one.lng)
        XCTAssertEqual(try map.beginCluster(m), 0)
        XCTAssertTrue(manager.index === index)
        try assertMatchesAFreshManager(map, m, items, "one move")
        // …four changes in 3,000 items are built afresh, a zoom a step.
        for pick in [items.live[3], items.live[900], items.live[1500], items.live[2000]] {
            try map.removeClusterItem(m, item: pick.id)
            items.position[pick.id] = nil
        }
        XCTAssertEqual(try map.beginCluster(m), 16, "built a zoom at a time")
        while try map.clusterStep(m) > 0 {}
        let built = try XCTUnwrap(manager.index)
        XCTAssertFalse(built === index)
        XCTAssertEqual(manager.ids.count, manager.count, "slots squeezed")
        try assertMatchesAFreshManager(map, m, items, "four removals")
        // New options: built afresh.
        try manager.setHierarchy(ClusterOptions(radius: 60))
        let pick = items.live[Int(rng.next() * 100)]
        try map.clusterManager(m).move(pick.id, latitude: pick.lat, longitude: pick.lng + 0.01)
        items.position[pick.id] = (pick.lat, pick.lng + 0.01)
        try map.cluster(m)
        XCTAssertFalse(manager.index === built)
        try assertMatchesAFreshManager(map, m, items, "new radius")

        // A manager with aggregates builds afresh every time (the index does not edit them).
        let withValues = try ClusterManager(algorithm: .hierarchical)
        try withValues.setAggregates([.sum])
        _ = try withValues.add(latitudes: [1, 1.0001, 5], longitudes: [1, 1, 5], icons: [-1, -1, -1], values: [1, 2, 3])
        try withValues.cluster(zoom: 3)
        let first = try XCTUnwrap(withValues.index)
        try withValues.move(3, latitude: 1.0002, longitude: 1)
        try withValues.cluster(zoom: 3)
        XCTAssertFalse(withValues.index === first)
        let top = try withValues.index!.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 3)
        XCTAssertEqual(top.map(\.pointCount), [3])
        XCTAssertEqual(try withValues.aggregates(of: top[0].id), [6])
    }
}
