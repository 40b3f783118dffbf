// The package's MapLibre entry point (the package's `maplibre` export): init, MapLibreClusterLayer.
// Cairn's clusters as a MapLibre GL JS custom layer over the page's own MapLibre. See docs/maplibre.md.

/** Loads the WebAssembly module; `await init()` before a layer is added to a map. */
export { init } from './core/wasm.js';
/** The custom layer: `map.addLayer(new MapLibreClusterLayer(options))`; see hosts/maplibre-layer.js. */
export { MapLibreClusterLayer } from './hosts/maplibre-layer.js';
/** The error type every engine failure is reported with. */
export { CairnError } from './core/errors.js';

/** @typedef {import('./hosts/maplibre-layer.js').MapLibreClusterLayerOptions} MapLibreClusterLayerOptions */
/** @typedef {import('./hosts/maplibre-layer.js').MapLibreClusterEvent} MapLibreClusterEvent */
