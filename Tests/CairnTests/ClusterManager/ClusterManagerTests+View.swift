import XCTest
@testable import Cairn

/// A screen-space manager's frame visits only the groups near the view (feature C4): what it
/// draws, and in which order, must be what walking every group draws — each group's cluster or
/// items placed where they land in the view or its margin — for any camera: turned, tilted to
/// the horizon, across the antimeridian, zoomed in on dense data, zoomed out to the world's copies.
final class ClusterManagerViewTests: XCTestCase {
    /// Every group in order, drawn as the manager draws them on each copy of the world in view
    /// (the default icons reach 64 px): (kind, id, x, y) of each placed item.
    func walkEveryGroup(_ manager: ClusterManager, _ p: CameraProjection) -> [String] {
        var out: [String] = []
        let copies = p.worldCopiesEachSide(margin: ClusterManager.defaultIconReach)
        func place(_ kind: SceneItemKind, _ id: Int64, _ x: Double, _ y: Double) {
            for copy in -copies...copies {
                guard let s = p.screenPoint(worldX: x, worldY: y, copy: copy), Scene.places(s.x, s.y, in: p.viewport)
                else { continue }
                out.append("\(kind) \(id) \(s.x) \(s.y)")
            }
        }
        let asClusters = p.zoom <= manager.rendering.maximumClusterZoom
        for g in 0..<manager.groups.count {
            if asClusters && manager.groups.size(of: g) >= manager.rendering.minimumClusterSize {
                place(.cluster, manager.groupID(g), manager.groups.x[g], manager.groups.y[g])
            } else {
                for m in manager.groups.members(of: g) {
                    let s = manager.snapshot[Int(m)]
                    place(.clusterItem, s.id, s.x, s.y)
                }
            }
        }
        return out
    }

    func testAFrameDrawsWhatWalkingEveryGroupDraws() throws {
        var random = SeededRandom(seed: 17)
        // Blobs from a city to a continent wide, one across the antimeridian, and a thin line.
        var lats: [Double] = [], lngs: [Double] = []
        let blobs: [(Double, Double, Double)] = [(48.86, 2.35, 0.05), (40.7, -74, 2), (-33.9, 151.2, 15), (10, 179.9, 0.5)]
        for k in 0..<6000 {
            if k % 10 == 0 {
                lats.append(random.next(in: -60...60))
                lngs.append(30.0)
            } else {
                let (lat, lng, spread) = blobs[k % blobs.count]
                lats.append(max(-85, min(85, lat + (random.next() - 0.5) * spread)))
                var x = lng + (random.next() - 0.5) * spread
                if x >= 180 { x -= 360 }
                lngs.append(x)
            }
        }
        for algorithm in [ClusterAlgorithmKind.grid, .distance, .none] {
            let map = MapController.make(width: 900, height: 700)
            try map.setLimits(CameraLimits(minZoom: 0, maxZoom: 22, maxTilt: 75))
            let number = try map.addClusterManager(algorithm)
            let manager = try map.clusterManager(number)
            manager.animatesClusters = false
            _ = try map.addClusterItems(number, latitudes: lats, longitudes: lngs, icons: [Int32](repeating: -1, count: lats.count))
            try map.cluster(number)
            var t = 1.0
            var indexed = 0
            for round in 0..<40 {
                let blob = blobs[round % blobs.count]
                let camera = CameraPosition(latitude: blob.0 + (random.next() - 0.5) * blob.2,
                                            longitude: blob.1 + (random.next() - 0.5) * blob.2,
                                            zoom: round % 4 == 1 ? random.next(in: 0...3) : random.next(in: 2...19),
                                            bearing: random.next(in: 0...360),
                                            tilt: round % 3 == 0 ? 0 : random.next(in: 0...75))
                try map.moveCamera(to: camera)
                // The groups follow the zoom once it has held 0.2 s.
                for _ in 0..<3 {
                    t += 0.15
                    map.frame(t)
                }
                let p = map.projection
                let drawn = map.scene.withPlacedItems { items, _ in items.map { "\($0.kind) \($0.id) \($0.x) \($0.y)" } }
                if p.worldCopiesEachSide(margin: Scene.margin) == 0 && Scene.placedWorldBoxes(p) != nil
                    && manager.groups.count >= ClusterManager.indexedGroupsFrom { indexed += 1 }
                XCTAssertEqual(drawn, walkEveryGroup(manager, p), "\(algorithm), \(camera)")
            }
            XCTAssertGreaterThan(indexed, 15, "\(algorithm): frames that used the index")
        }
    }

    func testTheViewsWorldBoxesHoldEveryPointItPlaces() {
        var random = SeededRandom(seed: 23)
        var checked = 0
        for _ in 0..<200 {
            let map = MapController.make(lat: random.next(in: -70...70), lng: random.next(in: -180...179),
                                         zoom: random.next(in: 1...20), bearing: random.next(in: 0...360),
                                         tilt: random.next(in: 0...60), width: random.next(in: 200...2000),
                                         height: random.next(in: 200...1200))
            let p = map.projection
            guard let boxes = Scene.placedWorldBoxes(p) else { continue }
            // Points all over the view and its margin, and just outside it.
            for _ in 0..<200 {
                let x = random.next(in: -300...(p.viewport.width + 300)), y = random.next(in: -300...(p.viewport.height + 300))
                guard let w = p.worldPoint(screenX: x, screenY: y) else { continue }
                var wx = w.x - _floor(w.x)
                if wx >= 1 { wx -= 1 }
                guard w.y >= 0, w.y <= 1, let s = p.screenPoint(worldX: wx, worldY: w.y), Scene.places(s.x, s.y, in: p.viewport)
                else { continue }
                XCTAssertTrue(boxes.contains { wx >= $0.minX && wx <= $0.maxX && w.y >= $0.minY && w.y <= $0.maxY },
                              "\(p.position) \(x) \(y)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 10_000)
    }
}
