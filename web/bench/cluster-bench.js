// Cluster index figures through the WebAssembly module: load time, memory, viewport queries.
// Prints numbers; asserts nothing. Usage: node web/bench/cluster-bench.js [--points N] [--queries Q] [--repeat R]
//
// Each data set runs in its own worker so that it gets a fresh module: wasm memory never
// shrinks, so a second load in the same instance would reuse the first one's pages and the
// memory figure would mean nothing.

import { Worker, isMainThread, workerData, parentPort } from 'node:worker_threads';
import { stat } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';

import { init, ClusterIndex, warmUp } from '../src/index.js';
import { mulberry32, uniform, clustered } from './generate.js';

const VIEWPORT = { width: 1024, height: 768 };
const TILE_PX = 256;
const MAX_QUERY_ZOOM = 17;

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

/**
 * What the host takes to map a fresh page of memory at its first write, in microseconds: on
 * this VM it swings from about 2 to over 10 between spells of minutes, and a load writes every
 * page its memory grows by (about 20,000 for a million points), so it explains much of the
 * spread between runs. Measured just before the load on 16 MiB of a WebAssembly memory of its
 * own, which is mapped afresh as the index's is (a plain ArrayBuffer can reuse pages the
 * process freed earlier, already mapped).
 */
function hostPageMicroseconds() {
  const bytes = new Uint8Array(new WebAssembly.Memory({ initial: 256 }).buffer);
  const t = performance.now();
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = 1;
  return ((performance.now() - t) * 1000) / (bytes.length / 4096);
}

async function runDataset({ kind, points, queries }) {
  const { memory } = await init();
  const random = mulberry32(kind === 'uniform' ? 1 : 2);
  const lngLat = kind === 'uniform' ? uniform(points, random) : clustered(points, random);

  // Memory is counted from before the warm-up: its own peak is part of the figure (it frees
  // what it takes, and the load reuses that memory).
  const before = memory.buffer.byteLength;
  const tw = performance.now();
  warmUp();
  const warmUpMs = performance.now() - tw;
  const hostPageUs = hostPageMicroseconds();
  const marks = {};
  const t0 = performance.now();
  const index = new ClusterIndex({ minZoom: 0, maxZoom: 16 });
  index.loadCoordinates(lngLat, {
    onProgress: (p) => {
      if (p.phase === 'add' && p.done === p.total) marks.added = performance.now();
    },
  });
  const t1 = performance.now();
  const grown = memory.buffer.byteLength - before;

  const out = new Float64Array(index.recordStride * (1 << 18));
  const zooms = [];
  const qr = mulberry32(3);
  for (let z = 0; z <= MAX_QUERY_ZOOM; z++) {
    // Centres near random input points (where people look), jittered by a viewport.
    const boxes = [];
    for (let q = 0; q < queries; q++) {
      const i = Math.floor(qr() * points);
      const jitter = (qr() - 0.5) * (VIEWPORT.width / (TILE_PX * 2 ** z));
      const x = lngLat[2 * i] / 360 + 0.5 + jitter;
      const y = latY(lngLat[2 * i + 1]) + (qr() - 0.5) * (VIEWPORT.height / (TILE_PX * 2 ** z));
      boxes.push(viewport(((x % 1) + 1) % 1, Math.min(1, Math.max(0, y)), z));
    }
    for (let q = 0; q < Math.min(20, queries); q++) index.getClustersInto(boxes[q], z, out); // warm-up
    let results = 0;
    const start = performance.now();
    for (const box of boxes) results += index.getClustersInto(box, z, out);
    const ms = (performance.now() - start) / queries;
    zooms.push({ z, ms, mean: results / queries });
  }
  index.destroy();
  return {
    kind,
    points,
    addMs: (marks.added ?? t0) - t0,
    warmUpMs,
    hostPageUs,
    loadMs: t1 - t0,
    grownBytes: grown,
    memoryBytes: memory.buffer.byteLength,
    zooms,
  };
}

function parseArgs(argv) {
  const args = { points: 1_000_000, queries: 300, repeat: 1 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--points') args.points = Number(argv[++i]);
    else if (argv[i] === '--queries') args.queries = Number(argv[++i]);
    else if (argv[i] === '--repeat') args.repeat = Number(argv[++i]);
    else if (argv[i] === '--help' || argv[i] === '-h') {
      console.log('usage: node web/bench/cluster-bench.js [--points N] [--queries Q] [--repeat R]');
      process.exit(0);
    } else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!Number.isInteger(args.points) || args.points < 1) throw new Error('--points must be a positive integer');
  if (!Number.isInteger(args.queries) || args.queries < 1) throw new Error('--queries must be a positive integer');
  if (!Number.isInteger(args.repeat) || args.repeat < 1) throw new Error('--repeat must be a positive integer');
  return args;
}

function inWorker(data) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: data });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => { if (code !== 0) reject(new Error(`benchmark worker exited with ${code}`)); });
  });
}

const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

async function main() {
  const { points, queries, repeat } = parseArgs(process.argv.slice(2));
  const wasm = await stat(new URL('../dist/cairn.wasm', import.meta.url));
  console.log(`cairn.wasm: ${wasm.size} bytes (${(wasm.size / 1024).toFixed(1)} KiB)`);
  console.log(`${points.toLocaleString('en-US')} points, options: radius 40, extent 512, zooms 0–16; ` +
    `viewport ${VIEWPORT.width}×${VIEWPORT.height} px (256-px tiles), ${queries} queries per zoom, Node ${process.versions.node}` +
    (repeat > 1 ? `; best of ${repeat} runs (times vary between runs on a shared machine)` : ''));
  for (const kind of ['uniform', 'clustered']) {
    const runs = [];
    for (let k = 0; k < repeat; k++) runs.push(await inWorker({ kind, points, queries }));
    // The best of the runs for each time; memory is the same every run.
    const r = runs.reduce((best, run) => (run.loadMs < best.loadMs ? run : best));
    const zooms = r.zooms.map(({ z, mean }) => ({ z, mean, ms: Math.min(...runs.map((run) => run.zooms[z].ms)) }));
    const byLoad = [...runs].sort((a, b) => a.loadMs - b.loadMs);
    console.log(`\n${kind}`);
    console.log(`  load (loadCoordinates: add + cluster zooms 0–16): ${r.loadMs.toFixed(0)} ms ` +
      `(add ${r.addMs.toFixed(0)} ms, cluster ${(r.loadMs - r.addMs).toFixed(0)} ms), ` +
      `${(r.points / (r.loadMs / 1000) / 1e6).toFixed(2)} M points/s` +
      (repeat > 1 ? `; all runs: ${byLoad.map((run) => `${run.loadMs.toFixed(0)} ms (host ${run.hostPageUs.toFixed(1)} µs/page)`).join(', ')}` : '') +
      `; before it, warmUp() ${r.warmUpMs.toFixed(0)} ms (once per page: the engine's code optimized before the load)`);
    console.log(`  wasm memory grew ${mib(r.grownBytes)} over the load = ${(r.grownBytes / r.points).toFixed(1)} bytes/point ` +
      `(peak, page-granular; memory now ${mib(r.memoryBytes)})` +
      `, ${Math.round(r.grownBytes / 4096).toLocaleString('en-US')} pages of 4 KiB, each mapped by the host at its first write ` +
      `(${r.hostPageUs.toFixed(1)} µs a page just before this load)` +
      (r.grownBytes === 0 ? ' — the load fit in the initial memory; use more points for a figure' : ''));
    console.log('  JS side: no per-point arrays (the index keeps no reference to the input)');
    console.log('  viewport query (getClustersInto):');
    console.log('    zoom   ms/query   mean results');
    for (const { z, ms, mean } of zooms) {
      console.log(`    ${String(z).padStart(4)}   ${ms.toFixed(4).padStart(8)}   ${mean.toFixed(1).padStart(12)}`);
    }
  }
}

if (isMainThread) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  runDataset(workerData).then((result) => parentPort.postMessage(result));
}
