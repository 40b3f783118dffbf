// The host maps' benchmark page (host-bench.py drives it, one fresh page per case): loads one
// case's libraries (?case=…), then `bench.run(n)` loads n of the demo's synthetic points and
// times the load, the JS heap after it, and the frames of a drag and of zooms in and out.
//
// Cases: leaflet-markercluster (Leaflet.markercluster's L.markerClusterGroup with L.Markers),
// leaflet-cairn (Cairn's markerClusterGroup with the same L.Markers), leaflet-cairn-coordinates
// (Cairn's layer with addCoordinates), maplibre-geojson (MapLibre's GeoJSON source with
// cluster: true, drawn as circles), maplibre-cairn (Cairn's MapLibre layer with addCoordinates).

import { fetchPoints } from '../../demo/points-file.js';

const which = new URLSearchParams(location.search).get('case') ?? '';
const script = (/** @type {string} */ src) => new Promise((done, fail) => {
  const s = document.createElement('script');
  s.src = src;
  s.onload = done;
  s.onerror = fail;
  document.head.appendChild(s);
});
const frame = () => new Promise((done) => requestAnimationFrame(done));
const g = /** @type {any} */ (globalThis);

/**
 * Animation frame intervals while `action` runs and for `after` frames beyond.
 * @param {() => Promise<void>} action
 */
async function frameTimes(action, after = 30) {
  const times = [];
  let on = true, last = performance.now();
  const tick = (/** @type {number} */ t) => {
    times.push(t - last);
    last = t;
    if (on) requestAnimationFrame(tick);
  };
  requestAnimationFrame((t) => { last = t; requestAnimationFrame(tick); });
  await action();
  for (let i = 0; i < after; i++) await frame();
  on = false;
  await frame();
  return times;
}

async function heapMB() {
  g.gc?.();
  await frame();
  return (/** @type {any} */ (performance).memory?.usedJSHeapSize ?? NaN) / 1e6;
}

/** A mouse drag over the map's element, one step per animation frame, as a user's would come. */
async function drag(/** @type {HTMLElement} */ el, steps = 90) {
  const r = el.getBoundingClientRect();
  let x = r.left + r.width / 2, y = r.top + r.height / 2;
  const send = (/** @type {string} */ type, /** @type {EventTarget} */ target) => target.dispatchEvent(new MouseEvent(type,
    { clientX: x, clientY: y, bubbles: true, cancelable: true, button: 0, buttons: type === 'mouseup' ? 0 : 1 }));
  send('mousedown', el);
  for (let i = 0; i < steps; i++) {
    await frame();
    x += i < steps / 2 ? 7 : -7;
    y += i < steps / 2 ? 4 : -4;
    send('mousemove', el);
  }
  send('mouseup', el);
}

/** @param {number[]} t */
function stats(t) {
  const s = [...t].sort((a, b) => a - b);
  const q = (/** @type {number} */ p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { frames: s.length, median: q(0.5), p95: q(0.95), max: s[s.length - 1] };
}

const points = await fetchPoints(new URL('../../demo/data/synthetic-1m.bin', import.meta.url).href);
// Where the demo's synthetic points are densest: its first point's neighbourhood.
const centre = /** @type {[number, number]} */ ([points.lngLat[1], points.lngLat[0]]);

// Each library loaded before the clock starts: the peer's script, Cairn's modules and its
// WebAssembly module (compiled and instantiated by init()).
if (which.startsWith('leaflet')) {
  await script('../../demo/vendor/leaflet/leaflet.js');
  if (which === 'leaflet-markercluster') await script('../../demo/vendor/leaflet/leaflet.markercluster.js');
} else {
  await script('../../demo/vendor/maplibre/maplibre-gl.js');
}
const cairn = which.includes('cairn')
  ? await import(which.startsWith('leaflet') ? '../../src/leaflet.js' : '../../src/maplibre.js') : null;
await cairn?.init();

g.bench = {
  /** @param {number} n */
  async run(n) {
    const lngLat = points.lngLat.subarray(0, 2 * n);
    return which.startsWith('leaflet') ? leaflet(lngLat, n) : maplibre(lngLat, n);
  },
};
g.ready = true;

/**
 * @param {Float64Array} lngLat
 * @param {number} n
 */
async function leaflet(lngLat, n) {
  const L = g.L;
  const map = L.map('map', { center: centre, zoom: 6, maxZoom: 18 });
  const markers = [];
  if (which !== 'leaflet-cairn-coordinates') {
    for (let i = 0; i < n; i++) markers.push(L.marker([lngLat[2 * i + 1], lngLat[2 * i]]));
  }
  let group;
  await frame();
  const t0 = performance.now();
  if (which === 'leaflet-markercluster') {
    group = L.markerClusterGroup();
    group.addLayers(markers);
    map.addLayer(group);
  } else {
    group = cairn.markerClusterGroup();
    if (markers.length > 0) group.addLayers(markers); else group.addCoordinates(lngLat);
    map.addLayer(group);
  }
  await frame();
  await frame();
  const loadMs = performance.now() - t0;
  const heap = await heapMB();
  const pan = await frameTimes(() => drag(map.getContainer()));
  const zoom = await frameTimes(async () => {
    for (const dz of [1, 1, 1, -1, -1, -1]) {
      const done = new Promise((d) => map.once('zoomend', d));
      map.setZoom(map.getZoom() + dz, { animate: true });
      await done;
      await frame();
    }
  });
  return { loadMs, heapMB: heap, pan: stats(pan), zoom: stats(zoom), drawn: group.cairnMap?.lastFrame?.items.length ?? document.querySelectorAll('.leaflet-marker-icon').length };
}

/**
 * @param {Float64Array} lngLat
 * @param {number} n
 */
async function maplibre(lngLat, n) {
  const maplibregl = g.maplibregl;
  const map = new maplibregl.Map({ container: 'map', center: [centre[1], centre[0]], zoom: 5, fadeDuration: 0,
    style: { version: 8, sources: {}, layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#ffffff' } }] } });
  await new Promise((d) => map.once('load', d));
  let features = null;
  if (which === 'maplibre-geojson') {
    features = { type: 'FeatureCollection', features: new Array(n) };
    for (let i = 0; i < n; i++) {
      features.features[i] = { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [lngLat[2 * i], lngLat[2 * i + 1]] } };
    }
  }
  await frame();
  const t0 = performance.now();
  let layer = null;
  if (features) {
    map.addSource('points', { type: 'geojson', data: features, cluster: true });
    map.addLayer({ id: 'clusters', type: 'circle', source: 'points', filter: ['has', 'point_count'],
      paint: { 'circle-color': '#51bbd6', 'circle-radius': ['step', ['get', 'point_count'], 15, 100, 20, 750, 25] } });
    map.addLayer({ id: 'points', type: 'circle', source: 'points', filter: ['!', ['has', 'point_count']],
      paint: { 'circle-color': '#11b4da', 'circle-radius': 4 } });
    // Until the clusters are drawn: the source's tiles made in MapLibre's worker and rendered.
    await new Promise((d) => map.once('idle', d));
  } else {
    layer = new cairn.MapLibreClusterLayer();
    layer.addCoordinates(lngLat);
    map.addLayer(layer);
    await new Promise((d) => map.once('idle', d));
    await frame();
  }
  const loadMs = performance.now() - t0;
  const heap = await heapMB();
  const pan = await frameTimes(async () => {
    for (let i = 0; i < 90; i++) {
      map.panBy(i < 45 ? [7, 4] : [-7, -4], { duration: 0 });
      await frame();
    }
  });
  const zoom = await frameTimes(async () => {
    for (const dz of [1, 1, 1, -1, -1, -1]) {
      map.easeTo({ zoom: map.getZoom() + dz, duration: 300 });
      await new Promise((d) => map.once('moveend', d));
    }
  });
  const drawn = layer ? layer.cairnMap.lastFrame.items.length : map.queryRenderedFeatures({ layers: ['clusters', 'points'] }).length;
  return { loadMs, heapMB: heap, pan: stats(pan), zoom: stats(zoom), drawn };
}
