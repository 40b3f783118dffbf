import XCTest
@testable import Cairn

final class MapCameraTests: XCTestCase {
    func testAnInstantMoveAnnouncesItselfChangesAndGoesIdleInOneFrame() throws {
        let map = MapController.make()
        try map.moveCamera(to: CameraPosition(latitude: 10, longitude: 20, zoom: 5))
        map.frame(1)
        XCTAssertEqual(map.drainEvents(), [.cameraWillMove(.developer), .cameraChanged, .cameraIdle])
        XCTAssertEqual(map.camera.position.latitude, 10, accuracy: 1e-9)
        XCTAssertEqual(map.camera.position.longitude, 20, accuracy: 1e-9)
        map.frame(2)
        XCTAssertEqual(map.drainEvents(), [], "nothing moves, nothing is said")
    }

    func testAnimationsFollowTheirEasingAtFixedTimes() throws {
        let map = MapController.make(zoom: 2)
        try map.animateCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 4), duration: 1, easing: .linear)
        map.frame(0)   // a programmatic animation starts with the first frame after the call
        map.frame(0.5)
        XCTAssertEqual(map.zoom, 3, accuracy: 1e-12)
        XCTAssertTrue(map.camera.isAnimating)
        map.frame(1)
        XCTAssertEqual(map.zoom, 4)
        XCTAssertFalse(map.camera.isAnimating)
        XCTAssertEqual(map.drainEvents(), [.cameraWillMove(.developer), .cameraChanged, .cameraChanged, .cameraChanged, .cameraIdle])
        XCTAssertEqual(Easing.easeInOut.apply(0.25), 0.0625)
        XCTAssertEqual(Easing.easeInOut.apply(0.75), 0.9375)
        XCTAssertEqual(Easing.easeOut.apply(0.5), 0.875)
        XCTAssertEqual(Easing.linear.apply(2), 1)
    }

    func testAnimationsTakeTheShortWayRoundTheWorldAndTheCompass() throws {
        let map = MapController.make(lng: 170, zoom: 3, bearing: 350)
        try map.animateCamera(to: CameraPosition(latitude: 0, longitude: -170, zoom: 3, bearing: 10),
                              duration: 2, easing: .linear)
        map.frame(0)
        map.frame(1)
        XCTAssertEqual(abs(map.camera.position.longitude), 180, accuracy: 1e-9)
        XCTAssertEqual(map.bearing, 0, accuracy: 1e-9)
        map.frame(2)
        XCTAssertEqual(map.camera.position.longitude, -170, accuracy: 1e-9)
        XCTAssertEqual(map.bearing, 10, accuracy: 1e-9)
    }

    func testZoomAboutAPointKeepsTheGroundUnderIt() throws {
        let map = MapController.make(lat: 51.5, lng: -0.12, zoom: 12, bearing: 30, tilt: 40)
        let before = map.ground(650, 420)
        try map.zoom(by: 1.5, aboutX: 650, y: 420, duration: 0.3)
        for t in [0, 0.1, 0.2, 0.3] {
            map.frame(t)
            let now = map.ground(650, 420)
            XCTAssertEqual(now.latitude, before.latitude, accuracy: 1e-9)
            XCTAssertEqual(now.longitude, before.longitude, accuracy: 1e-9)
        }
        XCTAssertEqual(map.zoom, 13.5, accuracy: 1e-12)
    }

    func testShowBoundsFitsTheBoxNorthUpAndFlat() throws {
        let map = MapController.make(bearing: 40, tilt: 30)
        try map.showBounds(west: -10, south: -10, east: 10, north: 10, padding: 20)
        map.frame(0)
        XCTAssertEqual(map.bearing, 0)
        XCTAssertEqual(map.tilt, 0)
        let p = map.projection
        let sw = p.screenPoint(latitude: -10, longitude: -10)!, ne = p.screenPoint(latitude: 10, longitude: 10)!
        // The taller side (20° of latitude is more Mercator height than 20° of longitude is
        // width relative to 600 vs 800 px) fills the height minus the padding exactly.
        XCTAssertEqual(sw.y - ne.y, 560, accuracy: 1e-6)
        XCTAssertLessThanOrEqual(ne.x - sw.x, 760)
        XCTAssertEqual((sw.x + ne.x) / 2, 400, accuracy: 1e-6)
    }

    func testShowBoundsOfTheWholeWorldFitsItOnce() throws {
        for (west, east, centre) in [(-180.0, 180.0, 0.0), (0, 360, 180), (-179.9, 179.9, 0), (-200, 200, -20)] {
            let map = MapController.make()
            try map.showBounds(west: west, south: -60, east: east, north: 60)
            map.frame(0)
            XCTAssertEqual(abs(map.camera.position.longitude), abs(centre), accuracy: 1e-6, "\(west)…\(east)")
            // One world across the 800 px view: 256 · 2^zoom = 800 (the height is the tighter fit
            // only for taller boxes).
            XCTAssertEqual(map.zoom, _log2(800.0 / 256), accuracy: 0.01, "\(west)…\(east)")
        }
    }

    func testShowBoundsAcrossTheAntimeridianCentresOnIt() throws {
        let map = MapController.make()
        try map.showBounds(west: 170, south: -5, east: -170, north: 5, duration: 1)
        map.frame(0)
        map.frame(1)
        XCTAssertEqual(abs(map.camera.position.longitude), 180, accuracy: 1e-9)
        XCTAssertEqual(map.camera.position.latitude, 0, accuracy: 1e-9)
        XCTAssertThrowsError(try map.showBounds(west: 0, south: 10, east: 1, north: -10))
        XCTAssertThrowsError(try map.showBounds(west: 0, south: 0, east: 1, north: 1, padding: 400))
    }

    func testLimitsClampEveryMoveAndBadLimitsAreRefused() throws {
        let map = MapController.make(zoom: 10)
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 1e9, tilt: 89))
        XCTAssertEqual(map.zoom, 22)
        XCTAssertEqual(map.tilt, 60)
        try map.setLimits(CameraLimits(minZoom: 3, maxZoom: 8, maxTilt: 30))
        XCTAssertEqual(map.zoom, 8)
        XCTAssertEqual(map.tilt, 30)
        try map.zoom(by: -100)
        map.frame(1)
        XCTAssertEqual(map.zoom, 3)
        for bad in [CameraLimits(minZoom: 5, maxZoom: 4, maxTilt: 10), CameraLimits(minZoom: -1, maxZoom: 4, maxTilt: 10),
                    CameraLimits(minZoom: 0, maxZoom: 40, maxTilt: 10), CameraLimits(minZoom: 0, maxZoom: 4, maxTilt: 80),
                    CameraLimits(minZoom: .nan, maxZoom: 4, maxTilt: 10)] {
            XCTAssertThrowsError(try map.setLimits(bad))
        }
        XCTAssertEqual(map.camera.limits, CameraLimits(minZoom: 3, maxZoom: 8, maxTilt: 30), "a refused call changes nothing")
    }

    func testBadCamerasAndViewportsAreRefusedAndChangeNothing() throws {
        let map = MapController.make(lat: 5, lng: 6, zoom: 7)
        let before = map.camera.position
        XCTAssertThrowsError(try map.moveCamera(to: CameraPosition(latitude: .nan, longitude: 0, zoom: 3)))
        XCTAssertThrowsError(try map.animateCamera(to: CameraPosition(latitude: 0, longitude: .infinity, zoom: 3)))
        XCTAssertThrowsError(try map.animateCamera(to: before, duration: -1))
        XCTAssertThrowsError(try map.zoom(by: .nan))
        XCTAssertThrowsError(try map.setViewport(Viewport(width: 0, height: 600)))
        XCTAssertThrowsError(try map.setViewport(Viewport(width: 800, height: 600,
                                                          padding: EdgeInsets(top: 300, left: 0, bottom: 300, right: 0))))
        XCTAssertThrowsError(try map.setViewport(Viewport(width: 1e9, height: 600)))
        XCTAssertThrowsError(try map.advance(to: .nan))
        XCTAssertEqual(map.camera.position, before)
        XCTAssertThrowsError(try MapController(camera: CameraPosition(latitude: 0, longitude: 0, zoom: .nan),
                                               viewport: Viewport(width: 10, height: 10)))
        // Out-of-range but finite values are wrapped and clamped, not refused.
        try map.moveCamera(to: CameraPosition(latitude: 95, longitude: 540, zoom: -3, bearing: -90))
        XCTAssertEqual(map.camera.position.latitude, WebMercator.maxLatitude, accuracy: 1e-9)
        XCTAssertEqual(abs(map.camera.position.longitude), 180, accuracy: 1e-9)
        XCTAssertEqual(map.zoom, 0)
        XCTAssertEqual(map.bearing, 270)
    }

    func testResizingKeepsTheTargetAtTheNewCentre() throws {
        let map = MapController.make(lat: 20, lng: 30, zoom: 6)
        try map.setViewport(Viewport(width: 1000, height: 500, padding: EdgeInsets(top: 0, left: 200, bottom: 0, right: 0)))
        let target = map.projection.screenPoint(latitude: 20, longitude: 30)!
        XCTAssertEqual(target.x, 600, accuracy: 1e-9)
        XCTAssertEqual(target.y, 250, accuracy: 1e-9)
        map.frame(1)
        XCTAssertEqual(map.drainEvents(), [.cameraChanged], "a resize changes the view but is not a camera move")
    }
}
