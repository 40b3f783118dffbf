// The public entry point: `import { init, CairnMap, ClusterIndex, MapEngine } from './index.js'`.
// The folders beside it are layers, each importing only those below it (see
// web/test/layers.test.js): core (loading and binding the module, errors, argument checks),
// index (ClusterIndex), engine (MapEngine, no DOM), render (drawing a frame on a canvas), map
// (CairnMap, the page's map), and cli (the cairn command).

/** Loads the WebAssembly module; see core/wasm.js. */
export { init } from './core/wasm.js';
/** Runs a small clustering once so that a large load runs on optimized code; see index/warm-up.js. */
export { warmUp } from './index/warm-up.js';
/** supercluster's API over the engine; see index/cluster-index.js. */
export { ClusterIndex } from './index/cluster-index.js';
/** ClusterIndex on a worker thread, every method returning a promise; see index/worker-cluster-index.js. */
export { WorkerClusterIndex } from './index/worker-cluster-index.js';
/** The error type every engine failure is reported with; see core/errors.js. */
export { CairnError } from './core/errors.js';
/** The interactive map: camera, gestures and controls; see engine/map-engine.js. */
export { MapEngine } from './engine/map-engine.js';
/** The map a page shows, Google-style: markers, cluster managers, info windows; see map/cairn-map.js. */
export { CairnMap } from './map/cairn-map.js';
/** A marker's handle (from `map.addMarker`); see map/marker.js. */
export { Marker } from './map/marker.js';
/** An icon registered with a map (from `map.icon`, `map.loadIcon`, `map.pinIcon`); see engine/map-icon.js. */
export { MapIcon } from './engine/map-icon.js';
// The handle of a building with floors on a CairnMap (feature G4): levels, the level shown, remove.
export { IndoorBuilding } from './map/indoor-building.js';

// The types of the options and results these take and give, by name, for TypeScript users of
// the package (an `import type` of ClusterOptions, say); they export no values.
/** @typedef {import('./core/wasm.js').CairnModule} CairnModule */
/** @typedef {import('./index/index-options.js').ClusterOptions} ClusterOptions */
/** @typedef {import('./index/geojson.js').PointFeature} PointFeature */
/** @typedef {import('./index/geojson.js').ClusterFeature} ClusterFeature */
/** @typedef {import('./index/geojson.js').TileFeature} TileFeature */
/** @typedef {import('./index/cluster-index.js').Progress} Progress */
/** @typedef {import('./core/frame.js').CameraPosition} CameraPosition */
/** @typedef {import('./core/frame.js').LatLng} LatLng */
/** @typedef {import('./core/frame.js').Frame} Frame */
/** @typedef {import('./core/frame.js').DrawItem} DrawItem */
/** @typedef {import('./engine/ui-settings.js').UISettings} UISettings */
/** @typedef {import('./engine/marker-records.js').MarkerOptions} MarkerOptions */
/** @typedef {import('./engine/cluster-manager.js').ClusterManager} ClusterManager */
/** @typedef {import('./engine/cluster-manager.js').ClusterManagerOptions} ClusterManagerOptions */
/** @typedef {import('./engine/cluster-manager.js').ClusterItemOptions} ClusterItemOptions */
/** @typedef {import('./engine/cluster-manager.js').ClusterItem} ClusterItem */
/** @typedef {import('./map/cairn-map.js').CairnMapOptions} CairnMapOptions */
/** @typedef {import('./map/cairn-map.js').BasemapOptions} BasemapOptions */
/** @typedef {import('./map/marker.js').MapMarkerOptions} MapMarkerOptions */
/** @typedef {import('./map/map-event-handlers.js').MapEvents} MapEvents */
/** @typedef {import('./map/map-event-handlers.js').ClusterTap} ClusterTap */
/** @typedef {import('./map/map-event-handlers.js').ClusterItemTap} ClusterItemTap */
/** @typedef {import('./map/cluster-drawables.js').ClusterIconOptions} ClusterIconOptions */
/** @typedef {import('./map/icon-table.js').IconOptions} IconOptions */
/** @typedef {import('./map/icon-table.js').PinStyle} PinStyle */
/** @typedef {import('./map/indoor-building.js').IndoorLevel} IndoorLevel */
/** @typedef {import('./map/popover.js').Popover} Popover */
/** @typedef {import('./render/basemap/tile-source.js').TileSource} TileSource */
