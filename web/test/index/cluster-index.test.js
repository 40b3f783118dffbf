// ClusterIndex: supercluster's documented behaviour and edge cases, through the real module.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, ClusterIndex, CairnError } from '../../src/index.js';
import { mulberry32 } from '../../bench/generate.js';

const WORLD = [-180, -90, 180, 90];

function point(lng, lat, properties = {}, id) {
  const f = { type: 'Feature', properties, geometry: { type: 'Point', coordinates: [lng, lat] } };
  if (id !== undefined) f.id = id;
  return f;
}

/** Points all over the map, a fifth of them within 10° of the antimeridian. */
function randomPoints(n, seed) {
  const random = mulberry32(seed);
  const out = [];
  for (let i = 0; i < n; i++) {
    const nearAntimeridian = random() < 0.2;
    let lng = nearAntimeridian ? 180 + (random() - 0.5) * 20 : random() * 360 - 180;
    if (lng >= 180) lng -= 360;
    out.push(point(lng, random() * 160 - 80, { i }));
  }
  return out;
}

const toLngLat = (features) => Float64Array.from(features.flatMap((f) => f.geometry.coordinates));
const ids = (items) => items.map((f) => (f.properties.cluster ? `c${f.id}` : `p${f.properties.i ?? f.properties.index}`));
const lngX = (lng) => lng / 360 + 0.5;
const latY = (lat) => {
  const s = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + s) / (1 - s))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
};

let random2k;
before(async () => {
  await init();
  random2k = randomPoints(2000, 7);
});

test('getClusters returns GeoJSON clusters and the caller’s own point features', () => {
  const features = randomPoints(300, 1);
  const index = new ClusterIndex().load(features);
  const items = index.getClusters(WORLD, 2);
  const clusters = items.filter((f) => f.properties.cluster);
  assert.ok(clusters.length > 0 && clusters.length < items.length);
  for (const c of clusters) {
    assert.equal(c.type, 'Feature');
    assert.equal(c.id, c.properties.cluster_id);
    assert.equal(c.geometry.type, 'Point');
    assert.equal(c.geometry.coordinates.length, 2);
    assert.ok(c.properties.point_count >= 2);
    assert.equal(c.properties.point_count_abbreviated, c.properties.point_count);
  }
  for (const p of items.filter((f) => !f.properties.cluster)) assert.ok(features.includes(p));
  const total = items.reduce((sum, f) => sum + (f.properties.cluster ? f.properties.point_count : 1), 0);
  assert.equal(total, features.length);
  index.destroy();
});

test('point_count_abbreviated follows supercluster', () => {
  const at = (n) => {
    const index = new ClusterIndex().loadCoordinates(new Float64Array(2 * n).fill(5));
    const [c] = index.getClusters(WORLD, 0);
    index.destroy();
    return c.properties.point_count_abbreviated;
  };
  assert.equal(at(999), 999);
  assert.equal(at(1000), '1k');
  assert.equal(at(1250), '1.3k');
  assert.equal(at(9999), '10k');
  assert.equal(at(12345), '12k');
});

test('a bbox crossing the antimeridian is the union of its two halves', () => {
  const index = new ClusterIndex().load(random2k);
  for (let z = 0; z <= 8; z++) {
    const crossing = index.getClusters([170, -85, -170, 85], z);
    const east = index.getClusters([170, -85, 180, 85], z);
    const west = index.getClusters([-180, -85, -170, 85], z);
    assert.ok(crossing.length > 0, `zoom ${z} finds something`);
    assert.deepEqual(crossing, east.concat(west), `zoom ${z}`);
    // The same box given with longitudes past 180 wraps to the same place.
    assert.deepEqual(index.getClusters([170, -85, 190, 85], z), crossing, `zoom ${z}, east 190`);
    assert.deepEqual(index.getClusters([190, -85, 200, 85], z), index.getClusters([-170, -85, -160, 85], z));
  }
  index.destroy();
});

test('a bbox 360° wide or wider covers the world; latitudes beyond ±90 are clamped', () => {
  const index = new ClusterIndex().load(random2k);
  for (const z of [0, 3, 6, 17]) {
    const world = index.getClusters(WORLD, z);
    assert.deepEqual(index.getClusters([-200, -90, 200, 90], z), world);
    assert.deepEqual(index.getClusters([0, -90, 360, 90], z), world);
    assert.deepEqual(index.getClusters([-540, -90, 900, 90], z), world);
    assert.deepEqual(index.getClusters([-180, -100, 180, 100], z), world);
    assert.deepEqual(index.getClusters([-180, -1000, 180, 1000], z), world);
    assert.deepEqual(index.getClusters([-180, 95, 180, 100], z).filter((f) => f.geometry.coordinates[1] < 85), []);
  }
  index.destroy();
});

test('zero points: getClusters returns [] and getTile returns null', () => {
  const index = new ClusterIndex().load([]);
  assert.deepEqual(index.getClusters(WORLD, 0), []);
  assert.deepEqual(index.getClusters(WORLD, 17), []);
  assert.equal(index.getTile(0, 0, 0), null);
  const fast = new ClusterIndex().loadCoordinates(new Float64Array(0));
  assert.deepEqual(fast.getClusters(WORLD, 5), []);
  assert.equal(fast.getClustersInto(WORLD, 5, new Float64Array(16)), 0);
  assert.equal(fast.getTile(3, 2, 1), null);
  index.destroy();
  fast.destroy();
});

test('all points at one location: one cluster at every zoom up to maxZoom', () => {
  const n = 50;
  const features = Array.from({ length: n }, (_, i) => point(10, 20, { i }));
  const index = new ClusterIndex({ maxZoom: 16 }).load(features);
  const [first] = index.getClusters(WORLD, 0);
  for (let z = 0; z <= 16; z++) {
    const items = index.getClusters(WORLD, z);
    assert.equal(items.length, 1, `zoom ${z}`);
    assert.equal(items[0].properties.point_count, n);
    assert.equal(items[0].id, first.id, 'the same cluster all the way down');
  }
  assert.equal(index.getClusters(WORLD, 17).length, n);
  // It only splits past maxZoom, into the points themselves.
  assert.equal(index.getClusterExpansionZoom(first.id), 17);
  assert.equal(index.getChildren(first.id).length, n);

  // Pagination covers every index exactly once.
  const seen = [];
  for (let offset = 0; offset < n; offset += 7) {
    const page = index.getLeaves(first.id, 7, offset);
    assert.equal(page.length, Math.min(7, n - offset));
    seen.push(...page.map((f) => f.properties.i));
  }
  assert.deepEqual(seen.slice().sort((a, b) => a - b), Array.from({ length: n }, (_, i) => i));
  assert.equal(index.getLeaves(first.id).length, 10, 'default limit 10');
  assert.equal(index.getLeaves(first.id, 0).length, 10, 'limit 0 means 10, as in supercluster');
  assert.equal(index.getLeaves(first.id, Infinity).length, n);
  assert.equal(index.getLeaves(first.id, Infinity, 45).length, 5);
  assert.deepEqual(index.getLeaves(first.id, 10, n), []);
  assert.deepEqual(index.getLeaves(first.id, 10, Infinity), []);
  index.destroy();
});

test('getClusterExpansionZoom: the zoom at which a cluster’s points first split', () => {
  const index = new ClusterIndex().load(random2k);
  const leafSet = (f) => (f.properties.cluster
    ? index.getLeaves(f.id, Infinity).map((p) => p.properties.i)
    : [f.properties.i]);
  for (const z of [0, 2, 4]) {
    const clusters = index.getClusters(WORLD, z).filter((f) => f.properties.cluster).slice(0, 15);
    for (const c of clusters) {
      const leaves = new Set(leafSet(c));
      const e = index.getClusterExpansionZoom(c.id);
      assert.ok(e > z && e <= 17, `expansion zoom ${e} after ${z}`);
      const holding = (zoom) => index.getClusters(WORLD, zoom).filter((f) => leaves.has(leafSet(f)[0]));
      assert.equal(holding(e - 1).length, 1, 'still one item just before');
      assert.ok(holding(e).length >= 2, 'split at the expansion zoom');
    }
  }
  index.destroy();
});

test('getChildren: the items one zoom in, adding up to the cluster', () => {
  const index = new ClusterIndex().load(random2k);
  for (const c of index.getClusters(WORLD, 3).filter((f) => f.properties.cluster)) {
    const children = index.getChildren(c.id);
    assert.ok(children.length >= 1);
    const sum = children.reduce((s, f) => s + (f.properties.cluster ? f.properties.point_count : 1), 0);
    assert.equal(sum, c.properties.point_count);
  }
  index.destroy();
});

test('minPoints > 2: no cluster smaller than minPoints, every point counted once', () => {
  const index = new ClusterIndex({ minPoints: 5, radius: 60 }).load(random2k);
  let sawCluster = false;
  for (let z = 0; z <= 17; z++) {
    const items = index.getClusters(WORLD, z);
    let total = 0;
    for (const f of items) {
      if (f.properties.cluster) {
        sawCluster = true;
        assert.ok(f.properties.point_count >= 5, `zoom ${z}: cluster of ${f.properties.point_count}`);
        total += f.properties.point_count;
      } else {
        total += 1;
      }
    }
    assert.equal(total, random2k.length, `zoom ${z}`);
  }
  assert.ok(sawCluster);
  index.destroy();
});

test('a non-integer zoom shows the clustering of its floor; zooms are clamped', () => {
  const index = new ClusterIndex({ minZoom: 2, maxZoom: 10 }).load(random2k);
  for (const z of [2, 3, 5, 9]) {
    assert.deepEqual(index.getClusters(WORLD, z + 0.7), index.getClusters(WORLD, z));
  }
  assert.deepEqual(index.getClusters(WORLD, -3), index.getClusters(WORLD, 2));
  assert.deepEqual(index.getClusters(WORLD, 0), index.getClusters(WORLD, 2));
  assert.deepEqual(index.getClusters(WORLD, 40), index.getClusters(WORLD, 11));
  assert.deepEqual(index.getClusters(WORLD, Infinity), index.getClusters(WORLD, 11));
  assert.equal(index.getClusters(WORLD, 11).length, random2k.length);
  index.destroy();
});

test('getTile wraps around at x = 0 and x = 2^z - 1', () => {
  // Latitude 30 keeps it out of the padding of the southern row of tiles.
  const index = new ClusterIndex().load([point(179.9, 30, { name: 'east' }, 'e')]);
  const extent = 512;
  const expectedX = (tileX, z) => Math.round(extent * (lngX(179.9) * 2 ** z - tileX));
  const y = Math.round(extent * (latY(30) * 2 - 0));
  // Its own tile, and tile 0 (padded across the antimeridian).
  assert.deepEqual(index.getTile(1, 1, 0), { features: [{ type: 1, geometry: [[expectedX(1, 1), y]], tags: { name: 'east' }, id: 'e' }] });
  const wrapped = index.getTile(1, 0, 0);
  assert.ok(wrapped, 'tile 1/0/0 shows the point across the antimeridian');
  assert.equal(wrapped.features.length, 1);
  assert.equal(wrapped.features[0].geometry[0][0] + 0, expectedX(2, 1) + 0);
  assert.equal(wrapped.features[0].geometry[0][1], y);
  assert.equal(index.getTile(1, 0, 1), null);
  index.destroy();

  const west = new ClusterIndex().load([point(-179.9, -10, { name: 'west' })]);
  const wrappedWest = west.getTile(2, 3, 2);
  assert.ok(wrappedWest, 'tile 2/3/2 shows a point at -179.9');
  assert.equal(wrappedWest.features[0].geometry[0][0], Math.round(extent * (lngX(-179.9) * 4 + 1)));
  west.destroy();
});

test('getTile agrees with getClusters, wrap-around included', () => {
  const options = { radius: 40, extent: 512 };
  const index = new ClusterIndex({ ...options, generateId: true }).load(random2k);
  const p = options.radius / options.extent;
  for (const z of [0, 1, 2, 3, 5]) {
    const z2 = 2 ** z;
    const items = index.getClusters(WORLD, z).map((f) => {
      const [lng, lat] = f.geometry.coordinates;
      return { id: f.properties.cluster ? f.id : f.properties.i, x: lngX(lng), y: latY(lat), cluster: !!f.properties.cluster };
    });
    for (const tx of new Set([0, z2 - 1, Math.floor(z2 / 2)])) {
      for (const ty of new Set([0, Math.floor(z2 / 3), z2 - 1])) {
        const expected = [];
        const windowOf = (minX, maxX, originX) => {
          for (const it of items) {
            if (it.x >= minX && it.x <= maxX && it.y >= (ty - p) / z2 && it.y <= (ty + 1 + p) / z2) {
              expected.push(`${it.id}@${Math.round(options.extent * (it.x * z2 - originX))},${Math.round(options.extent * (it.y * z2 - ty))}`);
            }
          }
        };
        windowOf((tx - p) / z2, (tx + 1 + p) / z2, tx);
        if (tx === 0) windowOf(1 - p / z2, 1, z2);
        if (tx === z2 - 1) windowOf(0, p / z2, -1);
        const tile = index.getTile(z, tx, ty);
        const got = tile ? tile.features.map((f) => `${f.id}@${f.geometry[0][0] + 0},${f.geometry[0][1] + 0}`) : [];
        assert.deepEqual(got.sort(), expected.sort(), `tile ${z}/${tx}/${ty}`);
      }
    }
  }
  index.destroy();
});

test('getTile tags and ids follow supercluster', () => {
  const features = [point(0, 0, { a: 1 }, 'x'), point(0.0001, 0, { a: 2 }), point(100, 40, { a: 3 }, 7), point(-100, -40, { a: 4 })];
  const index = new ClusterIndex().load(features);
  const tile = index.getTile(0, 0, 0);
  const cluster = tile.features.find((f) => f.tags.cluster);
  assert.equal(cluster.tags.point_count, 2);
  assert.equal(cluster.id, cluster.tags.cluster_id);
  const p3 = tile.features.find((f) => f.tags.a === 3);
  assert.equal(p3.id, 7);
  assert.equal(p3.tags, features[2].properties, 'tags are the feature’s own properties');
  assert.ok(!('id' in tile.features.find((f) => f.tags.a === 4)), 'no id for a point without one');
  const generated = new ClusterIndex({ generateId: true }).load(features);
  assert.equal(generated.getTile(0, 0, 0).features.find((f) => f.tags.a === 4).id, 3);
  assert.throws(() => index.getTile(1, 2, 0), (e) => e instanceof CairnError && e.code === 'INVALID_ARGUMENT');
  assert.throws(() => index.getTile(1.5, 0, 0), { name: 'CairnError', code: 'INVALID_ARGUMENT', message: /getTile: z must be an integer/ });
  index.destroy();
  generated.destroy();
});

test('features without geometry are skipped but keep their indices', () => {
  const features = [point(10, 10, { i: 0 }), { type: 'Feature', properties: { i: 1 }, geometry: null },
    point(-50, 20, { i: 2 }), { type: 'Feature', properties: { i: 3 } }, point(120, -30, { i: 4 })];
  const index = new ClusterIndex({ generateId: true }).load(features);
  const top = index.getClusters(WORLD, 17);
  assert.deepEqual(top.map((f) => f.properties.i).sort(), [0, 2, 4]);
  for (const f of top) assert.equal(f, features[f.properties.i]);
  const stride = index.recordStride;
  const out = new Float64Array(16 * stride);
  assert.equal(index.getClustersInto(WORLD, 17, out), 3);
  assert.deepEqual([out[0], out[stride], out[2 * stride]].sort(), [0, 2, 4]);
  const tileIds = [];
  for (let x = 0; x < 2; x++) for (let y = 0; y < 2; y++) for (const f of index.getTile(1, x, y)?.features ?? []) tileIds.push(f.id);
  assert.deepEqual([...new Set(tileIds)].sort(), [0, 2, 4]);
  // An error names the input index, not the engine's.
  const bad = [...features, point(NaN, 0)];
  assert.throws(() => index.load(bad), (e) => e instanceof CairnError && e.code === 'NON_FINITE_COORDINATE' && e.detail === 5 && /point 5\b/.test(e.message));
  index.destroy();
});

test('cluster ids lie above every input index, skipped features without geometry too', () => {
  // As in supercluster, whose ids count every input feature: otherwise a cluster could share
  // its id with a point (with generateId, in the same tile).
  const random = mulberry32(7);
  const kept = Array.from({ length: 40 }, (_, i) => point(random() * 20, random() * 20, { i, v: i }));
  const features = kept.flatMap((f, i) => [f, { type: 'Feature', properties: { i: -1 }, geometry: null }, ...(i % 2 ? [{ type: 'Feature', properties: {} }] : [])]);
  const skipped = features.length - kept.length;
  const options = { generateId: true, aggregates: { total: ['sum', 'v'] } };
  const index = new ClusterIndex(options).load(features);
  const plain = new ClusterIndex(options).load(kept);
  const stride = index.recordStride;
  const out = new Float64Array(100 * stride);
  let clusters = 0;
  for (let z = 0; z <= 6; z++) {
    const items = index.getClusters(WORLD, z);
    const plainItems = plain.getClusters(WORLD, z);
    assert.equal(items.length, plainItems.length);
    index.getClustersInto(WORLD, z, out);
    for (let k = 0; k < items.length; k++) {
      const f = items[k];
      if (!f.properties.cluster) {
        assert.equal(out[k * stride], features.indexOf(f), 'a point record holds its input index');
        continue;
      }
      clusters++;
      const expected = plainItems[k];
      assert.ok(f.id >= features.length, `cluster id ${f.id} above every input index`);
      assert.equal(f.id, expected.id + skipped);
      assert.equal(f.properties.cluster_id, f.id);
      assert.equal(out[k * stride], f.id);
      // Every query takes the ids it hands out.
      assert.deepEqual(index.getChildren(f.id).map((c) => c.properties.cluster_id ?? c.properties.i),
        plain.getChildren(expected.id).map((c) => c.properties.cluster_id === undefined ? c.properties.i : c.properties.cluster_id + skipped));
      assert.deepEqual(index.getLeaves(f.id, Infinity), plain.getLeaves(expected.id, Infinity));
      assert.equal(index.getClusterExpansionZoom(f.id), plain.getClusterExpansionZoom(expected.id));
      const total = new Float64Array(1);
      index.getAggregatesInto('total', new Float64Array([f.id]), total);
      assert.equal(total[0], expected.properties.total);
      assert.equal(f.properties.total, expected.properties.total);
    }
    for (let x = 0; x < 2 ** Math.min(z, 2); x++) {
      for (let y = 0; y < 2 ** Math.min(z, 2); y++) {
        const tile = index.getTile(Math.min(z, 2), x, y);
        const ids = tile ? tile.features.map((f) => f.id) : [];
        assert.equal(new Set(ids).size, ids.length, 'no two features of a tile share an id');
        for (const f of tile ? tile.features : []) if (f.tags.cluster) assert.ok(f.id >= features.length);
      }
    }
  }
  assert.ok(clusters > 10, 'the data forms clusters');
  // An input index is no cluster, not even one the engine would number so.
  for (const id of [kept.length, features.length - 1]) {
    assert.throws(() => index.getChildren(id), { code: 'UNKNOWN_CLUSTER', message: new RegExp(`id ${id}\\b`) });
    assert.throws(() => index.getAggregatesInto('total', new Float64Array([id]), new Float64Array(1)),
      { code: 'UNKNOWN_CLUSTER', message: new RegExp(`id ${id}\\b`) });
  }
  // The ids are fixed at load: the caller's array may change after.
  const [some] = index.getClusters(WORLD, 0).filter((f) => f.properties.cluster);
  features.push({ type: 'Feature', properties: {}, geometry: null });
  assert.equal(index.getChildren(some.id).length > 0, true);
  index.destroy();
  plain.destroy();
});

test('fast path: loadCoordinates + getClustersInto match load + getClusters', () => {
  const slow = new ClusterIndex({ radius: 50 }).load(random2k);
  const progress = [];
  const fast = new ClusterIndex({ radius: 50 }).loadCoordinates(toLngLat(random2k), { onProgress: (p) => progress.push(p) });
  const stride = fast.recordStride;
  assert.equal(stride, 4);
  const out = new Float64Array(stride * 4096);
  for (let z = 0; z <= 17; z++) {
    for (const bbox of [WORLD, [170, -60, -150, 60], [-20, 10, 40, 70]]) {
      const items = slow.getClusters(bbox, z);
      const total = fast.getClustersInto(bbox, z, out);
      assert.equal(total, items.length);
      for (let i = 0; i < total; i++) {
        const f = items[i];
        const k = i * stride;
        assert.equal(out[k], f.properties.cluster ? f.id : f.properties.i);
        assert.equal(out[k + 1], f.properties.cluster ? f.properties.point_count : 1);
        const [lng, lat] = f.geometry.coordinates;
        assert.ok(Math.abs(out[k + 2] - lng) < 1e-9 && Math.abs(out[k + 3] - lat) < 1e-9);
      }
      assert.deepEqual(ids(fast.getClusters(bbox, z)), ids(items));
    }
  }
  const [p] = fast.getClusters([10, 10, 10, 10], 17).length ? fast.getClusters([10, 10, 10, 10], 17) : fast.getClusters(WORLD, 17);
  // Minimal features for points, positioned by the engine (the index keeps no copy of the input).
  assert.deepEqual(Object.keys(p), ['type', 'properties', 'geometry']);
  assert.deepEqual(p.properties, { index: p.properties.index });
  const want = random2k[p.properties.index].geometry.coordinates;
  assert.ok(Math.abs(p.geometry.coordinates[0] - want[0]) < 1e-9 && Math.abs(p.geometry.coordinates[1] - want[1]) < 1e-9);
  // Progress: adding, then every zoom clustered.
  assert.deepEqual(progress.filter((q) => q.phase === 'add').at(-1), { phase: 'add', done: 2000, total: 2000 });
  const clustering = progress.filter((q) => q.phase === 'cluster');
  assert.equal(clustering.length, 17);
  assert.deepEqual(clustering.at(-1), { phase: 'cluster', done: 17, total: 17 });
  slow.destroy();
  fast.destroy();
});

test('getClustersInto writes only what fits and returns the total', () => {
  const index = new ClusterIndex().load(random2k);
  const all = index.getClusters(WORLD, 5);
  const stride = index.recordStride;
  const out = new Float64Array(stride * 5 + 3).fill(-7);
  assert.equal(index.getClustersInto(WORLD, 5, out), all.length);
  assert.ok(all.length > 5);
  for (let i = 0; i < 5; i++) {
    const f = all[i];
    assert.equal(out[stride * i], f.properties.cluster ? f.id : f.properties.i);
  }
  assert.deepEqual([...out.subarray(stride * 5)], [-7, -7, -7], 'nothing written past the last whole record');
  assert.equal(index.getClustersInto(WORLD, 5, new Float64Array(0)), all.length);
  // A larger buffer afterwards gets everything (the scratch buffer grows).
  const big = new Float64Array(stride * all.length);
  assert.equal(index.getClustersInto(WORLD, 5, big), all.length);
  assert.equal(big[stride * (all.length - 1) + 1], all.at(-1).properties.cluster ? all.at(-1).properties.point_count : 1);
  index.destroy();
});

test('unknown and stale cluster ids throw a CairnError and leave the index working', () => {
  const index = new ClusterIndex().load(random2k);
  const before = index.getClusters(WORLD, 3);
  const cluster = before.find((f) => f.properties.cluster);
  for (const id of [0, 5, 1999, cluster.id + 1, cluster.id + 32 * 100000, -1, 1.5, NaN, Infinity, 1e300, 'abc', undefined]) {
    for (const call of [(i) => index.getChildren(i), (i) => index.getLeaves(i), (i) => index.getClusterExpansionZoom(i)]) {
      assert.throws(() => call(id), (e) => e instanceof CairnError && e.code === 'UNKNOWN_CLUSTER' && /no cluster with id/.test(e.message), String(id));
    }
  }
  assert.deepEqual(index.getClusters(WORLD, 3), before);
  // Stale: the id of data loaded before.
  index.load(random2k.slice(0, 3));
  assert.throws(() => index.getChildren(cluster.id), (e) => e.code === 'UNKNOWN_CLUSTER' && e.detail === cluster.id);
  index.load([]);
  assert.throws(() => index.getLeaves(cluster.id), (e) => e.code === 'UNKNOWN_CLUSTER');
  index.load(random2k);
  assert.deepEqual(ids(index.getClusters(WORLD, 3)), ids(before));
  index.destroy();
});

test('bad input: an error naming the point, and nothing loaded', () => {
  const index = new ClusterIndex().load(random2k);
  const bad = random2k.slice(0, 10).concat([point(1, NaN)], random2k.slice(10, 20));
  assert.throws(() => index.load(bad), (e) => e instanceof CairnError && e.code === 'NON_FINITE_COORDINATE' && e.detail === 10 && e.message.includes('point 10 has a non-finite coordinate'));
  assert.deepEqual(index.getClusters(WORLD, 0), []);
  assert.throws(() => index.load([point(0, 0), point(10, 95)]), (e) => e.code === 'LATITUDE_OUT_OF_RANGE' && e.detail === 1 && /point 1/.test(e.message));
  assert.deepEqual(index.getClusters(WORLD, 17), []);
  assert.throws(() => index.load([point(0, 0), point(Infinity, 0)]), (e) => e.code === 'NON_FINITE_COORDINATE');
  assert.throws(() => index.load([point(0, 0), { type: 'Feature', geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] } }]),
    (e) => e instanceof CairnError && e.detail === 1 && /feature 1 has a LineString geometry/.test(e.message));
  assert.throws(() => index.load([{ type: 'Feature', geometry: { coordinates: [1, 2] } }]),
    (e) => e instanceof CairnError && e.detail === 0 && /feature 0 has a geometry without a type, not a Point/.test(e.message));
  assert.throws(() => index.load([{ type: 'Feature', geometry: { type: 'Point' } }]), (e) => e instanceof CairnError && /feature 0 has no \[lng, lat\]/.test(e.message));
  assert.throws(() => index.load([{ type: 'Feature', geometry: { type: 7, coordinates: [1, 2] } }]),
    (e) => e instanceof CairnError && /feature 0 has a geometry whose type is 7, not "Point"/.test(e.message));
  assert.throws(() => index.load([null]), (e) => e instanceof CairnError && e.detail === 0);
  assert.throws(() => index.load('nope'), { code: 'INVALID_ARGUMENT', message: /load: features must be an array/ });
  // A bad point in a later chunk of the fast path: nothing of it stays either.
  const coords = new Float64Array(2 * 70000);
  for (let i = 0; i < 70000; i++) coords[2 * i] = (i % 360) - 180;
  coords[2 * 68000 + 1] = -90.5;
  assert.throws(() => index.loadCoordinates(coords), (e) => e.code === 'LATITUDE_OUT_OF_RANGE' && e.detail === 68000);
  assert.deepEqual(index.getClusters(WORLD, 0), []);
  assert.throws(() => index.loadCoordinates(new Float64Array(3)), { code: 'INVALID_ARGUMENT', message: /loadCoordinates: expected/ });
  // Latitudes exactly ±90 and longitudes past ±180 are fine (longitudes wrap).
  index.load([point(0, 90), point(0, -90), point(540, 0)]);
  assert.equal(index.getClusters(WORLD, 17).length, 3);
  index.destroy();
});

test('values no conversion can take are refused with a code, never a TypeError', () => {
  const index = new ClusterIndex();
  const noString = Object.create(null);   // Number() and String() both throw on it
  const feature = (coordinates) => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates } });
  assert.throws(() => index.load([feature([Symbol('x'), 0])]), { code: 'NON_FINITE_COORDINATE', detail: 0 });
  assert.throws(() => index.load([feature([0, 0]), feature([10n, noString])]), { code: 'NON_FINITE_COORDINATE', detail: 1 });
  assert.throws(() => index.loadCoordinates([0, Symbol('y')]), { code: 'NON_FINITE_COORDINATE', detail: 0 });
  assert.throws(() => index.load([feature({ length: Symbol('n') })]), { name: 'CairnError', detail: 0, message: /no \[lng, lat\]/ });
  index.loadCoordinates([1, 2, 3, 4]);
  assert.throws(() => index.getClusters({ length: Symbol('n') }, 1), { code: 'INVALID_ARGUMENT', message: /bbox must be/ });
  assert.throws(() => index.getTile(noString, 0, 0), { code: 'INVALID_ARGUMENT', message: /z must be an integer, got an object that cannot be shown/ });
  assert.throws(() => index.getChildren(Symbol('id')), { name: 'CairnError' });
  assert.throws(() => new ClusterIndex({ maxZoom: noString }), { code: 'INVALID_OPTION', detail: 3 });
  const sums = new ClusterIndex({ aggregates: { total: ['sum', 'v'] } }).loadCoordinates([1, 2, 1, 2], { values: { v: [Symbol('v'), 5] } });
  assert.equal(sums.getClusters(WORLD, 0)[0].properties.total, 5, 'a value that is no number counts as none');
  index.destroy();
  sums.destroy();
});

test('bad options: the engine says which one', () => {
  const optionError = (name) => (e) => e instanceof CairnError && e.code === 'INVALID_OPTION' && e.message.includes(name);
  assert.throws(() => new ClusterIndex({ radius: -1 }), optionError('radius'));
  assert.throws(() => new ClusterIndex({ radius: NaN }), optionError('radius'));
  assert.throws(() => new ClusterIndex({ extent: 0 }), optionError('extent'));
  assert.throws(() => new ClusterIndex({ minZoom: -1 }), optionError('minZoom'));
  assert.throws(() => new ClusterIndex({ maxZoom: 31 }), optionError('maxZoom'));
  assert.throws(() => new ClusterIndex({ minZoom: 5, maxZoom: 3 }), optionError('maxZoom'));
  assert.throws(() => new ClusterIndex({ minPoints: 0 }), optionError('minPoints'));
  assert.throws(() => new ClusterIndex({ maxZoom: 2 ** 32 + 16 }), optionError('maxZoom'), 'no wrap-around to 16');
  // Options of the wrong type are refused before the engine sees them, with the engine's code
  // and field number.
  assert.throws(() => new ClusterIndex({ radius: '40' }), (e) => optionError('radius')(e) && e.detail === 0);
  assert.throws(() => new ClusterIndex({ maxZoom: 1.5 }), (e) => optionError('maxZoom')(e) && e.detail === 3);
  assert.throws(() => new ClusterIndex({ reduce: 5 }), (e) => optionError('reduce must be a function')(e) && e.detail === -1);
  assert.throws(() => new ClusterIndex({ map: 'x', reduce: () => {} }), (e) => optionError('map must be a function')(e) && e.detail === -1);
  assert.throws(() => new ClusterIndex(5), { name: 'CairnError', code: 'INVALID_ARGUMENT' });
  // What supercluster takes without computing anything: no options at all, its own default
  // reduce (null), and map without reduce (map only feeds reduce).
  for (const options of [null, { reduce: null, map: null }, { reduce: false }, { map: (p) => p }]) {
    const taken = new ClusterIndex(options);
    assert.equal(taken.options.radius, 40);
    taken.destroy();
  }
  const ok = new ClusterIndex({ radius: 40, maxZoom: undefined, log: true });
  assert.equal(ok.options.maxZoom, 16);
  ok.destroy();
});

test('queries before load, and after destroy, are CairnErrors', () => {
  const index = new ClusterIndex();
  assert.throws(() => index.getClusters(WORLD, 0), (e) => e.code === 'INVALID_STATE' && /load\(\)/.test(e.message));
  index.load(random2k);
  index.destroy();
  index.destroy();
  assert.throws(() => index.getClusters(WORLD, 0), (e) => e instanceof CairnError && e.code === 'INVALID_HANDLE' && /destroy/.test(e.message));
  assert.throws(() => index.getTile(0, 0, 0), (e) => e.code === 'INVALID_HANDLE');
  assert.throws(() => index.load(random2k), (e) => e.code === 'INVALID_HANDLE');
  // Other indexes are unaffected, including one reusing the freed slot.
  const other = new ClusterIndex().load(random2k);
  assert.ok(other.getClusters(WORLD, 0).length > 0);
  other.destroy();
});

test('loading again replaces the data and does not leak wasm memory', async () => {
  const { memory } = await init();
  const index = new ClusterIndex().load(random2k);
  for (let i = 0; i < 3; i++) index.load(random2k);
  const size = memory.buffer.byteLength;
  for (let i = 0; i < 30; i++) {
    index.load(random2k);
    index.getLeaves(index.getClusters(WORLD, 0).find((f) => f.properties.cluster).id, Infinity);
    new ClusterIndex().load(random2k).destroy();
  }
  assert.equal(memory.buffer.byteLength, size);
  index.destroy();
});

test('more points than an index can hold is a clear error, before anything is copied', () => {
  const index = new ClusterIndex();
  // A typed array is trusted for its length: 2^24 + 1 points are refused up front.
  const tooMany = new Float64Array(2 * (2 ** 24 + 1));
  assert.throws(() => index.loadCoordinates(tooMany), (e) => e instanceof CairnError && e.code === 'TOO_MANY_POINTS');
  // The index is empty and usable afterwards.
  assert.deepEqual(index.getClusters([-180, -90, 180, 90], 0), []);
  index.loadCoordinates(new Float64Array([1, 2, 3, 4]));
  assert.equal(index.getClusters([-180, -90, 180, 90], 20).length, 2);
  index.destroy();
});

test('the 32,768th index at once is refused as too many indexes, not as a wrong state', () => {
  const live = [];
  let error = null;
  try {
    for (;;) live.push(new ClusterIndex());
  } catch (e) {
    error = e;
  }
  assert.ok(live.length >= 32_767 - 16, `${live.length} indexes`);
  assert.ok(error instanceof CairnError, String(error));
  assert.equal(error.code, 'TOO_MANY_INDEXES');
  assert.match(error.message, /^ClusterIndex: too many indexes at once: at most 32767 can exist \(destroy one first\)$/);
  assert.equal(error.detail, 32_767);
  for (const index of live) index.destroy();
  new ClusterIndex().load(random2k).destroy();
});

test('aggregated cluster properties (feature C9) match their leaves, through load and loadCoordinates', () => {
  const random = mulberry32(8);
  const features = [];
  for (let i = 0; i < 3000; i++) {
    const around = i % 3 === 0;
    features.push({
      type: 'Feature',
      properties: { population: i % 7 === 0 ? null : Math.round(random() * 1000), name: `p${i}` },
      geometry: { type: 'Point', coordinates: [around ? 2.35 + random() * 0.5 : random() * 360 - 180, around ? 48.85 + random() * 0.5 : random() * 170 - 85] },
    });
  }
  const aggregates = { total: ['sum', 'population'], least: ['min', 'population'], most: ['max', 'population'],
    counted: ['count', 'population'], average: ['mean', 'population'] };
  const index = new ClusterIndex({ aggregates }).load(features);
  let checked = 0;
  for (const zoom of [0, 4, 9]) {
    for (const f of index.getClusters(WORLD, zoom)) {
      if (!f.properties.cluster) continue;
      const values = index.getLeaves(f.properties.cluster_id, Infinity).map((leaf) => leaf.properties.population).filter((v) => typeof v === 'number');
      const p = f.properties;
      assert.equal(p.total, values.reduce((a, b) => a + b, 0));
      assert.equal(p.counted, values.length);
      if (values.length) {
        assert.equal(p.least, Math.min(...values));
        assert.equal(p.most, Math.max(...values));
        assert.ok(Math.abs(p.average - p.total / values.length) < 1e-9);
      } else {
        assert.ok(Number.isNaN(p.least) && Number.isNaN(p.average));
      }
      checked++;
    }
  }
  assert.ok(checked > 10);
  // Tiles carry them on cluster tags too.
  const tile = index.getTile(0, 0, 0);
  const clusterTag = tile.features.find((f) => f.tags.cluster).tags;
  assert.equal(typeof clusterTag.total, 'number');

  // The fast path takes the values per property.
  const lngLat = new Float64Array(features.flatMap((f) => f.geometry.coordinates));
  const population = Float64Array.from(features, (f) => (typeof f.properties.population === 'number' ? f.properties.population : NaN));
  const fast = new ClusterIndex({ aggregates }).loadCoordinates(lngLat, { values: { population } });
  assert.deepEqual(fast.getClusters(WORLD, 3).map((f) => f.properties.total), index.getClusters(WORLD, 3).map((f) => f.properties.total));
  assert.throws(() => new ClusterIndex({ aggregates }).loadCoordinates(lngLat), /values\.population/);
  assert.throws(() => new ClusterIndex({ aggregates: { x: ['median', 'population'] } }), { code: 'INVALID_OPTION', detail: -1, message: /aggregate x must be/ });
  // An infinite value is refused, naming the input's feature (features without geometry
  // before it count, as they do for coordinates), and the index is left empty.
  const withInfinity = [{ type: 'Feature', properties: {}, geometry: null }, { type: 'Feature', properties: {}, geometry: null },
    { ...point(1, 1), properties: { population: 1 } }, { ...point(1, 1), properties: { population: -Infinity } }];
  const refusing = new ClusterIndex({ aggregates });
  assert.throws(() => refusing.load(withInfinity), { code: 'NON_FINITE_VALUE', detail: 3, message: /point 3 has an infinite value/ });
  assert.deepEqual(refusing.getClusters(WORLD, 0), []);
  index.destroy();
  fast.destroy();
});

test('map and reduce: clusters carry what supercluster\'s functions accumulate over their points', () => {
  const features = randomPoints(2000, 7).map((f, i) => ({ ...f, properties: { n: i % 97, name: `p${i}` } }));
  const before = JSON.stringify(features);
  let mapped = 0;
  const options = {
    // point_count here must not win over the cluster's own.
    map: (p) => { mapped++; return { sum: p.n, max: p.n, point_count: 'mine' }; },
    reduce: (a, b) => { a.sum += b.sum; a.max = Math.max(a.max, b.max); },
    aggregates: { total: ['sum', 'n'] },
  };
  const index = new ClusterIndex(options).load(features);
  assert.equal(mapped, 0, 'nothing is computed while loading');
  const leavesOf = (id) => index.getLeaves(id, Infinity).map((f) => f.properties.n);
  let checked = 0;
  for (let z = 0; z <= 16; z += 4) {
    for (const f of index.getClusters(WORLD, z).filter((c) => c.properties.cluster)) {
      const n = leavesOf(f.id);
      assert.equal(f.properties.sum, n.reduce((a, b) => a + b, 0), `zoom ${z} cluster ${f.id}`);
      assert.equal(f.properties.max, Math.max(...n));
      assert.equal(f.properties.total, f.properties.sum, 'aggregates come too');
      assert.equal(f.properties.point_count, n.length, 'the cluster\'s own fields win');
      assert.equal(f.properties.cluster, true);
      checked++;
    }
  }
  assert.ok(checked > 50, `${checked} clusters checked`);
  const cluster = index.getClusters(WORLD, 0).find((c) => c.properties.cluster);
  const child = index.getChildren(cluster.id).find((c) => c.properties.cluster);
  assert.equal(child.properties.sum, leavesOf(child.id).reduce((a, b) => a + b, 0), 'children carry them');
  const tile = index.getTile(0, 0, 0).features.find((f) => f.tags.cluster);
  assert.equal(tile.tags.sum, leavesOf(tile.id).reduce((a, b) => a + b, 0), 'tiles\' tags carry them');
  // Without map, reduce folds the points' own properties: the first child's are copied first.
  const identity = new ClusterIndex({ reduce: (a, b) => { a.n += b.n; } }).load(features);
  for (let z = 0; z <= 16; z++) identity.getClusters(WORLD, z);
  assert.equal(identity.getClusters(WORLD, 0).find((c) => c.properties.cluster).properties.n,
    leavesOf(index.getClusters(WORLD, 0).find((c) => c.properties.cluster).id).reduce((a, b) => a + b, 0));
  identity.destroy();
  assert.equal(JSON.stringify(features), before, 'the points\' own properties are left as they were');
  // Computed once per cluster: asking again maps nothing more.
  const count = mapped;
  index.getClusters(WORLD, 0);
  assert.equal(mapped, count);
  // A new load starts afresh; the fast path's points have {index} as properties.
  index.loadCoordinates(toLngLat(features.slice(0, 500)), { values: { n: features.slice(0, 500).map((f) => f.properties.n) } });
  const fast = index.getClusters(WORLD, 0).find((c) => c.properties.cluster);
  assert.ok(Number.isNaN(fast.properties.sum), 'map read {index}, which has no n');
  const throwing = new ClusterIndex({ reduce: () => { throw new Error('app bug'); } }).load(features);
  assert.throws(() => throwing.getClusters(WORLD, 0), /app bug/, 'an error of the app\'s functions reaches the caller');
  // The app's functions may query the index, but not load it, nor ask for a cluster being folded.
  for (const [call, args] of [['load', [features.slice(0, 300)]], ['getClusters', [WORLD, 0]]]) {
    /** @type {{error: any} | null} */
    let seen = null;
    const probe = new ClusterIndex({ reduce: () => {
      if (seen) return;
      seen = { error: null };
      try { probe[call](...args); } catch (e) { seen.error = e; }
    } }).load(features);
    probe.getClusters(WORLD, 0);
    assert.equal(seen?.error?.code, 'INVALID_STATE', `${call} inside reduce`);
    assert.ok(probe.getClusters(WORLD, 0).some((c) => c.properties.cluster), 'the index still answers');
    probe.destroy();
  }
  index.destroy();
  throwing.destroy();
});

test('getAggregatesInto gives the aggregates of getClustersInto records, as getClusters has them', () => {
  const random = mulberry32(9);
  const n = 2000;
  const lngLat = new Float64Array(2 * n);
  const population = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    lngLat[2 * i] = 10 + random() * 5;
    lngLat[2 * i + 1] = 40 + random() * 5;
    population[i] = i % 5 === 0 ? NaN : Math.round(random() * 100);
  }
  const aggregates = { total: ['sum', 'population'], most: ['max', 'population'] };
  const index = new ClusterIndex({ aggregates }).loadCoordinates(lngLat, { values: { population } });
  const out = new Float64Array(index.recordStride * n);
  const total = index.getClustersInto(WORLD, 5, out);
  const ids = [];
  for (let k = 0; k < total; k++) if (out[k * index.recordStride + 1] > 1) ids.push(out[k * index.recordStride]);
  assert.ok(ids.length > 3);
  const expected = new Map(index.getClusters(WORLD, 5).filter((f) => f.properties.cluster).map((f) => [f.id, f.properties]));
  for (const name of ['total', 'most']) {
    const values = new Float64Array(ids.length);
    assert.equal(index.getAggregatesInto(name, Float64Array.from(ids), values), ids.length);
    ids.forEach((id, k) => assert.equal(values[k], expected.get(id)[name]));
  }
  assert.throws(() => index.getAggregatesInto('nope', new Float64Array(1), new Float64Array(1)), { code: 'INVALID_ARGUMENT', message: /no aggregate named "nope"/ });
  assert.throws(() => index.getAggregatesInto('total', new Float64Array(2), new Float64Array(1)), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => index.getAggregatesInto('total', new Float64Array([12345.5]), new Float64Array(1)), CairnError);
  const empty = new ClusterIndex({ aggregates });
  assert.throws(() => empty.getAggregatesInto('total', new Float64Array(1), new Float64Array(1)), { code: 'INVALID_STATE' });
  empty.destroy();
  index.destroy();
});

test('placement: the bounds of the points as the engine placed them, and how many it moved', () => {
  const index = new ClusterIndex();
  assert.deepEqual(index.loadCoordinates(new Float64Array([])).placement(), { bounds: [-180, -85.0511287798066, 180, 85.0511287798066], moved: 0 });
  // 190° wraps to -170°, 89° clamps to the map's edge.
  index.loadCoordinates(new Float64Array([10, 20, 190, 0, -30, 89, 170, -40]));
  const { bounds, moved } = index.placement();
  assert.equal(moved, 2);
  const expected = [-170, -40, 170, 85.0511287798066];
  bounds.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) < 1e-9, `${bounds} ≈ ${expected}`));
  index.destroy();
  assert.throws(() => index.placement(), (e) => e instanceof CairnError && e.code === 'INVALID_HANDLE');
});
