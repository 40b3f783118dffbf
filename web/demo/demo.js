// The demo page: a CairnMap over real data (GeoNames' world cities) or a million synthetic
// points, styled markers showing every marker feature, and a panel that changes settings and
// clustering live. Everything here goes through the public API; `window.map` is the map and
// `window.demo` lets a console or a test load data and wait for it.

import { init, CairnMap, ClusterIndex, WorkerClusterIndex, warmUp } from '../src/index.js';
import { fetchPoints } from './points-file.js';
import { addShowcase } from './showcase.js';

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

await init();

const landRequest = fetch('data/land.json').then((r) => (r.ok ? r.json() : undefined)).catch(() => undefined);
// While the outlines arrive: a small clustering, so the data's clustering runs on optimized code.
warmUp();
const land = await landRequest;
const OFFLINE = { offline: true, land };
const OSM = { url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: '© OpenStreetMap contributors', maxZoom: 19 };

const map = new CairnMap($('#map'), {
  camera: { latitude: 30, longitude: 10, zoom: 2 },
  settings: { compassButton: true, myLocationButton: true },
  basemap: OFFLINE,
});
window.map = map;

/** @type {import('../src/engine/cluster-manager.js').ClusterManager | null} */
let manager = null;
/** @type {{names: string[] | null, population: Uint32Array | null, first: number} | null} */
let loaded = null;
let dataset = 'none';
/** Loads started, and the download of the latest (see load). */
let loads = 0;
/** @type {AbortController | null} */
let current = null;
/** the marker that shows a tapped city's info window */
let cityMarker = null;

const DATASETS = {
  cities: { url: 'data/cities.bin', label: 'cities' },
  synthetic: { url: 'data/synthetic-1m.bin', label: 'synthetic points' },
};

// The address can pick what the page starts with, so a benchmark or a shared link gets the same
// page every time: ?dataset=cities|synthetic|none (default cities) and ?showcase=0 to leave the
// styled markers out (they are drawn on top of whatever is clustered); ?worker=0 clusters the
// hierarchy on the page's thread, a zoom at a time, instead of in a worker.
const query = new URLSearchParams(location.search);
const useWorker = query.get('worker') !== '0' && typeof Worker === 'function';
const startDataset = /** @type {'cities' | 'synthetic' | 'none'} */ (
  ['cities', 'synthetic', 'none'].includes(query.get('dataset') ?? '') ? query.get('dataset') : 'cities');
const startShowcase = query.get('showcase') !== '0';

/**
 * A number field of the panel, within its min and max (an empty or unreadable one: its
 * default); the field then shows what was read, so a value out of range is visibly taken back.
 * @param {string} id
 * @param {boolean} [whole]  rounded to an integer
 * @returns {number}
 */
function fieldNumber(id, whole = false) {
  const input = /** @type {HTMLInputElement} */ ($(id));
  const given = whole ? Math.round(input.valueAsNumber) : input.valueAsNumber;
  const value = Number.isFinite(given) ? Math.min(Number(input.max), Math.max(Number(input.min), given)) : Number(input.defaultValue);
  if (input.valueAsNumber !== value) input.valueAsNumber = value;
  return value;
}

/** Reads the clustering options from the panel. */
function managerOptions() {
  const options = {
    algorithm: /** @type {HTMLSelectElement} */ ($('#algorithm')).value,
    minimumClusterSize: fieldNumber('#minimumClusterSize', true),
    maximumClusterZoom: fieldNumber('#maximumClusterZoom'),
    animatesClusters: /** @type {HTMLInputElement} */ ($('#animatesClusters')).checked,
    // Cluster icons are 30-50 px across: a radius of 40 px (80 in supercluster's units of a
    // 512 extent) keeps them from piling up, where supercluster's default 40 is 20 px here.
    radius: fieldNumber('#radius'),
  };
  const icons = /** @type {HTMLSelectElement} */ ($('#clusterIcons')).value;
  if (icons === 'colors') Object.assign(options, { buckets: [5, 25, 250, 2500], colors: ['#1a73e8', '#188038', '#e37400', '#d93025'] });
  if (icons === 'draw') Object.assign(options, { drawCluster: drawHexagon });
  return options;
}

/**
 * A cluster drawn by the app (feature C3's callback): a hexagon with the count.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{diameter: number, color: string, count: number}} c
 */
function drawHexagon(ctx, c) {
  const r = c.diameter / 2;
  ctx.beginPath();
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 3 * i + Math.PI / 6;
    ctx.lineTo(r + (r - 1) * Math.cos(a), r + (r - 1) * Math.sin(a));
  }
  ctx.closePath();
  ctx.fillStyle = '#3c4043';
  ctx.fill();
  ctx.lineWidth = 2;
  ctx.strokeStyle = c.color;
  ctx.stroke();
  ctx.fillStyle = '#fff';
  ctx.font = `bold ${Math.round(r * 0.7)}px sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(c.count >= 1000 ? `${Math.round(c.count / 1000)}k` : String(c.count), r, r);
}

/**
 * Shows progress, or hides it with null.
 * @param {number | null} fraction
 * @param {string} [text]
 */
function progress(fraction, text = '') {
  const box = $('#progress');
  box.hidden = fraction === null;
  /** @type {HTMLProgressElement} */ (box.querySelector('progress')).value = fraction ?? 0;
  /** @type {HTMLElement} */ (box.querySelector('span')).textContent = text;
}

/** Waits for the page to paint (so a progress text shows before a long synchronous step). */
const painted = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/**
 * Loads a dataset into a new cluster manager; resolves with what loading took.
 * @param {'cities' | 'synthetic' | 'none'} name
 * @returns {Promise<{count: number, downloadMs: number, addMs?: number, clusterMs: number, inWorker?: boolean, pageMs?: number}>}
 *   `pageMs`: of `clusterMs`, what showing a worker's index took on the page's thread
 */
async function load(name) {
  // A newer load supersedes this one (another dataset, the same one again, or new options):
  // it stops downloading, and its manager is taken away instead of shown.
  const ticket = ++loads;
  current?.abort();
  const abort = new AbortController();
  current = abort;
  const stale = () => ticket !== loads;
  dataset = name;
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name=dataset]'))) {
    input.checked = input.value === name;
  }
  const options = managerOptions();   // read (and shown corrected) before anything changes
  manager?.destroy();
  manager = null;
  loaded = null;
  const none = { count: 0, downloadMs: 0, clusterMs: 0 };
  if (name === 'none') {
    progress(null);
    return none;
  }
  const { url, label } = DATASETS[name];
  const t0 = performance.now();
  const m = map.addClusterManager(options);
  // The hierarchy clusters in a worker, which hands its index over to be shown as it is; the
  // screen-space algorithms cluster on the page, for the zoom in view.
  const inWorker = useWorker && options.algorithm === 'hierarchical';
  let first = -1;
  let addMs = 0;
  let pageMs = 0;
  let points;
  try {
    points = await fetchPoints(url, ({ loaded: got, total }) => {
      progress(total ? got / total : 0, `loading ${label}: ${(got / 1e6).toFixed(1)} MB`);
    }, {
      signal: abort.signal,
      // The coordinates go to the engine as they arrive, so adding them overlaps the download.
      onCoordinates: inWorker ? undefined : (lngLat) => {
        const t = performance.now();
        const added = m.addCoordinates(lngLat);
        if (first < 0) first = added.first;
        addMs += performance.now() - t;
      },
    });
  } catch (error) {
    m.destroy();
    if (stale()) return none;     // aborted by a newer load
    progress(null);
    throw error;
  }
  if (stale()) {
    m.destroy();
    return none;
  }
  const t1 = performance.now();
  const clustering = `clustering ${points.count.toLocaleString('en')} ${label}`;
  progress(inWorker ? 0 : 1, `${clustering}…`);
  await painted();
  if (inWorker) {
    const worker = new WorkerClusterIndex({ radius: options.radius });
    try {
      await worker.loadCoordinates(points.lngLat, { onProgress: ({ done, total }) => {
        if (!stale()) progress(done / total, `${clustering} in a worker: ${done}/${total}`);
      } });
      const saved = stale() ? null : await worker.save();
      if (saved && !stale()) {
        const t = performance.now();
        const index = ClusterIndex.from(saved);
        try {
          first = m.useIndex(index).first;
        } finally {
          index.destroy();
        }
        pageMs = performance.now() - t;
      }
    } finally {
      await worker.destroy();
    }
  } else {
    // A zoom of the hierarchy per step, the page drawing and answering between them.
    await m.clusterAsync({
      onProgress: ({ done, total }) => {
        if (stale()) m.destroy();   // ends the steps
        else progress(done / total, `${clustering}: ${done}/${total}`);
      },
    });
  }
  if (stale()) {
    m.destroy();
    return none;
  }
  manager = m;
  loaded = { names: points.names, population: points.population, first };
  const t2 = performance.now();
  progress(null);
  return { count: points.count, downloadMs: t1 - t0, addMs, clusterMs: t2 - t1, inWorker, pageMs };
}

/** Makes the manager again with the panel's options, keeping the data. */
function rebuild() {
  if (dataset === 'none') return Promise.resolve();
  return load(/** @type {'cities' | 'synthetic'} */ (dataset));
}

// A tapped city opens an info window with its name: a marker the demo moves there (the cities
// are added in bulk, from coordinates, so their items have no title of their own).
map.on('clusterItemTap', ({ id, item, manager: tapped }) => {
  if (tapped !== manager || !loaded?.names) return false;
  const i = id - loaded.first;
  const name = loaded.names[i] ?? 'Unnamed place';
  const population = loaded.population ? loaded.population[i] : 0;
  const options = {
    position: item.position,
    title: name,
    snippet: population ? `Population ${population.toLocaleString('en')}` : '',
    pin: { background: '#1a73e8', borderColor: '#0b57d0', glyphColor: '#0b57d0' },
    zIndex: 10,
  };
  if (cityMarker?.onMap) cityMarker.set(options); else cityMarker = map.addMarker(options);
  map.selectedMarker = cityMarker;
  return true;
});

// ── panel ──────────────────────────────────────────────────────────────────────────────────────

for (const input of document.querySelectorAll('input[name=dataset]')) {
  input.addEventListener('change', (e) => load(/** @type {any} */ (e.target).value));
}
for (const id of ['#algorithm', '#minimumClusterSize', '#maximumClusterZoom', '#radius', '#clusterIcons']) {
  $(id).addEventListener('change', () => rebuild());
}
$('#animatesClusters').addEventListener('change', (e) => {
  if (manager) manager.animatesClusters = /** @type {HTMLInputElement} */ (e.target).checked;
});
for (const input of document.querySelectorAll('input[data-setting]')) {
  input.addEventListener('change', (e) => {
    const el = /** @type {HTMLInputElement} */ (e.target);
    map.settings = { [/** @type {string} */ (el.dataset.setting)]: el.checked };
  });
}
for (const input of document.querySelectorAll('input[name=basemap]')) {
  input.addEventListener('change', (e) => map.setBasemap(/** @type {any} */ (e.target).value === 'osm' ? OSM : OFFLINE));
}
/** @type {(() => void) | null} */
let removeShowcase = null;
$('#showcase').addEventListener('change', (e) => {
  if (/** @type {HTMLInputElement} */ (e.target).checked) removeShowcase = addShowcase(map);
  else { removeShowcase?.(); removeShowcase = null; }
});
/** @type {HTMLInputElement} */ ($('#showcase')).checked = startShowcase;
if (startShowcase) removeShowcase = addShowcase(map);

// The frame-time readout, four times a second.
setInterval(() => {
  const s = map.stats.summary();
  const f = map.lastFrame;
  if (s.frames > 0) {
    $('#engineMs').textContent = `${s.engine.median.toFixed(2)} / p95 ${s.engine.p95.toFixed(2)}`;
    $('#totalMs').textContent = `${s.total.median.toFixed(2)} / p95 ${s.total.p95.toFixed(2)}`;
  }
  if (f) {
    $('#drawn').textContent = String(f.items.length);
    $('#hidden').textContent = String(f.hiddenCount);
    const c = f.camera;
    $('#cameraText').textContent = `${c.latitude.toFixed(3)}, ${c.longitude.toFixed(3)} · zoom ${c.zoom.toFixed(2)}` +
      ` · bearing ${c.bearing.toFixed(0)}° · tilt ${c.tilt.toFixed(0)}°`;
  }
}, 250);

for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name=dataset]'))) {
  input.checked = input.value === startDataset;
}
const ready = load(startDataset);
window.demo = { load, ready, get manager() { return manager; }, get loaded() { return loaded; } };
await ready;
document.body.dataset.ready = 'true';
