import XCTest
@testable import Cairn

/// Indoor maps on the map (feature G4): which building is prominent, the floor picker, the
/// levels shown and the markers on them.
final class IndoorMapsTests: XCTestCase {
    func onLevel(_ building: Int32, _ level: Int32, lng: Double) -> MarkerProperties {
        var m = MarkerProperties(latitude: 0, longitude: lng)
        m.indoorBuilding = building
        m.indoorLevel = level
        return m
    }

    func drawnMarkers(_ map: MapController) -> Set<Int64> { Set(map.scene.items.filter { $0.kind == .marker }.map(\.id)) }

    func testG4_AProminentBuildingOffersItsFloorsAndAPickedFloorShowsItsMarkers() throws {
        let map = MapController.make(zoom: 15)
        let b = try map.addIndoorBuilding(try IndoorBuilding.square())
        let upper = try map.addMarker(onLevel(b, 0, lng: 0.0002))
        let middle = try map.addMarker(onLevel(b, 1, lng: -0.0002))
        let street = try map.addMarker(MarkerProperties(latitude: 0.0005, longitude: 0))
        map.frame(0)
        XCTAssertNil(map.floorPicker, "not prominent below zoom 16")
        XCTAssertEqual(drawnMarkers(map), [middle, street], "the default level's markers, and those on no building")
        XCTAssertFalse(map.drainEvents().contains(.indoorBuildingFocused(building: b)))
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 17))
        map.frame(1)
        XCTAssertTrue(map.drainEvents().contains(.indoorBuildingFocused(building: b)))
        let picker = try XCTUnwrap(map.floorPicker)
        XCTAssertEqual([picker.first, picker.count, picker.activeLevel], [0, 3, 1])
        // Bottom right, above the my-location button's place.
        XCTAssertEqual(picker.centerX, 800 - ControlLayout.margin - ControlLayout.size / 2)
        XCTAssertEqual(picker.top + 3 * ControlLayout.size, ControlLayout.myLocationCenter(map.camera.viewport).y
                       - ControlLayout.size / 2 - ControlLayout.margin)
        // A tap on the top button shows level 0: its markers, not level 1's.
        let y = picker.top + ControlLayout.size / 2
        map.down(1, picker.centerX, y, at: 2)
        map.up(1, picker.centerX, y, at: 2.05)
        map.frame(2.5)
        XCTAssertEqual(map.drainEvents(), [.indoorLevelActivated(building: b, level: 0)], "the picker's tap is no map tap")
        XCTAssertEqual(try map.indoor.building(b).activeLevel, 0)
        XCTAssertEqual(drawnMarkers(map), [upper, street])
        // Looking elsewhere: no building is prominent, the picker goes, the level stays.
        try map.moveCamera(to: CameraPosition(latitude: 0.01, longitude: 0, zoom: 17))
        map.frame(3)
        XCTAssertNil(map.floorPicker)
        XCTAssertTrue(map.drainEvents().contains(.indoorBuildingFocused(building: -1)))
        XCTAssertEqual(try map.indoor.building(b).activeLevel, 0)
        // The setting hides the picker (G1: at once); the host can still change levels.
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 17))
        map.settings.indoorPicker = false
        map.frame(4)
        XCTAssertNil(map.floorPicker)
        XCTAssertNil(map.control(atX: picker.centerX, y: y))
        try map.activateIndoorLevel(building: b, level: 1)
        XCTAssertEqual(map.drainEvents().last, .indoorLevelActivated(building: b, level: 1))
        XCTAssertThrowsError(try map.activateIndoorLevel(building: b, level: 3)) { XCTAssertEqual($0 as? CairnError, .invalidArgument) }
        XCTAssertThrowsError(try map.activateIndoorLevel(building: b + 1, level: 0)) { XCTAssertEqual($0 as? CairnError, .invalidHandle) }
        // Removed: its markers are drawn whatever their level.
        try map.removeIndoorBuilding(b)
        XCTAssertEqual(map.drainEvents(), [.indoorBuildingFocused(building: -1)])
        map.frame(5)
        XCTAssertEqual(drawnMarkers(map), [upper, middle, street])
        XCTAssertThrowsError(try map.removeIndoorBuilding(b))
    }

    func testG4_ABuildingOfOneLevelHasNoPickerAndTheFirstAddedOfTwoIsProminent() throws {
        let map = MapController.make(zoom: 17)
        let single = try map.addIndoorBuilding(try IndoorBuilding.square(levels: 1, defaultLevel: 0))
        _ = try map.addIndoorBuilding(try IndoorBuilding.square())
        map.frame(0)
        XCTAssertEqual(map.indoor.focused, single)
        XCTAssertNil(map.floorPicker, "one level: nothing to pick")
    }

    func testG4_ManyLevelsShowAWindowAroundTheShownOneThatFitsTheView() throws {
        let map = MapController.make(zoom: 17, height: 400)
        let b = try map.addIndoorBuilding(try IndoorBuilding.square(levels: 40, defaultLevel: 30))
        map.frame(0)
        let picker = try XCTUnwrap(map.floorPicker)
        XCTAssertLessThan(picker.count, 40)
        XCTAssertGreaterThanOrEqual(picker.top, ControlLayout.compassCenter(map.camera.viewport).y + ControlLayout.size / 2)
        XCTAssertTrue((picker.first..<picker.first + picker.count).contains(30))
        XCTAssertEqual(picker.level(atX: picker.centerX, y: picker.top + 1), picker.first)
        try map.activateIndoorLevel(building: b, level: 39)
        map.frame(1)
        let last = try XCTUnwrap(map.floorPicker)
        XCTAssertEqual(last.first + last.count, 40, "the window stops at the lowest level")
    }

    func testG4_EveryLevelCanBeReachedByTappingAndAViewTooShortHasNoPicker() throws {
        // Padding moves the controls (G5) and shrinks the picker's room.
        let map = try MapController(camera: CameraPosition(latitude: 0, longitude: 0, zoom: 17),
                                    viewport: Viewport(width: 800, height: 400, padding: EdgeInsets(top: 60, left: 0, bottom: 90, right: 30)))
        let b = try map.addIndoorBuilding(try IndoorBuilding.square(levels: 9, defaultLevel: 4))
        map.frame(0)
        var seen: Set<Int> = [4]
        var t = 1.0
        func tap(_ k: Int) throws {
            let p = try XCTUnwrap(map.floorPicker)
            let y = p.top + (Double(k) + 0.5) * ControlLayout.size
            map.down(1, p.centerX, y, at: t)
            map.up(1, p.centerX, y, at: t + 0.05)
            t += 1
            map.frame(t)
            seen.insert(try map.indoor.building(b).activeLevel)
        }
        let picker = try XCTUnwrap(map.floorPicker)
        XCTAssertLessThan(picker.count, 9)
        XCTAssertGreaterThanOrEqual(picker.count, 3)
        XCTAssertEqual(picker.centerX, 800 - 30 - ControlLayout.margin - ControlLayout.size / 2, "inside the padding")
        for _ in 0..<9 { try tap(0) }
        for _ in 0..<9 { try tap(picker.count - 1) }
        XCTAssertEqual(seen, Set(0..<9), "stepping up then down reaches every level")
        // Too short for three buttons (and not all levels fit): no picker, nothing over the compass.
        try map.setViewport(Viewport(width: 800, height: 220))
        map.frame(t + 1)
        XCTAssertNil(map.floorPicker)
        let two = try map.addIndoorBuilding(try IndoorBuilding.square(lat: 0.01, levels: 2, defaultLevel: 0))
        try map.moveCamera(to: CameraPosition(latitude: 0.01, longitude: 0, zoom: 17))
        map.frame(t + 2)
        XCTAssertEqual(map.floorPicker?.building, two, "two levels fit")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(map.floorPicker).top,
                                    ControlLayout.compassCenter(map.camera.viewport).y + ControlLayout.size / 2)
    }

    func testG4_APressOnTheFloorPickerCountsForTheBuildingItShowed() throws {
        let map = MapController.make(zoom: 17)
        let b = try map.addIndoorBuilding(try IndoorBuilding.square())
        map.frame(0)
        let p = try XCTUnwrap(map.floorPicker)
        let y = p.top + ControlLayout.size / 2
        // The finger goes down on level 0; the camera leaves the building before it comes up.
        map.down(1, p.centerX, y, at: 1)
        try map.moveCamera(to: CameraPosition(latitude: 0.01, longitude: 0, zoom: 17))
        map.frame(1.02)
        map.up(1, p.centerX, y, at: 1.05)
        map.frame(1.5)
        XCTAssertEqual(try map.indoor.building(b).activeLevel, 1, "no longer offered: nothing changes")
        // The setting turned off while the finger is down: likewise.
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 17))
        map.frame(2)
        map.down(1, p.centerX, y, at: 3)
        map.settings.indoorPicker = false
        map.up(1, p.centerX, y, at: 3.05)
        map.frame(3.5)
        XCTAssertEqual(try map.indoor.building(b).activeLevel, 1)
    }

    func testG4_MarkersGoOnlyOnLevelsThatExist() throws {
        let map = MapController.make(zoom: 17)
        let b = try map.addIndoorBuilding(try IndoorBuilding.square())
        XCTAssertThrowsError(try map.addMarker(onLevel(b + 1, 0, lng: 0))) { XCTAssertEqual($0 as? CairnError, .invalidMarker(.indoorLevel)) }
        XCTAssertThrowsError(try map.addMarker(onLevel(b, 3, lng: 0))) { XCTAssertEqual($0 as? CairnError, .invalidMarker(.indoorLevel)) }
        XCTAssertThrowsError(try map.addMarkers([onLevel(b, 0, lng: 0), onLevel(b, -1, lng: 0)])) {
            XCTAssertEqual($0 as? CairnError, .invalidMarkerInBatch(index: 1, field: MarkerProperties.Field.indoorLevel.rawValue))
        }
        let id = try map.addMarker(onLevel(b, 2, lng: 0))
        XCTAssertThrowsError(try map.updateMarker(id, onLevel(b, 5, lng: 0)))
        XCTAssertEqual(map.markers.count, 1)
        // Once the building is gone, the marker still takes changes that keep its place.
        try map.removeIndoorBuilding(b)
        var moved = onLevel(b, 2, lng: 0.0001)
        moved.opacity = 0.5
        XCTAssertNoThrow(try map.updateMarker(id, moved))
        XCTAssertThrowsError(try map.updateMarker(id, onLevel(b, 1, lng: 0))) { XCTAssertEqual($0 as? CairnError, .invalidMarker(.indoorLevel)) }
    }
}
