// Saved indexes through the bindings: ClusterIndex.save() and ClusterIndex.from() give an index
// that answers every query as the original (seeded data, features skipped, aggregates, map and
// reduce given again), and a damaged buffer (random truncations, bit flips) is refused with
// INVALID_SAVED_INDEX, never a trap.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, ClusterIndex, CairnError } from '../../src/index.js';
import { mulberry32, clustered } from '../../bench/generate.js';

const WORLD = [-180, -90, 180, 90];
const ACROSS = [170, -60, -170, 60];

function features(n, seed) {
  const random = mulberry32(seed);
  const lngLat = clustered(n, random);
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({ type: 'Feature', id: `f${i}`, properties: { i, v: Math.floor(random() * 100) },
      geometry: { type: 'Point', coordinates: [lngLat[2 * i], lngLat[2 * i + 1]] } });
  }
  out[5] = { type: 'Feature', properties: { i: 5 }, geometry: null };
  return out;
}

function assertSame(a, b, maxZoom) {
  let clusters = 0;
  for (let z = 0; z <= maxZoom + 1; z++) {
    for (const bbox of [WORLD, ACROSS]) {
      const expected = a.getClusters(bbox, z);
      assert.deepEqual(b.getClusters(bbox, z), expected, `getClusters z${z}`);
      for (const c of expected.filter((f) => f.properties?.cluster).slice(0, 10)) {
        clusters++;
        const id = c.properties.cluster_id;
        assert.deepEqual(b.getChildren(id), a.getChildren(id));
        assert.deepEqual(b.getLeaves(id, Infinity), a.getLeaves(id, Infinity));
        assert.equal(b.getClusterExpansionZoom(id), a.getClusterExpansionZoom(id));
      }
    }
    for (let x = 0; x < Math.min(2 ** z, 4); x++) {
      for (let y = 0; y < Math.min(2 ** z, 4); y++) assert.deepEqual(b.getTile(z, x, y), a.getTile(z, x, y), `getTile ${z}/${x}/${y}`);
    }
  }
  assert.ok(clusters > 20, 'the data clusters');
}

before(async () => { await init(); });

test('a restored index answers as the original: features, skipped geometry, aggregates', () => {
  const data = features(3000, 29);
  const options = { radius: 50, maxZoom: 12, generateId: true, aggregates: { total: ['sum', 'v'], top: ['max', 'v'] } };
  const index = new ClusterIndex(options).load(data);
  const saved = index.save();
  assert.ok(saved instanceof ArrayBuffer);
  const restored = ClusterIndex.from(saved, { points: data });
  assert.deepEqual(restored.options.aggregates, index.options.aggregates);
  assertSame(index, restored, 12);
  // Without the features, points come back as loadCoordinates makes them, with their input index.
  const bare = ClusterIndex.from(saved);
  const leaf = bare.getClusters(WORLD, 13).find((f) => f.properties.index === 9);
  // At the engine's position (the input's, through the projection and back).
  leaf.geometry.coordinates.forEach((v, k) => assert.ok(Math.abs(v - data[9].geometry.coordinates[k]) < 1e-9));
  assert.throws(() => ClusterIndex.from(saved, { points: data.slice(1) }), { code: 'INVALID_ARGUMENT' });
  // Saved again, the restored index gives the same bytes.
  assert.deepEqual(new Uint8Array(restored.save()), new Uint8Array(saved));
  for (const i of [index, restored, bare]) i.destroy();
});

test('loadCoordinates data with minPoints 3 restores, and the buffer can be sent as a view', () => {
  const lngLat = clustered(4000, mulberry32(3));
  const index = new ClusterIndex({ minPoints: 3, maxZoom: 10 }).loadCoordinates(lngLat);
  const saved = index.save();
  const restored = ClusterIndex.from(new Uint8Array(saved));
  assertSame(index, restored, 10);
});

test('map and reduce are not saved: from() needs them again, and then folds as the original', () => {
  const data = features(1500, 8);
  const options = { map: (p) => ({ sum: p.v }), reduce: (acc, p) => { acc.sum += p.sum; } };
  const index = new ClusterIndex(options).load(data);
  const saved = index.save();
  assert.throws(() => ClusterIndex.from(saved), (e) => e instanceof CairnError && e.code === 'INVALID_ARGUMENT' && /map\/reduce/.test(e.message));
  const restored = ClusterIndex.from(saved, { points: data, ...options });
  assertSame(index, restored, 16);
});

test('truncated, other-version and altered buffers are refused with INVALID_SAVED_INDEX', () => {
  const index = new ClusterIndex().loadCoordinates(clustered(1000, mulberry32(5)));
  const good = new Uint8Array(index.save());
  const refused = (bytes) => {
    try {
      ClusterIndex.from(bytes).destroy();
      return null;
    } catch (error) {
      assert.ok(error instanceof CairnError, String(error));
      assert.equal(error.code, 'INVALID_SAVED_INDEX', error.message);
      return error.detail;
    }
  };
  assert.equal(refused(good.slice(0, 100)), 0);
  assert.equal(refused(new Uint8Array(64)), 1);
  const other = good.slice();
  other[8] = 9;
  assert.equal(refused(other), 2);
  assert.match((() => { try { ClusterIndex.from(other); } catch (e) { return e.message; } })(), /another format version/);
  const random = mulberry32(77);
  for (let k = 0; k < 300; k++) {
    const cut = Math.floor(random() * good.length);
    assert.notEqual(refused(good.slice(0, cut)), null, `cut at ${cut}`);
    const flipped = good.slice();
    const at = 16 + Math.floor(random() * (good.length - 16));
    flipped[at] ^= 1 << Math.floor(random() * 8);
    assert.equal(refused(flipped), at < 32 ? refused(flipped) : 3, `flip at ${at}`);
  }
  assert.throws(() => ClusterIndex.from('nope'), { code: 'INVALID_ARGUMENT' });
  // The module still works after every refusal.
  assertSame(index, ClusterIndex.from(good), 16);
});

test('a WorkerClusterIndex hands its built index to this thread: the buffer is transferred and restores here', async () => {
  const { WorkerClusterIndex } = await import('../../src/index.js');
  const data = features(2500, 41);
  const remote = new WorkerClusterIndex({ maxZoom: 14, aggregates: { total: ['sum', 'v'] } });
  await remote.load(data);
  const saved = await remote.save();
  assert.ok(saved instanceof ArrayBuffer && saved.byteLength > 0);
  const restored = ClusterIndex.from(saved, { points: data });
  const local = new ClusterIndex({ maxZoom: 14, aggregates: { total: ['sum', 'v'] } }).load(data);
  assertSame(local, restored, 14);
  // The transferred buffer is the worker's own save, byte for byte what this thread would save.
  assert.deepEqual(new Uint8Array(saved), new Uint8Array(local.save()));
  await remote.destroy();
});
