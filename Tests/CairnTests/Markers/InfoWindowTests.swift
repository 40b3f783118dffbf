import XCTest
@testable import Cairn

/// Info windows (features I1–I8): one open at a time, where they stand, panned into view, redrawn
/// when their marker tracks changes.
final class InfoWindowTests: XCTestCase {
    func testI2I3I4I8_InfoWindowsOneAtATimeReopenAndCloseOnAMapTap() throws {
        let map = MapController.make(zoom: 10)
        let a = try map.addMarker(marker(0, 0) { $0.hasTitle = true })
        let b = try map.addMarker(marker(0, 0.1) { $0.hasSnippet = true })
        let silent = try map.addMarker(marker(0, -0.1))
        try map.selectMarker(a)
        try map.selectMarker(b)
        try map.selectMarker(b)
        XCTAssertEqual(map.drainEvents(), [.infoWindowOpened(.marker(a)), .infoWindowClosed(.marker(a)),
                                           .infoWindowOpened(.marker(b)), .infoWindowClosed(.marker(b)),
                                           .infoWindowOpened(.marker(b))])
        try map.selectMarker(silent)
        XCTAssertNil(map.selectedMarker, "no title, no snippet: no window (I2)")
        XCTAssertEqual(map.drainEvents(), [.infoWindowClosed(.marker(b))])
        try map.selectMarker(a)
        try map.setInfoWindowSize(width: 120, height: 50)
        map.frame(1)
        let window = try XCTUnwrap(map.scene.infoWindow)
        XCTAssertEqual(window.anchorX, 400, accuracy: 1e-9)
        XCTAssertEqual(window.anchorY, 300 - 43, accuracy: 1e-9, "the top centre of the pin")
        let anchor = try XCTUnwrap(map.infoWindowAnchor(ofMarker: a), "where a popover stands")
        XCTAssertEqual([anchor.x, anchor.y], [window.anchorX, window.anchorY])
        XCTAssertNil(map.infoWindowAnchor(ofMarker: 987_654))
        _ = map.drainEvents()
        map.down(1, 400, 230, at: 2)
        map.up(1, 400, 230, at: 2.05)
        map.frame(2.5)
        XCTAssertEqual(map.drainEvents(), [.infoWindowTapped(.marker(a))])
        map.down(1, 100, 500, at: 3)
        map.up(1, 100, 500, at: 3.05)
        map.frame(3.5)
        let events = map.drainEvents()
        XCTAssertEqual(events.last, .infoWindowClosed(.marker(a)))
        XCTAssertNil(map.selectedMarker)
        XCTAssertThrowsError(try map.selectMarker(987_654))
        XCTAssertThrowsError(try map.setInfoWindowSize(width: .nan, height: 1))
    }

    func testI1_AnOpenedWindowIsPannedIntoViewOnceMeasured() throws {
        let map = MapController.make(zoom: 10)
        // 40 px below the top edge: a 100 px tall window above the pin cannot fit.
        let near = map.ground(700, 40)
        let id = try map.addMarker(marker(near.latitude, near.longitude) { $0.hasTitle = true })
        try map.selectMarker(id)
        map.frame(1)
        XCTAssertFalse(map.camera.isAnimating, "not measured yet: nothing to fit")
        try map.setInfoWindowSize(width: 200, height: 100)
        map.frame(1.1)
        map.frame(2)
        let window = try XCTUnwrap(map.scene.infoWindow)
        XCTAssertEqual(window.minY, 10, accuracy: 1e-6, "top edge 10 px inside the view")
        XCTAssertEqual(window.minX + window.width, 790, accuracy: 1e-6, "right edge 10 px inside")
        let settled = map.camera.position
        map.frame(3)
        XCTAssertEqual(map.camera.position, settled, "only once")
    }

    func testI6_AnOpenWindowRedrawsOnlyWhenItsMarkerTracksChanges() throws {
        let map = MapController.make(zoom: 10)
        var tracking = marker(0, 0) { $0.hasTitle = true; $0.tracksInfoWindowChanges = true }
        let id = try map.addMarker(tracking)
        try map.selectMarker(id)
        _ = map.drainEvents()
        tracking.hasSnippet = true
        try map.updateMarker(id, tracking, contentChanged: true)
        XCTAssertEqual(map.drainEvents(), [.infoWindowContentChanged(.marker(id))])
        try map.updateMarker(id, tracking, contentChanged: false)
        XCTAssertEqual(map.drainEvents(), [], "nothing to redraw")
        tracking.tracksInfoWindowChanges = false
        try map.updateMarker(id, tracking, contentChanged: true)
        XCTAssertEqual(map.drainEvents(), [], "old content until reopened")
        try map.selectMarker(nil)
        XCTAssertEqual(map.drainEvents(), [.infoWindowClosed(.marker(id))])
        tracking.tracksInfoWindowChanges = true
        try map.updateMarker(id, tracking, contentChanged: true)
        XCTAssertEqual(map.drainEvents(), [], "no window open")
    }

    func testI2I6_ATrackingWindowWhoseTextGoesClosesUnlessTheHostMayDrawItsOwn() throws {
        let map = MapController.make(zoom: 10)
        var m = marker(0, 0) { $0.hasTitle = true; $0.tracksInfoWindowChanges = true }
        let id = try map.addMarker(m)
        try map.selectMarker(id)
        _ = map.drainEvents()
        m.hasTitle = false
        try map.updateMarker(id, m, contentChanged: true)
        XCTAssertEqual(map.drainEvents(), [.infoWindowClosed(.marker(id))], "nothing left to show (I2)")
        XCTAssertNil(map.selectedMarker)
        // With custom windows possible, the host is asked to redraw it instead.
        map.customInfoWindows = true
        try map.selectMarker(id)
        XCTAssertEqual(map.selectedMarker, id, "opens without text: the host may draw its own (I7)")
        _ = map.drainEvents()
        try map.updateMarker(id, m, contentChanged: true)
        XCTAssertEqual(map.drainEvents(), [.infoWindowContentChanged(.marker(id))])
        map.customInfoWindows = false
        try map.selectMarker(id)
        XCTAssertNil(map.selectedMarker)
    }
}
