// Cluster index figures through the WebAssembly module, beside supercluster's on the same
// points in the same run: load time, memory, viewport queries. Prints numbers; asserts nothing.
//
//   node web/bench/cluster-bench.js [--points N] [--queries Q] [--repeat R] [--peers DIR] [--markdown FILE]
//
// Each run of either library has a process of its own, as a command-line run, a page or a
// server start has: its first load is measured as such a program gets it (fresh code, fresh
// memory), then two more loads of the same points in the same process give the warm figure.
// Cairn's memory figure is the growth over the first load (wasm memory never shrinks, so later
// loads reuse its pages); supercluster's process is started with --expose-gc so that the memory
// it holds can be counted after a collection.
//
// The peer: supercluster's and kdbush's sources in DIR/node_modules/{supercluster,kdbush}
// (--peers DIR, or the CAIRN_PEERS environment variable). Without them the table says so.

import { fork } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

import { init, ClusterIndex } from '../src/index.js';
import { mulberry32, uniform, clustered } from './generate.js';
import { duration, machine, machineLine, markdownOption, median, writeSection } from './report.js';
import { findPeers } from './peers.js';

const VIEWPORT = { width: 1024, height: 768 };
const TILE_PX = 256;
const MAX_QUERY_ZOOM = 17;
const OPTIONS = { radius: 40, extent: 512, minZoom: 0, maxZoom: 16 };
const CAIRN_RUN = '--cairn-run';
const PEER_RUN = '--peer-run';
// Loads after the first in each process; the warm figure is the fastest of them.
const WARM_LOADS = 2;

const latY = (lat) => {
  const s = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + s) / (1 - s))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
};
const yLat = (y) => (360 * Math.atan(Math.exp(((180 - y * 360) * Math.PI) / 180))) / Math.PI - 90;

/** The lng/lat box of a 1024×768 viewport centred at world (x, y) at zoom z. */
function viewport(x, y, z) {
  const world = TILE_PX * 2 ** z;
  const halfW = VIEWPORT.width / 2 / world;
  const halfH = VIEWPORT.height / 2 / world;
  return [
    (x - halfW - 0.5) * 360,
    yLat(Math.min(1, y + halfH)),
    (x + halfW - 0.5) * 360,
    yLat(Math.max(0, y - halfH)),
  ];
}

/** The data set's points: the same for every run and both libraries. */
function points(kind, n) {
  const random = mulberry32(kind === 'uniform' ? 1 : 2);
  return kind === 'uniform' ? uniform(n, random) : clustered(n, random);
}

/** The points as GeoJSON features, as supercluster takes them (and ClusterIndex.load). */
function features(lngLat) {
  const n = lngLat.length / 2;
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = { type: 'Feature', properties: { index: i }, geometry: { type: 'Point', coordinates: [lngLat[2 * i], lngLat[2 * i + 1]] } };
  }
  return out;
}

/**
 * The query boxes of every zoom: centres near random input points (where people look),
 * jittered by a viewport. Seeded, so both libraries answer the same boxes.
 */
function queryBoxes(lngLat, queries) {
  const n = lngLat.length / 2;
  const qr = mulberry32(3);
  const zooms = [];
  for (let z = 0; z <= MAX_QUERY_ZOOM; z++) {
    const boxes = [];
    for (let q = 0; q < queries; q++) {
      const i = Math.floor(qr() * n);
      const jitter = (qr() - 0.5) * (VIEWPORT.width / (TILE_PX * 2 ** z));
      const x = lngLat[2 * i] / 360 + 0.5 + jitter;
      const y = latY(lngLat[2 * i + 1]) + (qr() - 0.5) * (VIEWPORT.height / (TILE_PX * 2 ** z));
      boxes.push(viewport(((x % 1) + 1) % 1, Math.min(1, Math.max(0, y)), z));
    }
    zooms.push(boxes);
  }
  return zooms;
}

/**
 * Times `query(box, z)` over every zoom's boxes (after 20 to warm up); the mean results per query.
 * @returns {Array<{z: number, ms: number, mean: number}>}
 */
function timeQueries(boxesByZoom, query) {
  return boxesByZoom.map((boxes, z) => {
    for (let q = 0; q < Math.min(20, boxes.length); q++) query(boxes[q], z);
    let results = 0;
    const start = performance.now();
    for (const box of boxes) results += query(box, z);
    return { z, ms: (performance.now() - start) / boxes.length, mean: results / boxes.length };
  });
}

/**
 * What the host takes to map a fresh page of memory at its first write, in microseconds. A
 * load writes every page its memory grows by, so this explains much of the spread between
 * runs on a shared machine. Measured just before the load on 16 MiB of a WebAssembly memory
 * of its own, which is mapped afresh as the index's is (a plain ArrayBuffer can reuse pages
 * the process freed earlier, already mapped).
 */
function hostPageMicroseconds() {
  const bytes = new Uint8Array(new WebAssembly.Memory({ initial: 256 }).buffer);
  const t = performance.now();
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = 1;
  return ((performance.now() - t) * 1000) / (bytes.length / 4096);
}

/**
 * One of Cairn's runs, in a process of its own: `loadCoordinates` with typed queries, or `load`
 * of features with GeoJSON ones. The first load is the process's first; then the warm ones.
 */
async function runCairn({ kind, points: n, queries, mode }) {
  const { memory } = await init();
  const lngLat = points(kind, n);
  const input = mode === 'features' ? features(lngLat) : null;
  const boxes = queryBoxes(lngLat, queries);

  const load = (marks) => {
    const t0 = performance.now();
    const index = new ClusterIndex(OPTIONS);
    if (input) {
      index.load(input);
    } else {
      index.loadCoordinates(lngLat, {
        onProgress: (p) => {
          if (p.phase === 'add' && p.done === p.total) marks.added = performance.now() - t0;
        },
      });
    }
    return { index, ms: performance.now() - t0 };
  };
  const hostPageUs = hostPageMicroseconds();
  const before = memory.buffer.byteLength;
  const firstMarks = {};
  const first = load(firstMarks);
  const grown = memory.buffer.byteLength - before;
  first.index.destroy();
  const warmMs = [];
  let index = null;
  for (let k = 0; k < WARM_LOADS; k++) {
    index?.destroy();
    const run = load({});
    index = run.index;
    warmMs.push(run.ms);
  }

  let zooms;
  if (input) {
    zooms = timeQueries(boxes, (box, z) => index.getClusters(box, z).length);
  } else {
    const out = new Float64Array(index.recordStride * (1 << 18));
    zooms = timeQueries(boxes, (box, z) => index.getClustersInto(box, z, out));
  }
  index.destroy();
  return {
    kind, mode, points: n, hostPageUs,
    addMs: firstMarks.added,
    loadMs: first.ms,
    warmMs: Math.min(...warmMs),
    grownBytes: grown,
    memoryBytes: memory.buffer.byteLength,
    zooms,
  };
}

/** The JS heap and array buffers in use, after a full collection. */
function heldBytes() {
  globalThis.gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** One of supercluster's runs, in a process of its own (started with --expose-gc). */
async function runPeer({ kind, points: n, queries, peers }) {
  const { default: Supercluster } = await import(pathToFileURL(join(peers, 'node_modules', 'supercluster', 'index.js')).href);
  const lngLat = points(kind, n);
  const input = features(lngLat);
  const boxes = queryBoxes(lngLat, queries);
  const before = heldBytes();
  const t0 = performance.now();
  let index = new Supercluster(OPTIONS).load(input);
  const loadMs = performance.now() - t0;
  const heldAfter = heldBytes() - before;
  const warmMs = [];
  for (let k = 0; k < WARM_LOADS; k++) {
    index = null;
    const t = performance.now();
    index = new Supercluster(OPTIONS).load(input);
    warmMs.push(performance.now() - t);
  }
  const zooms = timeQueries(boxes, (box, z) => index.getClusters(box, z).length);
  return { kind, points: n, loadMs, warmMs: Math.min(...warmMs), heldBytes: heldAfter, zooms };
}

function parseArgs(argv) {
  const args = { points: 1_000_000, queries: 300, repeat: 1, peers: process.env.CAIRN_PEERS || null, markdown: markdownOption(argv) };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--points') args.points = Number(argv[++i]);
    else if (argv[i] === '--queries') args.queries = Number(argv[++i]);
    else if (argv[i] === '--repeat') args.repeat = Number(argv[++i]);
    else if (argv[i] === '--peers') args.peers = argv[++i];
    else if (argv[i] === '--markdown') i++;
    else if (argv[i] === '--help' || argv[i] === '-h') {
      console.log('usage: node web/bench/cluster-bench.js [--points N] [--queries Q] [--repeat R] [--peers DIR] [--markdown FILE]');
      process.exit(0);
    } else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!Number.isInteger(args.points) || args.points < 1) throw new Error('--points must be a positive integer');
  if (!Number.isInteger(args.queries) || args.queries < 1) throw new Error('--queries must be a positive integer');
  if (!Number.isInteger(args.repeat) || args.repeat < 1) throw new Error('--repeat must be a positive integer');
  return args;
}

/** A run in a process of its own: `role` is CAIRN_RUN or PEER_RUN. */
function inProcess(role, data) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [role, JSON.stringify(data)], { execArgv: ['--expose-gc'] });
    let result = null;
    child.once('message', (m) => { result = m; });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`${role} exited with ${code}`))));
  });
}

/** Each zoom's best time over the runs. */
function bestZooms(runs) {
  return runs[0].zooms.map(({ z, mean }) => ({ z, mean, ms: Math.min(...runs.map((run) => run.zooms[z].ms)) }));
}

const fastest = (runs) => runs.reduce((best, run) => (run.loadMs < best.loadMs ? run : best));
const fastestWarm = (runs) => Math.min(...runs.map((run) => run.warmMs));
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const perPoint = (bytes, n) => `${(bytes / n).toFixed(1)} B/point`;
/**
 * Cairn's memory for the table: the growth of the module's memory, which misses what fitted in
 * the 16 MiB it starts with; said so when that part is large beside the growth.
 */
const growth = (bytes, n) => (bytes >= 64 * 2 ** 20 ? perPoint(bytes, n)
  : `${perPoint(bytes, n)} (too few points: most of the load fitted in the initial 16 MiB)`);
const ratio = (peer, cairn) => (peer > 0 && cairn > 0 ? `${(peer / cairn).toFixed(1)}×` : '—');

/** The median over zooms and the slowest zoom of a run's queries. */
function querySummary(zooms) {
  const slowest = zooms.reduce((a, b) => (b.ms > a.ms ? b : a));
  return { median: median(zooms.map((q) => q.ms)), slowest };
}

function printRun(label, r, runs) {
  const rate = (ms) => `${(r.points / (ms / 1000) / 1e6).toFixed(2)} M points/s`;
  const all = (key) => [...runs].map((run) => run[key]).sort((a, b) => a - b).map((ms) => `${ms.toFixed(0)} ms`).join(', ');
  console.log(`  ${label}, first in a fresh process: ${r.loadMs.toFixed(0)} ms` +
    (r.addMs !== undefined ? ` (add ${r.addMs.toFixed(0)} ms, cluster ${(r.loadMs - r.addMs).toFixed(0)} ms)` : '') +
    `, ${rate(r.loadMs)}` + (runs.length > 1 ? `; all runs: ${all('loadMs')}` : '') +
    (r.hostPageUs !== undefined ? ` (host ${r.hostPageUs.toFixed(1)} µs/page before it)` : ''));
  const warm = fastestWarm(runs);
  console.log(`  ${label}, warm (best later load in the same process): ${warm.toFixed(0)} ms, ` +
    `${(r.points / (warm / 1000) / 1e6).toFixed(2)} M points/s` + (runs.length > 1 ? `; all runs: ${all('warmMs')}` : '') +
    `; first ÷ warm ${(r.loadMs / warm).toFixed(2)}`);
}

function printQueries(title, zooms) {
  console.log(`  ${title}:`);
  console.log('    zoom   ms/query   mean results');
  for (const { z, ms, mean } of zooms) {
    console.log(`    ${String(z).padStart(4)}   ${ms.toFixed(4).padStart(8)}   ${mean.toFixed(1).padStart(12)}`);
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const { points: n, queries, repeat } = args;
  const peer = findPeers(args.peers);
  const wasm = await stat(new URL('../dist/cairn.wasm', import.meta.url));
  console.log(`cairn.wasm: ${wasm.size} bytes (${(wasm.size / 1024).toFixed(1)} KiB)`);
  console.log(`${n.toLocaleString('en-US')} points, options: radius 40, extent 512, zooms 0–16; ` +
    `viewport ${VIEWPORT.width}×${VIEWPORT.height} px (256-px tiles), ${queries} queries per zoom, Node ${process.versions.node}` +
    (repeat > 1 ? `; best of ${repeat} runs (times vary between runs on a shared machine)` : ''));
  console.log(peer.dir ? `peer: supercluster ${peer.supercluster} with kdbush ${peer.kdbush} from ${peer.dir}`
    : `peer: supercluster not measured: ${peer.reason}`);
  const rows = [];
  for (const kind of ['uniform', 'clustered']) {
    const typed = [];
    const geojson = [];
    const peers = [];
    for (let k = 0; k < repeat; k++) {
      typed.push(await inProcess(CAIRN_RUN, { kind, points: n, queries, mode: 'coordinates' }));
      geojson.push(await inProcess(CAIRN_RUN, { kind, points: n, queries, mode: 'features' }));
      if (peer.dir) peers.push(await inProcess(PEER_RUN, { kind, points: n, queries, peers: peer.dir }));
    }
    const t = fastest(typed);
    const g = fastest(geojson);
    const p = peer.dir ? fastest(peers) : null;
    console.log(`\n${kind}`);
    printRun('load (loadCoordinates: add + cluster zooms 0–16)', t, typed);
    console.log(`  wasm memory grew ${mib(t.grownBytes)} over the load = ${perPoint(t.grownBytes, n)} ` +
      `(peak, page-granular; memory now ${mib(t.memoryBytes)}), ${Math.round(t.grownBytes / 4096).toLocaleString('en-US')} ` +
      `pages of 4 KiB, each mapped by the host at its first write (${t.hostPageUs.toFixed(1)} µs a page just before the load)` +
      (t.grownBytes === 0 ? ' — the load fit in the initial memory; use more points for a figure' : ''));
    printRun('load (load: GeoJSON features)', g, geojson);
    console.log(`  wasm memory grew ${mib(g.grownBytes)} over it = ${perPoint(g.grownBytes, n)}`);
    if (p) {
      printRun(`supercluster load (GeoJSON features)`, p, peers);
      console.log(`  supercluster holds ${mib(p.heldBytes)} after it (JS heap and array buffers, after a collection) = ` +
        `${perPoint(p.heldBytes, n)}`);
    }
    const tz = bestZooms(typed);
    const gz = bestZooms(geojson);
    const pz = p ? bestZooms(peers) : null;
    printQueries('viewport query into a typed array (getClustersInto)', tz);
    printQueries('viewport query as GeoJSON (getClusters)', gz);
    if (pz) printQueries('supercluster viewport query (getClusters)', pz);

    const none = peer.dir ? '—' : 'not measured';
    const tq = querySummary(tz);
    const gq = querySummary(gz);
    const pq = pz ? querySummary(pz) : null;
    const slow = (q) => `${duration(q.slowest.ms)} (zoom ${q.slowest.z})`;
    const gw = fastestWarm(geojson);
    const pw = p ? fastestWarm(peers) : 0;
    rows.push(
      [kind, 'load, GeoJSON features (`load`): first in a fresh process', duration(g.loadMs), p ? duration(p.loadMs) : none,
        p ? ratio(p.loadMs, g.loadMs) : ''],
      [kind, 'same, warm: a later load in that process', duration(gw), p ? duration(pw) : none, p ? ratio(pw, gw) : ''],
      [kind, 'memory over that load (Cairn: wasm memory grown; supercluster: held after it)', growth(g.grownBytes, n),
        p ? perPoint(p.heldBytes, n) : none, p && g.grownBytes >= 64 * 2 ** 20 ? ratio(p.heldBytes, g.grownBytes) : ''],
      [kind, 'load, typed coordinates (`loadCoordinates`): first in a fresh process; warm; memory grown',
        `${duration(t.loadMs)}; ${duration(fastestWarm(typed))}; ${growth(t.grownBytes, n)}`, '—', ''],
      [kind, 'viewport query as GeoJSON (`getClusters`), median over zooms 0–17', duration(gq.median),
        pq ? duration(pq.median) : none, pq ? ratio(pq.median, gq.median) : ''],
      [kind, 'same, slowest zoom', slow(gq), pq ? slow(pq) : none, pq ? ratio(pq.slowest.ms, gq.slowest.ms) : ''],
      [kind, 'viewport query into a typed array (`getClustersInto`), median; slowest zoom',
        `${duration(tq.median)}; ${slow(tq)}`, '—', ''],
    );
  }
  if (args.markdown) {
    const notes = [
      peer.dir
        ? `supercluster ${peer.supercluster} with kdbush ${peer.kdbush}, from the peers folder. Its memory is what it holds ` +
          'after the load (the JS heap and array buffers, after a full collection), the input features not counted; ' +
          "Cairn's is how much the WebAssembly memory grew over the first load: that memory " +
          'never shrinks, so the growth is its peak, less the part of the load that fitted in the 16 MiB the module starts with.'
        : 'supercluster was not measured in this run: give the bench a folder holding `node_modules/supercluster` and ' +
          '`node_modules/kdbush` (the sources of the mapbox/supercluster and mourner/kdbush 4.1.0 repositories), ' +
          'as `CAIRN_PEERS=DIR ./build.sh bench` or `node web/bench/cluster-bench.js --peers DIR`.',
    ];
    writeSection(args.markdown, {
      title: 'Clustering: ClusterIndex and supercluster',
      machine: machineLine(new Date(), machine()),
      about: `\`node web/bench/cluster-bench.js\`: ${n.toLocaleString('en-US')} points, uniform over ±180°/±85° or clustered in ` +
        `300 blobs of 0.0003° to 10°, seeded; options radius 40, extent 512, zooms 0–16. Queries: ${queries} viewports of ` +
        `${VIEWPORT.width}×${VIEWPORT.height} px per zoom from 0 to ${MAX_QUERY_ZOOM}, near random input points, the same ` +
        `boxes for both. Best of ${repeat} ${repeat === 1 ? 'run' : 'runs'}, each in a process of its own: the first load ` +
        `is that process's first, as a command-line run, a page or a server start gets it; warm is the best of the ` +
        `${WARM_LOADS} loads of the same points that follow in that process. \`cairn.wasm\` ${(wasm.size / 1024).toFixed(0)} KiB.`,
      header: ['points', 'measurement', 'Cairn', 'supercluster', 'supercluster ÷ Cairn'],
      rows,
      notes,
    });
    console.log(`\nwrote ${args.markdown}`);
  }
}

const runs = { [CAIRN_RUN]: runCairn, [PEER_RUN]: runPeer };
const role = runs[process.argv[2]];
(role ? role(JSON.parse(process.argv[3])).then((result) => process.send(result)) : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
