import XCTest
@testable import Cairn

final class CameraProjectionTests: XCTestCase {
    func projection(lat: Double = 0, lng: Double = 0, zoom: Double = 0, bearing: Double = 0, tilt: Double = 0,
                    width: Double = 800, height: Double = 600, padding: EdgeInsets = .zero) -> CameraProjection {
        var world = _WorldCamera(CameraPosition(latitude: lat, longitude: lng, zoom: zoom, bearing: bearing, tilt: tilt))
        world.normalize(CameraLimits(minZoom: 0, maxZoom: 30, maxTilt: 75))
        return CameraProjection(world, Viewport(width: width, height: height, padding: padding))
    }

    func assertPoint(_ p: (x: Double, y: Double)?, _ x: Double, _ y: Double, accuracy: Double = 1e-9,
                     file: StaticString = #filePath, line: UInt = #line) {
        guard let p else { return XCTFail("no screen point", file: file, line: line) }
        XCTAssertEqual(p.x, x, accuracy: accuracy, file: file, line: line)
        XCTAssertEqual(p.y, y, accuracy: accuracy, file: file, line: line)
    }

    func testFlatMapPlacesTheTargetAtTheCentreAndScalesBy256TimesTwoToTheZoom() {
        let p = projection(width: 256, height: 256)
        assertPoint(p.screenPoint(latitude: 0, longitude: 0), 128, 128)
        assertPoint(p.screenPoint(latitude: 0, longitude: 90), 192, 128)
        assertPoint(p.screenPoint(latitude: WebMercator.maxLatitude, longitude: -180), 0, 0, accuracy: 1e-7)
        let z3 = projection(zoom: 3, width: 256, height: 256)
        assertPoint(z3.screenPoint(latitude: 0, longitude: 90), 128 + 512, 128)
        XCTAssertEqual(z3.worldSize, 2048)
    }

    func testBearingTurnsTheMapSoTheBearingPointsUp() {
        // Facing east (90°), a point east of the target is straight up the screen.
        let p = projection(bearing: 90, width: 256, height: 256)
        assertPoint(p.screenPoint(latitude: 0, longitude: 90), 128, 64)
        // Facing south, east is to the left.
        let s = projection(bearing: 180, width: 256, height: 256)
        assertPoint(s.screenPoint(latitude: 0, longitude: 90), 64, 128)
    }

    func testTiltIsAPerspectiveWithTheCameraAtOneAndAHalfViewHeights() {
        let p = projection(tilt: 60, width: 800, height: 600)
        XCTAssertEqual(p.distance, 900)
        // 100 map pixels south of the target is nearer the camera: more than 50 px below centre.
        assertPoint(p.screenPoint(offsetX: 0, offsetY: 100, altitude: 0), 400, 355.323506937109)
        assertPoint(p.screenPoint(offsetX: 0, offsetY: -100, altitude: 0), 400, 254.38892749785666)
        assertPoint(p.screenPoint(offsetX: 0, offsetY: 0, altitude: 100), 400, 208.30319254047123)
        XCTAssertEqual(p.horizonY, -219.61524227066332, accuracy: 1e-9)
        XCTAssertEqual(projection().horizonY, -Double.infinity)
        // Points at or behind the camera plane have no screen position.
        XCTAssertNil(p.screenPoint(offsetX: 0, offsetY: 2000, altitude: 0))
        XCTAssertNil(p.worldPoint(screenX: 400, screenY: -300))
    }

    func testPaddingMovesTheCentre() {
        let p = projection(width: 800, height: 600, padding: EdgeInsets(top: 100, left: 0, bottom: 0, right: 200))
        assertPoint(p.screenPoint(latitude: 0, longitude: 0), 300, 350)
        let c = p.coordinate(screenX: 300, screenY: 350)!
        XCTAssertEqual(c.latitude, 0, accuracy: 1e-12)
        XCTAssertEqual(c.longitude, 0, accuracy: 1e-12)
    }

    func testScreenAndGroundRoundTripAtManyCameras() {
        var checked = 0
        for zoom in [0.0, 3.5, 10, 18.25] {
            for bearing in [0.0, 45, 90, 200, 359.5] {
                for tilt in [0.0, 30, 60] {
                    let p = projection(lat: 48.85, lng: 2.35, zoom: zoom, bearing: bearing, tilt: tilt,
                                       padding: EdgeInsets(top: 20, left: 30, bottom: 40, right: 10))
                    for sx in stride(from: 0.0, through: 800, by: 100) {
                        for sy in stride(from: p.farClipY, through: 600, by: 75) {
                            guard let w = p.worldPoint(screenX: sx, screenY: sy) else {
                                return XCTFail("below the far clip every point hits the ground")
                            }
                            let back = p.screenPointUnwrapped(worldX: w.x, worldY: w.y)!
                            XCTAssertEqual(back.x, sx, accuracy: 1e-6)
                            XCTAssertEqual(back.y, sy, accuracy: 1e-6)
                            checked += 1
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 4000)
    }

    func testTheAntimeridianIsCrossedByTheNearestCopyOfTheWorld() {
        let p = projection(lng: 179, zoom: 4)
        // -179° is 2° east of 179°: 2/360 × 4096 = 22.76 px right of centre, not a world away.
        assertPoint(p.screenPoint(latitude: 0, longitude: -179), 400 + 4096 * 2 / 360, 300)
        let c = p.coordinate(screenX: 400 + 4096 * 2 / 360, screenY: 300)!
        XCTAssertEqual(c.longitude, -179, accuracy: 1e-9)
        let bounds = p.visibleRegion.bounds
        XCTAssertGreaterThan(bounds.west, bounds.east, "the box crosses the antimeridian")
        XCTAssertEqual(bounds.west, 179 - 400.0 / 4096 * 360, accuracy: 1e-9)
        XCTAssertEqual(bounds.east, -180 + (179 + 400.0 / 4096 * 360 - 180), accuracy: 1e-9)
    }

    func testLatitudeIsClampedAtThePoles() {
        let p = projection(lat: 89.99, zoom: 2)
        XCTAssertEqual(p.targetY, 0)
        XCTAssertEqual(p.position.latitude, WebMercator.maxLatitude, accuracy: 1e-9)
        // Above the map's north edge the ground coordinate is clamped to the limit.
        XCTAssertEqual(p.coordinate(screenX: 400, screenY: 0)!.latitude, WebMercator.maxLatitude, accuracy: 1e-9)
        XCTAssertEqual(p.visibleRegion.worldBounds.minY, 0)
    }

    func testVisibleRegionIsARectangleFlatAndATrapezoidTilted() {
        let flat = projection(zoom: 2).visibleRegion
        XCTAssertEqual(flat.nearLeft.x, 0.5 - 400.0 / 1024, accuracy: 1e-12)
        XCTAssertEqual(flat.nearLeft.y, 0.5 + 300.0 / 1024, accuracy: 1e-12)
        XCTAssertEqual(flat.farRight.x, 0.5 + 400.0 / 1024, accuracy: 1e-12)
        XCTAssertEqual(flat.farRight.y, 0.5 - 300.0 / 1024, accuracy: 1e-12)
        let world = projection(zoom: 0.5).visibleRegion.bounds
        XCTAssertEqual(world.west, -180)
        XCTAssertEqual(world.east, 180)
        let tilted = projection(zoom: 2, tilt: 60).visibleRegion
        let nearWidth = tilted.nearRight.x - tilted.nearLeft.x, farWidth = tilted.farRight.x - tilted.farLeft.x
        XCTAssertGreaterThan(farWidth, 2 * nearWidth, "the far edge spans more ground")
        XCTAssertEqual(tilted.nearLeft.x + tilted.nearRight.x, 1, accuracy: 1e-12, "symmetric about the target")
    }

    func testFarClipStopsATiltedPaddedViewShortOfTheHorizon() {
        let p = projection(zoom: 5, tilt: 60, padding: EdgeInsets(top: 500, left: 0, bottom: 0, right: 0))
        XCTAssertGreaterThan(p.farClipY, p.horizonY)
        XCTAssertGreaterThan(p.farClipY, 0)
        let far = p.groundOffset(screenX: p.centerX, screenY: p.farClipY)!
        XCTAssertEqual(far.1, -CameraProjection.farLimit * p.distance, accuracy: 1e-6)
        XCTAssertEqual(projection(zoom: 5, tilt: 60).farClipY, 0, "without padding the top edge is nearer")
    }

    func testCoveringTilesAtZoomTwoFlat() {
        let p = projection(zoom: 2)
        XCTAssertEqual(p.tileZoom(), 2)
        let tiles = p.coveringTiles()
        // 800×600 px at zoom 2 (1024 px world) centred: columns 0–3, rows 0–3 → all 16 tiles.
        XCTAssertEqual(tiles.count, 16)
        XCTAssertEqual(Set(tiles.map { $0.y }), [0, 1, 2, 3])
        // Nearest first: one of the four centre tiles.
        XCTAssertTrue([1, 2].contains(tiles[0].x) && [1, 2].contains(tiles[0].y))
        let t = tiles.first { $0.x == 2 && $0.y == 2 }!
        XCTAssertEqual(t.corners, [400, 300, 656, 300, 656, 556, 400, 556])
    }

    func testCoveringTilesWrapAndRoundTheZoom() {
        let p = projection(lng: 180, zoom: 3.6)
        XCTAssertEqual(p.tileZoom(), 4)
        XCTAssertEqual(p.tileZoom(maxTileZoom: 3), 3)
        let tiles = p.coveringTiles()
        // The target is on the antimeridian (world x 0): the columns west of it are the last
        // ones of the world, fetched as 15, 14, …
        XCTAssertTrue(tiles.contains { $0.x == -1 && $0.wrappedX == 15 })
        XCTAssertTrue(tiles.contains { $0.x == 0 && $0.wrappedX == 0 })
        XCTAssertTrue(tiles.allSatisfy { $0.wrappedX >= 0 && $0.wrappedX < 16 })
        XCTAssertEqual(CoveringTile(z: 2, x: -1, y: 0, corners: []).wrappedX, 3)
    }

    func testTiltedViewNeedsMoreTilesFarAwayButStaysBounded() {
        let flat = projection(lat: 40, lng: -74, zoom: 12).coveringTiles()
        let tilted = projection(lat: 40, lng: -74, zoom: 12, bearing: 30, tilt: 60).coveringTiles()
        XCTAssertGreaterThan(tilted.count, flat.count)
        XCTAssertLessThan(tilted.count, 80)
        // Every tile touches the view: some corner on screen or the tile spans it.
        for t in tilted {
            let xs = stride(from: 0, to: 8, by: 2).map { t.corners[$0] }
            let ys = stride(from: 1, to: 8, by: 2).map { t.corners[$0] }
            XCTAssertLessThanOrEqual(xs.min()!, 800)
            XCTAssertGreaterThanOrEqual(xs.max()!, 0)
            XCTAssertLessThanOrEqual(ys.min()!, 600)
        }
        XCTAssertEqual(projection(zoom: 12).coveringTiles(limit: 3).count, 3)
    }

    func testAltitudeModesStandAMarkerAboveItsGroundPoint() {
        let p = projection(lat: 0, lng: 0, zoom: 16, tilt: 45)
        let ground = p.screenPoint(latitude: 0, longitude: 0, altitude: 100, mode: .clampToGround)!
        assertPoint(ground, 400, 300)
        let relative = p.screenPoint(latitude: 0, longitude: 0, altitude: 100, mode: .relativeToGround)!
        let absolute = p.screenPoint(latitude: 0, longitude: 0, altitude: 100, mode: .absolute)!
        // 100 m at zoom 16 (0.4187 px/m at the equator) is 41.9 px up, seen at 45°: 30.6 px.
        XCTAssertEqual(relative.y, 269.39050561679124, accuracy: 1e-6)
        XCTAssertEqual(relative.x, 400, accuracy: 1e-9)
        XCTAssertEqual(relative.y, absolute.y, "no terrain: sea level is the ground")
        let sunk = p.screenPoint(latitude: 0, longitude: 0, altitude: -50, mode: .absolute)!
        assertPoint(sunk, 400, 300)
        XCTAssertEqual(projection().pixelsPerMeter(worldY: 0.5), 6.388019798183263e-06, accuracy: 1e-18)
        // Flat camera: altitude does not move a marker on screen.
        let top = projection(zoom: 16).screenPoint(latitude: 0, longitude: 0, altitude: 500, mode: .absolute)!
        assertPoint(top, 400, 300)
    }
}
