import XCTest
@testable import Cairn

/// Popovers (feature V2): where they stand, when they close, how they pan into view, and that
/// they go with their marker.
final class PopoversTests: XCTestCase {
    /// The open popovers' placements of the last frame, by popover id.
    private func placed(_ map: MapController) -> [Int32: PopoverPlacement] {
        Dictionary(uniqueKeysWithValues: map.popovers.placements.map { ($0.popover, $0) })
    }

    func testV2_AnOpenPopoverStandsAboveItsMarkersInfoWindowAnchorAsDrawn() throws {
        let map = MapController.make(zoom: 10)
        let plain = try map.addMarker(marker(0, 0))
        let c = map.ground(600, 300)
        let lowered = try map.addMarker(marker(c.latitude, c.longitude) { $0.infoWindowAnchorY = 0.5 })
        let a = try map.addPopover(marker: plain, open: true)
        let b = try map.addPopover(marker: lowered, open: true)
        let closed = try map.addPopover(marker: plain)
        try map.setPopoverSize(a, width: 100, height: 50)
        try map.setPopoverSize(b, width: 60, height: 30)
        map.frame(1)
        let p = try XCTUnwrap(placed(map)[a])
        XCTAssertTrue(p.isShown)
        XCTAssertEqual(p.marker, plain)
        XCTAssertEqual([p.minX, p.minY, p.width, p.height], [350, 300 - 43 - Popovers.lift - 50, 100, 50],
                       "centred, its bottom lifted above the top of the pin, as the info window's tail")
        let anchor = try XCTUnwrap(map.infoWindowAnchor(ofMarker: lowered))
        let q = try XCTUnwrap(placed(map)[b])
        XCTAssertEqual(q.minX, anchor.x - 30, accuracy: 1e-9)
        XCTAssertEqual(q.minY, anchor.y - Popovers.lift - 30, accuracy: 1e-9)
        XCTAssertEqual(anchor.y, 300 - 21.5, accuracy: 1e-9, "halfway up the pin")
        XCTAssertNil(placed(map)[closed], "a closed popover stands nowhere")
        let defaults = try map.popover(closed)
        XCTAssertEqual([defaults.isOpen, defaults.autoClose, defaults.autoPan], [false, true, true], "closed, auto-close, auto-pan")
        try map.setPopover(closed, autoPan: false)
        XCTAssertEqual([try map.popover(closed).isOpen, try map.popover(closed).autoClose, try map.popover(closed).autoPan],
                       [false, true, false], "what is not given stays")
        // Its marker off screen: open, but not shown.
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 30, zoom: 10))
        map.frame(2)
        XCTAssertEqual(placed(map)[a]?.isShown, false)
        XCTAssertThrowsError(try map.setPopoverSize(a, width: -1, height: 10)) { XCTAssertEqual($0 as? CairnError, .invalidArgument) }
        XCTAssertThrowsError(try map.setPopoverSize(a, width: .nan, height: 10))
        XCTAssertThrowsError(try map.setPopoverSize(a, width: 20_000, height: 10))
        XCTAssertThrowsError(try map.addPopover(marker: 987_654)) { XCTAssertEqual($0 as? CairnError, .unknownMarker(id: 987_654)) }
        XCTAssertThrowsError(try map.setPopoverSize(999, width: 1, height: 1)) { XCTAssertEqual($0 as? CairnError, .invalidHandle) }
    }

    func testV2_ATapClosesAutoClosingPopoversButNotOnTheirMarkerOrItsWindow() throws {
        let map = MapController.make(zoom: 10)
        let a = try map.addMarker(marker(0, 0) { $0.hasTitle = true })
        let far = map.ground(600, 300)
        let b = try map.addMarker(marker(far.latitude, far.longitude))
        let closing = try map.addPopover(marker: a, open: true)
        let staying = try map.addPopover(marker: b, open: true, autoClose: false)
        map.frame(1)
        _ = map.drainEvents()
        // On its own marker: it stays (the host's tap handler may then open it, say).
        map.click((400, 280), at: 2)
        map.frame(2.5)
        XCTAssertEqual(map.drainEvents(), [.markerTapped(marker: a)])
        map.answerTap(consumed: true)
        XCTAssertTrue(try map.popover(closing).isOpen)
        // On the map: it closes, before the tap is reported; the other never closes by itself.
        map.click((100, 500), at: 3)
        map.frame(3.5)
        XCTAssertEqual(Array(map.drainEvents().prefix(2)), [.popoverClosed(popover: closing, marker: a),
                                                           .tap(x: 100, y: 500, latitude: map.ground(100, 500).latitude,
                                                                longitude: map.ground(100, 500).longitude)])
        XCTAssertFalse(try map.popover(closing).isOpen)
        XCTAssertTrue(try map.popover(staying).isOpen)
        map.frame(4)
        XCTAssertNil(placed(map)[closing])
        // On another marker: it closes.
        try map.setPopover(closing, open: true, autoClose: true, autoPan: true)
        map.click((600, 280), at: 5)
        map.frame(5.5)
        XCTAssertEqual(map.drainEvents().first, .popoverClosed(popover: closing, marker: a))
        map.answerTap(consumed: true)
        // On its marker's info window: it stays.
        try map.selectMarker(a)
        try map.setInfoWindowSize(width: 120, height: 50)
        try map.setPopover(closing, open: true, autoClose: true, autoPan: false)
        map.frame(6)
        _ = map.drainEvents()
        let window = try XCTUnwrap(map.scene.infoWindow)
        map.click((window.anchorX, window.anchorY - 25), at: 7)
        map.frame(7.5)
        XCTAssertEqual(map.drainEvents(), [.infoWindowTapped(.marker(a))])
        XCTAssertTrue(try map.popover(closing).isOpen)
        // The host's close is reported too; closing a closed one is not.
        try map.setPopover(closing, open: false, autoClose: true, autoPan: false)
        try map.setPopover(closing, open: false, autoClose: true, autoPan: false)
        XCTAssertEqual(map.drainEvents(), [.popoverClosed(popover: closing, marker: a)])
    }

    func testV2I1_AnOpenedPopoverPansIntoViewAsAnInfoWindowDoesOnceMeasured() throws {
        let map = MapController.make(zoom: 10)
        // 40 px below the top edge: a 100 px tall popover above the pin cannot fit.
        let near = map.ground(700, 40)
        let id = try map.addMarker(marker(near.latitude, near.longitude))
        let popover = try map.addPopover(marker: id, open: true)
        map.frame(1)
        XCTAssertFalse(map.camera.isAnimating, "not measured yet: nothing to fit")
        _ = map.drainEvents()
        try map.setPopoverSize(popover, width: 200, height: 100)
        map.frame(1.1)
        XCTAssertEqual(map.drainEvents().first, .cameraWillMove(.apiAnimation), "the engine's own pan, as for a window")
        XCTAssertEqual(try XCTUnwrap(map.camera.animation).duration, CameraAnimation.zoomStepDuration)
        map.frame(1.1 + CameraAnimation.zoomStepDuration)
        map.frame(2)
        let p = try XCTUnwrap(placed(map)[popover])
        XCTAssertEqual(p.minY, MapController.infoWindowMargin, accuracy: 1e-6, "top edge the window's margin inside the view")
        XCTAssertEqual(p.minX + p.width, 800 - MapController.infoWindowMargin, accuracy: 1e-6, "right edge too")
        let settled = map.camera.position
        map.frame(3)
        XCTAssertEqual(map.camera.position, settled, "only once")
        // Closed and opened again, it pans again; with autoPan off it does not.
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 10))
        try map.setPopover(popover, open: false, autoClose: true, autoPan: true)
        try map.setPopover(popover, open: true, autoClose: true, autoPan: false)
        map.frame(4)
        XCTAssertFalse(map.camera.isAnimating)
        try map.setPopover(popover, open: false, autoClose: true, autoPan: true)
        try map.setPopover(popover, open: true, autoClose: true, autoPan: true)
        map.frame(5)
        XCTAssertTrue(map.camera.isAnimating)
    }

    func testI1V2_TheAutoPanMovesJustEnoughAndNeverPushesTheTopLeftOut() {
        // Room from 10 to 500 px down: what the view offers, less the margin.
        let view = try! Viewport(width: 510, height: 510).validated()
        func dy(_ minY: Double, _ height: Double) -> Double {
            InfoWindowSelection.autoPanShift((minX: 100, minY: minY, width: 100, height: height), view, margin: 10).dy
        }
        XCTAssertEqual(dy(50, 100), 0, "inside")
        XCTAssertEqual(dy(-30, 100), 40, "off the top: everything moves down by 40")
        XCTAssertEqual(dy(450, 100), -50, "off the bottom: up by 50")
        XCTAssertEqual(dy(100, 1000), -90, "too tall: its top goes to the margin, no further")
        XCTAssertEqual(InfoWindowSelection.autoPanShift((minX: 100, minY: 100, width: 0, height: 50), view, margin: 10).dx, 0,
                       "not measured: nothing to fit")
    }

    func testV2_PopoversGoWithTheirMarker() throws {
        let map = MapController.make(zoom: 10)
        let a = try map.addMarker(marker(0, 0))
        let b = try map.addMarker(marker(0, 0.1))
        let first = try map.addPopover(marker: a, open: true)
        let second = try map.addPopover(marker: a)
        let other = try map.addPopover(marker: b)
        _ = map.drainEvents()
        try map.removeMarker(a)
        XCTAssertEqual(map.drainEvents(), [.popoverRemoved(popover: first, marker: a), .popoverRemoved(popover: second, marker: a)])
        XCTAssertThrowsError(try map.popover(first)) { XCTAssertEqual($0 as? CairnError, .invalidHandle) }
        XCTAssertThrowsError(try map.setPopover(second, open: true, autoClose: true, autoPan: true))
        XCTAssertEqual(try map.popover(other).marker, b)
        map.frame(1)
        XCTAssertTrue(map.popovers.placements.isEmpty)
        let third = try map.addPopover(marker: b, open: true)
        XCTAssertGreaterThan(third, other, "ids are never used again")
        try map.removePopover(other)
        XCTAssertEqual(map.drainEvents(), [], "the host's own removal is not reported")
        XCTAssertThrowsError(try map.removePopover(other)) { XCTAssertEqual($0 as? CairnError, .invalidHandle) }
        map.clearMarkers()
        XCTAssertEqual(map.drainEvents(), [.popoverRemoved(popover: third, marker: b)])
        XCTAssertTrue(map.popovers.ids.isEmpty)
    }
}
