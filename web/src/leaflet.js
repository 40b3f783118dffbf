// The package's Leaflet entry point (the package's `leaflet` export): init, markerClusterGroup.
// Cairn's clusters as a Leaflet layer, with Leaflet.markercluster's API, over the page's own
// Leaflet (loaded before, as the global `L`). See docs/leaflet.md.

/** Loads the WebAssembly module; `await init()` before a layer is added to a map. */
export { init } from './core/wasm.js';
/** Leaflet.markercluster's factory, making Cairn's layer; see hosts/leaflet-layer.js. */
export { markerClusterGroup, leafletClusterLayer } from './hosts/leaflet-layer.js';
/** The error type every engine failure is reported with. */
export { CairnError } from './core/errors.js';

/** @typedef {import('./hosts/leaflet-layer.js').MarkerClusterGroupOptions} MarkerClusterGroupOptions */
/** @typedef {import('./hosts/leaflet-layer.js').LeafletCluster} LeafletCluster */
