// Parity with supercluster on the reference fixtures in Tests/Fixtures (see their README): the same items,
// clusters and cluster membership at every zoom, and for places the same positions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';

import { init, ClusterIndex } from '../../src/index.js';

const fixtures = new URL('../../../Tests/Fixtures/', import.meta.url);

const WORLD = [-180, -90, 180, 90];

async function readJson(name) {
  return JSON.parse(await readFile(new URL(name, fixtures), 'utf8'));
}

/** Leaf input indices per item at zoom z, each list ascending, lists sorted by first index. */
function membership(index, z, indexOf) {
  const items = index.getClusters(WORLD, z);
  const lists = items.map((f) => {
    if (f.properties && f.properties.cluster) {
      return { f, leaves: index.getLeaves(f.properties.cluster_id, Infinity).map(indexOf).sort((a, b) => a - b) };
    }
    return { f, leaves: [indexOf(f)] };
  });
  lists.sort((a, b) => a.leaves[0] - b.leaves[0]);
  return { items, lists };
}

function sha256(lists) {
  return createHash('sha256').update(lists.map((l) => l.leaves.join(',')).join('\n')).digest('hex');
}

function checkRun(index, run, indexOf, detail) {
  let checked = 0;
  for (const expected of run.zooms) {
    const z = expected.z;
    const { items, lists } = membership(index, z, indexOf);
    const where = `${run.input} ${JSON.stringify(run.options)} zoom ${z}`;
    assert.equal(items.length, expected.items, `${where}: items`);
    assert.equal(items.filter((f) => f.properties && f.properties.cluster).length, expected.clusters, `${where}: clusters`);
    assert.equal(sha256(lists), expected.membershipSha256, `${where}: membership`);
    if (detail) {
      assert.equal(lists.length, expected.items_detail.length);
      lists.forEach(({ f, leaves }, i) => {
        const [refLeaves, lng, lat] = expected.items_detail[i];
        assert.deepEqual(leaves, refLeaves, `${where}: item ${i} leaves`);
        const [x, y] = f.geometry.coordinates;
        assert.ok(Math.abs(x - lng) <= 1e-9 && Math.abs(y - lat) <= 1e-9,
          `${where}: item ${i} at ${x},${y}, reference ${lng},${lat}`);
      });
    }
    checked++;
  }
  assert.equal(checked, run.options.maxZoom - run.options.minZoom + 2);
}

test('places.json: supercluster parity at every zoom (features, with a null geometry)', async () => {
  await init();
  const places = await readJson('places.json');
  const runs = await readJson('places.reference.json');
  assert.equal(places.features[162].geometry, null, 'the fixture keeps its null geometry at index 162');
  const position = new Map(places.features.map((f, i) => [f, i]));
  const indexOf = (f) => position.get(f);
  for (const run of runs) {
    assert.equal(run.input, 'places.json');
    assert.equal(run.points, places.features.length);
    const index = new ClusterIndex(run.options).load(places.features);
    checkRun(index, run, indexOf, true);
    index.destroy();
  }
});

test('clustered-50k.csv: supercluster parity at every zoom (loadCoordinates)', async () => {
  await init();
  const text = await readFile(new URL('clustered-50k.csv', fixtures), 'utf8');
  const lines = text.trim().split('\n');
  assert.equal(lines[0].trim(), 'lng,lat');
  const coords = new Float64Array(2 * (lines.length - 1));
  for (let i = 1; i < lines.length; i++) {
    const [lng, lat] = lines[i].split(',');
    coords[2 * (i - 1)] = Number(lng);
    coords[2 * (i - 1) + 1] = Number(lat);
  }
  const runs = await readJson('clustered-50k.reference.json');
  for (const run of runs) {
    assert.equal(run.points, coords.length / 2);
    const index = new ClusterIndex(run.options).loadCoordinates(coords);
    checkRun(index, run, (f) => f.properties.index, false);
    index.destroy();
  }
});

// supercluster's own test suite pins `getTile(0, 0, 0)` for places with minPoints 5: 42 items in
// the tile proper (all of zoom 0), 14 of them clusters of these sizes. It depends on the data
// order supercluster keeps when a seed's neighbours are too few to cluster: they are visited and
// move next to the seed for the next zoom.
test('places.json with minPoints 5 matches supercluster at zoom 0', async () => {
  await init();
  const places = await readJson('places.json');
  const index = new ClusterIndex({ minPoints: 5 }).load(places.features);
  const items = index.getClusters(WORLD, 0);
  const sizes = items.filter((f) => f.properties.cluster).map((f) => f.properties.point_count).sort((a, b) => a - b);
  index.destroy();
  assert.deepEqual({ items: items.length, sizes }, { items: 42, sizes: [5, 5, 5, 6, 6, 6, 8, 10, 10, 11, 13, 14, 15, 20] });
});
