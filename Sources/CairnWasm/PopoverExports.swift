import Cairn

// Popovers over the C ABI (feature V2). A popover is named by its id within the map; its state
// travels as bits: 1 open, 2 auto-close, 4 auto-pan. Frames carry where the open ones stand
// (popover records) and report closes and removals (events).

/// The settings of `flags` that `mask` names (nil for the others, which stay).
func _popoverSettings(_ mask: Int32, _ flags: Int32) throws(CairnError) -> (open: Bool?, autoClose: Bool?, autoPan: Bool?) {
    guard mask & ~7 == 0, flags & ~mask == 0 else { throw .invalidArgument }
    func bit(_ b: Int32) -> Bool? { mask & b == 0 ? nil : flags & b != 0 }
    return (bit(1), bit(2), bit(4))
}

/// Adds a popover to a marker, with the engine's defaults but for the settings `mask` names,
/// which take their bits from `flags`; returns its id.
@_expose(wasm, "cairn_map_add_popover") @_cdecl("cairn_map_add_popover")
public func cairn_map_add_popover(_ handle: Int32, _ marker: Double, _ mask: Int32, _ flags: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let map = try _Registry.map(handle)
        let id = try _Registry.markerID(marker)
        let s = try _popoverSettings(mask, flags)
        return try map.addPopover(marker: id, open: s.open, autoClose: s.autoClose, autoPan: s.autoPan)
    }
}

/// Sets the settings of a popover that `mask` names to their bits in `flags`: one that opens
/// pans into view (with auto-pan), one that closes is reported.
@_expose(wasm, "cairn_map_set_popover") @_cdecl("cairn_map_set_popover")
public func cairn_map_set_popover(_ handle: Int32, _ popover: Int32, _ mask: Int32, _ flags: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in
        let s = try _popoverSettings(mask, flags)
        try map.setPopover(popover, open: s.open, autoClose: s.autoClose, autoPan: s.autoPan)
    }
}

/// A popover's state as bits; INVALID_HANDLE once it is removed (by the host, or with its marker).
@_expose(wasm, "cairn_map_popover_state") @_cdecl("cairn_map_popover_state")
public func cairn_map_popover_state(_ handle: Int32, _ popover: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let p = try _Registry.map(handle).popover(popover)
        return (p.isOpen ? 1 : 0) | (p.autoClose ? 2 : 0) | (p.autoPan ? 4 : 0)
    }
}

/// The size of a popover's content as the host laid it out, in CSS pixels (0 to 10000).
@_expose(wasm, "cairn_map_set_popover_size") @_cdecl("cairn_map_set_popover_size")
public func cairn_map_set_popover_size(_ handle: Int32, _ popover: Int32, _ width: Double, _ height: Double) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in try map.setPopoverSize(popover, width: width, height: height) }
}

@_expose(wasm, "cairn_map_remove_popover") @_cdecl("cairn_map_remove_popover")
public func cairn_map_remove_popover(_ handle: Int32, _ popover: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in try map.removePopover(popover) }
}
