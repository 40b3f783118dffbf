// supercluster's ids and result order through ClusterIndex, against what supercluster 8.0.1
// returns on the same inputs (Tests/Fixtures/*-order.reference.json, see their README): the
// ids of clusters, and getClusters, getChildren, getLeaves and getTile in its order, with
// generateId, minPoints and reduce as there.
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

const sha256 = (value) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

const placesData = readJson('places.json');
const placesOrder = readJson('places-order.reference.json');

/** A result as the reference names it: a cluster by its id, a point by its input index. */
function placesName(features) {
  return (f) => (f.properties && f.properties.cluster ? { cluster: f.properties.cluster_id } : features.indexOf(f));
}

async function loadPlaces(options) {
  await init();
  const features = (await placesData).features;
  return { features, index: new ClusterIndex(options).load(features) };
}

test('supercluster facts on places: children and leaves of cluster 164, expansion zooms', async () => {
  const { index } = await loadPlaces({});
  assert.deepEqual(index.getChildren(164).map((p) => p.properties.point_count || 1), [6, 7, 2, 1]);
  assert.deepEqual(index.getLeaves(164, 10, 5).map((p) => p.properties.name), [
    'Niagara Falls', 'Cape San Blas', 'Cape Sable', 'Cape Canaveral', 'San  Salvador',
    'Cabo Gracias a Dios', 'I. de Cozumel', 'Grand Cayman', 'Miquelon', 'Cape Bauld']);
  assert.deepEqual([164, 196, 581, 1157, 4134].map((id) => index.getClusterExpansionZoom(id)), [1, 1, 2, 2, 3]);
  const coarse = new ClusterIndex({ radius: 60, extent: 256, maxZoom: 4 }).load((await placesData).features);
  assert.equal(coarse.getClusterExpansionZoom(2504), 5);
});

test('supercluster facts on places: a leaf page reaches into a feature with null properties', async () => {
  await init();
  const features = (await placesData).features.concat([{
    type: 'Feature', properties: null, geometry: { type: 'Point', coordinates: [-79.04411780507252, 43.08771393436908] } }]);
  const index = new ClusterIndex().load(features);
  const leaves = index.getLeaves(165, 1, 6);
  assert.equal(leaves.length, 1);
  assert.equal(leaves[0], features[163]);
});

test('places: getClusters, getChildren, getLeaves and expansion zooms in supercluster order at every zoom', async () => {
  for (const run of (await placesOrder).runs) {
    const { features, index } = await loadPlaces(run.options);
    const name = placesName(features);
    for (const expected of run.zooms) {
      const where = `${JSON.stringify(run.options)} zoom ${expected.z}`;
      assert.deepEqual(index.getClusters(WORLD, expected.z).map(name), expected.items, `${where}: getClusters`);
      for (const [id, children] of Object.entries(expected.children)) {
        assert.deepEqual(index.getChildren(Number(id)).map(name), children, `${where}: getChildren(${id})`);
        const leaves = expected.leaves[id];
        assert.deepEqual(index.getLeaves(Number(id), Infinity).map(name), leaves, `${where}: getLeaves(${id})`);
        // Pages of three, every offset: each page is the reference's slice.
        for (let offset = 0; offset < leaves.length; offset += 3) {
          assert.deepEqual(index.getLeaves(Number(id), 3, offset).map(name), leaves.slice(offset, offset + 3),
            `${where}: getLeaves(${id}, 3, ${offset})`);
        }
        assert.equal(index.getClusterExpansionZoom(Number(id)), expected.expansionZoom[id], `${where}: expansion zoom of ${id}`);
      }
    }
  }
});

test('places: getTile deep-equals supercluster\'s (default, minPoints 5, generateId, other tiles)', async () => {
  for (const t of (await placesOrder).tiles) {
    const { index } = await loadPlaces(t.options);
    const tile = index.getTile(t.z, t.x, t.y);
    assert.deepEqual(tile ? tile.features : null, t.features, `${JSON.stringify(t.options)} tile ${t.z}/${t.x}/${t.y}`);
  }
  const { index } = await loadPlaces({ generateId: true });
  const ids = index.getTile(0, 0, 0).features.filter((f) => !f.tags.cluster).map((f) => f.id);
  assert.deepEqual(ids, [12, 20, 21, 22, 24, 28, 30, 62, 81, 118, 119, 125, 81, 118]);
});

test('places: reduce folds children in supercluster\'s order, and tiles list the results in its order', async () => {
  for (const r of (await placesOrder).reduce) {
    const { index: sums } = await loadPlaces({ radius: 100, map: (p) => ({ sum: p.scalerank }), reduce: (a, b) => { a.sum += b.sum; } });
    assert.deepEqual(sums.getTile(r.z, r.x, r.y).features.map((f) => f.tags.sum ?? null), r.sums, `sums in tile ${r.z}/${r.x}/${r.y}`);
    // Concatenation depends on the order of the fold: the seed first, then the others.
    const { index: names } = await loadPlaces({ radius: 100, map: (p) => ({ names: p.name }), reduce: (a, b) => { a.names += `|${b.names}`; } });
    assert.deepEqual(names.getTile(r.z, r.x, r.y).features.map((f) => f.tags.names ?? null), r.names, `names in tile ${r.z}/${r.x}/${r.y}`);
  }
  assert.deepEqual((await placesOrder).reduce[0].sums.filter(Boolean), [146, 84, 63, 23, 34, 12, 19, 29, 8, 8, 80, 35]);
});

test('clustered-50k: ids and order of getClusters, getChildren, getLeaves pages and tiles at every zoom', async () => {
  await init();
  const csv = await readFile(new URL('clustered-50k.csv', fixtures), 'utf8');
  const features = csv.trim().split('\n').slice(1).map((line, i) => {
    const [lng, lat] = line.split(',').map(Number);
    return { type: 'Feature', properties: { i }, geometry: { type: 'Point', coordinates: [lng, lat] } };
  });
  const name = (f) => (f.properties.cluster ? f.properties.cluster_id : -1 - f.properties.i);
  for (const run of (await readJson('clustered-50k-order.reference.json')).runs) {
    const index = new ClusterIndex(run.options).load(features);
    for (const expected of run.zooms) {
      const z = expected.z;
      const where = `${JSON.stringify(run.options)} zoom ${z}`;
      const items = index.getClusters(WORLD, z).map(name);
      assert.equal(items.length, expected.items, `${where}: items`);
      assert.deepEqual(items.slice(0, 20), expected.first, `${where}: first items`);
      assert.equal(sha256(items), expected.itemsSha256, `${where}: getClusters order`);
      const clusters = items.filter((i) => i >= 0);
      assert.equal(sha256(clusters.map((c) => index.getChildren(c).map(name))), expected.childrenSha256, `${where}: getChildren`);
      assert.equal(sha256(clusters.map((c) => index.getLeaves(c, 5, 3).map(name))), expected.leavesSha256, `${where}: getLeaves pages`);
      const n = 2 ** z;
      const tiles = [[0, 0], [n - 1, n >> 1], [n >> 1, n >> 2], [(n >> 2) + 1, (n >> 1) - 1]].map(([tx, ty]) =>
        (index.getTile(z, Math.min(tx, n - 1), Math.max(0, Math.min(ty, n - 1)))?.features ?? []).map((f) => [f.id ?? null, f.geometry[0]]));
      assert.equal(sha256(tiles), expected.tilesSha256, `${where}: tiles`);
    }
  }
});

/** The order a kdbush tree of node size 64 lists every item in: depth first from a stack. */
function walkWholeTree(tree) {
  const order = [];
  const stack = [0, tree.numItems - 1];
  while (stack.length) {
    const right = stack.pop();
    const left = stack.pop();
    if (right - left <= 64) {
      for (let i = left; i <= right; i++) order.push(i);
      continue;
    }
    const m = (left + right) >> 1;
    order.push(m);
    stack.push(left, m - 1, m + 1, right);
  }
  return order;
}

test('supercluster\'s trees: per zoom, ids are positions in the data, laid out as its search lists them', async () => {
  const { features, index } = await loadPlaces({});
  assert.deepEqual(Object.keys(index.trees).map(Number), Array.from({ length: 18 }, (_, z) => z), 'zooms 0…maxZoom + 1');
  for (let z = 0; z <= 17; z++) {
    const tree = index.trees[z];
    const clusters = index.getClusters(WORLD, z);
    assert.equal(tree.numItems, clusters.length, `zoom ${z}`);
    assert.deepEqual([...tree.ids].sort((a, b) => a - b), clusters.map((_, i) => i), `zoom ${z}: a permutation of the data`);
    // The whole world's search lists the items in the walk's order, at the tree's positions.
    const walk = walkWholeTree(tree);
    walk.forEach((at, k) => {
      const [lng, lat] = clusters[k].geometry.coordinates;
      assert.ok(Math.abs(tree.coords[2 * at] - (lng / 360 + 0.5)) < 1e-6, `zoom ${z}, item ${k}: x`);
      const s = Math.sin((lat * Math.PI) / 180);
      assert.ok(Math.abs(tree.coords[2 * at + 1] - (0.5 - (0.25 * Math.log((1 + s) / (1 - s))) / Math.PI)) < 1e-6, `zoom ${z}, item ${k}: y`);
    });
    if (z === 17) assert.deepEqual(walk.map((at) => tree.ids[at]), clusters.map((f) => features.indexOf(f)), 'points by input position');
  }
  assert.equal(index.trees, index.trees, 'kept');
  assert.equal(index.trees[3], index.trees[3]);
});

test('supercluster\'s trees: same-location points are one item at the highest zoom, and trees follow updates', async () => {
  await init();
  const spot = { type: 'Feature', geometry: { type: 'Point', coordinates: [-1.426798, 53.943034] } };
  const index = new ClusterIndex({ maxZoom: 20, extent: 8192, radius: 16 }).load([spot, { ...spot }]);
  assert.equal(index.trees[20].ids.length, 1);
  assert.equal(index.trees[21].numItems, 2);
  assert.equal(index.trees[22], undefined);
  index.update({ add: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [100, 10] } }] });
  assert.equal(index.trees[20].numItems, 2, 'read again after the update');
  index.destroy();
  assert.throws(() => index.trees, /destroyed/);
});
