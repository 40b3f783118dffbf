// The JavaScript ClusterIndex on the same input, for the Python tests to compare against: reads
// {options, lngLat, queries} as JSON on stdin, writes each query's result as JSON on stdout.
import { init, ClusterIndex } from '../../web/src/index.js';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { options, lngLat, values, clusterZooms, tiles } = JSON.parse(Buffer.concat(chunks).toString());
await init();
const index = new ClusterIndex(options).loadCoordinates(Float64Array.from(lngLat), { values });
const world = [-180, -90, 180, 90];
const out = { zooms: {}, children: {}, leaves: {}, expansion: {}, tiles: {} };
for (const z of clusterZooms) {
  const features = index.getClusters(world, z);
  out.zooms[z] = features;
  for (const f of features.filter((g) => g.properties.cluster).slice(0, 5)) {
    const id = f.properties.cluster_id;
    out.children[id] = index.getChildren(id);
    out.leaves[id] = index.getLeaves(id, Infinity).map((p) => p.properties.index).sort((a, b) => a - b);
    out.expansion[id] = index.getClusterExpansionZoom(id);
  }
}
for (const [z, x, y] of tiles) out.tiles[`${z}/${x}/${y}`] = index.getTile(z, x, y);
process.stdout.write(JSON.stringify(out));
