import Cairn

// The interactive map over the C ABI: camera, gestures and controls. The host pushes input
// event records (`_InputRecords`), calls `cairn_map_frame` once per animation frame and reads
// one buffer back (`_FrameWriter`). Statuses as in IndexExports: ≥ 0 success, negated
// `CairnError.code` on failure with the detail in `cairn_last_error_detail`.

/// Creates a map with a camera and a viewport of width × height CSS pixels; returns its handle.
@_expose(wasm, "cairn_map_create") @_cdecl("cairn_map_create")
public func cairn_map_create(_ latitude: Double, _ longitude: Double, _ zoom: Double, _ bearing: Double,
                             _ tilt: Double, _ width: Double, _ height: Double) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let map = try MapController(camera: CameraPosition(latitude: latitude, longitude: longitude, zoom: zoom,
                                                           bearing: bearing, tilt: tilt),
                                    viewport: Viewport(width: width, height: height))
        guard let handle = _Registry.maps.insert(map) else { throw .tooManyMaps(limit: _HandleTable<MapController>.maxSlots) }
        return handle
    }
}

@_expose(wasm, "cairn_map_destroy") @_cdecl("cairn_map_destroy")
public func cairn_map_destroy(_ handle: Int32) -> Int32 {
    _Registry.maps.remove(handle) ? 0 : _Registry.fail(.invalidHandle)
}

/// Runs `body` on the map behind `handle`; returns 0 or the error's status.
func _withMap(_ handle: Int32, _ body: (MapController) throws(CairnError) -> Void) -> Int32 {
    _Registry.status { () throws(CairnError) in
        try body(try _Registry.map(handle))
        return 0
    }
}

/// Doubles per layout item: 0 frame header, 1 tile record, 2 event record, 3 input record,
/// 4 draw record, 5 marker record; -2 for anything else.
@_expose(wasm, "cairn_map_layout") @_cdecl("cairn_map_layout")
public func cairn_map_layout(_ which: Int32) -> Int32 {
    switch which {
    case 0: return Int32(_FrameField.count)
    case 1: return Int32(_FrameWriter.tileStride)
    case 2: return Int32(_FrameWriter.eventStride)
    case 3: return Int32(_InputRecords.stride)
    case 4: return Int32(_FrameWriter.drawStride)
    case 5: return Int32(_MarkerRecords.stride)
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

@_expose(wasm, "cairn_map_set_limits") @_cdecl("cairn_map_set_limits")
public func cairn_map_set_limits(_ handle: Int32, _ minZoom: Double, _ maxZoom: Double, _ maxTilt: Double,
                                 _ maxTileZoom: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        guard maxTileZoom >= 0, maxTileZoom <= 30 else { throw .invalidArgument }
        try map.setLimits(CameraLimits(minZoom: minZoom, maxZoom: maxZoom, maxTilt: maxTilt))
        map.maxTileZoom = Int(maxTileZoom)
    }
}

/// UI settings as bits: 1 scroll, 2 zoom, 4 tilt, 8 rotate, 16 compass, 32 my-location button.
@_expose(wasm, "cairn_map_set_settings") @_cdecl("cairn_map_set_settings")
public func cairn_map_set_settings(_ handle: Int32, _ bits: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        guard bits & ~UISettings.allBits == 0 else { throw .invalidArgument }
        map.settings = UISettings(bits: bits)
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
/// nothing is written and the events stay queued: call again (same time) with a larger one.
@_expose(wasm, "cairn_map_frame") @_cdecl("cairn_map_frame")
public func cairn_map_frame(_ handle: Int32, _ time: Double, _ out: UnsafeMutableRawPointer?,
                            _ capacity: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let map = try _Registry.map(handle)
        guard capacity >= 0, Int(capacity) <= Int.max / 8 else { throw .invalidArgument }
        try map.advance(to: time)
        let tiles = map.coveringTiles
        let size = _FrameWriter.size(tiles: tiles.count, draws: map.scene.drawnCount, events: map.pendingEvents.count)
        if size <= Int(capacity) {
            let buffer = try _Registry.doubles(out, count: size)
            _FrameWriter.write(map, tiles: tiles, events: map.drainEvents(), to: buffer)
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

/// Easing: 0 linear, 1 ease-in-out, 2 ease-out.
@_expose(wasm, "cairn_map_animate_camera") @_cdecl("cairn_map_animate_camera")
public func cairn_map_animate_camera(_ handle: Int32, _ latitude: Double, _ longitude: Double, _ zoom: Double,
                                     _ bearing: Double, _ tilt: Double, _ duration: Double, _ easing: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        guard let e = Easing(rawValue: easing) else { throw .invalidArgument }
        try map.animateCamera(to: _cameraPosition(map, latitude, longitude, zoom, bearing, tilt), duration: duration, easing: e)
    }
}

@_expose(wasm, "cairn_map_show_bounds") @_cdecl("cairn_map_show_bounds")
public func cairn_map_show_bounds(_ handle: Int32, _ west: Double, _ south: Double, _ east: Double,
                                  _ north: Double, _ padding: Double, _ duration: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        try map.showBounds(west: west, south: south, east: east, north: north, padding: padding, duration: duration)
    }
}

/// Zooms by `amount` about screen point (x, y), or the centre when x or y is NaN.
@_expose(wasm, "cairn_map_zoom_by") @_cdecl("cairn_map_zoom_by")
public func cairn_map_zoom_by(_ handle: Int32, _ amount: Double, _ x: Double, _ y: Double,
                              _ duration: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        let about = x.isNaN || y.isNaN
        try map.zoom(by: amount, aboutX: about ? nil : x, y: about ? nil : y, duration: duration)
    }
}

@_expose(wasm, "cairn_map_stop_animation") @_cdecl("cairn_map_stop_animation")
public func cairn_map_stop_animation(_ handle: Int32) -> Int32 {
    _withMap(handle) { map in map.stopAnimation() }
}

/// The user's location; a NaN latitude clears it.
@_expose(wasm, "cairn_map_set_my_location") @_cdecl("cairn_map_set_my_location")
public func cairn_map_set_my_location(_ handle: Int32, _ latitude: Double, _ longitude: Double,
                                      _ accuracy: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        if latitude.isNaN {
            map.clearMyLocation()
        } else {
            try map.setMyLocation(latitude: latitude, longitude: longitude, accuracy: accuracy)
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
