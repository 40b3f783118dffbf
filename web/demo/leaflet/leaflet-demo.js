// The Leaflet demo page: Leaflet's map with Cairn's cluster layer over an offline basemap. A
// few markers with popups and icons around Paris, and ?points=N synthetic points (the demo's
// million, loaded as coordinates: Cairn's fast path).

import { init, markerClusterGroup } from '../../src/leaflet.js';
import { leafletBasemap } from '../offline-basemap.js';
import { loadPoints, pointsChoice } from '../host-points.js';

const L = /** @type {any} */ (globalThis).L;
const { count, readout } = pointsChoice();

await init();
const map = L.map('map', { center: [48.8566, 2.3522], zoom: 5, preferCanvas: false });
(await leafletBasemap(L)).addTo(map);

const group = markerClusterGroup({ maxClusterRadius: 60 });
const places = [
  ['Louvre', 48.8606, 2.3376], ['Eiffel Tower', 48.8584, 2.2945], ['Notre-Dame', 48.853, 2.3499],
  ['Sacré-Cœur', 48.8867, 2.3431], ['Arc de Triomphe', 48.8738, 2.295], ['Panthéon', 48.8462, 2.3464],
];
for (const [name, lat, lng] of places) {
  group.addLayer(L.marker([lat, lng], { title: String(name) }).bindPopup(`<b>${name}</b><br>a Leaflet popup`));
}
group.on('clusterclick', (/** @type {any} */ e) => { readout.textContent = `cluster of ${e.layer.getChildCount()} clicked`; });
group.on('click', (/** @type {any} */ e) => { if (e.layer) readout.textContent = `${e.layer.options.title} clicked`; });
map.addLayer(group);

await loadPoints(count, (lngLat) => group.addCoordinates(lngLat), readout, `${places.length} markers`);

Object.assign(globalThis, { map, group });
