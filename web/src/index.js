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
