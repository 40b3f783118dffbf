// The MapLibre demo page: MapLibre GL JS over an offline basemap, with Cairn's cluster layer: a
// few landmarks with popups (GeoJSON), and ?points=N synthetic points as coordinates.

import { init, MapLibreClusterLayer } from '../../src/maplibre.js';
import { maplibreStyle } from '../offline-basemap.js';
import { loadPoints, pointsChoice } from '../host-points.js';

const maplibregl = /** @type {any} */ (globalThis).maplibregl;
const { count, readout } = pointsChoice();

await init();
const map = new maplibregl.Map({ container: 'map', style: await maplibreStyle(maplibregl), center: [2.35, 48.85], zoom: 4,
  pitch: 40, bearing: -15 });
await new Promise((done) => map.once('load', done));

const layer = new MapLibreClusterLayer({
  radius: 30,
  popup: ({ properties }) => (properties?.name ? `<b>${properties.name}</b><br>a MapLibre popup` : null),
});
layer.addGeoJSON({
  type: 'FeatureCollection',
  features: [['Louvre', 2.3376, 48.8606], ['Eiffel Tower', 2.2945, 48.8584], ['Notre-Dame', 2.3499, 48.853],
    ['Sacré-Cœur', 2.3431, 48.8867], ['Arc de Triomphe', 2.295, 48.8738], ['Panthéon', 2.3464, 48.8462]]
    .map(([name, lng, lat]) => ({ type: 'Feature', properties: { name }, geometry: { type: 'Point', coordinates: [lng, lat] } })),
});
layer.on('clusterclick', (e) => { readout.textContent = `cluster of ${e.count} clicked: zooming to ${e.expansionZoom}`; });
map.addLayer(layer);

await loadPoints(count, (lngLat) => layer.addCoordinates(lngLat), readout, '6 landmarks');

Object.assign(globalThis, { map, layer });
