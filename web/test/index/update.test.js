// ClusterIndex.update through the bindings: after batches of adds, removes and moves, every
// query answers exactly as a fresh load of the features left (a removed one stands as a feature
// without geometry, so ids keep counting as they did), ids included; bad edits change nothing.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, ClusterIndex, CairnError } from '../../src/index.js';
import { mulberry32, clustered } from '../../bench/generate.js';

const WORLD = [-180, -90, 180, 90];
const ACROSS = [170, -60, -170, 60];
const point = (lng, lat, i) => ({ type: 'Feature', properties: { i }, geometry: { type: 'Point', coordinates: [lng, lat] } });

before(async () => { await init(); });

function assertSameAnswers(ours, fresh, maxZoom, what) {
  for (let z = 0; z <= maxZoom + 1; z++) {
    for (const bbox of [WORLD, ACROSS]) {
      const expected = fresh.getClusters(bbox, z);
      assert.deepEqual(ours.getClusters(bbox, z), expected, `${what}: getClusters z${z}`);
      for (const c of expected.filter((f) => f.properties?.cluster).slice(0, 12)) {
        const id = c.properties.cluster_id;
        assert.deepEqual(ours.getChildren(id), fresh.getChildren(id), `${what}: children z${z}`);
        assert.deepEqual(ours.getLeaves(id, 5, 2), fresh.getLeaves(id, 5, 2), `${what}: leaves z${z}`);
        assert.equal(ours.getClusterExpansionZoom(id), fresh.getClusterExpansionZoom(id));
      }
    }
    if (z <= 3) {
      for (let x = 0; x < 2 ** z; x++) {
        for (let y = 0; y < 2 ** z; y++) assert.deepEqual(ours.getTile(z, x, y), fresh.getTile(z, x, y), `${what}: tile ${z}/${x}/${y}`);
      }
    }
  }
}

test('updates of a load() index answer as a fresh load of the features left', () => {
  const random = mulberry32(41);
  const lngLat = clustered(3000, random);
  const features = Array.from({ length: 3000 }, (_, i) => point(lngLat[2 * i], lngLat[2 * i + 1], i));
  features[7] = { type: 'Feature', properties: { i: 7 }, geometry: null };   // skipped, still counted
  const options = { radius: 60, maxZoom: 14 };
  const index = new ClusterIndex(options).load(features);
  const model = features.slice();
  for (let batch = 0; batch < 5; batch++) {
    const live = () => {
      for (;;) {
        const i = Math.floor(random() * model.length * (random() < 0.3 ? 0.02 : 1));
        if (model[i].geometry) return i;
      }
    };
    const remove = [...new Set(Array.from({ length: 12 }, live))];
    const move = [...new Set(Array.from({ length: 20 }, live))].filter((i) => !remove.includes(i)).map((id, k) => ({
      id, coordinates: k % 3 === 0 ? [179.99 - 359.98 * (k % 2), 10] : [lngLat[2 * k] + 0.01, lngLat[2 * k + 1]] }));
    const add = Array.from({ length: 15 }, (_, k) => point(k < 5 ? 2.35 : random() * 360 - 180, k < 5 ? 48.85 : random() * 170 - 85, -k));
    add.push({ type: 'Feature', properties: {}, geometry: null });
    const first = index.update({ add, remove, move });
    assert.equal(first, model.length);
    for (const id of remove) model[id] = { type: 'Feature', properties: model[id].properties, geometry: null };
    for (const m of move) model[m.id] = { ...model[m.id], geometry: { type: 'Point', coordinates: m.coordinates } };
    model.push(...add);
    assert.equal(index.points.length, model.length);
    for (const m of move) assert.deepEqual(index.points[m.id].geometry.coordinates, m.coordinates);
    assertSameAnswers(index, new ClusterIndex(options).load(model), 14, `batch ${batch}`);
  }
});

test('a loadCoordinates() index, updated, saved and restored, answers as the same load() index updated', () => {
  const random = mulberry32(42);
  const lngLat = clustered(2000, random);
  const byPairs = new ClusterIndex({ maxZoom: 12 }).loadCoordinates(lngLat);
  const byFeatures = new ClusterIndex({ maxZoom: 12 }).load(Array.from({ length: 2000 }, (_, i) => point(lngLat[2 * i], lngLat[2 * i + 1], i)));
  const move = [{ id: 3, coordinates: [10, 10.0002] }, { id: 1500, coordinates: [179.999, 5] }];
  assert.equal(byPairs.update({ add: [10, 10, 10.0001, 10, -180, 5], remove: [0, 1, 2], move }), 2000);
  assert.equal(byFeatures.update({ add: [point(10, 10, 2000), point(10.0001, 10, 2001), point(-180, 5, 2002)], remove: [0, 1, 2], move }), 2000);
  // The same clusters and points: points named by their index either way.
  const shape = (f) => [f.properties.cluster ? f.id : (f.properties.index ?? f.properties.i), f.properties.point_count ?? 1,
    f.geometry.coordinates.map((c) => Math.round(c * 1e9))];
  for (const ix of [byPairs, ClusterIndex.from(byPairs.save())]) {
    for (let z = 0; z <= 13; z++) {
      for (const bbox of [WORLD, ACROSS]) assert.deepEqual(ix.getClusters(bbox, z).map(shape), byFeatures.getClusters(bbox, z).map(shape), `zoom ${z}`);
    }
  }
});

test('bad updates are refused with a clear error and change nothing', () => {
  const index = new ClusterIndex().load(Array.from({ length: 50 }, (_, i) => point(i, i / 2, i)));
  let before = index.getClusters(WORLD, 3);
  const refused = (changes, code, message) => {
    assert.throws(() => index.update(changes), (e) => e instanceof CairnError && e.code === code && (!message || message.test(e.message)));
    assert.deepEqual(index.getClusters(WORLD, 3), before);
    assert.equal(index.points.length, 50);
  };
  refused({ remove: [50] }, 'UNKNOWN_POINT', /no point with id 50/);
  refused({ remove: [3, 3] }, 'INVALID_ARGUMENT');
  refused({ move: [{ id: 4, coordinates: [0, 95] }] }, 'LATITUDE_OUT_OF_RANGE', /point 4/);
  refused({ add: [point(NaN, 0, 0)] }, 'NON_FINITE_COORDINATE', /point 50/);
  refused({ add: [{ type: 'Feature', geometry: { type: 'LineString', coordinates: [] } }] }, 'INVALID_ARGUMENT', /feature 0 of add/);
  refused({ add: [1, 2] }, 'INVALID_ARGUMENT', /feature 0 of add is not a GeoJSON feature/);
  refused({ add: 'x' }, 'INVALID_ARGUMENT', /GeoJSON Point features/);
  refused({ move: [{ id: 1 }] }, 'INVALID_ARGUMENT', /move 0/);
  index.update({ remove: [9] });
  before = index.getClusters(WORLD, 3);
  assert.equal(index.getClusters(WORLD, 20).length, 49);
  refused({ move: [{ id: 9, coordinates: [1, 1] }] }, 'UNKNOWN_POINT', /no point with id 9/);
  const summed = new ClusterIndex({ aggregates: { n: ['sum', 'i'] } }).load([point(0, 0, 1), point(0, 0, 2)]);
  assert.throws(() => summed.update({ remove: [0] }), (e) => e.code === 'INVALID_STATE' && /aggregates/.test(e.message));
  assert.throws(() => new ClusterIndex().update({}), (e) => e.code === 'INVALID_STATE');
});

test('map and reduce fold the updated clusters as a fresh load folds them', () => {
  const random = mulberry32(43);
  const lngLat = clustered(1500, random);
  const options = { maxZoom: 10, map: (p) => ({ sum: p.i }), reduce: (a, b) => { a.sum += b.sum; } };
  const features = Array.from({ length: 1500 }, (_, i) => point(lngLat[2 * i], lngLat[2 * i + 1], i));
  const index = new ClusterIndex(options).load(features);
  index.getClusters(WORLD, 3);   // folds some clusters, which the update must not keep
  index.update({ add: [point(lngLat[0], lngLat[1], 5000)], remove: [1, 2], move: [{ id: 3, coordinates: [lngLat[8], lngLat[9]] }] });
  const model = index.points.map((f, i) => (i === 1 || i === 2 ? { ...f, geometry: null } : f));
  const fresh = new ClusterIndex(options).load(model);
  for (const z of [0, 3, 6, 9]) assert.deepEqual(index.getClusters(WORLD, z), fresh.getClusters(WORLD, z), `zoom ${z}`);
});
