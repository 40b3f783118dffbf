// Cluster managers through the real module: Google's cases for the distance algorithm, the
// hierarchical one, mutations that wait for cluster(), the renderer's rules, re-clustering after
// a zoom holds, taps on clusters and items answered by the host, spreading out coincident items,
// icon buckets, errors, scale, and garbage that must never trap.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, MapEngine, ClusterIndex, CairnError, MapIcon } from '../../src/index.js';
import { mulberry32 } from '../../bench/generate.js';
import { at, click, closeTo, garbage, refused } from '../support/map-helpers.js';

before(async () => {
  await init();
});

const newMap = (zoom, latitude = 0, longitude = 0) => new MapEngine({ camera: { latitude, longitude, zoom }, width: 800, height: 600 });

/** Google's four items around the origin. */
const FOUR = Object.freeze([at(1, 1), at(1, -1), at(-1, 1), at(-1, -1)]);

/** The draw items of a kind in a frame, of one manager. */
const drawnOf = (kind) => (frame, manager) => frame.items.filter((i) => i.kind === kind && i.manager === manager.number);
const clusters = drawnOf('cluster');
const items = drawnOf('clusterItem');

/** A click at (x, y) at `t`, and the frame 0.35 s after its release, which reports it. */
function tap(map, x, y, t) {
  click(map, x, y, t);
  return map.frame(t + 0.04 + 0.35);
}

/** supercluster's index (default options, as a hierarchical manager's) of the items' positions. */
const indexOf = (options) => new ClusterIndex().load(options.map(({ position: p }) => ({
  type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [p.longitude, p.latitude] },
})));

/** A manager of `algorithm` holding `options`, clustered. */
function clustered(map, algorithm, options, settings = {}) {
  const manager = map.addClusterManager({ algorithm, ...settings });
  const ids = manager.addItems(options);
  manager.cluster();
  return { manager, ids };
}

test("Google's cases through a distance manager: one cluster of 4 at zoom 4, four items at zoom 14, four clusters of ten", () => {
  let map = newMap(4);
  const { manager, ids } = clustered(map, 'distance', FOUR);
  assert.deepEqual(ids, [ids[0], ids[0] + 1, ids[0] + 2, ids[0] + 3], 'consecutive ids');
  let frame = map.frame(0);
  assert.deepEqual(clusters(frame, manager).map((c) => c.count), [4]);
  assert.equal(items(frame, manager).length, 0);
  // GMU puts the cluster on its seed, the first item.
  const seed = map.screenPoint(1, 1);
  closeTo(clusters(frame, manager)[0].x, seed.x, 1e-9, 'cluster x');
  closeTo(clusters(frame, manager)[0].y, seed.y, 1e-9, 'cluster y');
  map.destroy();

  // At zoom 14 they are ~11,000 points apart: each is an item of its own, alone in view when centred.
  map = newMap(14);
  const far = clustered(map, 'distance', FOUR);
  FOUR.forEach(({ position }, i) => {
    map.moveCamera(position);
    frame = map.frame(i + 1);
    assert.equal(clusters(frame, far.manager).length, 0);
    assert.deepEqual(items(frame, far.manager).map((item) => [item.id, item.x, item.y]), [[far.ids[i], 400, 300]]);
  });
  map.destroy();

  // Ten items within 50 points of each of four centres, added in turn: four clusters of ten.
  map = newMap(10);
  const random = mulberry32(50);
  const centres = [[0.2, 0.2], [0.2, -0.2], [-0.2, 0.2], [-0.2, -0.2]].map(([lat, lng]) => map.screenPoint(lat, lng));
  const options = Array.from({ length: 40 }, (_, i) => {
    const angle = random() * 2 * Math.PI;
    const r = random() * 50;
    return { position: map.coordinate(centres[i % 4].x + r * Math.cos(angle), centres[i % 4].y + r * Math.sin(angle)) };
  });
  const groups = clustered(map, 'distance', options);
  frame = map.frame(0);
  const found = clusters(frame, groups.manager);
  assert.deepEqual(found.map((c) => c.count), [10, 10, 10, 10]);
  assert.equal(items(frame, groups.manager).length, 0);
  for (let g = 0; g < 4; g++) {
    const first = map.screenPoint(options[g].position.latitude, options[g].position.longitude);
    assert.equal(found.filter((c) => Math.abs(c.x - first.x) < 1e-6 && Math.abs(c.y - first.y) < 1e-6).length, 1,
      `a cluster on the first item of centre ${g}`);
  }
  // Without a host's measure, the engine's estimate of a bold 14-pixel label: "10+" 23.7 wide, 6 more.
  const icon = groups.manager.iconFor(found[0]);
  assert.deepEqual([icon.text, icon.color], ['10+', '#0099cc']);
  closeTo(icon.diameter, 29.744, 1e-9, 'max(20, text) + 3 × 0 + 6');
  map.destroy();
});

test('a hierarchical manager (supercluster) gives one cluster of 4 at zoom 2, the same as a ClusterIndex', () => {
  const map = newMap(2);
  const { manager } = clustered(map, 'hierarchical', FOUR);
  const frame = map.frame(0);
  const [cluster] = clusters(frame, manager);
  assert.equal(clusters(frame, manager).length, 1);
  assert.equal(cluster.count, 4);
  assert.equal(items(frame, manager).length, 0);
  // (The index keeps positions in single precision.)
  closeTo(cluster.x, 400, 1e-3, 'at the centre of the four');
  closeTo(cluster.y, 300, 1e-3, 'at the centre of the four');
  const index = indexOf(FOUR);
  const expected = index.getClusters([-180, -85, 180, 85], 2);
  assert.deepEqual(expected.map((f) => [f.id, f.properties.point_count]), [[cluster.id, 4]]);
  index.destroy();
  map.destroy();
});

test('nothing changes on screen until cluster(); clear() empties it at once', () => {
  const map = newMap(4);
  const manager = map.addClusterManager({ algorithm: 'distance' });
  const ids = manager.addItems(FOUR);
  assert.deepEqual(map.frame(0).items, [], 'added, not clustered');
  manager.cluster();
  assert.deepEqual(clusters(map.frame(1), manager).map((c) => c.count), [4]);

  const extra = manager.addItem(at(1.5, 1.5));
  assert.deepEqual(clusters(map.frame(2), manager).map((c) => c.count), [4], 'an added item waits');
  manager.cluster();
  assert.deepEqual(clusters(map.frame(3), manager).map((c) => c.count), [5]);

  manager.removeItem(extra);
  manager.moveItem(ids[0], { latitude: 50, longitude: 50 });
  assert.deepEqual(manager.item(ids[0]).position, { latitude: 50, longitude: 50 });
  assert.deepEqual(clusters(map.frame(4), manager).map((c) => c.count), [5], 'a removal and a move wait');
  manager.cluster();
  let frame = map.frame(5);
  assert.equal(clusters(frame, manager).length, 0, '3 left near the origin, below the minimum of 4');
  assert.deepEqual(items(frame, manager).map((i) => i.id).sort(), ids.slice(1).sort(), 'the moved one is out of view');
  assert.equal(manager.itemCount, 4);

  manager.clear();
  assert.equal(manager.itemCount, 0);
  assert.deepEqual(map.frame(5.1).items, [], 'cleared without cluster()');
  for (const id of [...ids, extra]) refused(() => manager.removeItem(id), 'UNKNOWN_MARKER');
  const fresh = manager.addItems(FOUR);
  assert.ok(fresh.every((id) => id > extra), 'ids are never given twice');
  assert.deepEqual(map.frame(6).items, [], 'nor does clear() let later items through without cluster()');
  manager.cluster();
  assert.deepEqual(clusters(map.frame(7), manager).map((c) => c.count), [4]);
  map.destroy();
});

test('minimumClusterSize, maximumClusterZoom, and the grid and none algorithms', () => {
  const map = newMap(4);
  const three = FOUR.slice(0, 3);
  const small = clustered(map, 'distance', three).manager;
  const three3 = clustered(map, 'distance', three, { minimumClusterSize: 3 }).manager;
  const capped = clustered(map, 'distance', FOUR, { maximumClusterZoom: 3 }).manager;
  const atCap = clustered(map, 'distance', FOUR, { maximumClusterZoom: 4 }).manager;
  const grid = clustered(map, 'grid', [at(1, 1), at(1, 2), at(2, 1), at(2, 2)]).manager;
  const none = clustered(map, 'none', FOUR).manager;
  const frame = map.frame(0);
  assert.deepEqual([clusters(frame, small).length, items(frame, small).length], [0, 3], '3 < the default minimum of 4');
  assert.deepEqual(clusters(frame, three3).map((c) => c.count), [3]);
  assert.deepEqual([clusters(frame, capped).length, items(frame, capped).length], [0, 4], 'zoom 4 > maximumClusterZoom 3');
  assert.deepEqual(clusters(frame, atCap).map((c) => c.count), [4], 'zoom 4 ≤ maximumClusterZoom 4');
  // Grid: at zoom 4 the 4096 points round the world make 41 cells of just under 100; the middle
  // one is centred on the origin and holds items 11 to 23 points up and right of it, and the
  // cluster sits at the cell's centre, not on an item nor at their mean.
  const [cell] = clusters(frame, grid);
  assert.equal(cell.count, 4);
  closeTo(cell.x, 400, 1e-9, 'cell centre x');
  closeTo(cell.y, 300, 1e-9, 'cell centre y');
  assert.deepEqual([clusters(frame, none).length, items(frame, none).length], [0, 4]);
  assert.deepEqual([small, three3, capped, atCap, grid, none].map((m) => m.number), [0, 1, 2, 3, 4, 5]);

  // Refused settings add no manager.
  for (const [options, code, message] of [
    [{ minimumClusterSize: 0 }, 'INVALID_ARGUMENT', /minimumClusterSize must be at least 1/],
    [{ minimumClusterSize: 1.5 }, 'INVALID_ARGUMENT', /minimumClusterSize must be a 32-bit integer/],
    [{ maximumClusterZoom: NaN }, 'INVALID_ARGUMENT', /maximumClusterZoom finite/],
    [{ maximumClusterZoom: '20' }, 'INVALID_ARGUMENT', /maximumClusterZoom must be a number/],
    [{ algorithm: 'kmeans' }, 'INVALID_ARGUMENT', /algorithm must be one of hierarchical, distance, grid, none/],
    [{ size: 40 }, 'INVALID_ARGUMENT', /size is not a cluster manager option/],
    [{ radius: 0 }, 'INVALID_ARGUMENT', /radius above 0/],
    [{ radius: Infinity }, 'INVALID_ARGUMENT', /radius must be a finite number|radius above 0/],
    [{ buckets: [0] }, 'INVALID_BUCKETS', /buckets must be whole numbers above 0/],
    [5, 'INVALID_ARGUMENT', /options must be an object/],
  ]) {
    assert.match(refused(() => map.addClusterManager(options), code).message, message);
  }
  const next = map.addClusterManager();
  assert.equal(map.clusterManager(next.number), next);
  assert.equal(map.clusterManager(small.number), small);
  map.destroy();
});

test('the hierarchical radius is in supercluster units: 40 joins points 20 px apart on screen, not 30', () => {
  // At zoom 5 the world is 8192 px wide: 30 px is 30 / 8192 * 360 degrees of longitude.
  const apart = (30 / 8192) * 360;
  const two = [at(0, 0), at(0, apart)];
  for (const [radius, expected] of [[40, [0, 2]], [80, [1, 0]]]) {
    const map = newMap(5);
    const { manager } = clustered(map, 'hierarchical', two, { minimumClusterSize: 2, radius });
    const frame = map.frame(1);
    assert.deepEqual([clusters(frame, manager).length, items(frame, manager).length], expected, `radius ${radius}`);
    map.destroy();
  }
});

test('every algorithm draws clusters and items just outside the view, whose icons reach in', () => {
  for (const algorithm of ['hierarchical', 'distance', 'grid', 'none']) {
    const map = newMap(10);
    const manager = map.addClusterManager({ algorithm });
    const left = map.coordinate(-10, 300);        // 10 px left of the view: a cluster's circle reaches in
    manager.addItems(Array.from({ length: 5 }, () => ({ position: left })));
    const below = map.coordinate(400, 615);       // a pin anchored 15 px below the view shows its top
    const pin = manager.addItems([{ position: below }])[0];
    const far = map.coordinate(400, 1200);        // far below: not drawn
    manager.addItems([{ position: far }]);
    manager.cluster();
    const frame = map.frame(1);
    const drawnClusters = clusters(frame, manager);
    const drawnItems = items(frame, manager);
    if (algorithm === 'none') assert.equal(drawnItems.filter((i) => Math.abs(i.x + 10) < 1).length, 5, algorithm);
    // (A grid cluster sits at its cell's centre.)
    else assert.deepEqual(drawnClusters.map((c) => [c.count, c.x < 0 && c.x > -256]), [[5, true]], algorithm);
    assert.ok(drawnItems.some((i) => i.id === pin), `${algorithm}: the pin below`);
    assert.ok(drawnItems.every((i) => i.y < 900), `${algorithm}: nothing far outside`);
    map.destroy();
  }
});

test('a map takes managers without end as long as at most 1024 live at once; a removed one stays removed', () => {
  const map = newMap(10);
  const numbers = new Set();
  let last = null;
  for (let i = 0; i < 3000; i++) {
    const manager = map.addClusterManager({ algorithm: 'grid' });
    assert.ok(!numbers.has(manager.number), 'a number is never given twice');
    numbers.add(manager.number);
    if (last) last.destroy();
    last = manager;
  }
  const id = last.addItems([{ position: { latitude: 0, longitude: 0 } }])[0];
  last.cluster();
  assert.equal(items(map.frame(1), last).map((i) => i.id)[0], id, 'the last one draws, under its own number');
  const live = [last];
  while (live.length < 1024) live.push(map.addClusterManager());
  const error = refused(() => map.addClusterManager(), 'TOO_MANY_CLUSTER_MANAGERS');
  assert.match(error.message, /a map holds at most 1024 cluster managers at once/);
  assert.equal(error.detail, 1024, 'the engine says its limit');
  live[5].destroy();
  map.addClusterManager();   // a slot is free again
  map.destroy();
});

test("Google's re-cluster timer: every camera change while the rounded zoom differs restarts its 0.2 s", () => {
  const map = newMap(4);
  const { manager } = clustered(map, 'distance', FOUR);
  map.frame(0);
  map.moveCamera({ zoom: 9 });
  map.frame(1);
  map.moveCamera({ latitude: 0.01, zoom: 9.1 });
  map.frame(1.15);
  assert.deepEqual(clusters(map.frame(1.25), manager).map((c) => c.count), [4], '0.1 s after the camera last moved');
  assert.equal(clusters(map.frame(1.36), manager).length, 0, 'then re-clustered for zoom 9');
  map.destroy();
});

test("Google's arithmetic through a manager: ties in map points, the grid at 180° and the equator, items beyond the map", () => {
  const counts = (frame, manager) => clusters(frame, manager).map((c) => c.count).sort((a, b) => a - b);
  // Distance, zoom 10: the middle item is exactly as far from both seeds in Google's map points: the newer takes it.
  let map = newMap(10, 0, 1.233036);
  let { manager } = clustered(map, 'distance', [at(0, 1.122), at(0, 1.233036), at(0, 1.344072)], { minimumClusterSize: 1 });
  let frame = map.frame(0);
  assert.deepEqual(counts(frame, manager), [1, 2]);
  const pair = clusters(frame, manager).find((c) => c.count === 2);
  closeTo(pair.x, map.screenPoint(0, 1.344072).x, 1e-6, 'the pair sits on its seed, the third item');
  map.destroy();

  // Distance, zoom 3: 86° N is off Google's map, in no cluster, but seeds the one 84.9° N joins.
  map = newMap(3, 80, 0);
  ({ manager } = clustered(map, 'distance', [at(86, 0), at(84.9, 0), at(80, 0)], { minimumClusterSize: 1 }));
  frame = map.frame(0);
  assert.deepEqual(counts(frame, manager), [1, 1]);
  assert.equal(items(frame, manager).length, 0, 'the item beyond the map is not drawn');
  map.destroy();

  // Grid, zoom 0 (3 cells): 180° is column 3, whose key is the next row's first cell.
  map = newMap(0, 0, 180);
  ({ manager } = clustered(map, 'grid', [at(0, 180), at(60, -179), at(0, -179)], { minimumClusterSize: 1 }));
  assert.deepEqual([...new Set(counts(map.frame(0), manager))], [1, 2]);
  assert.equal(manager.getClusterExpansionZoom(clusters(map.frame(0), manager).find((c) => c.count === 2).id) >= 1, true);
  map.destroy();

  // Grid, zoom 1 (6 cells): the equator belongs to the row north of it.
  map = newMap(1, 0, 10);
  ({ manager } = clustered(map, 'grid', [at(0, 10), at(0.001, 10), at(-0.001, 10)], { minimumClusterSize: 1 }));
  frame = map.frame(0);
  const two = clusters(frame, manager).find((c) => c.count === 2);
  assert.ok(two && two.y < map.screenPoint(0, 10).y, 'the pair is drawn at the centre of the cell north of the equator');
  map.destroy();
});

test('screen-space clusters follow a zoom change only once it has held for 0.2 s', () => {
  const map = newMap(4);
  const { manager } = clustered(map, 'distance', FOUR);
  map.frame(0);
  // A zoom that comes back before 0.2 s changes nothing.
  map.moveCamera({ zoom: 9 });
  map.frame(0.5);
  map.moveCamera({ zoom: 4 });
  assert.deepEqual(clusters(map.frame(0.8), manager).map((c) => c.count), [4]);

  map.moveCamera({ zoom: 9 });
  const t = 1;
  assert.deepEqual(clusters(map.frame(t), manager).map((c) => c.count), [4], 'still the zoom-4 clustering');
  assert.deepEqual(clusters(map.frame(t + 0.15), manager).map((c) => c.count), [4]);
  const after = map.frame(t + 0.21);
  assert.equal(clusters(after, manager).length, 0, 're-clustered for zoom 9, where they are 364 points apart');
  assert.ok(items(after, manager).length > 0);
  map.destroy();
});

test('flatItems (off by default): items lie on the tilted, turned map as flat markers do; clusters face the screen', () => {
  const map = new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 14, bearing: 30, tilt: 60 }, width: 800, height: 600 });
  const { manager } = clustered(map, 'none', [at(0.0005, 0.0005)]);
  assert.equal(manager.flatItems, false);
  const upright = items(map.frame(0), manager)[0];
  assert.deepEqual([upright.rotation, upright.scaleX, upright.scaleY, upright.shear], [0, 1, 1, 0]);
  manager.flatItems = true;
  assert.equal(manager.flatItems, true);
  map.addMarkers([{ ...at(0.0005, 0.0005), flat: true }]);
  const frame = map.frame(0.1);
  const item = items(frame, manager)[0], marker = frame.items.find((i) => i.kind === 'marker');
  for (const key of ['rotation', 'scaleX', 'scaleY', 'shear', 'x', 'y']) closeTo(item[key], marker[key], 1e-9, key);
  assert.ok(item.scaleY < 0.9 && Math.abs(item.rotation) > 1, 'foreshortened and turned');
  const piled = clustered(map, 'grid', Array.from({ length: 10 }, () => at(0.001, 0.001)), { flatItems: true });
  const cluster = clusters(map.frame(0.2), piled.manager)[0];
  assert.deepEqual([cluster.rotation, cluster.scaleX, cluster.scaleY, cluster.shear], [0, 1, 1, 0]);
  assert.throws(() => { manager.flatItems = /** @type {any} */ ('yes'); }, { code: 'INVALID_ARGUMENT' });
  assert.throws(() => map.addClusterManager({ flatItems: /** @type {any} */ (1) }), { code: 'INVALID_ARGUMENT' });
});

test('useIndex: a manager shows a ClusterIndex built in a worker, restored from its saved buffer, as if it had clustered the points', async () => {
  const { WorkerClusterIndex } = await import('../../src/index.js');
  const random = mulberry32(3);
  const lngLat = new Float64Array(2 * 4000);
  for (let i = 0; i < 4000; i++) {
    lngLat[2 * i] = 2.35 + (random() - 0.5) * (i % 2 ? 0.5 : 8);
    lngLat[2 * i + 1] = 48.86 + (random() - 0.5) * (i % 2 ? 0.3 : 4);
  }
  const worker = new WorkerClusterIndex({ radius: 60, maxZoom: 15 });
  await worker.loadCoordinates(lngLat.slice());
  const restored = ClusterIndex.from(await worker.save());
  await worker.destroy();
  const map = newMap(6, 48.86, 2.35);
  const clustered = map.addClusterManager({ radius: 60, maxZoom: 15, animatesClusters: false });
  const c = clustered.addCoordinates(lngLat);
  clustered.cluster();
  const adopting = map.addClusterManager({ animatesClusters: false });
  adopting.addCoordinates([0, 0]);
  const { first, count } = adopting.useIndex(restored);
  assert.equal(count, 4000);
  assert.equal(adopting.itemCount, 4000, 'the item held before is gone');
  const held = adopting.item(first + 17);
  closeTo(held.position.longitude, lngLat[34], 1e-9, 'longitude');
  closeTo(held.position.latitude, lngLat[35], 1e-9, 'latitude');
  let t = 0;
  for (const zoom of [4, 7, 9.5, 12, 16]) {
    map.moveCamera({ zoom });
    const frame = map.frame((t += 1));
    const drawn = (m, offset) => frame.items.filter((i) => i.manager === m.number)
      .map((i) => `${i.kind} ${i.kind === 'clusterItem' ? i.id - offset : ''} ${i.count} ${i.x} ${i.y}`);
    const a = drawn(clustered, c.first);
    assert.ok(a.length > 0);
    assert.deepEqual(drawn(adopting, first), a, `zoom ${zoom}`);
    const cluster = clusters(frame, adopting)[0];
    if (cluster) {
      assert.equal(adopting.getClusterExpansionZoom(cluster.id), clustered.getClusterExpansionZoom(clusters(frame, clustered)[0].id));
    }
  }
  // The index still answers, and may go.
  assert.ok(restored.getClusters([-180, -85, 180, 85], 3).length > 0);
  restored.destroy();
  map.frame((t += 1));
  refused(() => adopting.useIndex(restored), 'INVALID_ARGUMENT');
  refused(() => adopting.useIndex(/** @type {any} */ ({})), 'INVALID_ARGUMENT');
  const grid = map.addClusterManager({ algorithm: 'grid' });
  const index = new ClusterIndex().loadCoordinates(new Float64Array([1, 1, 2, 2]));
  refused(() => grid.useIndex(index), 'INVALID_STATE');
  const aggregating = map.addClusterManager({ aggregates: { total: ['sum', 'v'] } });
  refused(() => aggregating.useIndex(index), 'INVALID_STATE');
  assert.equal(grid.itemCount, 0);
});

test('animatesClusters (on by default): zooming in, the items fly out of their cluster over 0.5 s; off, they are in place at once', () => {
  const map = newMap(4);
  const animated = clustered(map, 'distance', FOUR);
  const still = clustered(map, 'distance', FOUR, { animatesClusters: false });
  assert.deepEqual([animated.manager.animatesClusters, still.manager.animatesClusters], [true, false]);
  map.frame(0);
  map.moveCamera({ zoom: 9 });
  map.frame(1);
  const seed = map.screenPoint(1, 1);
  /** Each item of the manager drawn where `place(i)` says (i: its position in FOUR). */
  const drawnAt = (frame, { manager, ids }, place) => {
    assert.equal(items(frame, manager).length, 4);
    for (const item of items(frame, manager)) {
      const i = ids.indexOf(item.id);
      const p = place(i);
      closeTo(item.x, p.x, 1e-6, `x of item ${i}`);
      closeTo(item.y, p.y, 1e-6, `y of item ${i}`);
    }
  };
  const own = (i) => map.screenPoint(FOUR[i].position.latitude, FOUR[i].position.longitude);
  const start = map.frame(1.21);
  drawnAt(start, animated, () => seed);
  drawnAt(start, still, own);
  const middle = items(map.frame(1.45), animated.manager).find((item) => item.id === animated.ids[3]);
  assert.ok(Math.hypot(middle.x - seed.x, middle.y - seed.y) > 100, 'on its way');
  assert.ok(Math.hypot(middle.x - own(3).x, middle.y - own(3).y) > 100, 'not there yet');
  drawnAt(map.frame(1.72), animated, own);

  animated.manager.animatesClusters = false;
  assert.equal(animated.manager.animatesClusters, false);
  refused(() => { animated.manager.animatesClusters = 1; }, 'INVALID_ARGUMENT');
  assert.match(refused(() => map.addClusterManager({ animatesClusters: 'no' }), 'INVALID_ARGUMENT').message,
    /animatesClusters must be a boolean/);
  map.destroy();
});

/** 500 items within a degree of (41, -73), hierarchical, one cluster at zoom 3. */
function fiveHundred() {
  const map = newMap(3, 41, -73);
  const random = mulberry32(5);
  const options = Array.from({ length: 500 }, () => at(random() * 2 + 40, random() * 2 - 74));
  const { manager } = clustered(map, 'hierarchical', options);
  const [cluster] = clusters(map.frame(0), manager);
  return { map, manager, options, cluster };
}

test('a tap on a cluster: clusterTapped, then answerTap(false) zooms to where it splits, centred on it', () => {
  const { map, manager, options, cluster } = fiveHundred();
  assert.equal(cluster.count, 500);
  const frame = tap(map, cluster.x, cluster.y, 1);
  assert.deepEqual(frame.events, [{ type: 'clusterTapped', manager: manager.number, cluster: cluster.id, count: 500 }]);
  assert.equal(frame.camera.zoom, 3, 'nothing before the answer');
  map.answerTap(false);

  // Where it splits: the index's expansion zoom, at the cluster's position.
  const index = indexOf(options);
  const [feature] = index.getClusters([-180, -85, 180, 85], 3);
  assert.equal(feature.id, cluster.id);
  const zoom = index.getClusterExpansionZoom(cluster.id);
  index.destroy();
  assert.ok(zoom > 3);
  map.frame(3);   // the zoom starts with the first frame after the answer
  const after = map.frame(4);
  assert.equal(after.camera.zoom, zoom);
  closeTo(after.camera.longitude, feature.geometry.coordinates[0], 1e-6, 'centred: longitude');
  closeTo(after.camera.latitude, feature.geometry.coordinates[1], 1e-6, 'centred: latitude');
  assert.ok(clusters(after, manager).length + items(after, manager).length > 1, 'the cluster split');
  map.destroy();
});

test('answerTap(true): the app consumed the cluster tap, so the camera stays', () => {
  const { map, manager, cluster } = fiveHundred();
  assert.equal(tap(map, cluster.x, cluster.y, 1).events[0].type, 'clusterTapped');
  map.answerTap(true);
  const after = map.frame(3);
  assert.deepEqual(after.events, []);
  assert.deepEqual(after.camera, { latitude: 41, longitude: -73, zoom: 3, bearing: 0, tilt: 0 });
  assert.deepEqual(clusters(after, manager).map((c) => c.id), [cluster.id]);
  map.destroy();
});

test('coincident items: tapping their cluster spreads them out on legs, a map tap folds them back', () => {
  for (const [count, algorithm] of [[12, 'distance'], [5, 'hierarchical']]) {
    const map = newMap(10);
    const { manager, ids } = clustered(map, algorithm, Array.from({ length: count }, () => at(0.01, 0.01)));
    const [cluster] = clusters(map.frame(0), manager);
    assert.equal(cluster.count, count);
    assert.equal(cluster.leg, null);
    assert.deepEqual(tap(map, cluster.x, cluster.y, 1).events,
      [{ type: 'clusterTapped', manager: manager.number, cluster: cluster.id, count }]);
    map.answerTap(false);
    let frame = map.frame(2);
    assert.equal(frame.camera.zoom, 10, 'no zoom: it could never split');
    const spread = items(frame, manager);
    assert.equal(clusters(frame, manager).length, 0);
    assert.deepEqual(spread.map((i) => i.id).sort((a, b) => a - b), ids);
    for (const item of spread) assert.deepEqual(item.leg, { x: cluster.x, y: cluster.y });
    for (let a = 0; a < count; a++) {
      for (let b = a + 1; b < count; b++) {
        assert.ok(Math.hypot(spread[a].x - spread[b].x, spread[a].y - spread[b].y) > 12, `${count}: items ${a} and ${b} apart`);
      }
    }
    frame = tap(map, 10, 10, 3);
    assert.deepEqual(frame.events.map((e) => e.type), ['tap']);
    frame = map.frame(4);
    assert.deepEqual(clusters(frame, manager).map((c) => [c.count, c.leg]), [[count, null]], `${count}: folded back`);
    assert.equal(items(frame, manager).length, 0);
    map.destroy();
  }
});

test('a tap on an item: clusterItemTapped names the manager and the item, whose options the manager keeps', () => {
  const map = newMap(14);
  const manager = map.addClusterManager({ algorithm: 'grid' });
  const data = { shop: 3 };
  const id = manager.addItem({ ...at(0.001, 0.001), title: 'Kiosk', snippet: 'Papers', userData: data });
  manager.cluster();
  const [item] = items(map.frame(0), manager);
  assert.equal(item.id, id);
  assert.equal(item.icon, -1);
  // The default pin is 43 points high, its anchor at the bottom.
  const frame = tap(map, item.x, item.y - 20, 1);
  assert.deepEqual(frame.events, [{ type: 'clusterItemTapped', manager: manager.number, item: id }]);
  const e = frame.events[0];
  assert.equal(map.clusterManager(e.manager), manager);
  assert.deepEqual(manager.item(e.item), { position: { latitude: 0.001, longitude: 0.001 }, icon: -1, title: 'Kiosk',
    snippet: 'Papers', userData: data });
  assert.equal(manager.item(e.item).userData, data);
  map.answerTap(false);
  // M11's default, as for a marker: its window opens (the map's host shows its title and snippet).
  const item1 = { manager: manager.number, item: id };
  assert.deepEqual(map.selection, item1, 'selected at once');
  assert.equal(map.selectedMarker, null, 'no marker is');
  map.setInfoWindowSize(100, 40);
  const opened = map.frame(3);
  assert.deepEqual(opened.events[0], { type: 'infoWindowOpened', ...item1 });
  assert.deepEqual(opened.selectedItem, item1);
  assert.equal(opened.selectedMarker, null);
  const after = map.frame(4);
  closeTo(after.camera.latitude, 0.001, 1e-9, 'centred on the item');
  closeTo(after.camera.longitude, 0.001, 1e-9, 'centred on the item');
  const [drawn] = items(after, manager);
  const w = after.infoWindow;
  assert.deepEqual([w.manager, w.item, w.width, w.height], [manager.number, id, 100, 40]);
  assert.equal('marker' in w, false);
  closeTo(w.x, drawn.x, 1e-9, 'above the pin');
  closeTo(w.y, drawn.y - 43, 1e-9, 'above the pin');
  assert.deepEqual(tap(map, w.x, w.y - 20, 5).events, [{ type: 'infoWindowTapped', ...item1 }]);
  // Removing the item closes it at once.
  manager.removeItem(id);
  assert.equal(map.selection, null);
  assert.deepEqual(map.frame(6).events, [{ type: 'infoWindowClosed', ...item1 }]);
  // item() hands out copies (of an item still held).
  const kept = manager.addItem({ ...at(0.001, 0.001), snippet: 'Stall' });
  manager.item(kept).position.latitude = 5;
  assert.equal(manager.item(kept).position.latitude, 0.001);
  // Selecting an item from the program, as the default does; one without text opens no window
  // (I2), unless the host may draw its own.
  const bare = manager.addItem(at(0.002, 0.001));
  manager.selectItem(bare);
  assert.equal(map.selection, null, 'no title, no snippet: no window');
  map.setCustomInfoWindows(true);
  manager.selectItem(bare);
  assert.deepEqual(map.selection, { manager: manager.number, item: bare }, 'the host may draw one');
  map.setCustomInfoWindows(false);
  assert.equal(refused(() => map.setCustomInfoWindows(1), 'INVALID_ARGUMENT').code, 'INVALID_ARGUMENT');
  manager.selectItem(kept);
  assert.deepEqual(map.selection, { manager: manager.number, item: kept });
  assert.equal(refused(() => manager.selectItem(id), 'UNKNOWN_MARKER').detail, id, 'a removed item');
  map.clearMarkers();
  assert.deepEqual(map.selection, { manager: manager.number, item: kept }, 'clearing the markers leaves an item\'s window');
  manager.clear();
  assert.equal(map.selection, null);
  map.destroy();
});

test('C9: clusters aggregate numbers of their items\' userData, for every algorithm', () => {
  for (const algorithm of ['hierarchical', 'distance', 'grid']) {
    const map = newMap(2);
    const manager = map.addClusterManager({ algorithm, aggregates: { people: ['sum', 'population'], largest: ['max', 'population'] } });
    manager.addItems([[1, 1, 10], [1, -1, 20], [-1, 1, 30], [-1, -1, 40]]
      .map(([latitude, longitude, population]) => ({ position: { latitude, longitude }, userData: { population } })));
    manager.addItem({ position: { latitude: 0.5, longitude: 0.5 }, userData: { population: 'many' } });   // none
    manager.addCoordinates(new Float64Array([0.4, 0.4]));                                                // none
    manager.addCoordinates(new Float64Array([0.3, 0.3, 0.2, 0.2]), { values: { population: [5, NaN] } });
    // An infinite value is refused, as a ClusterIndex refuses it, naming the item; none is added.
    const before = manager.itemCount;
    assert.equal(refused(() => manager.addCoordinates(new Float64Array([0.1, 0.1, 0.1, 0.1]), { values: { population: [1, -Infinity] } }),
      'NON_FINITE_VALUE').detail, 1, algorithm);
    assert.equal(refused(() => manager.addItems([at(0.1, 0.1), { ...at(0.1, 0.1), userData: { population: Infinity } }]),
      'NON_FINITE_VALUE').detail, 1, algorithm);
    assert.equal(manager.itemCount, before, algorithm);
    manager.cluster();
    const cluster = map.frame(0).items.find((i) => i.kind === 'cluster' && i.manager === manager.number);
    assert.equal(cluster?.count, 8, algorithm);
    assert.deepEqual(manager.aggregatesOf(cluster.id), { people: 105, largest: 40 }, algorithm);
    refused(() => manager.addCoordinates(new Float64Array([0, 0]), { values: { population: [1, 2] } }), 'INVALID_ARGUMENT');
    map.destroy();
  }
  const map = newMap(2);
  assert.equal(refused(() => map.addClusterManager({ aggregates: { people: ['total', 'population'] } }), 'INVALID_OPTION').message
    .includes('sum, min, max, count, mean'), true);
  assert.deepEqual(map.addClusterManager().aggregatesOf(1), {}, 'none declared');
  map.destroy();
});

test('C2a: a hierarchical manager takes supercluster\'s options; bad ones are INVALID_OPTION', () => {
  const map = newMap(8);
  const pairs = [[0, 0], [0, 0.0001], [1, 1], [1, 1.0001], [0.5, 0.5], [0.5, 0.5001], [0.5, 0.5002]];
  const counts = (options) => {
    const manager = map.addClusterManager({ minimumClusterSize: 2, ...options });
    manager.addItems(pairs.map(([latitude, longitude]) => ({ position: { latitude, longitude } })));
    manager.cluster();
    const found = map.frame(0).items.filter((i) => i.kind === 'cluster' && i.manager === manager.number).map((i) => i.count);
    manager.destroy();
    return found.sort();
  };
  assert.deepEqual(counts({}), [2, 2, 3]);
  assert.deepEqual(counts({ minPoints: 3 }), [3]);
  assert.deepEqual(counts({ maxZoom: 5 }), [], 'above maxZoom all stand alone');
  const error = refused(() => map.addClusterManager({ minZoom: 6, maxZoom: 5 }), 'INVALID_OPTION');
  assert.match(error.message, /maxZoom/);
  refused(() => map.addClusterManager({ extent: -1 }), 'INVALID_OPTION');
  refused(() => map.addClusterManager({ minPoints: 1.5 }), 'INVALID_OPTION');
  map.destroy();
});

test('items take a map icon as its number, one by one and in bulk', () => {
  const map = newMap(14);
  const manager = map.addClusterManager({ algorithm: 'grid' });
  const icon = new MapIcon(map.registerIcon({ width: 20, height: 30 }), 20, 30);
  const id = manager.addItem({ ...at(0.001, 0.001), icon });
  const { first } = manager.addCoordinates(new Float64Array([0.002, 0.002]), { icon });
  assert.equal(manager.item(id).icon, icon.number);
  assert.equal(manager.item(first).icon, icon.number);
  manager.cluster();
  assert.deepEqual(items(map.frame(0), manager).map((i) => i.icon), [icon.number, icon.number]);
  refused(() => manager.addItem({ ...at(0, 0), icon: { number: 0 } }), 'INVALID_ARGUMENT');
  map.destroy();
});

/** Label metrics in round numbers: digits 8 wide, "+" 9, a line 16 high. */
const ROUND_METRICS = Object.freeze({ advances: [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 9], height: 16 });

test('icon buckets: the draw record carries the engine\'s icon (Google\'s diameter from the measured label); custom buckets change it; bad lists are INVALID_BUCKETS', () => {
  const map = newMap(10);
  const manager = map.addClusterManager({ algorithm: 'distance' }, { labelMetrics: ROUND_METRICS });
  manager.addItems(Array.from({ length: 12 }, () => at(0.01, 0.01)));
  manager.cluster();
  const cluster = () => clusters(map.frame(0), manager)[0];
  assert.deepEqual(manager.buckets, [10, 50, 100, 200, 1000], "Google's, from the engine");
  assert.deepEqual(manager.colors, ['#0099cc', '#669900', '#ff8800', '#cc0000', '#9933cc']);
  assert.equal(cluster().icon, 0);
  // max(20, text size) + 3 × bucket + 6: "10+" is 8 + 8 + 9 = 25 wide.
  assert.deepEqual(manager.iconFor(cluster()), { text: '10+', color: '#0099cc', diameter: 31 });
  assert.deepEqual(cluster().clusterIcon, { text: '10+', color: '#0099cc', diameter: 31 });

  manager.setBuckets([5, 20], ['#111111', '#AbCdEf']);
  assert.equal(cluster().icon, 0, 'from the next frame, without cluster()');
  assert.deepEqual(manager.iconFor(cluster()), { text: '5+', color: '#111111', diameter: 26 }, '"5+" is 17 wide: 20 at least');
  assert.deepEqual(manager.colors, ['#111111', '#abcdef']);
  manager.setBuckets([2, 3, 12]);
  assert.equal(cluster().icon, 2);
  assert.deepEqual(manager.iconFor(cluster()), { text: '12+', color: '#ff8800', diameter: 37 }, '25 + 3 × 2 + 6');
  manager.setBuckets([1, 2, 3, 4, 5, 6, 12]);
  assert.deepEqual(manager.colors, ['#0099cc', '#669900', '#ff8800', '#cc0000', '#9933cc', '#9933cc', '#9933cc'],
    'past the fifth bucket the last colour stays');
  assert.deepEqual(manager.iconFor(cluster()), { text: '12+', color: '#9933cc', diameter: 49 }, '25 + 3 × 6 + 6');
  manager.setBuckets([20, 30], ['#222222', '#333333']);
  assert.equal(cluster().icon, -1);
  assert.deepEqual(manager.iconFor(cluster()), { text: '12', color: '#222222', diameter: 26 });

  // Refused lists leave the buckets in force.
  for (const [buckets, colors, detail, message] of [
    [[], undefined, 1, /are empty/],
    [[0, 5], undefined, 2, /must be whole numbers above 0/],
    [[2.5], undefined, 2, /must be whole numbers above 0/],
    [[5, 5], undefined, 3, /must be strictly increasing/],
    [[10, 3], undefined, 3, /must be strictly increasing/],
    [[10, 20], ['#000000'], 4, /need one colour each \(1 colours for 2 buckets\)/],
  ]) {
    const error = refused(() => manager.setBuckets(buckets, colors), 'INVALID_BUCKETS');
    assert.equal(error.detail, detail);
    assert.match(error.message, new RegExp(`^setBuckets: cluster icon buckets ${message.source}`));
  }
  assert.match(refused(() => manager.setBuckets(Array.from({ length: 1001 }, (_, i) => i + 1)), 'INVALID_ARGUMENT').message,
    /at most 1000 buckets/);
  for (const [buckets, colors, message] of [
    ['10', undefined, /buckets must be an array/], [[10, '20'], undefined, /buckets\[1\] must be a number/],
    [[10], 'red', /colors must be an array/], [[10], ['red'], /colors\[0\] must be '#rrggbb', got "red"/],
    [[10], [0x112233], /colors\[0\] must be a string/],
  ]) {
    assert.match(refused(() => manager.setBuckets(buckets, colors), 'INVALID_ARGUMENT').message, message);
  }
  assert.deepEqual(manager.buckets, [20, 30]);
  assert.equal(cluster().icon, -1);

  // Buckets and colours as options of a new manager.
  const custom = map.addClusterManager({ algorithm: 'distance', buckets: [50, 60], colors: ['#123456', '#654321'] },
    { labelMetrics: ROUND_METRICS });
  custom.addItems(Array.from({ length: 60 }, () => at(-0.01, -0.01)));
  custom.cluster();
  assert.deepEqual(custom.iconFor(clusters(map.frame(1), custom)[0]), { text: '60+', color: '#654321', diameter: 34 });
  // Only this manager's clusters.
  const plain = { ...cluster() };
  assert.match(refused(() => custom.iconFor(plain), 'INVALID_ARGUMENT').message, /belongs to cluster manager 0, not 1/);
  assert.match(refused(() => manager.iconFor({ ...plain, kind: 'clusterItem' }), 'INVALID_ARGUMENT').message, /not a cluster/);
  assert.match(refused(() => manager.iconFor({ icon: 0, count: 1 }), 'INVALID_ARGUMENT').message, /clusterIcon must be a cluster draw item's/);
  assert.match(refused(() => map.addClusterManager({}, { labelMetrics: { advances: [1, 2], height: 16 } }), 'INVALID_ARGUMENT').message,
    /addClusterManager/);
  map.destroy();
});

test('errors: wrong types, refused positions and icons naming the position, unknown items, destroyed managers', () => {
  const map = newMap(4);
  const manager = map.addClusterManager({ algorithm: 'none' });
  const other = map.addClusterManager();
  const ids = manager.addItems(FOUR);
  for (const [f, message] of [
    [() => manager.addItem(undefined), /position\.latitude must be a number/],
    [() => manager.addItem({ position: { latitude: '1', longitude: 2 } }), /^addItem: position\.latitude must be a number, got "1"/],
    [() => manager.addItem({ ...at(0, 0), zIndex: 1 }), /zIndex is not a cluster item option/],
    [() => manager.addItem({ ...at(0, 0), icon: 1.5 }), /icon must be a 32-bit integer/],
    [() => manager.addItem({ ...at(0, 0), title: 5 }), /title must be a string/],
    [() => manager.addItems(at(0, 0)), /items must be an array/],
    [() => manager.addItems([at(0, 0), null]), /^addItems: items\[1\] must be an object/],
    [() => manager.addItems([at(0, 0), { ...at(0, 0), snippet: [] }]), /items\[1\]\.snippet must be a string/],
    [() => manager.moveItem(ids[0], { latitude: 1 }), /position\.longitude must be a number/],
    [() => manager.removeItem(String(ids[0])), /id must be a number/],
  ]) {
    assert.match(refused(f, 'INVALID_ARGUMENT').message, message);
  }
  // The engine's refusals, all or none, naming the position.
  for (const [batch, code, detail, message] of [
    [[at(0, 0), at(0, 0), at(NaN, 0)], 'NON_FINITE_COORDINATE', 2, /^addItems: point 2 has a non-finite coordinate/],
    [[at(0, Infinity)], 'NON_FINITE_COORDINATE', 0, /point 0/],
    [[at(0, 0), at(90.5, 0)], 'LATITUDE_OUT_OF_RANGE', 1, /point 1 has a latitude outside -90…90/],
    [[at(0, 0), { ...at(0, 0), icon: -2 }], 'INVALID_MARKER_IN_BATCH', 1,
      /^addItems: marker 1 of the batch has an invalid property; none was added \(marker icon is invalid\)/],
  ]) {
    const error = refused(() => manager.addItems(batch), code);
    assert.equal(error.detail, detail, error.message);
    assert.match(error.message, message);
  }
  const single = refused(() => manager.addItem({ ...at(0, 0), icon: -2 }), 'INVALID_MARKER');
  assert.equal(single.detail, 3);
  assert.match(single.message, /^addItem: marker icon is invalid/);
  assert.equal(refused(() => manager.addItem({ ...at(0, 0), icon: 0 }), 'INVALID_MARKER').detail, 3, 'an icon not registered');
  assert.equal(refused(() => manager.addItem(at(-91, 0)), 'LATITUDE_OUT_OF_RANGE').detail, 0);
  assert.equal(manager.itemCount, 4, 'nothing was added');
  manager.cluster();
  assert.equal(items(map.frame(0), manager).length, 4);
  const icon = map.registerIcon({ width: 20, height: 20 });
  const withIcon = manager.addItem({ ...at(0.5, 0.5), icon });
  assert.deepEqual(manager.addItems([]), []);
  manager.cluster();
  assert.equal(items(map.frame(1), manager).find((i) => i.id === withIcon).icon, icon);

  // A refused move leaves the item where it was.
  assert.match(refused(() => manager.moveItem(ids[0], { latitude: 95, longitude: 0 }), 'INVALID_ARGUMENT').message,
    /^moveItem: invalid argument \(the position must be finite, with a latitude within ±90\)/);
  assert.deepEqual(manager.item(ids[0]).position, { latitude: 1, longitude: 1 });

  // Unknown items: never given, removed, another manager's, not ids at all.
  manager.removeItem(ids[3]);
  const foreign = other.addItem(at(0, 0));
  for (const id of [ids[3], foreign + 100, -1, 0.5, NaN, Infinity, 2 ** 53, ids[0] + 2 ** 32]) {
    for (const f of [() => manager.removeItem(id), () => manager.moveItem(id, { latitude: 0, longitude: 0 }), () => manager.item(id)]) {
      const error = refused(f, 'UNKNOWN_MARKER');
      assert.ok(Object.is(error.detail, id));
    }
  }
  assert.match(refused(() => manager.item(ids[3]), 'UNKNOWN_MARKER').message,
    new RegExp(`^item: no marker with id ${ids[3]} .*not an item of this cluster manager`));

  // A destroyed manager: every call is INVALID_HANDLE, and it draws nothing from the next frame.
  assert.ok(items(map.frame(2), manager).length > 0);
  manager.destroy();
  manager.destroy();
  assert.equal(map.clusterManager(manager.number), null);
  assert.equal(manager.itemCount, 0);
  assert.deepEqual(map.frame(3).items.filter((i) => i.manager === manager.number), []);
  for (const f of [() => manager.addItem(at(0, 0)), () => manager.addItems([at(0, 0)]), () => manager.removeItem(ids[0]),
    () => manager.moveItem(ids[0], { latitude: 0, longitude: 0 }), () => manager.clear(), () => manager.cluster(),
    () => manager.item(ids[0]), () => manager.setBuckets([5])]) {
    assert.match(refused(f, 'INVALID_HANDLE').message, /the cluster manager was destroyed/);
  }
  assert.equal(other.itemCount, 1, 'the other manager goes on');
  other.cluster();
  assert.equal(map.frame(4).items.length, 1);
  // So is every call once the map is destroyed; destroy() is then a no-op.
  map.destroy();
  assert.match(refused(() => other.cluster(), 'INVALID_HANDLE').message, /its map was destroyed/);
  assert.match(refused(() => other.item(foreign), 'INVALID_HANDLE').message, /its map was destroyed/);
  other.destroy();
  assert.equal(refused(() => map.addClusterManager(), 'INVALID_HANDLE').code, 'INVALID_HANDLE');
});

test('addItems with an icon that is not registered names the item\'s position', () => {
  const map = newMap(4);
  const manager = map.addClusterManager();
  try {
    const error = refused(() => manager.addItems([at(0, 0), { ...at(0, 0), icon: 7 }]), 'INVALID_MARKER_IN_BATCH');
    assert.equal(error.detail, 1);
  } finally {
    map.destroy();
  }
});

test('100,000 items added in one call and clustered (hierarchical), with a frame after', () => {
  const map = newMap(1);
  const manager = map.addClusterManager();
  const random = mulberry32(100000);
  const options = Array.from({ length: 100000 }, (_, i) => ({ ...at(random() * 120 - 60, random() * 360 - 180), userData: i }));
  const ids = manager.addItems(options);
  assert.equal(ids.length, 100000);
  assert.equal(ids[99999], ids[0] + 99999);
  assert.equal(manager.itemCount, 100000);
  assert.equal(manager.item(ids[54321]).userData, 54321);
  manager.cluster();
  const frame = map.frame(0);
  // The view (800 px) is wider than the world at zoom 1 (512 px): what is on the map shows on
  // each copy in view, and the copy the camera is on (x from 144 to 656) holds each item once.
  const onCopy = (/** @type {{x: number}} */ i) => i.x >= 400 - 256 && i.x < 400 + 256;
  const drawn = clusters(frame, manager).filter(onCopy);
  assert.ok(drawn.length > 10 && drawn.length < 2000, `${drawn.length} clusters at zoom 1`);
  const counted = drawn.reduce((sum, c) => sum + c.count, 0) + items(frame, manager).filter(onCopy).length;
  assert.equal(counted, 100000, 'the whole world is in view at zoom 1: every item is drawn once on its copy');
  assert.ok(clusters(frame, manager).some((c) => !onCopy(c)), 'the copies east and west show clusters too');
  map.destroy();
});

test('seeded garbage through every manager call never traps the module', () => {
  const random = mulberry32(20261201);
  const NUMBERS = [NaN, Infinity, -Infinity, -2, -1, -0, 0, 0.5, 1, 2, 3, 4, 20, 91, -91, 1e308, -1e308, 5e-324, 1000, 1001,
    2 ** 31, 2 ** 32, 2 ** 53, -(2 ** 31) - 1];
  const OTHERS = ['', '1', '#0099cc', 'grid', 'distance', null, undefined, true, false, {}, [], [1, 2], [5, 3], [10, 20],
    ['#111111'], 10n, Symbol('s'), () => 1, { latitude: 1, longitude: 2 }, { valueOf: () => 3 }];
  const { pick, value } = garbage(random, NUMBERS, OTHERS, ['latitude', 'longitude', 'icon', 'count']);
  // Mostly good items (so that batches get through and managers fill up), some garbage.
  const position = () => ({ latitude: random() * 10 - 5, longitude: random() * 10 - 5 });
  const options = () => {
    if (random() < 0.02) return value();
    const o = random() < 0.95 ? { position: position() } : {};
    if (random() < 0.05) o[pick(['position', 'icon', 'title', 'snippet', 'userData', 'zIndex'])] = value();
    return o;
  };

  const map = newMap(4);
  const managers = [];
  const live = new Map();
  const manager = () => (managers.length && random() < 0.9 ? pick(managers) : null);
  const id = (m) => (random() < 0.6 && live.get(m)?.size ? pick([...live.get(m)]) + pick([0, 0, 0, 1, -1, 2 ** 32, 0.5]) : value());
  let t = 0;
  const calls = {
    addClusterManager: () => {
      const o = random() < 0.2 ? value() : {
        algorithm: pick(['hierarchical', 'distance', 'grid', 'none', value()]),
        ...(random() < 0.3 ? { minimumClusterSize: value() } : {}), ...(random() < 0.3 ? { maximumClusterZoom: value() } : {}),
        ...(random() < 0.2 ? { buckets: value(), colors: value() } : {}),
      };
      const m = map.addClusterManager(o);
      managers.push(m);
      live.set(m, new Set());
    },
    addItem: (m) => live.get(m).add(m.addItem(options())),
    addItems: (m) => {
      const batch = random() < 0.1 ? value() : Array.from({ length: Math.floor(random() * 30) }, options);
      for (const added of m.addItems(batch)) live.get(m).add(added);
    },
    removeItem: (m) => { const x = id(m); m.removeItem(x); live.get(m).delete(x); },
    moveItem: (m) => m.moveItem(id(m), random() < 0.5 ? position() : random() < 0.7 ? { latitude: value(), longitude: value() } : value()),
    clear: (m) => { if (random() < 0.1) { m.clear(); live.get(m).clear(); } },
    cluster: (m) => m.cluster(),
    item: (m) => m.item(id(m)),
    setBuckets: (m) => m.setBuckets(pick([value(), [value(), value()], [2, 5, 9], [1]]), random() < 0.5 ? undefined : value()),
    animatesClusters: (m) => { m.animatesClusters = random() < 0.8 ? random() < 0.5 : value(); },
    iconFor: (m) => m.iconFor(random() < 0.5 ? value() : { ...pick(map.frame(t).items.concat([{}])), icon: value() }),
    destroy: (m) => { if (random() < 0.05) { m.destroy(); managers.splice(managers.indexOf(m), 1); } },
    answerTap: () => map.answerTap(random() < 0.7 ? random() < 0.5 : value()),
    zoom: () => map.moveCamera({ zoom: random() * 22 }),
    tap: () => {
      const target = random() < 0.6 ? pick(map.frame(t).items.concat([{ x: 400, y: 300 }])) : { x: random() * 800, y: random() * 600 };
      t += 0.5;
      tap(map, target.x, target.y, t);
      t += 0.5;
    },
    frame: () => { t += pick([0.05, 0.1, 0.25]); map.frame(t); },
  };
  const names = [...Object.keys(calls), 'addItems', 'addItems', 'frame', 'frame', 'tap', 'zoom'];
  for (let i = 0; i < 3000; i++) {
    const name = pick(names);
    // Few managers, so that each fills up.
    if (name === 'addClusterManager' && managers.length > 3 && random() < 0.8) continue;
    const m = manager();
    if (!m && !['addClusterManager', 'answerTap', 'zoom', 'tap', 'frame'].includes(name)) continue;
    try {
      calls[name](m);
    } catch (error) {
      if (!(error instanceof CairnError)) throw new Error(`call ${i} (${name}) threw ${error?.name}: ${error?.message}`, { cause: error });
    }
  }
  assert.ok(managers.length > 0);
  // The JS side and the engine still agree on which items exist, and every manager still works.
  for (const m of managers) {
    assert.equal(m.itemCount, live.get(m).size);
    for (const x of live.get(m)) m.removeItem(x);
    m.setBuckets([10, 50, 100, 200, 1000]);
    m.cluster();
  }
  map.moveCamera({ latitude: 0, longitude: 0, zoom: 4 });
  assert.deepEqual(map.frame(t + 1).items, []);
  const check = map.addClusterManager({ algorithm: 'distance' });
  check.addItems(FOUR);
  check.cluster();
  assert.deepEqual(clusters(map.frame(t + 2), check).map((c) => c.count), [4]);
  map.destroy();
});

test('C8: children, leaves (paged), expansion zoom and bounds of a cluster', async () => {
  await init();
  for (const algorithm of ['hierarchical', 'distance', 'grid']) {
    const map = new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 2 }, width: 800, height: 600 });
    const manager = map.addClusterManager({ algorithm });
    const ids = manager.addItems([[1, 1], [1, -1], [-1, 1], [-1, -1], [0.5, 0.5]]
      .map(([latitude, longitude]) => ({ position: { latitude, longitude } })));
    manager.cluster();
    const cluster = map.frame(0).items.find((i) => i.kind === 'cluster');
    assert.ok(cluster, algorithm);
    const all = manager.getLeaves(cluster.id, 100);
    assert.deepEqual([...all].sort((a, b) => a - b), ids, algorithm);
    assert.deepEqual(manager.getLeaves(cluster.id, 2, 1), all.slice(1, 3));
    assert.deepEqual(manager.getLeaves(cluster.id, 10, 5), []);
    assert.ok(manager.getClusterExpansionZoom(cluster.id) > 2);
    const children = manager.getChildren(cluster.id);
    assert.equal(children.reduce((n, c) => n + c.count, 0), 5, algorithm);
    const fromChildren = children.flatMap((c) => (c.cluster ? manager.getLeaves(c.id, 100) : [c.id]));
    assert.deepEqual(fromChildren.sort((a, b) => a - b), ids, algorithm);
    for (const c of children.filter((x) => !x.cluster)) {
      const p = manager.item(c.id).position;
      closeTo(c.position.latitude, p.latitude, 1e-9, algorithm);
      closeTo(c.position.longitude, p.longitude, 1e-9, algorithm);
    }
    assert.throws(() => manager.getChildren(123456789), (e) => e.code === 'UNKNOWN_CLUSTER');
    const b = manager.getClusterBounds(cluster.id);
    for (const [k, v] of Object.entries({ west: -1, south: -1, east: 1, north: 1 })) assert.ok(Math.abs(b[k] - v) < 1e-9, `${algorithm} ${k}`);
    assert.throws(() => manager.getClusterBounds(123456789), (e) => e.code === 'UNKNOWN_CLUSTER');
    assert.throws(() => manager.getLeaves(cluster.id, -1), (e) => e.code === 'INVALID_ARGUMENT');
    map.destroy();
  }
});

test('a hierarchical manager clusters a few changes among 100,000 items by editing its index: the same as a fresh manager, in one step', async () => {
  const random = mulberry32(2029);
  const n = 100_000;
  const lngLat = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    // Half in a dense patch, half over the world, so the changes meet clusters of every size.
    const dense = i % 2 === 0;
    lngLat[2 * i] = dense ? 2 + random() : random() * 360 - 180;
    lngLat[2 * i + 1] = dense ? 48 + random() : random() * 120 - 60;
  }
  const map = newMap(3, 48.5, 2.5);
  const manager = map.addClusterManager({ animatesClusters: false });
  const { first } = manager.addCoordinates(lngLat);
  manager.cluster();
  /** @type {Map<number, [number, number]>} where each live item is, by id, in the order added */
  const live = new Map(Array.from({ length: n }, (_, i) => [first + i, [lngLat[2 * i], lngLat[2 * i + 1]]]));

  // Ten changes: well under one per 1,000 items, what the engine repairs without building afresh.
  for (const k of [3, 5000, 77_777]) {
    const id = first + k;
    manager.moveItem(id, at(48.5 + random() * 0.1, 2.5 + random() * 0.1).position);
    live.set(id, [manager.item(id).position.longitude, manager.item(id).position.latitude]);
  }
  for (const k of [0, 1, 2, 40_000]) {
    manager.removeItem(first + k);
    live.delete(first + k);
  }
  for (const [lat, lng] of [[48.51, 2.51], [48.52, 2.52], [-10, 170]]) {
    const id = manager.addItem(at(lat, lng));
    live.set(id, [lng, lat]);
  }
  const steps = [];
  await manager.clusterAsync({ onProgress: (p) => steps.push(p) });
  assert.deepEqual(steps, [{ done: 1, total: 1 }], 'edited in one step, not built a zoom at a time');

  const fresh = newMap(3, 48.5, 2.5);
  const again = fresh.addClusterManager({ animatesClusters: false });
  again.addCoordinates(Float64Array.from([...live.values()].flat()));
  again.cluster();
  const shown = (m, manager) => {
    const frame = m.frame(0);
    return frame.items.filter((i) => i.manager === manager.number)
      .map((i) => `${i.kind} ${i.count} at ${i.x.toFixed(6)},${i.y.toFixed(6)}`).sort();
  };
  for (const zoom of [1, 4, 7, 10, 14]) {
    for (const m of [map, fresh]) m.moveCamera({ latitude: 48.5, longitude: 2.5, zoom });
    const ours = shown(map, manager), theirs = shown(fresh, again);
    assert.ok(ours.length > 0, `zoom ${zoom}: something drawn`);
    assert.deepEqual(ours, theirs, `zoom ${zoom}: as a fresh manager of the same items`);
  }
  // A cluster's leaves name the manager's own item ids, those added since included.
  map.moveCamera({ latitude: 48.51, longitude: 2.51, zoom: 9 });
  const frame = map.frame(1);
  const leaves = clusters(frame, manager).flatMap((c) => manager.getLeaves(c.id, 1 << 20));
  for (const id of leaves) assert.ok(live.has(id), `leaf ${id} is a live item`);

  // Many changes (more than one per 1,000 items): built afresh, a zoom at a time.
  for (let k = 100; k < 301; k++) manager.removeItem(first + k);
  steps.length = 0;
  await manager.clusterAsync({ onProgress: (p) => steps.push(p) });
  assert.equal(steps.at(-1).total, 17, 'a build of zooms 16 to 0');
  map.destroy();
  fresh.destroy();
});
