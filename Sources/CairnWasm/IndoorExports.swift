import Cairn

// Buildings with floors and the floor picker over the C ABI (feature G4).

/// Adds a building: its footprint as `corners` [longitude, latitude] pairs in `lngLat`, its
/// number of levels (counted from the top) and the one shown first (-1: the engine's default).
/// Returns its id (≥ 1).
@_expose(wasm, "cairn_map_add_indoor_building") @_cdecl("cairn_map_add_indoor_building")
public func cairn_map_add_indoor_building(_ handle: Int32, _ lngLat: UnsafeMutableRawPointer?, _ corners: Int32,
                                          _ levels: Int32, _ defaultLevel: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in
        let map = try _Registry.map(handle)
        guard corners >= 3, Int(corners) <= IndoorBuilding.maximumCorners else { throw .invalidArgument }
        let pairs = try _Registry.doubles(lngLat, count: 2 * Int(corners))
        var lats: [Double] = [], lngs: [Double] = []
        for i in 0..<Int(corners) {
            lngs.append(pairs[2 * i])
            lats.append(pairs[2 * i + 1])
        }
        return try map.addIndoorBuilding(try IndoorBuilding(latitudes: lats, longitudes: lngs, levelCount: Int(levels),
                                                            defaultLevel: defaultLevel == -1 ? nil : Int(defaultLevel)))
    }
}

@_expose(wasm, "cairn_map_remove_indoor_building") @_cdecl("cairn_map_remove_indoor_building")
public func cairn_map_remove_indoor_building(_ handle: Int32, _ building: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in try map.removeIndoorBuilding(building) }
}

/// Shows a level of a building, as the floor picker does.
@_expose(wasm, "cairn_map_activate_indoor_level") @_cdecl("cairn_map_activate_indoor_level")
public func cairn_map_activate_indoor_level(_ handle: Int32, _ building: Int32, _ level: Int32) -> Int32 {
    _withMap(handle) { (map) throws(CairnError) in try map.activateIndoorLevel(building: building, level: Int(level)) }
}

/// The level of a building shown now (counted from the top).
@_expose(wasm, "cairn_map_indoor_level") @_cdecl("cairn_map_indoor_level")
public func cairn_map_indoor_level(_ handle: Int32, _ building: Int32) -> Int32 {
    _Registry.status { () throws(CairnError) in Int32(try _Registry.map(handle).indoor.building(building).activeLevel) }
}
