import XCTest
@testable import CairnWasm
import Cairn

/// The map's C ABI called natively with raw buffers, as the JS bindings call it in wasm.
final class MapExportsTests: XCTestCase {
    private func buffer(_ count: Int) -> UnsafeMutableRawPointer { cairn_alloc(max(count, 1) * 8)! }

    private func write(_ p: UnsafeMutableRawPointer, _ values: [Double]) {
        for (i, v) in values.enumerated() { p.storeBytes(of: v, toByteOffset: 8 * i, as: Double.self) }
    }

    private func read(_ p: UnsafeMutableRawPointer, _ i: Int) -> Double {
        p.load(fromByteOffset: 8 * i, as: Double.self)
    }

    private func makeMap() -> Int32 {
        let h = cairn_map_create(40, -74, 10, 0, 0, 800, 600)
        XCTAssertGreaterThan(h, 0)
        return h
    }

    /// One input record: [type, time, id, x, y, a, b, c, modifiers].
    private func record(_ type: Double, _ time: Double, id: Double = 0, x: Double = 0, y: Double = 0,
                        a: Double = 0, b: Double = 0, c: Double = 0, modifiers: Double = 0) -> [Double] {
        [type, time, id, x, y, a, b, c, modifiers]
    }

    func testLayoutIsReadFromTheModule() {
        XCTAssertEqual(cairn_map_layout(0), Int32(_FrameField.count))
        XCTAssertEqual(cairn_map_layout(1), 12)
        XCTAssertEqual(cairn_map_layout(2), 5)
        XCTAssertEqual(cairn_map_layout(3), 9)
        XCTAssertEqual(cairn_map_layout(4), 22, "draw records end with a cluster's icon")
        XCTAssertEqual(cairn_map_layout(6), UISettings.count)
        XCTAssertEqual(cairn_map_layout(7), 7, "popover records")
        XCTAssertEqual(cairn_map_layout(8), -CairnError.invalidArgument.code)
    }

    /// Each limit of the ABI has its own status, whose detail is the limit.
    func testTheLimitsOfMapsAndClusterManagersHaveTheirOwnStatus() {
        var maps: [Int32] = []
        while true {
            let h = cairn_map_create(0, 0, 1, 0, 0, 100, 100)
            if h < 0 {
                XCTAssertEqual(h, -CairnError.tooManyMaps(limit: 0).code)
                break
            }
            maps.append(h)
        }
        XCTAssertGreaterThanOrEqual(maps.count, 32_767 - 16, "other tests' maps may still be live")
        XCTAssertEqual(cairn_last_error_detail(), 32_767)
        for h in maps.dropFirst() { XCTAssertEqual(cairn_map_destroy(h), 0) }
        let h = maps[0]
        defer { XCTAssertEqual(cairn_map_destroy(h), 0) }
        for _ in 0..<1024 { XCTAssertGreaterThanOrEqual(cairn_map_add_cluster_manager(h, 2, 4, 20, 40), 0) }
        XCTAssertEqual(cairn_map_add_cluster_manager(h, 2, 4, 20, 40), -CairnError.tooManyClusterManagers(limit: 0).code)
        XCTAssertEqual(cairn_last_error_detail(), 1024)
        XCTAssertNotEqual(CairnError.tooManyClusterManagers(limit: 0).code, CairnError.tooManyPoints.code)
    }

    func testAFrameReportsTheCameraTilesAndEventsAndWaitsForRoom() {
        let h = makeMap()
        defer { XCTAssertEqual(cairn_map_destroy(h), 0) }
        XCTAssertEqual(cairn_map_move_camera(h, 10, 20, 2, 0, 0), 0)
        // Too small: the size comes back, nothing is written and the events stay queued.
        let size = Int(cairn_map_frame(h, 1, nil, 0))
        XCTAssertGreaterThan(size, _FrameField.count)
        let out = buffer(size)
        XCTAssertEqual(Int(cairn_map_frame(h, 1, out, Int32(size))), size)
        XCTAssertEqual(read(out, _FrameField.time.rawValue), 1)
        XCTAssertEqual(read(out, _FrameField.latitude.rawValue), 10, accuracy: 1e-9)
        XCTAssertEqual(read(out, _FrameField.longitude.rawValue), 20, accuracy: 1e-9)
        XCTAssertEqual(read(out, _FrameField.zoom.rawValue), 2)
        XCTAssertEqual(read(out, _FrameField.tileZoom.rawValue), 2)
        let tiles = Int(read(out, _FrameField.tileCount.rawValue))
        let events = Int(read(out, _FrameField.eventCount.rawValue))
        XCTAssertEqual(tiles, 16)
        XCTAssertEqual(events, 3)
        XCTAssertEqual(size, _FrameField.count + tiles * 12 + events * 5)
        let firstEvent = _FrameField.count + tiles * 12
        XCTAssertEqual(read(out, firstEvent), 1, "camera will move")
        XCTAssertEqual(read(out, firstEvent + 1), Double(CameraMoveCause.developer.rawValue))
        XCTAssertEqual(read(out, firstEvent + 5), 2, "camera changed")
        XCTAssertEqual(read(out, firstEvent + 10), 3, "camera idle")
        // Drained: the next frame has no events.
        XCTAssertEqual(Int(cairn_map_frame(h, 2, out, Int32(size))), size - 15)
        XCTAssertEqual(cairn_free(out), 0)
    }

    func testInputRecordsDriveGesturesAndABadRecordRefusesTheBatch() {
        let h = makeMap()
        defer { XCTAssertEqual(cairn_map_destroy(h), 0) }
        let input = buffer(9 * 4)
        write(input, record(1, 0, id: 1, x: 400, y: 300, a: 0, b: 0)
                + record(2, 0.1, id: 1, x: 500, y: 300)
                + record(2, .nan, id: 1, x: 600, y: 300)
                + record(3, 0.3, id: 1, x: 600, y: 300))
        XCTAssertEqual(cairn_map_push_events(h, input, 4), -CairnError.invalidRecord(index: 0).code)
        XCTAssertEqual(cairn_last_error_detail(), 2, "the third record is the bad one")
        let out = buffer(2)
        XCTAssertEqual(cairn_map_coordinate(h, 400, 300, out), 1)
        XCTAssertEqual(read(out, 1), -74, accuracy: 1e-9, "nothing of the refused batch was applied")
        // Fixed, the same batch drags the map east by 200 px.
        write(input.advanced(by: 8 * 9 * 2), record(2, 0.2, id: 1, x: 600, y: 300))
        XCTAssertEqual(cairn_map_push_events(h, input, 4), 4)
        XCTAssertEqual(cairn_map_coordinate(h, 600, 300, out), 1)
        XCTAssertEqual(read(out, 1), -74, accuracy: 1e-9)
        for bad in [record(7, 0), record(1, 0, id: 1.5), record(1, 0, a: 3), record(5, 0, c: 9),
                    record(6, 0, id: 0), record(2, 0, modifiers: 16), record(1, 0, id: 1e12)] {
            write(input, bad)
            XCTAssertEqual(cairn_map_push_events(h, input, 1), -CairnError.invalidRecord(index: 0).code)
        }
        XCTAssertEqual(cairn_map_push_events(h, input, -1), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_push_events(h, nil, 1), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_push_events(h, input, 5), -CairnError.invalidArgument.code, "past the buffer")
        XCTAssertEqual(cairn_map_push_events(h, nil, 0), 0)
        _ = cairn_free(input)
        _ = cairn_free(out)
    }

    func testSettingsLimitsViewportAndCameraCallsAreChecked() throws {
        let h = makeMap()
        defer { XCTAssertEqual(cairn_map_destroy(h), 0) }
        XCTAssertEqual(cairn_map_set_settings(h, 127, 127), 0)
        XCTAssertEqual(cairn_map_set_settings(h, 128, 127), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_set_settings(h, 0, 128), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_set_settings(h, 0, -1), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_set_limits(h, 2, 12, 45, 18), 0)
        XCTAssertEqual(cairn_map_set_limits(h, 12, 2, 45, 18), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_set_limits(h, 2, 12, 45, 31), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_set_limits(h, 2, 12, 45, 18.5), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_set_limits(h, 2, 12, 45, .infinity), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_set_viewport(h, 1024, 768, 10, 20, 30, 40), 0)
        XCTAssertEqual(cairn_map_set_viewport(h, .nan, 768, 0, 0, 0, 0), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_move_camera(h, .infinity, 0, 3, 0, 0), -CairnError.invalidArgument.code)
        // NaN keeps the camera's own value of a field.
        XCTAssertEqual(cairn_map_move_camera(h, 10, 20, 5, 0, 0), 0)
        XCTAssertEqual(cairn_map_move_camera(h, .nan, .nan, 7, .nan, .nan), 0)
        XCTAssertEqual(try _Registry.map(h).camera.position.latitude, 10, accuracy: 1e-9)
        XCTAssertEqual(try _Registry.map(h).camera.position.zoom, 7, accuracy: 1e-9)
        XCTAssertEqual(cairn_map_animate_camera(h, 0, 0, 3, 0, 0, 1, 7), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_animate_camera(h, 0, 0, 3, 0, 0, 1, -2), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_animate_camera(h, 0, 0, 3, 0, 0, -1, 1), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_animate_camera(h, 0, 0, 3, 0, 0, 1, 1), 0)
        XCTAssertEqual(cairn_map_stop_animation(h), 0)
        // NaN and -1: the engine's own duration and easing, as the same animation given them.
        func zoomsOf(duration: Double, easing: Int32) throws -> [Double] {
            let m = cairn_map_create(0, 0, 7, 0, 0, 800, 600)
            defer { _ = cairn_map_destroy(m) }
            XCTAssertEqual(cairn_map_animate_camera(m, .nan, .nan, 3, .nan, .nan, duration, easing), 0)
            let map = try _Registry.map(m)
            return try [0, 0.1, 0.3, 0.49, 0.5].map { t throws -> Double in
                try map.advance(to: 10 + t)
                return map.camera.isAnimating ? map.camera.position.zoom : -map.camera.position.zoom
            }
        }
        let engines = try zoomsOf(duration: .nan, easing: -1)
        XCTAssertEqual(engines, try zoomsOf(duration: MapController.defaultAnimationDuration, easing: Easing.easeInOut.rawValue))
        XCTAssertNotEqual(engines, try zoomsOf(duration: MapController.defaultAnimationDuration, easing: Easing.linear.rawValue))
        XCTAssertEqual(engines.last, -3, "over after the default duration")
        XCTAssertEqual(cairn_map_show_bounds(h, -10, -10, 10, 10, 0, 0), 0)
        XCTAssertEqual(cairn_map_zoom_by(h, 1, .nan, .nan, 0), 0)
        XCTAssertEqual(cairn_map_zoom_by(h, .infinity, .nan, .nan, 0), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_set_my_location(h, 10, 10, 5), 0)
        XCTAssertEqual(cairn_map_set_my_location(h, 100, 10, 5), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_set_my_location(h, .nan, 0, 0), 0, "NaN latitude clears")
        let out = buffer(2)
        XCTAssertEqual(cairn_map_screen_point(h, 0, 0, 0, 0, out), 1)
        XCTAssertEqual(cairn_map_screen_point(h, 0, 0, 0, 3, out), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_screen_point(h, 0, 0, 0, 0, nil), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_coordinate(h, .nan, 0, out), -CairnError.invalidArgument.code)
        _ = cairn_free(out)
    }

    func testWhatTheHostDoesNotGiveTakesTheEnginesDefaults() throws {
        let h = cairn_map_create(40, -74, 10, .nan, .nan, 800, 600)
        XCTAssertGreaterThan(h, 0)
        defer { XCTAssertEqual(cairn_map_destroy(h), 0) }
        let out = buffer(5)
        defer { _ = cairn_free(out) }
        XCTAssertEqual(cairn_map_camera(h, out), 0)
        let standard = CameraPosition(latitude: 40, longitude: -74, zoom: 10)
        XCTAssertEqual((0..<5).map { read(out, $0) }, [40, -74, 10, standard.bearing, standard.tilt])
        // Settings: those not given take their defaults, whatever the bits say.
        XCTAssertEqual(cairn_map_settings(h), UISettings().bits)
        XCTAssertEqual(cairn_map_set_settings(h, 0, 1), 0, "scrolling off")
        XCTAssertEqual(cairn_map_settings(h), UISettings().bits & ~1)
        XCTAssertEqual(cairn_map_set_settings(h, 127, 16), 0, "the compass on; scrolling back to its default")
        XCTAssertEqual(cairn_map_settings(h), UISettings().bits | 16)
        XCTAssertEqual(cairn_map_set_settings(h, 127, 0), 0)
        XCTAssertEqual(cairn_map_settings(h), UISettings().bits)
        // Limits: NaN is not given.
        func limits() -> [Double] {
            XCTAssertEqual(cairn_map_limits(h, out), 0)
            return (0..<4).map { read(out, $0) }
        }
        let s = CameraLimits.standard, tiles = Double(MapController.defaultMaxTileZoom)
        XCTAssertEqual(limits(), [s.minZoom, s.maxZoom, s.maxTilt, tiles])
        XCTAssertEqual(cairn_map_set_limits(h, 2, 12, 45, 18), 0)
        XCTAssertEqual(limits(), [2, 12, 45, 18])
        XCTAssertEqual(cairn_map_set_limits(h, .nan, 9, .nan, .nan), 0)
        XCTAssertEqual(limits(), [s.minZoom, 9, s.maxTilt, tiles])
        XCTAssertEqual(cairn_map_set_limits(h, 10, .nan, .nan, .nan), 0)
        XCTAssertEqual(limits(), [10, s.maxZoom, s.maxTilt, tiles])
        XCTAssertEqual(cairn_map_limits(h, nil), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_camera(h, nil), -CairnError.invalidArgument.code)
        // The camera: an animation without duration or easing takes the defaults; bounds and
        // zooms without a duration move at once; a location without accuracy has none.
        let map = try _Registry.map(h)
        XCTAssertEqual(cairn_map_animate_camera(h, .nan, .nan, 12, .nan, .nan, .nan, -1), 0)
        try map.advance(to: 1)
        try map.advance(to: 1 + MapController.defaultAnimationDuration / 2)
        XCTAssertEqual(map.camera.position.zoom, 11, accuracy: 1e-9, "half way, eased in and out")
        try map.advance(to: 1.01 + MapController.defaultAnimationDuration)
        XCTAssertFalse(map.camera.isAnimating)
        XCTAssertEqual(cairn_map_animate_camera(h, .nan, .nan, 12, .nan, .nan, 1, -2), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_show_bounds(h, -1, -1, 1, 1, .nan, .nan), 0)
        XCTAssertFalse(map.camera.isAnimating)
        XCTAssertEqual(cairn_map_zoom_by(h, 1, .nan, .nan, .nan), 0)
        XCTAssertFalse(map.camera.isAnimating)
        XCTAssertEqual(cairn_map_set_my_location(h, 10, 10, .nan), 0)
        XCTAssertEqual(map.myLocation.accuracy, 0)
        XCTAssertEqual(cairn_map_set_limits(h + 1, .nan, .nan, .nan, .nan), -CairnError.invalidHandle.code)
        XCTAssertEqual(cairn_map_settings(h + 1), -CairnError.invalidHandle.code)
    }

    func testTheEngineSaysWhichKeysItTakes() {
        for command: Int32 in 1...6 {
            XCTAssertEqual(cairn_map_takes_key(command, 0), 1)
            XCTAssertEqual(cairn_map_takes_key(command, Modifier.shift), 1)
            for m in [Modifier.control, Modifier.alt, Modifier.meta, 15] { XCTAssertEqual(cairn_map_takes_key(command, m), 0) }
        }
        for (command, modifiers) in [(Int32(0), Int32(0)), (7, 0), (1, 16), (1, -1)] {
            XCTAssertEqual(cairn_map_takes_key(command, modifiers), -CairnError.invalidArgument.code)
        }
    }

    func testABuildingWithoutADefaultLevelShowsTheEnginesAndTheLevelShownIsReadBack() {
        let h = makeMap()
        defer { XCTAssertEqual(cairn_map_destroy(h), 0) }
        let corners = buffer(8)
        defer { _ = cairn_free(corners) }
        write(corners, [-74.001, 39.999, -73.999, 39.999, -73.999, 40.001, -74.001, 40.001])
        let b = cairn_map_add_indoor_building(h, corners, 4, 3, -1)
        XCTAssertGreaterThan(b, 0)
        XCTAssertEqual(cairn_map_indoor_level(h, b), 0, "the top level")
        XCTAssertEqual(cairn_map_activate_indoor_level(h, b, 2), 0)
        XCTAssertEqual(cairn_map_indoor_level(h, b), 2)
        let given = cairn_map_add_indoor_building(h, corners, 4, 3, 1)
        XCTAssertEqual(cairn_map_indoor_level(h, given), 1)
        XCTAssertEqual(cairn_map_add_indoor_building(h, corners, 4, 3, -2), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_indoor_level(h, given + 1), -CairnError.invalidHandle.code)
        XCTAssertEqual(cairn_map_indoor_level(h + 1, b), -CairnError.invalidHandle.code)
    }

    func testThePinSizeIsTheEngines() {
        let out = buffer(2)
        defer { _ = cairn_free(out) }
        XCTAssertEqual(cairn_map_pin_size(out), 0)
        XCTAssertEqual([read(out, 0), read(out, 1)], [DefaultPin.width, DefaultPin.height])
        XCTAssertEqual(cairn_map_pin_size(nil), -CairnError.invalidArgument.code)
    }

    func testHandlesAreCheckedAndDestroyedMapsStayDead() {
        let h = makeMap()
        XCTAssertEqual(cairn_map_destroy(h), 0)
        XCTAssertEqual(cairn_map_destroy(h), -CairnError.invalidHandle.code)
        XCTAssertEqual(cairn_map_frame(h, 0, nil, 0), -CairnError.invalidHandle.code)
        XCTAssertEqual(cairn_map_move_camera(h, 0, 0, 1, 0, 0), -CairnError.invalidHandle.code)
        XCTAssertEqual(cairn_map_frame(0, 0, nil, 0), -CairnError.invalidHandle.code)
        XCTAssertEqual(cairn_map_frame(-5, 0, nil, 0), -CairnError.invalidHandle.code)
        // Index handles are not map handles.
        let index = cairn_index_create(40, 512, 0, 16, 2)
        XCTAssertEqual(cairn_map_frame(index, 0, nil, 0), -CairnError.invalidHandle.code, "slot 1 is not a map")
        XCTAssertEqual(cairn_index_destroy(index), 0)
        XCTAssertEqual(cairn_map_create(0, 0, .nan, 0, 0, 800, 600), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_create(0, 0, 1, 0, 0, 0, 600), -CairnError.invalidArgument.code)
    }
}
