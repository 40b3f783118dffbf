import XCTest
@testable import Cairn

/// `nextFrameIn`: 0 while anything changes with time, the time left while a timer waits,
/// infinity when nothing changes until input or a call. One test per source of time.
final class MapControllerNextFrameTests: XCTestCase {
    /// A frame at `t`, its events read (as a host reads them): then how soon the next is wanted.
    private func after(_ map: MapController, _ t: Double) -> Double {
        map.frame(t)
        _ = map.drainEvents()
        return map.nextFrameIn
    }

    func testAStillMapWantsNoFrameAndUnreadEventsWantOne() throws {
        let map = MapController.make()
        XCTAssertEqual(after(map, 1), .infinity)
        let id = try map.addMarker(marker(0, 0) { $0.hasTitle = true })
        try map.selectMarker(id)
        XCTAssertEqual(map.nextFrameIn, 0, "the opening waits to be read")
        XCTAssertEqual(after(map, 2), .infinity)
        try map.setViewport(Viewport(width: 640, height: 480))
        XCTAssertEqual(map.nextFrameIn, 0, "the view changed: it must be drawn")
        XCTAssertEqual(after(map, 3), .infinity)
    }

    func testCameraAnimationsWantFramesUntilTheyEnd() throws {
        let map = MapController.make()
        try map.animateCamera(to: CameraPosition(latitude: 1, longitude: 1, zoom: 11), duration: 0.5)
        XCTAssertEqual(map.nextFrameIn, 0, "from the call, before its first frame")
        XCTAssertEqual(after(map, 1), 0)
        XCTAssertEqual(after(map, 1.4), 0)
        XCTAssertEqual(after(map, 1.5), .infinity, "over, and its idle reported")
        XCTAssertEqual(map.zoom, 11)
    }

    func testAFlingWantsFramesUntilItStops() throws {
        let map = MapController.make()
        map.down(1, 400, 300, at: 0)
        for k in 1...5 { map.move(1, 400 + 40 * Double(k), 300, at: 0.02 * Double(k)) }
        XCTAssertEqual(after(map, 0.1), .infinity, "a finger held still moves nothing")
        map.up(1, 600, 300, at: 0.1)
        XCTAssertNotNil(map.gestures.fling)
        XCTAssertEqual(after(map, 0.2), 0)
        var t = 0.2
        while map.gestures.fling != nil && t < 10 {
            t += 0.1
            map.frame(t)
        }
        XCTAssertNil(map.gestures.fling, "the glide ends")
        XCTAssertEqual(after(map, t + 0.1), .infinity)
    }

    func testATapWaitsForASecondOneThenIsReported() throws {
        let map = MapController.make()
        map.click((100, 100), at: 1)              // up at 1.05: a second tap may come until 1.35
        XCTAssertEqual(after(map, 1.1), 0.25, accuracy: 1e-9)
        XCTAssertEqual(after(map, 1.3), 0.05, accuracy: 1e-9)
        map.frame(1.36)
        XCTAssertTrue(map.drainEvents().contains { if case .tap = $0 { return true } else { return false } })
        XCTAssertEqual(map.nextFrameIn, .infinity)
    }

    func testAPressWaitsForTheLongPress() throws {
        let map = MapController.make()
        map.down(1, 100, 100, at: 1)
        XCTAssertEqual(after(map, 1.2), 0.3, accuracy: 1e-9)
        map.frame(1.5)
        XCTAssertTrue(map.drainEvents().contains { if case .longPress = $0 { return true } else { return false } })
        XCTAssertEqual(map.nextFrameIn, .infinity, "held after the long press: nothing more to wait for")
    }

    func testAWheelGestureEndsAfterItsHold() throws {
        let map = MapController.make()
        try map.handle(.wheel(x: 400, y: 300, deltaX: 0, deltaY: -100, mode: .pixel, modifiers: 0, time: 1))
        XCTAssertEqual(after(map, 1.05), GestureRecognizer.wheelHold - 0.05, accuracy: 1e-9)
        map.frame(1 + GestureRecognizer.wheelHold)
        XCTAssertEqual(map.drainEvents().last, .cameraIdle)
        XCTAssertEqual(map.nextFrameIn, .infinity)
    }

    func testTheCompassWantsFramesWhileItFades() throws {
        let map = MapController.make(bearing: 30)
        map.settings.compassButton = true
        XCTAssertEqual(after(map, 1), .infinity, "shown and still")
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 10, bearing: 0))
        XCTAssertEqual(after(map, 2), 0, "fading")
        XCTAssertEqual(after(map, 2 + Compass.fadeDuration / 2), 0)
        XCTAssertEqual(after(map, 2 + Compass.fadeDuration), .infinity)
        XCTAssertEqual(map.compass.opacity, 0)
    }

    func testAMarkersAppearAnimationWantsFramesWhileItPlays() throws {
        let map = MapController.make()
        _ = try map.addMarker(marker(0, 0) { $0.appearAnimation = .pop })
        XCTAssertEqual(map.nextFrameIn, 0, "it waits for its first frame")
        XCTAssertEqual(after(map, 1), 0, "it starts with this frame")
        XCTAssertEqual(after(map, 1.2), 0)
        XCTAssertEqual(after(map, 1 + _MarkerPlacement.appearDuration), .infinity)
        _ = try map.addMarker(marker(0, 0.01))
        XCTAssertEqual(after(map, 2), .infinity, "no appear animation")
        let gone = try map.addMarker(marker(0, 0.02) { $0.appearAnimation = .fadeIn })
        XCTAssertEqual(after(map, 3), 0)
        try map.removeMarker(gone)
        XCTAssertEqual(after(map, 3.1), .infinity, "removed while it appeared")
    }

    func testClustersWantFramesWhileTheyFlyAndWaitTheReclusterDelay() throws {
        // Hierarchical: a zoom change flies the clusters apart at once (C5).
        let map = MapController.make(zoom: 3)
        let m = try map.addClusterManager(.hierarchical)
        _ = try map.addClusterItems(m, latitudes: [1, 1, -1, -1], longitudes: [1, -1, 1, -1], icons: [-1, -1, -1, -1])
        try map.cluster(m)
        XCTAssertEqual(after(map, 1), .infinity)
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 9))
        XCTAssertEqual(after(map, 2), 0, "flying apart")
        XCTAssertNotNil(try map.clusterManager(m).transition)
        XCTAssertEqual(after(map, 2 + ClusterTransition.duration), .infinity)
        // Screen-space: a new whole zoom is followed once it held for the delay (C6).
        let grid = MapController.make(zoom: 3)
        let g = try grid.addClusterManager(.grid)
        _ = try grid.addClusterItems(g, latitudes: [1, 1, -1, -1], longitudes: [1, -1, 1, -1], icons: [-1, -1, -1, -1])
        try grid.cluster(g)
        try grid.clusterManager(g).animatesClusters = false
        XCTAssertEqual(after(grid, 1), .infinity)
        try grid.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 9))
        XCTAssertEqual(after(grid, 2), ClusterManager.reclusterDelay, accuracy: 1e-9)
        XCTAssertEqual(after(grid, 2.15), ClusterManager.reclusterDelay - 0.15, accuracy: 1e-9)
        XCTAssertEqual(after(grid, 2 + ClusterManager.reclusterDelay), .infinity, "followed")
        XCTAssertEqual(try grid.clusterManager(g).groupsZoom, 9)
    }

    func testAnAutoPanWantsFramesUntilThePanEnds() throws {
        let map = MapController.make(zoom: 10)
        let near = map.ground(700, 40)
        let id = try map.addMarker(marker(near.latitude, near.longitude) { $0.hasTitle = true })
        let popover = try map.addPopover(marker: id, open: true)
        XCTAssertEqual(after(map, 1), .infinity, "waiting for the host's measurement, not for time")
        try map.setPopoverSize(popover, width: 200, height: 100)
        XCTAssertEqual(after(map, 2), 0, "panning")
        XCTAssertEqual(after(map, 2 + CameraAnimation.zoomStepDuration), .infinity)
        try map.selectMarker(id)
        try map.setInfoWindowSize(width: 300, height: 300)
        XCTAssertEqual(after(map, 3), 0, "the window pans too")
        XCTAssertEqual(after(map, 3 + CameraAnimation.zoomStepDuration), .infinity)
    }
}
