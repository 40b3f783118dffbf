import Cairn

// Markers, icons, selection and tap answers over the C ABI. Marker ids are exact in a double.

/// Registers an icon of width × height CSS pixels with alignment insets and a default anchor
/// (NaN for a coordinate not given: the engine's default); returns its number.
@_expose(wasm, "cairn_map_register_icon") @_cdecl("cairn_map_register_icon")
public func cairn_map_register_icon(_ handle: Int32, _ width: Double, _ height: Double, _ top: Double, _ left: Double,
                                    _ bottom: Double, _ right: Double, _ anchorX: Double, _ anchorY: Double) -> Int32 {
    _Registry.status { () throws(CairnError) in
        var icon = Icon(width: width, height: height, insets: EdgeInsets(top: top, left: left, bottom: bottom, right: right))
        if let x = _given(anchorX) { icon.anchorX = x }
        if let y = _given(anchorY) { icon.anchorY = y }
        return try _Registry.map(handle).registerIcon(icon)
    }
}

/// Adds `count` markers from records (`cairn_map_layout(5)` doubles each; what a record does
/// not give takes the engine's defaults) and writes their ids to `ids` (`count` doubles). All
/// or none: a bad record is INVALID_MARKER_IN_BATCH with its position. Returns `count`.
@_expose(wasm, "cairn_map_add_markers") @_cdecl("cairn_map_add_markers")
public func cairn_map_add_markers(_ handle: Int32, _ records: UnsafeMutableRawPointer?, _ count: Int32,
                                  _ ids: UnsafeMutableRawPointer?) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let map = try _Registry.map(handle)
        guard count >= 0, Int(count) <= Int.max / (8 * _MarkerRecords.stride) else { throw .invalidArgument }
        if count == 0 { return 0 }
        let input = try _Registry.doubles(records, count: Int(count) * _MarkerRecords.stride)
        let out = try _Registry.doubles(ids, count: Int(count))
        let added = try map.addMarkers(try _MarkerRecords.decodeAll(input, count: Int(count)))
        for (i, id) in added.enumerated() { out[i] = Double(id) }
        return count
    }
}

/// Changes a marker: what the record gives replaces its current properties, the rest stays.
@_expose(wasm, "cairn_map_update_marker") @_cdecl("cairn_map_update_marker")
public func cairn_map_update_marker(_ handle: Int32, _ id: Double, _ record: UnsafeMutableRawPointer?) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        let input = try _Registry.doubles(record, count: _MarkerRecords.stride)
        let marker = try _Registry.markerID(id)
        try map.updateMarker(marker, try _MarkerRecords.decode(input, at: 0, over: try map.markers.marker(marker)),
                             contentChanged: _MarkerRecords.contentChanged(input))
    }
}

@_expose(wasm, "cairn_map_remove_marker") @_cdecl("cairn_map_remove_marker")
public func cairn_map_remove_marker(_ handle: Int32, _ id: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in try map.removeMarker(try _Registry.markerID(id)) }
}

@_expose(wasm, "cairn_map_clear_markers") @_cdecl("cairn_map_clear_markers")
public func cairn_map_clear_markers(_ handle: Int32) -> Int32 {
    _withMap(handle) { map in map.clearMarkers() }
}

/// Selects a marker (opens its info window); a negative id selects none.
@_expose(wasm, "cairn_map_select_marker") @_cdecl("cairn_map_select_marker")
public func cairn_map_select_marker(_ handle: Int32, _ id: Double) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let map = try _Registry.map(handle)
        try map.selectMarker(id < 0 ? nil : try _Registry.markerID(id))
        return map.selectedMarker == nil ? 0 : 1   // no window opens without title, snippet or custom one
    }
}

/// A marker's info-window anchor as the last frame drew it: 1 with x, y in `out` (2 doubles),
/// 0 while it is not drawn.
@_expose(wasm, "cairn_map_marker_anchor") @_cdecl("cairn_map_marker_anchor")
public func cairn_map_marker_anchor(_ handle: Int32, _ id: Double, _ out: UnsafeMutableRawPointer?) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let map = try _Registry.map(handle)
        let marker = try _Registry.markerID(id)
        _ = try map.markers.slot(of: marker)
        let buffer = try _Registry.doubles(out, count: 2)
        guard let a = map.infoWindowAnchor(ofMarker: marker) else { return 0 }
        (buffer[0], buffer[1]) = (a.x, a.y)
        return 1
    }
}

/// Whose window is open: 1 with the marker's or item's id and the item's manager (-1 for a
/// marker) in `out` (2 doubles), 0 when none is.
@_expose(wasm, "cairn_map_selection") @_cdecl("cairn_map_selection")
public func cairn_map_selection(_ handle: Int32, _ out: UnsafeMutableRawPointer?) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let map = try _Registry.map(handle)
        let buffer = try _Registry.doubles(out, count: 2)
        guard let owner = map.selectedInfoWindowOwner else { return 0 }
        buffer[0] = Double(owner.id)
        buffer[1] = Double(owner.manager ?? -1)
        return 1
    }
}

@_expose(wasm, "cairn_map_set_info_window_size") @_cdecl("cairn_map_set_info_window_size")
public func cairn_map_set_info_window_size(_ handle: Int32, _ width: Double, _ height: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in try map.setInfoWindowSize(width: width, height: height) }
}

/// The host's answer to the last marker tap: 1 consumed, 0 run the default.
@_expose(wasm, "cairn_map_answer_tap") @_cdecl("cairn_map_answer_tap")
public func cairn_map_answer_tap(_ handle: Int32, _ consumed: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        guard consumed == 0 || consumed == 1 else { throw .invalidArgument }
        map.answerTap(consumed: consumed == 1)
    }
}

/// Writes a marker's properties as the engine holds them to `out`, one record
/// (`cairn_map_layout(5)` doubles, every field given); returns 0.
@_expose(wasm, "cairn_map_marker") @_cdecl("cairn_map_marker")
public func cairn_map_marker(_ handle: Int32, _ id: Double, _ out: UnsafeMutableRawPointer?) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        let marker = try map.markers.marker(try _Registry.markerID(id))
        _MarkerRecords.encode(marker, to: try _Registry.doubles(out, count: _MarkerRecords.stride), at: 0)
    }
}

/// Whether the host may draw a window of its own for any marker or item (1) or not (0): windows
/// then open without title or snippet (I7).
@_expose(wasm, "cairn_map_set_custom_info_windows") @_cdecl("cairn_map_set_custom_info_windows")
public func cairn_map_set_custom_info_windows(_ handle: Int32, _ on: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        guard on == 0 || on == 1 else { throw .invalidArgument }
        map.customInfoWindows = on == 1
    }
}
