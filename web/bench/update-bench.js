// Updates: how long ClusterIndex.update takes to move k points of a million-point index (live
// positions: each moved up to about 100 m, or nudged up to about 5 m), beside loading the changed points again, Cairn's
// load and supercluster's (which has no update: a changed point set means a new load), in one
// run on seeded data. Also the first query after an update (it pays nothing lazy but the
// supercluster tree of its zoom).
//
//   node web/bench/update-bench.js [--points N] [--repeat R] [--peers DIR] [--markdown FILE]

import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

import { init, ClusterIndex } from '../src/index.js';
import { clustered, mulberry32, uniform } from './generate.js';
import { duration, machine, machineLine, markdownOption, median, writeSection } from './report.js';
import { findPeers } from './peers.js';

const MOVES = [1, 10, 100, 300, 1_000, 10_000, 100_000];

function parseArgs(argv) {
  const args = { points: 1_000_000, repeat: 5, peers: process.env.CAIRN_PEERS || null, markdown: markdownOption(argv) };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--points') args.points = Number(argv[++i]);
    else if (argv[i] === '--repeat') args.repeat = Number(argv[++i]);
    else if (argv[i] === '--peers') args.peers = argv[++i];
    else if (argv[i] === '--markdown') i++;
    else {
      console.log('usage: node web/bench/update-bench.js [--points N] [--repeat R] [--peers DIR] [--markdown FILE]');
      process.exit(argv[i] === '--help' ? 0 : 2);
    }
  }
  return args;
}

/** How far the points move: up to `step` degrees on each axis. */
const STEPS = [['≤ 100 m', 0.002], ['≤ 5 m', 0.00005]];

/** k distinct point ids with new positions within `step` of their old ones. */
function moves(k, n, lngLat, random, step) {
  const chosen = new Set();
  const out = [];
  while (out.length < k) {
    const id = Math.floor(random() * n);
    if (chosen.has(id)) continue;
    chosen.add(id);
    const lat = Math.max(-85, Math.min(85, lngLat[2 * id + 1] + (random() - 0.5) * step));
    out.push({ id, coordinates: [lngLat[2 * id] + (random() - 0.5) * step, lat] });
  }
  return out;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  await init();
  const peer = findPeers(args.peers);
  const Supercluster = peer.dir
    ? (await import(pathToFileURL(join(peer.dir, 'node_modules', 'supercluster', 'index.js')).href)).default : null;
  if (!peer.dir) console.log(`supercluster not measured: ${peer.reason}`);
  const n = args.points;
  const rows = [];
  for (const [kind, make] of [['uniform', uniform], ['clustered', clustered]]) {
    const random = mulberry32(42);
    const lngLat = make(n, random);
    const index = new ClusterIndex().loadCoordinates(lngLat);
    // A fresh load of the same points: what an update saves.
    let loadMs = Infinity;
    for (let r = 0; r < 2; r++) {
      const start = performance.now();
      new ClusterIndex().loadCoordinates(lngLat).destroy();
      loadMs = Math.min(loadMs, performance.now() - start);
    }
    let peerMs = null;
    if (Supercluster) {
      const features = Array.from({ length: n }, (_, i) => ({ type: 'Feature', properties: null,
        geometry: { type: 'Point', coordinates: [lngLat[2 * i], lngLat[2 * i + 1]] } }));
      const start = performance.now();
      new Supercluster({ radius: 40, extent: 512, maxZoom: 16 }).load(features);
      peerMs = performance.now() - start;
    }
    console.log(`${kind}: load ${duration(loadMs)}${peerMs === null ? '' : `, supercluster load ${duration(peerMs)}`}`);
    for (const [far, step] of STEPS) {
      for (const k of MOVES.filter((m) => m <= n / 4 && (step > 0.001 || m <= 1_000))) {
        const updates = [], queries = [];
        for (let r = 0; r < args.repeat; r++) {
          const batch = moves(k, n, lngLat, random, step);
          let start = performance.now();
          index.update({ move: batch });
          updates.push(performance.now() - start);
          start = performance.now();
          index.getClusters([-180, -85, 180, 85], 4);
          queries.push(performance.now() - start);
          for (const m of batch) { lngLat[2 * m.id] = m.coordinates[0]; lngLat[2 * m.id + 1] = m.coordinates[1]; }
        }
        // The median, not the best: a batch that crowds its repair shows in it.
        const updateMs = median(updates), queryMs = median(queries);
        console.log(`  ${k.toLocaleString('en-US')} moved ${far}: update ${duration(updateMs)}, first query ${duration(queryMs)}`);
        rows.push([kind, k.toLocaleString('en-US'), far, duration(updateMs), duration(queryMs), duration(loadMs),
          `${(loadMs / updateMs).toFixed(1)}×`, peerMs === null ? '—' : duration(peerMs), peerMs === null ? '' : `${(peerMs / updateMs).toFixed(1)}×`]);
      }
    }
    index.destroy();
  }
  if (args.markdown) {
    writeSection(args.markdown, {
      title: 'Updates: ClusterIndex.update beside loading again',
      machine: machineLine(new Date(), machine()),
      about: `\`node web/bench/update-bench.js\`: ${n.toLocaleString('en-US')} points uniform over ±180°/±85° or clustered ` +
        'in 300 blobs, seeded, default options; k points moved by up to about 100 m or 5 m (`update({ move })`), median of ' +
        `${args.repeat} batches; the first query after it is \`getClusters\` over the world at zoom 4. Load is Cairn's ` +
        '`loadCoordinates` of the same points, best of 2; supercluster (which has no update) loads them as GeoJSON features, once.' +
        (peer.dir ? ` supercluster ${peer.supercluster} with kdbush ${peer.kdbush}.` : ` supercluster not measured: ${peer.reason}.`),
      header: ['points', 'moved', 'by', 'update', 'first query after', 'Cairn load', 'load ÷ update', 'supercluster load', 'its load ÷ update'],
      rows,
      notes: ['An index repairs small batches in place and applies larger ones by clustering the points left afresh ' +
        '(the limit and how a repair works: docs/cluster-index.md, Updates). ' +
        'A repaired batch changes the storage in place, in proportion to what it changed; the first query after an ' +
        'update that asks for supercluster\'s order lays out that zoom\'s tree again, and the first to read an id of ' +
        'a zoom applies the changes of ids the updates left pending there.'],
    });
    console.log(`\nwrote ${args.markdown}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
