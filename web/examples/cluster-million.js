// Clusters a million generated points through the WebAssembly module, the way a web page or a
// Node service would: load with progress, then ask what a 1024×768 map shows at a few zooms.
// Usage: node web/examples/cluster-million.js [--points N]

import { performance } from 'node:perf_hooks';

import { init, ClusterIndex } from '../src/index.js';
import { mulberry32, clustered } from '../bench/generate.js';

const args = process.argv.slice(2);
const at = args.indexOf('--points');
const points = at >= 0 ? Number(args[at + 1]) : 1_000_000;
if (!Number.isInteger(points) || points < 1) {
  console.error('usage: node web/examples/cluster-million.js [--points N]  (N a positive integer)');
  process.exit(2);
}

await init();
const lngLat = clustered(points, mulberry32(2));
console.log(`${points.toLocaleString('en-US')} points in blobs around the world`);

const start = performance.now();
const index = new ClusterIndex({ radius: 40, maxZoom: 16 }).loadCoordinates(lngLat, {
  onProgress: ({ phase, done, total }) => {
    if (phase === 'cluster' && process.stdout.isTTY) process.stdout.write(`\r  clustering zoom ${16 - done + 1}… `);
  },
});
console.log(`\r  loaded and clustered zooms 0–16 in ${(performance.now() - start).toFixed(0)} ms`);

// The box a 1024×768-pixel map shows around a centre at a zoom (256-px tiles).
function viewport([lng, lat], zoom) {
  const y = 0.5 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / (2 * Math.PI);
  const half = [1024 / 2 / (256 * 2 ** zoom), 768 / 2 / (256 * 2 ** zoom)];
  const latOf = (v) => (360 * Math.atan(Math.exp((0.5 - Math.min(1, Math.max(0, v))) * 2 * Math.PI))) / Math.PI - 90;
  return [lng - half[0] * 360, latOf(y + half[1]), lng + half[0] * 360, latOf(y - half[1])];
}

const centre = [lngLat[0], lngLat[1]];
console.log(`\nWhat a 1024×768 map centred on ${centre.map((v) => v.toFixed(3)).join(', ')} shows:`);
console.log('  zoom   clusters   points   largest cluster   query ms');
for (const zoom of [0, 3, 6, 9, 12, 15, 17]) {
  const t = performance.now();
  const features = index.getClusters(viewport(centre, zoom), zoom);
  const ms = performance.now() - t;
  const clusters = features.filter((f) => f.properties.cluster);
  const largest = clusters.reduce((m, f) => Math.max(m, f.properties.point_count), 0);
  console.log(`  ${String(zoom).padStart(4)}   ${String(clusters.length).padStart(8)}   ${String(features.length - clusters.length).padStart(6)}` +
    `   ${String(largest).padStart(15)}   ${ms.toFixed(3).padStart(8)}`);
}

const biggest = index.getClusters([-180, -85, 180, 85], 0).sort((a, b) => b.properties.point_count - a.properties.point_count)[0];
const id = biggest.properties.cluster_id;
console.log(`\nThe largest cluster at zoom 0 holds ${biggest.properties.point_count_abbreviated} points; ` +
  `it splits at zoom ${index.getClusterExpansionZoom(id)} into ${index.getChildren(id).length} children; ` +
  `its first leaves are points ${index.getLeaves(id, 3).map((f) => f.properties.index).join(', ')}.`);
index.destroy();
