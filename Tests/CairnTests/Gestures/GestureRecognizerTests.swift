import XCTest
@testable import Cairn

/// One-pointer gestures, wheel and keys, each from a scripted event sequence.
final class GestureRecognizerTests: XCTestCase {
    func assertGround(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double),
                      accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.latitude, b.latitude, accuracy: accuracy, file: file, line: line)
        XCTAssertEqual(a.longitude, b.longitude, accuracy: accuracy, file: file, line: line)
    }

    func testADragKeepsTheGrabbedPointUnderTheFinger() {
        for (bearing, tilt) in [(0.0, 0.0), (75.0, 45.0)] {
            let map = MapController.make(lat: 40, lng: -74, zoom: 11, bearing: bearing, tilt: tilt)
            let grabbed = map.ground(400, 300)
            map.down(1, 400, 300, at: 0, kind: .mouse)
            map.move(1, 450, 320, at: 0.05)
            map.move(1, 520, 380, at: 0.1)
            assertGround(map.ground(520, 380), grabbed)
            map.up(1, 520, 380, at: 0.3)
            map.frame(0.3)
            XCTAssertNil(map.gestures.fling, "the pointer rested before lifting: no fling")
            XCTAssertEqual(map.drainEvents(), [.cameraWillMove(.gesture), .cameraChanged, .cameraIdle])
        }
    }

    func testAFastReleaseFlingsAndDecelerates() {
        let map = MapController.make(zoom: 10)
        map.down(1, 100, 300, at: 0)
        for k in 1...5 { map.move(1, 100 + Double(k) * 20, 300, at: Double(k) * 0.01) }
        map.up(1, 200, 300, at: 0.05)
        // 2000 px/s for 0.325 s of decay: 650 px more in all.
        let release = map.ground(400, 300)
        map.frame(0.06)
        XCTAssertNotNil(map.gestures.fling)
        XCTAssertTrue(map.isCameraMoving)
        var t = 0.06
        while map.gestures.fling != nil && t < 5 {
            t += 1.0 / 60
            map.frame(t)
        }
        XCTAssertLessThan(t, 3, "the glide ends")
        let p = map.projection
        let moved = p.screenPoint(latitude: release.latitude, longitude: release.longitude)!.x - 400
        XCTAssertEqual(moved, 650, accuracy: 10)
        XCTAssertEqual(map.drainEvents().last, .cameraIdle)
    }

    func testDraggingDoesNothingWithScrollGesturesOff() {
        let map = MapController.make()
        map.settings.scrollGestures = false
        let before = map.camera.position
        map.down(1, 400, 300, at: 0)
        map.move(1, 600, 300, at: 0.1)
        map.up(1, 600, 300, at: 0.2)
        map.frame(1)
        XCTAssertEqual(map.camera.position, before)
        XCTAssertEqual(map.drainEvents(), [], "a drag is not a tap either")
    }

    func testTurningScrollingOffStopsAPanAndAFlingAtOnce() {
        let map = MapController.make(zoom: 10)
        map.down(1, 100, 300, at: 0)
        map.move(1, 200, 300, at: 0.05)
        map.settings.scrollGestures = false
        let held = map.camera.position
        map.move(1, 300, 300, at: 0.1)
        XCTAssertEqual(map.camera.position, held)
        map.up(1, 300, 300, at: 0.11)
        map.frame(0.2)
        XCTAssertFalse(map.isCameraMoving)
        map.settings.scrollGestures = true
        map.down(1, 100, 300, at: 1)
        for k in 1...5 { map.move(1, 100 + Double(k) * 20, 300, at: 1 + Double(k) * 0.01) }
        map.up(1, 200, 300, at: 1.05)
        map.frame(1.1)
        XCTAssertNotNil(map.gestures.fling)
        map.settings.scrollGestures = false
        let flung = map.camera.position
        map.frame(1.2)
        XCTAssertNil(map.gestures.fling)
        XCTAssertEqual(map.camera.position, flung)
    }

    func testATapIsReportedOnlyOnceNoSecondTapCanFollow() {
        let map = MapController.make(lat: 10, lng: 10, zoom: 5)
        map.down(1, 300, 200, at: 1)
        map.move(1, 303, 202, at: 1.05)
        map.up(1, 303, 202, at: 1.1)
        map.frame(1.2)
        XCTAssertEqual(map.drainEvents(), [], "could still become a double tap")
        map.frame(1.41)
        let g = map.ground(303, 202)
        XCTAssertEqual(map.drainEvents(), [.tap(x: 303, y: 202, latitude: g.latitude, longitude: g.longitude)])
    }

    func testWithZoomGesturesOffATapIsReportedAtOnce() {
        let map = MapController.make()
        map.settings.zoomGestures = false
        map.down(1, 300, 200, at: 1, kind: .mouse)
        map.up(1, 300, 200, at: 1.1)
        guard case .tap(300, 200, _, _)? = map.drainEvents().first else { return XCTFail("no tap") }
        // And two quick taps do not zoom.
        map.down(1, 300, 200, at: 1.2, kind: .mouse)
        map.up(1, 300, 200, at: 1.25)
        map.frame(2)
        XCTAssertEqual(map.zoom, 10)
    }

    func testDoubleTapZoomsInAtTheTapWithoutReportingATap() {
        let map = MapController.make(lat: 35, lng: 139, zoom: 8)
        let tapped = map.ground(600, 150)
        let anchor = map.ground(610, 155)
        map.down(1, 600, 150, at: 0)
        map.up(1, 600, 150, at: 0.08)
        map.down(1, 610, 155, at: 0.2)
        map.up(1, 610, 155, at: 0.28)
        map.frame(0.4)
        XCTAssertEqual(map.zoom, 8 + Easing.easeOut.apply(0.12 / 0.3), accuracy: 1e-12)
        map.frame(1)
        XCTAssertEqual(map.zoom, 9, accuracy: 1e-12)
        assertGround(map.ground(610, 155), anchor)
        let events = map.drainEvents()
        XCTAssertFalse(events.contains { if case .tap = $0 { return true } else { return false } })
        XCTAssertEqual(events.first, .cameraWillMove(.gesture))
        // The second tap's point is the anchor; the first tap was 11 px away.
        let second = map.projection.screenPoint(latitude: tapped.latitude, longitude: tapped.longitude)!
        XCTAssertEqual(second.x, 610 + (600 - 610) * 2, accuracy: 1e-6)
    }

    func testDoubleTapZoomsAboutTheCentreWithScrollOff() {
        let map = MapController.make(lat: 35, lng: 139, zoom: 8)
        map.settings.scrollGestures = false
        map.down(1, 600, 150, at: 0)
        map.up(1, 600, 150, at: 0.08)
        map.down(1, 600, 150, at: 0.2)
        map.up(1, 600, 150, at: 0.28)
        map.frame(1)
        XCTAssertEqual(map.zoom, 9, accuracy: 1e-12)
        XCTAssertEqual(map.camera.position.latitude, 35, accuracy: 1e-9)
        XCTAssertEqual(map.camera.position.longitude, 139, accuracy: 1e-9)
    }

    func testTwoSlowOrDistantTapsAreTwoTaps() {
        let map = MapController.make()
        map.down(1, 100, 100, at: 0)
        map.up(1, 100, 100, at: 0.05)
        map.down(1, 300, 300, at: 0.15)
        map.up(1, 300, 300, at: 0.2)
        map.frame(1)
        let taps = map.drainEvents().filter { if case .tap = $0 { return true } else { return false } }
        XCTAssertEqual(taps.count, 2)
        XCTAssertEqual(map.zoom, 10)
    }

    func testALongPressIsReportedOnceAndIsNotATap() {
        let map = MapController.make()
        map.down(1, 250, 250, at: 0)
        map.frame(0.45)
        XCTAssertEqual(map.drainEvents(), [])
        map.frame(0.55)
        guard case .longPress(250, 250, _, _)? = map.drainEvents().first else { return XCTFail("no long press") }
        map.move(1, 400, 250, at: 0.7)
        map.up(1, 400, 250, at: 0.8)
        map.frame(2)
        XCTAssertEqual(map.drainEvents(), [], "after a long press the finger neither pans nor taps")
        XCTAssertEqual(map.camera.position.longitude, 0, accuracy: 1e-12)
    }

    func testRightOrControlDragRotatesAndTilts() {
        let map = MapController.make()
        map.down(1, 400, 300, at: 0, kind: .mouse, button: 2)
        map.move(1, 360, 260, at: 0.1)
        map.up(1, 360, 260, at: 0.2)
        XCTAssertEqual(map.bearing, 20, accuracy: 1e-9)
        XCTAssertEqual(map.tilt, 10, accuracy: 1e-9)
        map.down(2, 400, 300, at: 1, kind: .mouse, button: 0, modifiers: Modifier.control)
        map.move(2, 440, 300, at: 1.1)
        map.up(2, 440, 300, at: 1.2)
        XCTAssertEqual(map.bearing, 0, accuracy: 1e-9)
        map.settings.rotateGestures = false
        map.down(3, 400, 300, at: 2, kind: .mouse, button: 2)
        map.move(3, 300, 200, at: 2.1)
        map.up(3, 300, 200, at: 2.2)
        XCTAssertEqual(map.bearing, 0, accuracy: 1e-9, "rotation off")
        XCTAssertEqual(map.tilt, 35, accuracy: 1e-9, "tilt still on")
    }

    func testWheelZoomsAboutTheCursor() {
        let map = MapController.make(lat: 48, lng: 2, zoom: 10)
        let under = map.ground(200, 100)
        try! map.handle(.wheel(x: 200, y: 100, deltaX: 0, deltaY: -150, mode: .pixel, modifiers: 0, time: 0))
        XCTAssertEqual(map.zoom, 10.5, accuracy: 1e-12)
        assertGround(map.ground(200, 100), under)
        try! map.handle(.wheel(x: 200, y: 100, deltaX: 0, deltaY: 50, mode: .pixel, modifiers: Modifier.control, time: 0.01))
        XCTAssertEqual(map.zoom, 10, accuracy: 1e-12, "ctrl+wheel (trackpad pinch) is three times faster")
        try! map.handle(.wheel(x: 200, y: 100, deltaX: 0, deltaY: -3, mode: .line, modifiers: 0, time: 0.02))
        XCTAssertEqual(map.zoom, 10.4, accuracy: 1e-12)
        try! map.handle(.wheel(x: 200, y: 100, deltaX: 0, deltaY: -5000, mode: .pixel, modifiers: 0, time: 0.03))
        XCTAssertEqual(map.zoom, 11.4, accuracy: 1e-12, "one event zooms at most one level")
        map.frame(0.1)
        XCTAssertFalse(map.drainEvents().contains(.cameraIdle), "the wheel may still be turning")
        map.frame(0.3)
        XCTAssertEqual(map.drainEvents(), [.cameraIdle])
        map.settings.zoomGestures = false
        try! map.handle(.wheel(x: 200, y: 100, deltaX: 0, deltaY: -150, mode: .pixel, modifiers: 0, time: 1))
        XCTAssertEqual(map.zoom, 11.4, accuracy: 1e-12)
    }

    func testKeysPanZoomRotateAndTiltWhenAllowed() {
        let map = MapController.make(zoom: 4)
        let west = map.ground(300, 300)
        try! map.handle(.key(.panLeft, modifiers: 0, time: 0))
        map.frame(1)
        assertGround(map.ground(400, 300), west)
        try! map.handle(.key(.zoomIn, modifiers: 0, time: 1))
        map.frame(2)
        XCTAssertEqual(map.zoom, 5, accuracy: 1e-12)
        try! map.handle(.key(.panRight, modifiers: Modifier.shift, time: 2))
        try! map.handle(.key(.panUp, modifiers: Modifier.shift, time: 2))
        map.frame(3)
        XCTAssertEqual(map.bearing, 15, accuracy: 1e-9)
        XCTAssertEqual(map.tilt, 10, accuracy: 1e-9)
        map.settings = UISettings(bits: 0)
        let before = map.camera.position
        for key in [KeyCommand.panLeft, .panUp, .panRight, .panDown, .zoomIn, .zoomOut] {
            try! map.handle(.key(key, modifiers: 0, time: 4))
            try! map.handle(.key(key, modifiers: Modifier.shift, time: 4))
        }
        map.frame(5)
        XCTAssertEqual(map.camera.position, before)
    }

    func testKeysWithControlAltOrMetaLeaveTheMapStill() {
        let map = MapController.make(zoom: 4)
        let before = map.camera.position
        for modifiers in [Modifier.control, Modifier.alt, Modifier.meta, Modifier.shift | Modifier.meta] {
            for key in [KeyCommand.panLeft, .panUp, .panRight, .panDown, .zoomIn, .zoomOut] {
                try! map.handle(.key(key, modifiers: modifiers, time: 1))
            }
        }
        map.frame(2)
        XCTAssertEqual(map.camera.position, before)
        XCTAssertEqual(map.drainEvents(), [])
    }

    func testACancelledPointerNeitherTapsNorFlings() {
        let map = MapController.make()
        map.down(1, 100, 100, at: 0)
        try! map.handle(.pointerCancel(id: 1, time: 0.05))
        map.frame(1)
        XCTAssertEqual(map.drainEvents(), [])
        map.down(1, 100, 300, at: 2)
        for k in 1...5 { map.move(1, 100 + Double(k) * 30, 300, at: 2 + Double(k) * 0.01) }
        try! map.handle(.pointerCancel(id: 1, time: 2.05))
        XCTAssertNil(map.gestures.fling)
        map.frame(2.1)
        XCTAssertEqual(map.drainEvents(), [.cameraWillMove(.gesture), .cameraChanged, .cameraIdle])
        XCTAssertTrue(map.gestures.pointers.isEmpty)
    }

    func testUnknownPointersAndOutOfOrderTimesAreHarmless() {
        let map = MapController.make()
        let before = map.camera.position
        map.move(7, 10, 10, at: 1)
        map.up(8, 10, 10, at: 1)
        try! map.handle(.pointerCancel(id: 9, time: 1))
        map.down(1, 400, 300, at: 2)
        map.down(1, 500, 300, at: 2.01)
        XCTAssertEqual(map.gestures.pointers.count, 1, "a second down for the same id is ignored")
        map.move(1, 450, 300, at: 1.5)
        XCTAssertEqual(map.time, 2.01, "an earlier timestamp is handled at the latest time")
        map.up(1, 450, 300, at: 0)
        map.frame(3)
        XCTAssertNotEqual(map.camera.position, before, "the drag still happened")
        XCTAssertTrue(map.gestures.pointers.isEmpty)
    }

    func testEventsWithNonFiniteNumbersAreRefusedWholesale() {
        let map = MapController.make()
        map.down(1, 400, 300, at: 0)
        let pointersBefore = map.gestures.pointers.count
        for bad in [InputEvent.pointerMove(id: 1, x: .nan, y: 0, time: 0.1),
                    .pointerDown(id: 2, kind: .touch, x: 0, y: .infinity, button: 0, modifiers: 0, time: 0.1),
                    .wheel(x: 0, y: 0, deltaX: 0, deltaY: .nan, mode: .pixel, modifiers: 0, time: 0.1),
                    .key(.zoomIn, modifiers: 0, time: .nan)] {
            XCTAssertThrowsError(try map.handle(bad))
        }
        XCTAssertEqual(map.gestures.pointers.count, pointersBefore)
        XCTAssertEqual(map.gestures.pointers[0].x, 400)
        XCTAssertEqual(map.time, 0)
    }

    func testHugeFinitePositionsAreRefusedAndNothingOverflows() throws {
        let map = MapController.make(zoom: 3)
        map.down(1, 0, 2, at: 1, kind: .mouse)
        XCTAssertThrowsError(try map.handle(.pointerMove(id: 1, x: 1e308, y: 2, time: 1.04)))
        XCTAssertThrowsError(try map.handle(.wheel(x: 1e308, y: 0, deltaX: 0, deltaY: -100, mode: .pixel, modifiers: 0, time: 1)))
        XCTAssertThrowsError(try map.handle(.wheel(x: 0, y: 0, deltaX: 0, deltaY: -1e300, mode: .page, modifiers: 0, time: 1)))
        XCTAssertThrowsError(try map.zoom(by: 1, aboutX: 1e308, y: 0))
        // The largest accepted positions still give a finite camera.
        let m = InputEvent.maximumMagnitude
        map.move(1, m, -m, at: 1.1)
        map.up(1, m, -m, at: 1.2)
        map.down(2, -m, m, at: 2)
        map.down(3, m, -m, at: 2)
        map.move(2, 0, 0, at: 2.1)
        map.move(3, 1, 1, at: 2.1)
        try map.zoom(by: 1, aboutX: -m, y: m, duration: 0)
        map.frame(3)
        let c = map.camera.position
        for v in [c.latitude, c.longitude, c.zoom, c.bearing, c.tilt] { XCTAssertTrue(v.isFinite) }
        XCTAssertFalse(map.coveringTiles.isEmpty)
    }

    func testATouchStopsAnAnimationButProgrammaticMovesIgnoreTheSettings() throws {
        let map = MapController.make(zoom: 3)
        map.settings = UISettings(bits: 0)
        try map.animateCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 5), duration: 1, easing: .linear)
        map.frame(0)
        map.frame(0.5)
        XCTAssertEqual(map.zoom, 4, accuracy: 1e-12)
        map.down(1, 10, 10, at: 0.5)
        XCTAssertFalse(map.camera.isAnimating)
        map.frame(1)
        XCTAssertEqual(map.zoom, 4, accuracy: 1e-12)
    }
}
