import XCTest
@testable import Cairn

/// Where a view shows copies of the world (the lowest zooms, or tilted to the horizon), a
/// frame projects each point only on the copies that may show it: what it places, and in which
/// order, must be what projecting every copy places.
final class SceneCopiesTests: XCTestCase {
    func testMarkersArePlacedOnTheCopiesProjectingEveryCopyPlaces() throws {
        var random = SeededRandom(seed: 31)
        var checked = 0, copied = 0
        for round in 0..<60 {
            // Quarter turns make the copies' screen step along one axis all but zero, so the
            // bounds on the copies come out near infinity.
            let quarterTurn = Double(90 * (round % 4))
            let map = MapController.make(lat: random.next(in: -60...60), lng: random.next(in: -180...179),
                                         zoom: random.next(in: 0...4), bearing: round % 3 == 0 ? quarterTurn : random.next(in: 0...360),
                                         width: random.next(in: 300...2400), height: random.next(in: 300...1400))
            try map.setLimits(CameraLimits(minZoom: 0, maxZoom: 22, maxTilt: 75))
            try map.moveCamera(to: CameraPosition(latitude: map.camera.position.latitude,
                                                  longitude: map.camera.position.longitude, zoom: map.zoom,
                                                  bearing: map.bearing, tilt: round % 2 == 0 ? random.next(in: 0...75) : 0))
            var batch: [MarkerProperties] = []
            for k in 0..<300 {
                var m = MarkerProperties(latitude: random.next(in: -85...85), longitude: random.next(in: -180...179.99))
                // Some stand above the ground: projected on every copy.
                if k % 10 == 0 {
                    m.altitudeMode = .absolute
                    m.altitude = random.next(in: 0...500_000)
                }
                batch.append(m)
            }
            _ = try map.addMarkers(batch)
            map.frame(1)
            let p = map.projection
            let copies = p.worldCopiesEachSide(margin: Scene.margin)
            var expected: [String] = []
            map.markers.forEach { id, slot in
                for copy in -copies...copies {
                    guard let item = _MarkerPlacement.item(id: id, map.markers.properties[slot], worldX: map.markers.worldX[slot],
                                                           worldY: map.markers.worldY[slot], addedAt: map.markers.addedAt[slot],
                                                           projection: p, icons: map.icons, time: 1, copy: copy),
                          Scene.places(item.x, item.y, in: p.viewport) else { continue }
                    expected.append("\(item.id) \(item.x) \(item.y)")
                }
            }
            let placed = map.scene.withPlacedItems { items, _ in items.map { "\($0.id) \($0.x) \($0.y)" } }
            XCTAssertEqual(placed, expected, "\(p.position) \(p.viewport)")
            checked += expected.count
            if copies > 0 { copied += 1 }
        }
        XCTAssertGreaterThan(checked, 5000)
        XCTAssertGreaterThan(copied, 20, "views with copies of the world")
    }
}
