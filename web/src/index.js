// The public entry point: `import { init, ClusterIndex, MapEngine } from './index.js'`.

/** Loads the WebAssembly module; see wasm.js. */
export { init } from './wasm.js';
/** supercluster's API over the engine; see cluster-index.js. */
export { ClusterIndex } from './cluster-index.js';
/** The error type every engine failure is reported with; see errors.js. */
export { CairnError } from './errors.js';
/** The interactive map: camera, gestures and controls; see map-engine.js. */
export { MapEngine } from './map-engine.js';
