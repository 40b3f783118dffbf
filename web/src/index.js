// The public entry point: `import { init, CairnMap, ClusterIndex, MapEngine } from './index.js'`.

/** Loads the WebAssembly module; see wasm.js. */
export { init } from './core/wasm.js';
/** Runs a small clustering once so that a large load runs on optimized code; see warm-up.js. */
export { warmUp } from './index/warm-up.js';
/** supercluster's API over the engine; see cluster-index.js. */
export { ClusterIndex } from './index/cluster-index.js';
/** The error type every engine failure is reported with; see errors.js. */
export { CairnError } from './core/errors.js';
/** The interactive map: camera, gestures and controls; see map-engine.js. */
export { MapEngine } from './engine/map-engine.js';
/** The map a page shows, Google-style: markers, cluster managers, info windows; see map.js. */
export { CairnMap } from './map/map.js';
/** A marker's handle (from `map.addMarker`); see marker.js. */
export { Marker } from './map/marker.js';
/** An icon registered with a map (from `map.icon`, `map.loadIcon`, `map.pinIcon`); see engine/map-icon.js. */
export { MapIcon } from './engine/map-icon.js';
// The handle of a building with floors on a CairnMap (SPEC G4): levels, the level shown, remove.
export { IndoorBuilding } from './map/map-indoor.js';
