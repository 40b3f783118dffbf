// Loading cairn.wasm and binding its exports.
//
// The module is instantiated once per JS realm and shared by every ClusterIndex and MapEngine:
// the engine keeps its own registry of indexes, maps and buffers, so one instance serves them
// all. The binding table below is the single list of what these bindings expect from the
// module; `init` checks the module against it so that a mismatched build fails at load time
// with a clear message rather than later with "x is not a function".

import { CairnError, STATUS_BY_CODE, argumentError, bindingError, describeValue } from './errors.js';

/** The ABI version these bindings were written for (`cairn_abi_version()` must return it). */
export const ABI_VERSION = 1;

/**
 * @typedef {object} Binding
 * @property {string[]} params  wasm parameter types, in order
 * @property {string} result    wasm result type
 * @property {string} doc       what the export does, as the bindings rely on it
 */

/**
 * Every function export the bindings call, by name, with its signature. Data, not code, so a
 * test can check it against the module's exports in both directions.
 * @type {Readonly<Record<string, Binding>>}
 */
export const BINDINGS = Object.freeze({
  cairn_abi_version: { params: [], result: 'i32', doc: 'version of the ABI; must equal ABI_VERSION' },
  cairn_record_stride: { params: [], result: 'i32', doc: 'doubles per result record: [id, count, x, y]' },
  cairn_status_count: { params: [], result: 'i32', doc: 'status codes run from -1 to -this' },
  cairn_buffer_limit: { params: [], result: 'i32', doc: 'largest buffer cairn_alloc gives, in bytes' },
  cairn_last_error_detail: { params: [], result: 'f64', doc: 'detail of the last error: point index, option field or cluster id' },
  cairn_alloc: { params: ['i32'], result: 'i32', doc: 'allocates a buffer the exports accept (8-byte aligned); 0 on failure' },
  cairn_free: { params: ['i32'], result: 'i32', doc: 'frees a buffer from cairn_alloc' },
  cairn_index_create: { params: ['f64', 'f64', 'i32', 'i32', 'i32'], result: 'i32', doc: '(radius, extent, minZoom, maxZoom, minPoints) → handle' },
  cairn_index_destroy: { params: ['i32'], result: 'i32', doc: 'frees an index' },
  cairn_index_reserve: { params: ['i32', 'i32'], result: 'i32', doc: 'makes room for more points' },
  cairn_index_add: { params: ['i32', 'i32', 'i32'], result: 'i32', doc: '(handle, lng/lat pairs, count) → point count; all or nothing' },
  cairn_index_add_weighted: { params: ['i32', 'i32', 'i32'], result: 'i32', doc: '(handle, [world x, world y, weight] records, count) → item count; all or nothing' },
  cairn_index_world_items: { params: ['i32', 'f64', 'i32', 'i32'], result: 'i32', doc: '(handle, zoom, out, capacity) → total [id, count, world x, world y] records of every item at the zoom' },
  cairn_index_build_step: { params: ['i32'], result: 'i32', doc: 'clusters one zoom → zooms left (0 = built)' },
  cairn_index_point_count: { params: ['i32'], result: 'i32', doc: 'points added' },
  cairn_index_cluster_count: { params: ['i32'], result: 'i32', doc: 'clusters formed over all zooms' },
  cairn_index_clusters: { params: ['i32', 'f64', 'f64', 'f64', 'f64', 'f64', 'i32', 'i32'], result: 'i32', doc: '(handle, west, south, east, north, zoom, out, capacity) → total records' },
  cairn_index_children: { params: ['i32', 'f64', 'i32', 'i32'], result: 'i32', doc: '(handle, cluster id, out, capacity) → total records' },
  cairn_index_leaves: { params: ['i32', 'f64', 'f64', 'f64', 'i32', 'i32'], result: 'i32', doc: '(handle, cluster id, limit, offset, out, capacity) → total records' },
  cairn_index_expansion_zoom: { params: ['i32', 'f64'], result: 'i32', doc: '(handle, cluster id) → zoom at which the cluster splits' },
  cairn_index_supercluster_tree: { params: ['i32', 'f64', 'i32', 'i32'], result: 'i32', doc: '(handle, zoom, out, capacity) → items of supercluster\'s k-d tree of that zoom, records [position in the zoom\'s data, float32 world x, y] in the tree\'s order' },
  cairn_index_tile: { params: ['i32', 'i32', 'i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, z, x, y, out, capacity) → total records [id, count, tile x, tile y]' },
  cairn_index_aggregate_add: { params: ['i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, operation, values, count) → column of an aggregated property' },
  cairn_index_aggregate_values: { params: ['i32', 'i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, column, cluster ids, count, out) → count' },
  cairn_index_parents: { params: ['i32', 'i32', 'i32'], result: 'i32', doc: '(handle, out, capacity) → item count; [id, parent id or -1] records of every item, written when all fit' },
  cairn_index_placed_bounds: { params: ['i32', 'i32', 'i32'], result: 'i32', doc: '(handle, out, capacity) → 1 with the record [west, south, east, north] of the points as placed (longitudes wrapped, latitudes clamped), the world\'s for no points' },
  cairn_index_edit: { params: ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, lng/lat pairs to add, count, point ids to remove (int32), count, point ids to move (int32), their new lng/lat pairs, count) → id of the first point added; all checked first' },
  cairn_index_placed_elsewhere: { params: ['i32'], result: 'i32', doc: '(handle) → how many points the index placed other than given' },
  cairn_map_create: { params: ['f64', 'f64', 'f64', 'f64', 'f64', 'f64', 'f64'], result: 'i32', doc: '(latitude, longitude, zoom, bearing, tilt, width, height) → map handle; NaN bearing or tilt: the default' },
  cairn_map_destroy: { params: ['i32'], result: 'i32', doc: 'frees a map' },
  cairn_map_layout: { params: ['i32'], result: 'i32', doc: '(0 frame header, 1 tile record, 2 event record, 3 input record, 4 draw record, 5 marker record) → doubles; 6 → UI settings' },
  cairn_map_set_viewport: { params: ['i32', 'f64', 'f64', 'f64', 'f64', 'f64', 'f64'], result: 'i32', doc: '(handle, width, height, top, left, bottom, right padding)' },
  cairn_map_set_limits: { params: ['i32', 'f64', 'f64', 'f64', 'f64'], result: 'i32', doc: '(handle, minZoom, maxZoom, maxTilt, maxTileZoom); NaN: the default' },
  cairn_map_set_settings: { params: ['i32', 'i32', 'i32'], result: 'i32', doc: '(handle, UI settings bits: 1 scroll, 2 zoom, 4 tilt, 8 rotate, 16 compass, 32 my-location button, 64 floor picker; the bits given) → 0; those not given: the defaults' },
  cairn_map_push_events: { params: ['i32', 'i32', 'i32'], result: 'i32', doc: '(handle, input records, count) → count; a batch with a bad record is refused whole' },
  cairn_map_frame: { params: ['i32', 'f64', 'i32', 'i32'], result: 'i32', doc: '(handle, time, out, capacity) → frame size in doubles; written only when it fits' },
  cairn_map_move_camera: { params: ['i32', 'f64', 'f64', 'f64', 'f64', 'f64'], result: 'i32', doc: '(handle, latitude, longitude, zoom, bearing, tilt); NaN keeps a field' },
  cairn_map_animate_camera: { params: ['i32', 'f64', 'f64', 'f64', 'f64', 'f64', 'f64', 'i32'], result: 'i32', doc: '(handle, latitude, longitude, zoom, bearing, tilt, duration, easing); NaN keeps a field; NaN duration, easing -1: the defaults' },
  cairn_map_show_bounds: { params: ['i32', 'f64', 'f64', 'f64', 'f64', 'f64', 'f64'], result: 'i32', doc: '(handle, west, south, east, north, padding, duration); NaN: the default' },
  cairn_map_zoom_by: { params: ['i32', 'f64', 'f64', 'f64', 'f64'], result: 'i32', doc: '(handle, amount, x, y, duration); NaN x or y zooms about the centre; NaN duration: the default' },
  cairn_map_stop_animation: { params: ['i32'], result: 'i32', doc: 'stops a running camera animation' },
  cairn_map_set_my_location: { params: ['i32', 'f64', 'f64', 'f64'], result: 'i32', doc: '(handle, latitude, longitude, accuracy); NaN latitude clears it; NaN accuracy: the default' },
  cairn_map_screen_point: { params: ['i32', 'f64', 'f64', 'f64', 'i32', 'i32'], result: 'i32', doc: '(handle, latitude, longitude, altitude, mode, out) → 1 with x, y in out, 0 behind the camera' },
  cairn_map_coordinate: { params: ['i32', 'f64', 'f64', 'i32'], result: 'i32', doc: '(handle, x, y, out) → 1 with latitude, longitude in out, 0 above the horizon' },
  cairn_map_register_icon: { params: ['i32', 'f64', 'f64', 'f64', 'f64', 'f64', 'f64', 'f64', 'f64'], result: 'i32', doc: '(handle, width, height, top, left, bottom, right, anchorX, anchorY; NaN: the default) → icon number' },
  cairn_map_add_markers: { params: ['i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, records, count, ids out) → count; all or none; fields not given: the defaults' },
  cairn_map_update_marker: { params: ['i32', 'f64', 'i32'], result: 'i32', doc: '(handle, id, record) → 0; fields not given stay' },
  cairn_map_remove_marker: { params: ['i32', 'f64'], result: 'i32', doc: '(handle, id) → 0' },
  cairn_map_clear_markers: { params: ['i32'], result: 'i32', doc: '(handle) → 0: every marker, and a marker\'s info window' },
  cairn_map_select_marker: { params: ['i32', 'f64'], result: 'i32', doc: '(handle, id or -1 for none) → 1 when its window opened, 0 when none is open' },
  cairn_map_select_cluster_item: { params: ['i32', 'i32', 'f64'], result: 'i32', doc: '(handle, manager, item) → 1 when its info window opened (it has text, or custom windows are on), 0 when none is open' },
  cairn_map_marker_anchor: { params: ['i32', 'f64', 'i32'], result: 'i32', doc: '(handle, id, out) → 1 with the marker\'s info-window anchor as last drawn (x, y) in out, 0 while it is not drawn' },
  cairn_map_selection: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, out) → 1 with the id of the marker or item whose window is open and the item\'s manager (-1 for a marker) in out, 0 when none is' },
  cairn_map_add_indoor_building: { params: ['i32', 'i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, [lng, lat] corners, corner count, levels, default level or -1 for the default) → building id' },
  cairn_map_remove_indoor_building: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, building) → 0' },
  cairn_map_activate_indoor_level: { params: ['i32', 'i32', 'i32'], result: 'i32', doc: '(handle, building, level) → 0: shows that level' },
  cairn_map_set_info_window_size: { params: ['i32', 'f64', 'f64'], result: 'i32', doc: '(handle, width, height) → 0' },
  cairn_map_answer_tap: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, consumed 1 or 0) → 0; unless consumed the default runs (select and centre a marker or an item, zoom into a cluster)' },
  cairn_map_add_cluster_manager: { params: ['i32', 'i32', 'i32', 'f64', 'f64'], result: 'i32', doc: '(handle, algorithm 0 hierarchical 1 distance 2 grid 3 none, minimumClusterSize, maximumClusterZoom, hierarchical radius) → manager number' },
  cairn_map_remove_cluster_manager: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, manager) → 0' },
  cairn_map_set_cluster_buckets: { params: ['i32', 'i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, manager, buckets, colours or 0, count) → 0' },
  cairn_map_add_cluster_items: { params: ['i32', 'i32', 'i32', 'i32'], result: 'f64', doc: '(handle, manager, [lat, lng, icon, text flags (1 title, 2 snippet), aggregated values…] records, count) → first id, or a negative status' },
  cairn_map_add_cluster_coordinates: { params: ['i32', 'i32', 'i32', 'i32', 'i32'], result: 'f64', doc: '(handle, manager, [lng, lat] pairs, count, icon) → first item id, all or none' },
  cairn_map_remove_cluster_item: { params: ['i32', 'i32', 'f64'], result: 'i32', doc: '(handle, manager, item) → 0' },
  cairn_map_move_cluster_item: { params: ['i32', 'i32', 'f64', 'f64', 'f64'], result: 'i32', doc: '(handle, manager, item, latitude, longitude) → 0' },
  cairn_map_clear_cluster_items: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, manager) → 0; the drawing clears at once' },
  cairn_map_cluster: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, manager) → 0; clusters the items as they are now' },
  cairn_map_cluster_begin: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, manager) → steps left of a clustering in steps (0: done), frames show the old one meanwhile' },
  cairn_map_cluster_step: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, manager) → steps left after the next step (0: done and shown)' },
  cairn_map_set_cluster_animation: { params: ['i32', 'i32', 'i32'], result: 'i32', doc: '(handle, manager, 1 animate changes of clustering, 0 not) → 0' },
  cairn_map_set_cluster_index: { params: ['i32', 'i32', 'i32', 'i32', 'i32'], result: 'f64', doc: '(handle, manager, index, out, capacity) → first item id; the items become the built index\'s points, clustered as it is, their [lng, lat] in out' },
  cairn_map_set_cluster_items_flat: { params: ['i32', 'i32', 'i32'], result: 'i32', doc: '(handle, manager, 1 flat on the map or 0 facing the screen)' },
  cairn_map_cluster_leaves: { params: ['i32', 'i32', 'f64', 'i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, manager, cluster, limit, offset, out, capacity) → item ids written' },
  cairn_map_set_cluster_hierarchy: { params: ['i32', 'i32', 'f64', 'f64', 'f64', 'f64'], result: 'i32', doc: '(handle, manager, extent, minZoom, maxZoom, minPoints; NaN keeps one) → 0: the hierarchical algorithm\'s options from the next clustering' },
  cairn_map_set_cluster_aggregates: { params: ['i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, manager, operations (doubles: 0 sum, 1 min, 2 max, 3 count, 4 mean), count) → 0; before any item' },
  cairn_map_cluster_aggregates: { params: ['i32', 'i32', 'f64', 'i32'], result: 'i32', doc: '(handle, manager, cluster, out) → how many aggregated values written' },
  cairn_map_cluster_children: { params: ['i32', 'i32', 'f64', 'i32', 'i32'], result: 'i32', doc: '(handle, manager, cluster, out, capacity) → how many children; [1 cluster or 0 item, id, count, lng, lat] records written when all fit' },
  cairn_map_cluster_expansion_zoom: { params: ['i32', 'i32', 'f64'], result: 'i32', doc: '(handle, manager, cluster) → the zoom at which it splits' },
  cairn_map_cluster_bounds: { params: ['i32', 'i32', 'f64', 'i32'], result: 'i32', doc: '(handle, manager, cluster, out) → 0 with [west, south, east, north] in out' },
  cairn_map_settings: { params: ['i32'], result: 'i32', doc: '(handle) → the UI settings bits in force' },
  cairn_map_limits: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, out) → 0 with [minZoom, maxZoom, maxTilt, maxTileZoom] in out' },
  cairn_map_camera: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, out) → 0 with [latitude, longitude, zoom, bearing, tilt] of the camera now in out' },
  cairn_map_takes_key: { params: ['i32', 'i32'], result: 'i32', doc: '(key command, modifier bits) → 1 when the map takes the key, 0 when it is the browser\'s' },
  cairn_mercator_x: { params: ['f64'], result: 'f64', doc: '(longitude) → world x, 0 at 180° W to 1 at 180° E' },
  cairn_mercator_y: { params: ['f64'], result: 'f64', doc: '(latitude) → world y, 0 at the map\'s north edge to 1 at its south edge, clamped' },
  cairn_mercator_latitude: { params: ['f64'], result: 'f64', doc: '(world y) → latitude' },
  cairn_mercator_max_latitude: { params: [], result: 'f64', doc: 'the latitude where the square map ends' },
  cairn_map_pin_size: { params: ['i32'], result: 'i32', doc: '(out) → 0 with the default pin\'s [width, height] in CSS pixels in out' },
  cairn_map_marker: { params: ['i32', 'f64', 'i32'], result: 'i32', doc: '(handle, id, out) → 0 with the marker\'s record, every field given, in out' },
  cairn_map_indoor_level: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, building) → the level shown now' },
  cairn_map_set_custom_info_windows: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, 1 or 0) → 0: whether the host may draw its own window for any marker or item (windows then open without text)' },
  cairn_map_add_popover: { params: ['i32', 'f64', 'i32', 'i32'], result: 'i32', doc: '(handle, marker, mask, flags: bits 1 open 2 autoClose 4 autoPan, those of mask from flags, the others the defaults) → popover id' },
  cairn_map_set_popover: { params: ['i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, popover, mask, flags) → 0: the settings of mask from flags; one that opens pans into view, one that closes is reported' },
  cairn_map_popover_state: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, popover) → its flags; INVALID_HANDLE once removed (by the host or with its marker)' },
  cairn_map_set_popover_size: { params: ['i32', 'i32', 'f64', 'f64'], result: 'i32', doc: '(handle, popover, width, height) → 0: its content as the host laid it out' },
  cairn_map_remove_popover: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, popover) → 0' },
  cairn_index_reduce_children: { params: ['i32', 'f64', 'i32', 'i32'], result: 'i32', doc: '(handle, cluster id, out, capacity) → total records, in reduce order (seed first)' },
  cairn_map_set_cluster_label_metrics: { params: ['i32', 'i32', 'i32', 'i32', 'f64'], result: 'i32', doc: '(handle, manager, advances of "0123456789+", their count (11), line height) → 0: the host\'s measure of cluster labels, which icon diameters grow with' },
  cairn_map_cluster_buckets: { params: ['i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, manager, out, capacity) → doubles: the n buckets in force, then their n colours, written when they fit' },
  cairn_map_cluster_item: { params: ['i32', 'i32', 'f64', 'i32'], result: 'i32', doc: '(handle, manager, item, out) → 0 with the item\'s [icon, text flags] in out' },
  cairn_cluster_defaults: { params: ['i32', 'i32'], result: 'i32', doc: '(out, capacity) → doubles: [algorithm, minimumClusterSize, maximumClusterZoom, radius, animatesClusters, label font size, bucket count n, n buckets, n colours], written when they fit' },
  cairn_mvt_encode: { params: ['i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(request, length, out, capacity) → vector tile length; written only when it fits' },
  cairn_mvt_encode_clusters: { params: ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(extent, name, name length, properties (1 cluster_id, 2 feature ids), records, ends, count, lengths (count u32), out, capacity) → total bytes of count tiles; written only when they fit' },
  cairn_index_tile_extent: { params: ['i32', 'i32', 'i32', 'i32', 'f64', 'f64', 'i32', 'i32'], result: 'i32', doc: '(handle, z, x, y, tile extent, buffer (negative: the radius), out, capacity) → total records [id, count, tile x, tile y]' },
  cairn_index_tiles_extent: { params: ['i32', 'i32', 'i32', 'i32', 'f64', 'f64', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, z, u32 x, y pairs, count, tile extent, buffer, ends (count u32), out, capacity) → total records of every tile, tile after tile' },
  cairn_index_tile_cover: { params: ['i32', 'i32', 'f64', 'f64', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, z, tile extent, buffer (negative: the radius), order (0 columns, 1 PMTiles tile id), out, capacity in pairs) → total u32 x, y pairs of the tiles worth asking for' },
  cairn_tiles_hilbert_sort: { params: ['i32', 'i32', 'i32'], result: 'i32', doc: '(z, u32 x, y pairs, count) → count: sorted into PMTiles tile id order' },
  cairn_pmtiles_create: { params: [], result: 'i32', doc: '→ handle of a PMTiles directory in the making' },
  cairn_pmtiles_destroy: { params: ['i32'], result: 'i32', doc: 'frees a PMTiles directory' },
  cairn_pmtiles_add: { params: ['i32', 'i32', 'i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, z, x, y, stored bytes, length) → 1 new bytes to append, 0 stored before; tile id order' },
  cairn_pmtiles_add_tiles: { params: ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, z, u32 x, y pairs, lengths (u32), bytes, count, fresh (count bytes)) → tiles whose bytes to append; nothing added when any is refused' },
  cairn_pmtiles_entry_count: { params: ['i32'], result: 'i32', doc: '(handle) → directory entries' },
  cairn_pmtiles_leaf: { params: ['i32', 'i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, leaf size, leaf, out, capacity) → serialised leaf directory length' },
  cairn_pmtiles_root: { params: ['i32', 'i32', 'i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, leaf size or 0, stored leaf lengths, leaf count, out, capacity) → serialised root directory length' },
  cairn_pmtiles_header: { params: ['i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, 12 doubles: root, metadata, leaves lengths, min, max zoom, west, south, east, north, center zoom, lng, lat; out, capacity) → 127' },
  cairn_index_saved_size: { params: ['i32', 'i32'], result: 'i32', doc: '(handle, host data bytes) → bytes of the built index saved' },
  cairn_index_save: { params: ['i32', 'i32', 'i32', 'i32', 'i32'], result: 'i32', doc: '(handle, host data, its bytes, out, capacity in bytes) → bytes written: the saved index, the host data at its end' },
  cairn_index_restore: { params: ['i32', 'i32'], result: 'i32', doc: '(bytes, count) → handle of the index restored; INVALID_SAVED_INDEX for a truncated, other-version or altered buffer' },
});

// Non-function exports and the reactor entry point, which the bindings use too.
const OTHER_EXPORTS = ['memory', '_initialize'];

/**
 * The names of every export the bindings use (functions, `memory`, `_initialize`).
 * @returns {string[]}
 */
export function exportNames() {
  return [...OTHER_EXPORTS, ...Object.keys(BINDINGS)];
}

/**
 * The instantiated module, as the rest of the bindings see it.
 * @typedef {object} CairnModule
 * @property {WebAssembly.Module} module
 * @property {WebAssembly.Instance} instance
 * @property {WebAssembly.Memory} memory
 * @property {Record<string, Function>} fn  the bound exports, by name (see BINDINGS)
 * @property {number} abiVersion
 * @property {number} recordStride  doubles per result record, as the module says
 * @property {number} bufferLimit   largest buffer the module allocates, in bytes
 * @property {number} statusCount   status codes run from -1 to -statusCount
 */

/** @type {CairnModule | null} */
let loaded = null;
/** @type {Promise<CairnModule> | null} */
let pending = null;

// Read through globalThis so that browsers (and type checkers without Node's types) see no
// free `process` identifier.
const nodeProcess = /** @type {any} */ (globalThis).process;
const isNode = typeof nodeProcess === 'object' && nodeProcess !== null &&
  typeof nodeProcess.versions === 'object' && nodeProcess.versions !== null &&
  typeof nodeProcess.versions.node === 'string';

/**
 * Loads and instantiates cairn.wasm, once: later calls return the same module (their `source`
 * is ignored). A failed attempt is not remembered, so `init` may be called again.
 *
 * @param {string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module | Response} [source]
 *   where the module comes from; by default the package's `dist/cairn.wasm` (`../../dist/cairn.wasm`
 *   from this file: read from disk in Node, fetched in a browser)
 * @returns {Promise<CairnModule>}
 */
export function init(source) {
  if (loaded) return Promise.resolve(loaded);
  if (!pending) {
    pending = instantiate(source).then(
      (instance) => {
        loaded = bind(instance.module, instance.instance);
        return loaded;
      },
    ).catch((error) => { throw loadFailure(error); }).finally(() => { pending = null; });
  }
  return pending;
}

/**
 * The module `init` loaded; throws if `init` has not finished yet.
 * @returns {CairnModule}
 */
export function getModule() {
  if (!loaded) {
    throw new CairnError('cairn: the WebAssembly module is not loaded yet; call `await init()` first',
      { code: 'INVALID_STATE', status: STATUS_BY_CODE.INVALID_STATE });
  }
  return loaded;
}

/**
 * Whether `init` has finished.
 * @returns {boolean}
 */
export function isInitialized() {
  return loaded !== null;
}

/**
 * @param {any} source
 * @returns {Promise<{module: WebAssembly.Module, instance: WebAssembly.Instance}>}
 */
async function instantiate(source) {
  // The module imports nothing (it is built that way and a test checks it).
  /** @type {WebAssembly.Imports} */
  const imports = {};
  if (source instanceof WebAssembly.Module) {
    return { module: source, instance: await WebAssembly.instantiate(source, imports) };
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return WebAssembly.instantiate(/** @type {BufferSource} */ (source), imports);
  }
  if (typeof Response === 'function' && source instanceof Response) {
    return fromResponse(source, imports);
  }
  if (source !== undefined && typeof source !== 'string' && !(source instanceof URL)) {
    throw argumentError('cairn init', 'source must be a URL, a path, bytes or a WebAssembly.Module');
  }
  const url = source === undefined ? new URL('../../dist/cairn.wasm', import.meta.url) : source;
  if (isNode) {
    const bytes = await readInNode(url);
    return WebAssembly.instantiate(bytes, imports);
  }
  return fromResponse(await fetch(url), imports);
}

/**
 * A failure to read, fetch, compile or start the module, as a CairnError (with the original as
 * its cause); CairnErrors pass through. A module that does not compile, link or start is not one
 * these bindings can use (MODULE_MISMATCH); anything else kept it from being read.
 * @param {any} error
 * @returns {CairnError}
 */
function loadFailure(error) {
  if (error instanceof CairnError) return error;
  const mismatch = error instanceof WebAssembly.CompileError || error instanceof WebAssembly.LinkError ||
    error instanceof WebAssembly.RuntimeError;
  const what = mismatch ? 'the bytes are not a module these bindings can use' : 'could not read the module';
  const reason = error instanceof Error ? error.message : describeValue(error);
  return bindingError(mismatch ? 'MODULE_MISMATCH' : 'MODULE_LOAD_FAILED', `cairn init: ${what}: ${reason}`, error);
}

/**
 * @param {string | URL} url
 * @returns {Promise<Uint8Array>}
 */
async function readInNode(url) {
  // A string with a scheme is a URL; anything else is a file path. Node's fetch cannot read
  // file: URLs, so those (and paths) go through fs.
  const asUrl = url instanceof URL ? url : (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || url.startsWith('data:')) ? new URL(url) : null;
  if (asUrl && asUrl.protocol !== 'file:') {
    const response = await fetch(asUrl);
    if (!response.ok) throw bindingError('MODULE_LOAD_FAILED', `cairn init: fetching ${asUrl} failed with HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  // @ts-ignore: Node's types are not installed; this line only runs in Node.
  const fs = await import('node:fs/promises');
  return fs.readFile(asUrl ?? url);
}

/**
 * @param {Response} response
 * @param {WebAssembly.Imports} imports
 */
async function fromResponse(response, imports) {
  if (!response.ok) throw bindingError('MODULE_LOAD_FAILED', `cairn init: fetching ${response.url} failed with HTTP ${response.status}`);
  if (typeof WebAssembly.instantiateStreaming === 'function') {
    try {
      // Consumes a clone so the fallback below still has an unread body.
      return await WebAssembly.instantiateStreaming(response.clone(), imports);
    } catch (error) {
      // Servers that do not send application/wasm make streaming fail; the bytes are fine.
      if (!(error instanceof TypeError)) throw error;
    }
  }
  return WebAssembly.instantiate(await response.arrayBuffer(), imports);
}

/**
 * Checks the instance against the binding table and runs its initializer.
 * @param {WebAssembly.Module} module
 * @param {WebAssembly.Instance} instance
 * @returns {CairnModule}
 */
function bind(module, instance) {
  const exports = /** @type {Record<string, any>} */ (instance.exports);
  if (typeof exports.cairn_abi_version !== 'function') {
    throw bindingError('MODULE_MISMATCH', 'cairn init: this WebAssembly module is not cairn.wasm (no cairn_abi_version export)');
  }
  if (!(exports.memory instanceof WebAssembly.Memory)) {
    throw bindingError('MODULE_MISMATCH', 'cairn init: the module exports no memory');
  }
  if (typeof exports._initialize === 'function') exports._initialize();
  const abiVersion = exports.cairn_abi_version();
  if (abiVersion !== ABI_VERSION) {
    throw bindingError('MODULE_MISMATCH', `cairn init: cairn.wasm has ABI version ${abiVersion} but these bindings know version ` +
      `${ABI_VERSION}; rebuild the module (./build.sh wasm) or update the JavaScript`);
  }
  const problems = [];
  /** @type {Record<string, Function>} */
  const fn = {};
  for (const [name, binding] of Object.entries(BINDINGS)) {
    const f = exports[name];
    if (typeof f !== 'function') {
      problems.push(`missing export ${name}`);
    } else if (f.length !== binding.params.length) {
      problems.push(`${name} takes ${f.length} arguments, the bindings pass ${binding.params.length}`);
    } else {
      fn[name] = f;
    }
  }
  if (problems.length > 0) {
    throw bindingError('MODULE_MISMATCH', `cairn init: cairn.wasm does not match the bindings: ${problems.join('; ')}`);
  }
  return Object.freeze({
    module,
    instance,
    memory: exports.memory,
    fn: Object.freeze(fn),
    abiVersion,
    recordStride: fn.cairn_record_stride(),
    bufferLimit: fn.cairn_buffer_limit(),
    statusCount: fn.cairn_status_count(),
  });
}
