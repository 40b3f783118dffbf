import Cairn

// Web Mercator for hosts that draw the world without a map (a basemap's tiles, bands of a
// query): the projection the engine places everything with, so the host never writes it again.

/// World x (0 at 180° W, 1 at 180° E) of a longitude; not wrapped.
@_expose(wasm, "cairn_mercator_x") @_cdecl("cairn_mercator_x")
public func cairn_mercator_x(_ longitude: Double) -> Double { WebMercator.x(longitude: longitude) }

/// World y (0 at the map's north edge, 1 at its south edge) of a latitude, clamped to the map.
@_expose(wasm, "cairn_mercator_y") @_cdecl("cairn_mercator_y")
public func cairn_mercator_y(_ latitude: Double) -> Double { WebMercator.y(latitude: latitude) }

/// The latitude of a world y.
@_expose(wasm, "cairn_mercator_latitude") @_cdecl("cairn_mercator_latitude")
public func cairn_mercator_latitude(_ y: Double) -> Double { WebMercator.latitude(y: y) }

/// The latitude where the square map ends (±85.0511°).
@_expose(wasm, "cairn_mercator_max_latitude") @_cdecl("cairn_mercator_max_latitude")
public func cairn_mercator_max_latitude() -> Double { WebMercator.maxLatitude }
