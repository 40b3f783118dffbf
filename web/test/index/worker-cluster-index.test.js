// WorkerClusterIndex: a ClusterIndex on a worker_threads thread gives exactly the results of
// one on this thread, with typed arrays transferred, errors as CairnErrors with the engine's
// codes, and destroy() ending the thread.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { init, ClusterIndex, WorkerClusterIndex, CairnError } from '../../src/index.js';
import { mulberry32, clustered } from '../../bench/generate.js';

const WORLD = [-180, -90, 180, 90];
const ACROSS_ANTIMERIDIAN = [170, -60, -170, 60];

/** Seeded features with a numeric property, some sharing one properties object, one without geometry. */
function features(n, seed) {
  const random = mulberry32(seed);
  const lngLat = clustered(n, random);
  const shared = { kind: 'shared' };
  const out = [];
  for (let i = 0; i < n; i++) {
    const properties = i % 50 === 0 ? shared : { i, v: Math.floor(random() * 100) };
    out.push({ type: 'Feature', id: `f${i}`, properties, geometry: { type: 'Point', coordinates: [lngLat[2 * i], lngLat[2 * i + 1]] } });
  }
  out[7] = { type: 'Feature', properties: { i: 7 }, geometry: null };
  return out;
}

/**
 * Every query of both indexes at every zoom, compared: clusters in two boxes, then each
 * cluster's children, leaves (all, and a page) and expansion zoom, and the tiles under
 * the clusters. With `own`, point features (and tiles' point tags) must be the very same objects.
 */
async function assertSameResults(local, remote, maxZoom, own) {
  let clusters = 0;
  for (let z = 0; z <= maxZoom + 1; z++) {
    for (const bbox of [WORLD, ACROSS_ANTIMERIDIAN]) {
      const expected = local.getClusters(bbox, z);
      const actual = await remote.getClusters(bbox, z);
      assert.deepEqual(actual, expected, `getClusters z${z}`);
      if (own) expected.forEach((f, k) => { if (!f.properties?.cluster) assert.equal(actual[k], f, 'the caller’s own point feature'); });
      for (const c of expected.filter((f) => f.properties?.cluster).slice(0, 8)) {
        clusters++;
        const id = c.properties.cluster_id;
        assert.deepEqual(await remote.getChildren(id), local.getChildren(id), `getChildren ${id}`);
        const leaves = local.getLeaves(id, Infinity);
        const remoteLeaves = await remote.getLeaves(id, Infinity);
        assert.deepEqual(remoteLeaves, leaves, `getLeaves ${id}`);
        if (own) leaves.forEach((f, k) => assert.equal(remoteLeaves[k], f));
        assert.deepEqual(await remote.getLeaves(id, 3, 2), local.getLeaves(id, 3, 2));
        assert.equal(await remote.getClusterExpansionZoom(id), local.getClusterExpansionZoom(id));
        const [lng, lat] = c.geometry.coordinates;
        const n = 2 ** z;
        const x = Math.min(n - 1, Math.floor(((lng + 180) / 360) * n));
        const s = Math.sin((lat * Math.PI) / 180);
        const y = Math.min(n - 1, Math.max(0, Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)));
        const tile = local.getTile(z, x, y);
        const remoteTile = await remote.getTile(z, x, y);
        assert.deepEqual(remoteTile, tile, `getTile ${z}/${x}/${y}`);
        if (own) tile?.features.forEach((f, k) => { if (!f.tags?.cluster) assert.equal(remoteTile?.features[k].tags, f.tags); });
      }
    }
  }
  assert.equal(await remote.getTile(3, 7, 7), local.getTile(3, 7, 7));   // empty: null both
  assert.ok(clusters > 50, `compared ${clusters} clusters`);
}

/** The fields of an error a test compares. */
const fields = (e) => ({ name: e.name, code: e.code, status: e.status, detail: e.detail, message: e.message, cairn: e instanceof CairnError });

/** What a call throws (sync) or rejects with. */
async function failure(run) {
  try {
    await run();
  } catch (error) {
    return error;
  }
  assert.fail('expected the call to fail');
}

before(async () => { await init(); });

test('load: the same clusters, children, leaves, tiles and expansion zooms as ClusterIndex, with the caller’s objects', async () => {
  const data = features(6000, 11);
  const options = { radius: 60, maxZoom: 12, generateId: false, aggregates: { total: ['sum', 'v'] } };
  const local = new ClusterIndex(options).load(data);
  const remote = new WorkerClusterIndex(options);
  try {
    assert.equal(await remote.load(data), remote);
    assert.deepEqual(remote.options, local.options);
    assert.equal(remote.points, data);
    await assertSameResults(local, remote, options.maxZoom, true);
  } finally {
    local.destroy();
    await remote.destroy();
  }
});

test('update: the thread repairs its index as ClusterIndex does, and points here follow', async () => {
  const options = { radius: 60, maxZoom: 12 };
  const mine = features(4000, 12), theirs = features(4000, 12);
  const local = new ClusterIndex(options).load(mine);
  const remote = new WorkerClusterIndex(options);
  try {
    await remote.load(theirs);
    const changes = () => ({
      add: [{ type: 'Feature', properties: { i: -1 }, geometry: { type: 'Point', coordinates: [2.35, 48.85] } }],
      remove: [0, 1, 2, 40],
      move: [{ id: 3, coordinates: [179.99, 0] }, { id: 41, coordinates: [2.35, 48.8501] }],
    });
    assert.equal(await remote.update(changes()), local.update(changes()));
    assert.equal(remote.points.length, 4001);
    assert.deepEqual(remote.points[3].geometry.coordinates, [179.99, 0]);
    await assertSameResults(local, remote, options.maxZoom, false);
    await assert.rejects(remote.update({ remove: [0] }), (e) => e instanceof CairnError && e.code === 'UNKNOWN_POINT');
    assert.equal(remote.points.length, 4001);
  } finally {
    local.destroy();
    await remote.destroy();
  }
});

test('loadCoordinates: the same results, progress reported here, and the buffers transferred', async () => {
  const random = mulberry32(5);
  const lngLat = clustered(20000, random);
  const population = Float64Array.from({ length: 20000 }, () => Math.floor(random() * 1000));
  const options = { maxZoom: 14, aggregates: { people: ['sum', 'population'] } };
  const local = new ClusterIndex(options).loadCoordinates(lngLat.slice(), { values: { population: population.slice() } });
  const remote = new WorkerClusterIndex(options);
  try {
    const reports = [];
    const sent = remote.loadCoordinates(lngLat, { values: { population }, onProgress: (p) => reports.push(p) });
    // Handed over at the call, not when it ends: the page holds no copy meanwhile.
    assert.equal(lngLat.buffer.byteLength, 0, 'the coordinates’ buffer is detached');
    assert.equal(lngLat.length, 0);
    assert.equal(population.buffer.byteLength, 0, 'the values’ buffer is detached');
    await sent;
    assert.equal(remote.points, null);
    assert.deepEqual(reports.at(-1), { phase: 'cluster', done: 15, total: 15 });
    assert.ok(reports.some((p) => p.phase === 'add'));
    await assertSameResults(local, remote, options.maxZoom, false);
    // The records and aggregates written into the caller's buffers.
    const expected = new Float64Array(4 * 64);
    const actual = new Float64Array(4 * 64);
    assert.equal(await remote.getClustersInto(WORLD, 3, actual), local.getClustersInto(WORLD, 3, expected));
    assert.deepEqual(actual, expected);
    const ids = Float64Array.from(local.getClusters(WORLD, 3).filter((f) => f.properties.cluster).map((f) => f.id));
    const sums = new Float64Array(ids.length);
    const remoteSums = new Float64Array(ids.length);
    assert.equal(await remote.getAggregatesInto('people', ids, remoteSums), local.getAggregatesInto('people', ids, sums));
    assert.deepEqual(remoteSums, sums);
    assert.equal(ids.length > 0 && sums[0] > 0, true);
  } finally {
    local.destroy();
    await remote.destroy();
  }
});

test('calls run in order: a query made before load resolves answers on the new data', async () => {
  const first = features(500, 1);
  const second = features(800, 2);
  const remote = new WorkerClusterIndex();
  try {
    const local = new ClusterIndex().load(first);
    const clusterId = local.getClusters(WORLD, 0).find((f) => f.properties.cluster).id;
    local.destroy();
    remote.load(first);
    const leavesOfFirst = remote.getLeaves(clusterId, Infinity);
    remote.load(second);
    const afterSecond = remote.getClusters(WORLD, 20);
    const leaves = await leavesOfFirst;
    assert.ok(leaves.length > 0 && leaves.every((f) => first.includes(f)), 'leaves of the first load are its features');
    const points = await afterSecond;
    assert.equal(points.length, second.length - 1);
    assert.ok(points.every((f) => second.includes(f)), 'points after the second load are its features');
  } finally {
    await remote.destroy();
  }
});

test('errors are CairnErrors with the engine’s codes, as ClusterIndex throws them', async () => {
  const data = features(300, 3);
  const local = new ClusterIndex();
  const remote = new WorkerClusterIndex();
  try {
    // Before any load, then with data.
    assert.deepEqual(fields(await failure(() => remote.getChildren(1))), fields(await failure(() => local.getChildren(1))));
    local.load(data);
    await remote.load(data);
    const calls = [
      ['getChildren', 123456], ['getLeaves', 123456], ['getClusterExpansionZoom', 123456],
      ['getLeaves', 300, -1], ['getClusters', 'world', 2], ['getClusters', [0, 0, 1], 2],
      ['getTile', 2, 4, 0], ['getTile', 1.5, 0, 0], ['loadCoordinates', 'x'], ['loadCoordinates', [1, 2, 3]],
      ['loadCoordinates', [1, 2], { onProgress: 5 }], ['load', 'not an array'],
      ['getClustersInto', WORLD, 0, [0, 0, 0, 0]], ['getAggregatesInto', 'none', new Float64Array(1), new Float64Array(1)],
    ];
    for (const [method, ...args] of calls) {
      const expected = fields(await failure(() => local[method](...args)));
      const actual = fields(await failure(() => remote[method](...args)));
      assert.equal(actual.cairn, true, `${method} rejects with a CairnError`);
      assert.deepEqual(actual, expected, `${method}(${args.join(', ')})`);
    }
    // A refused argument loses nothing: the data is still there.
    assert.deepEqual(await remote.getClusters(WORLD, 1), local.getClusters(WORLD, 1));
    // A bad point names its input index and leaves the index empty, as on this thread.
    const bad = features(40, 4);
    bad[25].geometry.coordinates = [10, 95];
    const expected = fields(await failure(() => local.load(bad)));
    assert.equal(expected.code, 'LATITUDE_OUT_OF_RANGE');
    assert.deepEqual(fields(await failure(() => remote.load(bad))), expected);
    assert.deepEqual(await remote.getClusters(WORLD, 1), local.getClusters(WORLD, 1));
    // Something that cannot be sent at all (a function in the features).
    const unsendable = await failure(() => remote.load([{ type: 'Feature', properties: { f() {} }, geometry: { type: 'Point', coordinates: [0, 0] } }]));
    assert.ok(unsendable instanceof CairnError);
    assert.equal(unsendable.code, 'INVALID_ARGUMENT');
  } finally {
    local.destroy();
    await remote.destroy();
  }
});

test('refused options reject ready and every call with INVALID_OPTION', async () => {
  const expected = fields(await failure(() => new ClusterIndex({ radius: -1 })));
  const remote = new WorkerClusterIndex({ radius: -1 });
  assert.deepEqual(fields(await failure(() => remote.ready)), expected);
  assert.deepEqual(fields(await failure(() => remote.load([]))), expected);
  await remote.destroy();
  // map and reduce are the page's functions: refused here, before any thread starts.
  const folding = new WorkerClusterIndex({ reduce: (a, b) => { a.n += b.n; } });
  const error = await failure(() => folding.getClusters(WORLD, 0));
  assert.ok(error instanceof CairnError);
  assert.equal(error.code, 'INVALID_OPTION');
  assert.match(error.message, /reduce/);
  await assert.rejects(folding.ready, CairnError);
  await folding.destroy();
});

/** This process's threads, as Linux counts them. */
const threads = () => Number(/Threads:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);

test('destroy ends the thread; calls running and made later reject with INVALID_HANDLE', async () => {
  const baseline = threads();
  const indexes = Array.from({ length: 3 }, () => new WorkerClusterIndex());
  await Promise.all(indexes.map((index) => index.ready));
  assert.ok(threads() >= baseline + 3, `three threads more (${baseline} → ${threads()})`);
  const random = mulberry32(9);
  const running = indexes[0].loadCoordinates(clustered(300000, random));
  const ended = Promise.all(indexes.map((index) => index.destroy()));
  const error = await failure(() => running);
  assert.ok(error instanceof CairnError);
  assert.equal(error.code, 'INVALID_HANDLE');
  assert.match(error.message, /^loadCoordinates: .*destroy\(\) was called/);
  await ended;
  assert.ok(threads() <= baseline, `the threads have ended (${baseline} → ${threads()})`);
  const later = await failure(() => indexes[1].getClusters(WORLD, 0));
  assert.equal(later.code, 'INVALID_HANDLE');
  assert.match(later.message, /^getClusters: /);
  assert.equal(await indexes[2].destroy(), undefined, 'destroy twice is harmless');
});

test('an idle index does not keep Node running; one with a call running does until it answers', () => {
  const entry = fileURLToPath(new URL('../../src/index.js', import.meta.url));
  const script = `
    import { WorkerClusterIndex } from ${JSON.stringify(entry)};
    const index = new WorkerClusterIndex();
    const lngLat = new Float64Array(20000).map((_, i) => (i % 2 ? 40 : 100) * Math.sin(i));
    index.loadCoordinates(lngLat).then(() => index.getClusters([-180, -90, 180, 90], 0))
      .then((items) => console.log('answered', items.length));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30000 });
  assert.equal(run.signal, null, `exited on its own, not killed after 30 s: ${run.stderr}`);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^answered \d+/);
});
