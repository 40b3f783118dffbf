import XCTest
@testable import Cairn

/// Two-pointer gestures: pinch, rotate, tilt, two-finger tap, and how they hand over.
final class GestureRecognizerTwoFingerTests: XCTestCase {
    /// Two touches at (400 ± d, 300), moved in `steps` to `to(k)` for pointer 1 and 2.
    func script(_ map: MapController, start: Double = 0, steps: Int,
                _ positions: (Int) -> ((Double, Double), (Double, Double))) {
        let (a, b) = positions(0)
        map.down(1, a.0, a.1, at: start)
        map.down(2, b.0, b.1, at: start)
        for k in 1...steps {
            let (a, b) = positions(k)
            map.move(1, a.0, a.1, at: start + Double(k) * 0.016)
            map.move(2, b.0, b.1, at: start + Double(k) * 0.016)
        }
        let (ea, eb) = positions(steps)
        map.up(1, ea.0, ea.1, at: start + Double(steps + 1) * 0.016)
        map.up(2, eb.0, eb.1, at: start + Double(steps + 1) * 0.016)
    }

    func testPinchZoomsByTheLogOfTheSpreadAboutTheCentroid() {
        let map = MapController.make(lat: 52, lng: 13, zoom: 9)
        let under = map.ground(300, 200)
        // Fingers 100 px apart around (300, 200) spread to 400 px: two zoom levels.
        script(map, steps: 10) { k in
            let half = 50 + 15 * Double(k)
            return ((300 - half, 200), (300 + half, 200))
        }
        XCTAssertEqual(map.zoom, 11, accuracy: 1e-12)
        let now = map.ground(300, 200)
        XCTAssertEqual(now.latitude, under.latitude, accuracy: 1e-9)
        XCTAssertEqual(now.longitude, under.longitude, accuracy: 1e-9)
        XCTAssertEqual(map.bearing, 0, "a straight pinch does not rotate")
    }

    func testPinchPansWithTheCentroidOnlyWhenScrollingIsOn() {
        let map = MapController.make(lat: 52, lng: 13, zoom: 9)
        let under = map.ground(300, 200)
        script(map, steps: 10) { k in ((250 + 10 * Double(k), 200), (350 + 10 * Double(k), 200)) }
        let moved = map.ground(400, 200)
        XCTAssertEqual(moved.longitude, under.longitude, accuracy: 1e-9, "the ground follows the fingers")
        XCTAssertEqual(map.zoom, 9, accuracy: 1e-12)

        let fixed = MapController.make(lat: 52, lng: 13, zoom: 9)
        fixed.settings.scrollGestures = false
        script(fixed, steps: 10) { k in
            let half = 50 + 5 * Double(k)
            return ((250 + 10 * Double(k) - half + 50, 200), (250 + 10 * Double(k) + half + 50, 200))
        }
        XCTAssertEqual(fixed.zoom, 9 + _log2(2), accuracy: 1e-12)
        XCTAssertEqual(fixed.camera.position.latitude, 52, accuracy: 1e-9, "zoom about the centre, no pan")
        XCTAssertEqual(fixed.camera.position.longitude, 13, accuracy: 1e-9)
    }

    func testAPinchBecomesARotateOnceTheAngleTurnsPastTheThreshold() {
        let map = MapController.make(zoom: 5)
        // First spread from 200 to 400 px apart, then turn 30° clockwise in 5° steps.
        script(map, steps: 16) { k in
            let half = k <= 10 ? 100 + 10 * Double(k) : 200
            let degrees = k <= 10 ? 0 : Double(k - 10) * 5
            let r = degrees * Double.pi / 180
            return ((400 - half * _cos(r), 300 - half * _sin(r)), (400 + half * _cos(r), 300 + half * _sin(r)))
        }
        XCTAssertEqual(map.zoom, 6, accuracy: 1e-12)
        // Rotation starts past 10°, at the 15° step, from there on without a jump: 20° of the
        // 30° turn the map (clockwise fingers, so the bearing falls).
        XCTAssertEqual(map.bearing, 340, accuracy: 1e-9)
    }

    func testRotationIsGatedButThePinchStillZooms() {
        let map = MapController.make(zoom: 5)
        map.settings.rotateGestures = false
        script(map, steps: 10) { k in
            let half = 100 + 10 * Double(k)
            let r = Double(k) * 4 * Double.pi / 180
            return ((400 - half * _cos(r), 300 - half * _sin(r)), (400 + half * _cos(r), 300 + half * _sin(r)))
        }
        XCTAssertEqual(map.bearing, 0)
        XCTAssertEqual(map.zoom, 6, accuracy: 1e-12)
    }

    func testTwoFingersSlidingUpTogetherTilt() {
        let map = MapController.make(lat: 40, lng: -3, zoom: 12)
        script(map, steps: 5) { k in ((350, 400 - 20 * Double(k)), (450, 400 - 20 * Double(k))) }
        XCTAssertEqual(map.tilt, 25, accuracy: 1e-9)
        XCTAssertEqual(map.zoom, 12, accuracy: 1e-12)
        XCTAssertEqual(map.camera.position.latitude, 40, accuracy: 1e-9, "tilting does not pan")
        // Sliding down tilts back.
        script(map, start: 1, steps: 5) { k in ((350, 200 + 20 * Double(k)), (450, 200 + 20 * Double(k))) }
        XCTAssertEqual(map.tilt, 0, accuracy: 1e-9)
    }

    func testWithTiltOffTheSameSlidePans() {
        let map = MapController.make(lat: 40, lng: -3, zoom: 12)
        map.settings.tiltGestures = false
        script(map, steps: 5) { k in ((350, 400 - 20 * Double(k)), (450, 400 - 20 * Double(k))) }
        XCTAssertEqual(map.tilt, 0)
        XCTAssertLessThan(map.camera.position.latitude, 40, "the map followed the fingers up: the view moved south")
    }

    func testTwoFingerTapZoomsOutAboutTheCentre() {
        let map = MapController.make(lat: 10, lng: 20, zoom: 8)
        map.down(1, 300, 300, at: 0)
        map.down(2, 500, 300, at: 0.02)
        map.up(1, 301, 300, at: 0.1)
        map.up(2, 500, 301, at: 0.12)
        map.frame(1)
        XCTAssertEqual(map.zoom, 7, accuracy: 1e-12)
        XCTAssertEqual(map.camera.position.latitude, 10, accuracy: 1e-9)
        XCTAssertFalse(map.drainEvents().contains { if case .tap = $0 { return true } else { return false } })
        // Too slow, or with zoom gestures off: nothing.
        map.down(1, 300, 300, at: 2)
        map.down(2, 500, 300, at: 2)
        map.up(1, 300, 300, at: 2.3)
        map.up(2, 500, 300, at: 2.6)
        map.settings.zoomGestures = false
        map.down(1, 300, 300, at: 3)
        map.down(2, 500, 300, at: 3)
        map.up(1, 300, 300, at: 3.1)
        map.up(2, 500, 300, at: 3.1)
        map.frame(4)
        XCTAssertEqual(map.zoom, 7, accuracy: 1e-12)
    }

    func testLiftingOneFingerOfAPinchContinuesAsAPan() {
        let map = MapController.make(zoom: 6)
        map.down(1, 300, 300, at: 0)
        map.down(2, 500, 300, at: 0)
        map.move(1, 250, 300, at: 0.02)
        map.move(2, 550, 300, at: 0.02)
        map.up(2, 550, 300, at: 0.04)
        let grabbed = map.ground(250, 300)
        map.move(1, 260, 300, at: 0.06)
        map.move(1, 350, 350, at: 0.08)
        let now = map.ground(350, 350)
        XCTAssertEqual(now.latitude, grabbed.latitude, accuracy: 1e-9)
        XCTAssertEqual(now.longitude, grabbed.longitude, accuracy: 1e-9)
        map.up(1, 350, 350, at: 0.5)
        map.frame(1)
        XCTAssertTrue(map.gestures.pointers.isEmpty)
    }

    func testMixedMouseAndTouchPointersPinchTogether() {
        let map = MapController.make(zoom: 6)
        map.down(1, 300, 300, at: 0, kind: .mouse)
        map.down(2, 500, 300, at: 0, kind: .touch)
        map.move(1, 200, 300, at: 0.02)
        map.move(2, 600, 300, at: 0.02)
        XCTAssertEqual(map.zoom, 7, accuracy: 1e-12)
        map.up(1, 200, 300, at: 0.04)
        map.up(2, 600, 300, at: 0.04)
        XCTAssertTrue(map.gestures.pointers.isEmpty)
    }

    func testACancelledPointerEndsTheTwoFingerGestureCleanly() {
        let map = MapController.make(zoom: 6)
        map.down(1, 300, 300, at: 0)
        map.down(2, 500, 300, at: 0)
        map.move(2, 600, 300, at: 0.02)
        try! map.handle(.pointerCancel(id: 1, time: 0.03))
        try! map.handle(.pointerCancel(id: 2, time: 0.03))
        map.frame(1)
        XCTAssertTrue(map.gestures.pointers.isEmpty)
        XCTAssertFalse(map.isCameraMoving)
        XCTAssertEqual(map.drainEvents().last, .cameraIdle)
    }

    func testAThirdFingerIsIgnoredUntilOneOfTheFirstTwoLifts() {
        let map = MapController.make(zoom: 6)
        map.down(1, 300, 300, at: 0)
        map.down(2, 500, 300, at: 0)
        map.down(3, 400, 500, at: 0)
        map.move(3, 400, 100, at: 0.02)
        XCTAssertEqual(map.zoom, 6)
        XCTAssertEqual(map.tilt, 0)
        map.up(1, 300, 300, at: 0.04)
        // Now 2 and 3 are the pair: 400 px apart at the start, spreading to 800 zooms in by one.
        map.move(2, 700, 300, at: 0.06)
        map.move(3, 100, 100, at: 0.06)
        XCTAssertGreaterThan(map.zoom, 6.5)
    }
}
