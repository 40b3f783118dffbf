import Cairn

// The interactive map over the C ABI: camera, gestures and controls. The host pushes input
// event records (`_InputRecords`), calls `cairn_map_frame` once per animation frame and reads
// one buffer back (`_FrameWriter`). Statuses as in IndexExports: ≥ 0 success, negated
// `CairnError.code` on failure with the detail in `cairn_last_error_detail`.

/// A number the host did not give: NaN is the ABI's "not given", and the engine's default applies.
func _given(_ value: Double) -> Double? { value.isNaN ? nil : value }

/// Creates a map with a camera and a viewport of width × height CSS pixels; returns its handle.
/// A NaN bearing or tilt takes the engine's default.
@_expose(wasm, "cairn_map_create") @_cdecl("cairn_map_create")
public func cairn_map_create(_ latitude: Double, _ longitude: Double, _ zoom: Double, _ bearing: Double,
                             _ tilt: Double, _ width: Double, _ height: Double) -> Int32 {
    _Registry.status { () throws(CairnError) in
        _Registry.heldFrame = nil
        var position = CameraPosition(latitude: latitude, longitude: longitude, zoom: zoom)
        if let b = _given(bearing) { position.bearing = b }
        if let t = _given(tilt) { position.tilt = t }
        let map = try MapController(camera: position, viewport: Viewport(width: width, height: height))
        guard let handle = _Registry.maps.insert(map) else { throw .tooManyMaps(limit: _HandleTable<MapController>.maxSlots) }
        return handle
    }
}

@_expose(wasm, "cairn_map_destroy") @_cdecl("cairn_map_destroy")
public func cairn_map_destroy(_ handle: Int32) -> Int32 {
    _Registry.heldFrame = nil
    return _Registry.maps.remove(handle) ? 0 : _Registry.fail(.invalidHandle)
}

/// Runs `body` on the map behind `handle`; returns 0 or the error's status.
func _withMap(_ handle: Int32, _ body: (MapController) throws(CairnError) -> Void) -> Int32 {
    _Registry.status { () throws(CairnError) in
        try body(try _Registry.map(handle))
        return 0
    }
}

/// Doubles per layout item: 0 frame header, 1 tile record, 2 event record, 3 input record,
/// 4 draw record, 5 marker record; 6 the UI settings (bits of `cairn_map_set_settings`); 7 popover
/// record; -2 for anything else.
@_expose(wasm, "cairn_map_layout") @_cdecl("cairn_map_layout")
public func cairn_map_layout(_ which: Int32) -> Int32 {
    switch which {
    case 0: return Int32(_FrameField.count)
    case 1: return Int32(_FrameWriter.tileStride)
    case 2: return Int32(_FrameWriter.eventStride)
    case 3: return Int32(_InputRecords.stride)
    case 4: return Int32(_FrameWriter.drawStride)
    case 5: return Int32(_MarkerRecords.stride)
    case 6: return UISettings.count
    case 7: return Int32(_FrameWriter.popoverStride)
    default: return _Registry.fail(.invalidArgument)
    }
}

@_expose(wasm, "cairn_map_set_viewport") @_cdecl("cairn_map_set_viewport")
public func cairn_map_set_viewport(_ handle: Int32, _ width: Double, _ height: Double, _ top: Double,
                                   _ left: Double, _ bottom: Double, _ right: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        try map.setViewport(Viewport(width: width, height: height,
                                     padding: EdgeInsets(top: top, left: left, bottom: bottom, right: right)))
    }
}

/// The camera's range and the tile source's highest zoom (a whole number); NaN for one not
/// given takes the engine's default.
@_expose(wasm, "cairn_map_set_limits") @_cdecl("cairn_map_set_limits")
public func cairn_map_set_limits(_ handle: Int32, _ minZoom: Double, _ maxZoom: Double, _ maxTilt: Double,
                                 _ maxTileZoom: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        var tiles: Int?
        if let z = _given(maxTileZoom) {
            guard let whole = Int32(exactly: z) else { throw .invalidArgument }
            tiles = Int(whole)
        }
        try map.setLimits(minZoom: _given(minZoom), maxZoom: _given(maxZoom), maxTilt: _given(maxTilt), maxTileZoom: tiles)
    }
}

/// UI settings as bits, in the order of `UISettings`' properties: 1 scroll, 2 zoom, 4 tilt,
/// 8 rotate, 16 compass, 32 my-location button, 64 floor picker. The settings named in `given`
/// take their bit from `bits`; the others their defaults.
@_expose(wasm, "cairn_map_set_settings") @_cdecl("cairn_map_set_settings")
public func cairn_map_set_settings(_ handle: Int32, _ bits: Int32, _ given: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        guard bits & ~UISettings.allBits == 0, given & ~UISettings.allBits == 0 else { throw .invalidArgument }
        map.settings = UISettings(bits: bits, given: given)
    }
}

/// Handles `count` input records; a batch with a bad record is refused whole (INVALID_RECORD,
/// detail = its position). Returns `count`.
@_expose(wasm, "cairn_map_push_events") @_cdecl("cairn_map_push_events")
public func cairn_map_push_events(_ handle: Int32, _ records: UnsafeMutableRawPointer?, _ count: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let map = try _Registry.map(handle)
        guard count >= 0, Int(count) <= Int.max / (8 * _InputRecords.stride) else { throw .invalidArgument }
        if count == 0 { return 0 }
        let buffer = try _Registry.doubles(records, count: Int(count) * _InputRecords.stride)
        for event in try _InputRecords.decodeAll(buffer, count: Int(count)) {
            try map.handle(event)
        }
        return count
    }
}

/// Advances the map to `time` (seconds) and writes the frame into `out` when it holds
/// `capacity` ≥ the frame's size in doubles; returns that size. When the buffer is too small
/// nothing is written and the events stay queued: call again (same time) with a larger one,
/// which writes the frame already built (the map advanced to that time; another call to the
/// map in between makes it advance again).
@_expose(wasm, "cairn_map_frame") @_cdecl("cairn_map_frame")
public func cairn_map_frame(_ handle: Int32, _ time: Double, _ out: UnsafeMutableRawPointer?,
                            _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let held = _Registry.heldFrame.map { $0.handle == handle && $0.time == time } ?? false
        let map = try _Registry.map(handle)
        guard capacity >= 0, Int(capacity) <= Int.max / 8 else { throw .invalidArgument }
        if !held { try map.advance(to: time) }
        let tiles = map.coveringTiles
        let size = _FrameWriter.size(tiles: tiles.count, draws: map.scene.drawnCount, events: map.pendingEvents.count,
                                     popovers: map.popovers.placements.count)
        if size <= Int(capacity) {
            let buffer = try _Registry.doubles(out, count: size)
            _FrameWriter.write(map, tiles: tiles, events: map.drainEvents(), to: buffer)
        } else {
            _Registry.heldFrame = (handle, time)
        }
        return Int32(size)
    }
}

// MARK: Programmatic camera

/// A camera position from the host's fields; NaN keeps the camera's own value. The bindings
/// send NaN for fields a call does not give: the camera may have moved since the host's last
/// frame (an earlier call), which only the engine knows.
func _cameraPosition(_ map: MapController, _ latitude: Double, _ longitude: Double, _ zoom: Double,
                     _ bearing: Double, _ tilt: Double) -> CameraPosition {
    let c = map.camera.position
    func keep(_ value: Double, _ current: Double) -> Double { value.isNaN ? current : value }
    return CameraPosition(latitude: keep(latitude, c.latitude), longitude: keep(longitude, c.longitude),
                          zoom: keep(zoom, c.zoom), bearing: keep(bearing, c.bearing), tilt: keep(tilt, c.tilt))
}

@_expose(wasm, "cairn_map_move_camera") @_cdecl("cairn_map_move_camera")
public func cairn_map_move_camera(_ handle: Int32, _ latitude: Double, _ longitude: Double, _ zoom: Double,
                                  _ bearing: Double, _ tilt: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        try map.moveCamera(to: _cameraPosition(map, latitude, longitude, zoom, bearing, tilt))
    }
}

/// Easing: 0 linear, 1 ease-in-out, 2 ease-out, -1 the default; a NaN duration is the default.
@_expose(wasm, "cairn_map_animate_camera") @_cdecl("cairn_map_animate_camera")
public func cairn_map_animate_camera(_ handle: Int32, _ latitude: Double, _ longitude: Double, _ zoom: Double,
                                     _ bearing: Double, _ tilt: Double, _ duration: Double, _ easing: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        var e: Easing?
        if easing != -1 {
            guard let given = Easing(rawValue: easing) else { throw .invalidArgument }
            e = given
        }
        try map.animateCamera(to: _cameraPosition(map, latitude, longitude, zoom, bearing, tilt), duration: _given(duration),
                              easing: e)
    }
}

/// A NaN padding or duration takes the engine's default.
@_expose(wasm, "cairn_map_show_bounds") @_cdecl("cairn_map_show_bounds")
public func cairn_map_show_bounds(_ handle: Int32, _ west: Double, _ south: Double, _ east: Double,
                                  _ north: Double, _ padding: Double, _ duration: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        try map.showBounds(west: west, south: south, east: east, north: north, padding: _given(padding),
                           duration: _given(duration))
    }
}

/// Zooms by `amount` about screen point (x, y), or the centre when x or y is NaN; a NaN
/// duration takes the engine's default.
@_expose(wasm, "cairn_map_zoom_by") @_cdecl("cairn_map_zoom_by")
public func cairn_map_zoom_by(_ handle: Int32, _ amount: Double, _ x: Double, _ y: Double,
                              _ duration: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        let about = x.isNaN || y.isNaN
        try map.zoom(by: amount, aboutX: about ? nil : x, y: about ? nil : y, duration: _given(duration))
    }
}

@_expose(wasm, "cairn_map_stop_animation") @_cdecl("cairn_map_stop_animation")
public func cairn_map_stop_animation(_ handle: Int32) -> Int32 {
    _withMap(handle) { map in map.stopAnimation() }
}

/// The user's location; a NaN latitude clears it, a NaN accuracy is the default (unknown).
@_expose(wasm, "cairn_map_set_my_location") @_cdecl("cairn_map_set_my_location")
public func cairn_map_set_my_location(_ handle: Int32, _ latitude: Double, _ longitude: Double,
                                      _ accuracy: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        if latitude.isNaN {
            map.clearMyLocation()
        } else {
            try map.setMyLocation(latitude: latitude, longitude: longitude, accuracy: _given(accuracy))
        }
    }
}

// MARK: Projection

/// Writes the screen x, y of a longitude/latitude with an altitude (metres) and altitude mode
/// (0 clamp to ground, 1 relative to ground, 2 absolute) to `out` (2 doubles); returns 1, or 0
/// when the point is behind the camera.
@_expose(wasm, "cairn_map_screen_point") @_cdecl("cairn_map_screen_point")
public func cairn_map_screen_point(_ handle: Int32, _ latitude: Double, _ longitude: Double, _ altitude: Double,
                                   _ mode: Int32, _ out: UnsafeMutableRawPointer?) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let map = try _Registry.map(handle)
        guard latitude.isFinite, longitude.isFinite, !altitude.isNaN,
              let m = AltitudeMode(rawValue: mode) else { throw .invalidArgument }
        let buffer = try _Registry.doubles(out, count: 2)
        guard let s = map.projection.screenPoint(latitude: latitude, longitude: longitude, altitude: altitude,
                                                 mode: m) else { return 0 }
        buffer[0] = s.x
        buffer[1] = s.y
        return 1
    }
}

/// Writes the latitude, longitude on the ground under screen point (x, y) to `out` (2
/// doubles); returns 1, or 0 above the horizon.
@_expose(wasm, "cairn_map_coordinate") @_cdecl("cairn_map_coordinate")
public func cairn_map_coordinate(_ handle: Int32, _ x: Double, _ y: Double, _ out: UnsafeMutableRawPointer?) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let map = try _Registry.map(handle)
        guard x.isFinite, y.isFinite else { throw .invalidArgument }
        let buffer = try _Registry.doubles(out, count: 2)
        guard let c = map.projection.coordinate(screenX: x, screenY: y) else { return 0 }
        buffer[0] = c.latitude
        buffer[1] = c.longitude
        return 1
    }
}

// MARK: What the engine holds, read back

/// The UI settings in force, as the bits `cairn_map_set_settings` takes.
@_expose(wasm, "cairn_map_settings") @_cdecl("cairn_map_settings")
public func cairn_map_settings(_ handle: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in try _Registry.map(handle).settings.bits }
}

/// Writes the camera's range and the tile source's highest zoom to `out` (4 doubles: minZoom,
/// maxZoom, maxTilt, maxTileZoom); returns 0.
@_expose(wasm, "cairn_map_limits") @_cdecl("cairn_map_limits")
public func cairn_map_limits(_ handle: Int32, _ out: UnsafeMutableRawPointer?) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        let buffer = try _Registry.doubles(out, count: 4)
        let l = map.camera.limits
        (buffer[0], buffer[1], buffer[2], buffer[3]) = (l.minZoom, l.maxZoom, l.maxTilt, Double(map.maxTileZoom))
    }
}

/// Writes the camera as it is now to `out` (5 doubles: latitude, longitude, zoom, bearing,
/// tilt); returns 0.
@_expose(wasm, "cairn_map_camera") @_cdecl("cairn_map_camera")
public func cairn_map_camera(_ handle: Int32, _ out: UnsafeMutableRawPointer?) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        let buffer = try _Registry.doubles(out, count: 5)
        let c = map.camera.position
        (buffer[0], buffer[1], buffer[2], buffer[3], buffer[4]) = (c.latitude, c.longitude, c.zoom, c.bearing, c.tilt)
    }
}

/// Whether the map takes a key command pressed with these modifiers (input record bits): 1, or
/// 0 when it is the browser's (the host then lets the browser act on it). Needs no map.
@_expose(wasm, "cairn_map_takes_key") @_cdecl("cairn_map_takes_key")
public func cairn_map_takes_key(_ command: Int32, _ modifiers: Int32) -> Int32 {
    guard let c = KeyCommand(rawValue: command), modifiers >= 0, modifiers <= 15 else {
        return _Registry.fail(.invalidArgument)
    }
    return MapController.takesKey(c, modifiers: modifiers) ? 1 : 0
}

/// Writes the size of the pin the host draws for markers without an icon (feature M2), in CSS
/// pixels, to `out` (2 doubles: width, height); returns 0. Needs no map.
@_expose(wasm, "cairn_map_pin_size") @_cdecl("cairn_map_pin_size")
public func cairn_map_pin_size(_ out: UnsafeMutableRawPointer?) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let buffer = try _Registry.doubles(out, count: 2)
        (buffer[0], buffer[1]) = (DefaultPin.width, DefaultPin.height)
        return 0
    }
}
