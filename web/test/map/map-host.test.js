// The host-side pieces of CairnMap that hold no DOM: the table of cluster items added in bulk
// (and how it answers for ids after removals and moves), cluster managers fed from coordinates
// through the real module, the frame-time percentiles, and which keys the DOM input forwards
// (to a stand-in element). How far a popover pans the view is the engine's (PopoversTests).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, MapEngine, CairnError } from '../../src/index.js';
import { ItemTable } from '../../src/engine/item-table.js';
import { FrameStats, percentiles } from '../../src/map/frame-stats.js';
import { forwardInput } from '../../src/map/dom-input.js';

before(async () => {
  await init();
});

test('ItemTable: bulk ranges answer by id, with removals and moves, without an object per item', () => {
  const t = new ItemTable();
  t.addRange(10, new Float64Array([1, 2, 3, 4, 5, 6]));        // ids 10, 11, 12
  t.set(13, { position: { latitude: 9, longitude: 8 }, title: 'x', snippet: '', userData: 5 });
  t.addRange(20, new Float64Array([-1, -2]));                   // id 20
  assert.equal(t.size, 5);
  assert.deepEqual(t.get(11)?.position, { latitude: 4, longitude: 3 });
  assert.deepEqual(t.get(12)?.position, { latitude: 6, longitude: 5 });
  assert.equal(t.get(13)?.title, 'x');
  assert.equal(t.get(14), undefined);
  assert.equal(t.get(9), undefined);
  assert.equal(t.get(10.5), undefined);
  assert.deepEqual(t.get(20)?.position, { latitude: -2, longitude: -1 });
  // A move turns a bulk item into a single one; the count stays.
  t.set(11, { position: { latitude: 0, longitude: 0 }, title: 'moved', snippet: '', userData: undefined });
  assert.equal(t.size, 5);
  assert.equal(t.get(11)?.title, 'moved');
  assert.equal(t.delete(11), true);
  assert.equal(t.get(11), undefined);
  assert.equal(t.delete(10), true);
  assert.equal(t.delete(10), false);
  assert.equal(t.size, 3);
  assert.deepEqual(t.get(12)?.position, { latitude: 6, longitude: 5 });
  t.delete(12);                                                     // the range empties and goes
  assert.deepEqual(t.get(20)?.position, { latitude: -2, longitude: -1 });
  t.clear();
  assert.equal(t.size, 0);
  assert.equal(t.get(13), undefined);
});

test('addCoordinates: a manager fed [lng, lat] pairs clusters them as items and answers for their ids', () => {
  // Paris and New York both in view.
  const map = new MapEngine({ camera: { latitude: 45, longitude: -35, zoom: 3 }, width: 1200, height: 600 });
  const manager = map.addClusterManager({ algorithm: 'hierarchical' });
  const lngLat = new Float64Array([2.35, 48.85, 2.36, 48.86, 2.34, 48.84, 2.35, 48.87, -74, 40.7]);
  const { first, count } = manager.addCoordinates(lngLat);
  assert.equal(count, 5);
  assert.equal(manager.itemCount, 5);
  assert.deepEqual(manager.item(first + 4).position, { latitude: 40.7, longitude: -74 });
  manager.cluster();
  const frame = map.frame(1);
  const cluster = frame.items.find((i) => i.kind === 'cluster');
  assert.equal(cluster?.count, 4, 'the four Paris points form one cluster at zoom 3');
  assert.deepEqual(manager.getLeaves(cluster.id, 10).sort((a, b) => a - b), [first, first + 1, first + 2, first + 3]);
  const lone = frame.items.find((i) => i.kind === 'clusterItem');
  assert.equal(lone?.id, first + 4);
  // Removed items are gone from the table and from the next clustering.
  manager.removeItem(first);
  assert.throws(() => manager.item(first), (e) => e instanceof CairnError && e.code === 'UNKNOWN_MARKER');
  assert.equal(manager.itemCount, 4);
  manager.cluster();
  // Three left in Paris: below the minimum cluster size (4), so drawn as items (C4).
  const after = map.frame(2).items;
  assert.equal(after.filter((i) => i.kind === 'cluster').length, 0);
  assert.deepEqual(after.map((i) => i.id).sort((a, b) => a - b), [first + 1, first + 2, first + 3, first + 4]);
  map.destroy();
});

test('addCoordinates refuses bad input whole, naming the problem', () => {
  const map = new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 3 }, width: 800, height: 600 });
  const manager = map.addClusterManager({});
  assert.throws(() => manager.addCoordinates(new Float64Array([1, 2, 3])), /pairs/);
  assert.throws(() => manager.addCoordinates(new Float64Array([1, 2, 3, 95])), (e) => e instanceof CairnError);
  assert.throws(() => manager.addCoordinates(new Float64Array([1, 2, NaN, 5])), (e) => e instanceof CairnError);
  assert.throws(() => manager.addCoordinates([1, 'x']), /lngLat\[1\]/);
  assert.equal(manager.itemCount, 0, 'nothing of a refused batch was added');
  assert.deepEqual(manager.addCoordinates([]), { first: 0, count: 0 });
  map.destroy();
});

test('FrameStats: medians and 95th percentiles over the frames kept', () => {
  const s = new FrameStats();
  assert.ok(Number.isNaN(s.summary().engine.median));
  for (let i = 1; i <= 100; i++) s.add(i / 10, 1);
  const sum = s.summary();
  assert.equal(sum.frames, 100);
  assert.equal(sum.engine.median, 5.1);
  assert.equal(sum.engine.p95, 9.6);
  assert.equal(sum.total.median, 6.1);
  s.reset();
  assert.equal(s.summary().frames, 0);
  assert.deepEqual(percentiles(new Float64Array([3, 1, 2])), { median: 2, p95: 3 });
});

test('clusterAsync: a step per zoom with progress, the old clustering drawn meanwhile, then the same as cluster()', async () => {
  const map = new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 2 }, width: 800, height: 600 });
  const manager = map.addClusterManager({});
  manager.addCoordinates(new Float64Array([1, 1, -1, 1, 1, -1, -1, -1]));
  manager.cluster();
  const counts = (frame) => frame.items.filter((i) => i.kind === 'cluster').map((i) => i.count).sort((a, b) => a - b);
  assert.deepEqual(counts(map.frame(1)), [4]);
  manager.addCoordinates(new Float64Array([20, 20, 21, 20, 20, 21, 21, 21]));
  const progress = [];
  let t = 1;
  await manager.clusterAsync({
    onProgress: (p) => progress.push({ ...p }),
    // Between steps, a frame: it must still show the old clustering.
    yield: async () => { assert.deepEqual(counts(map.frame(t += 0.01)), [4]); },
  });
  assert.equal(progress.length, 17);
  assert.deepEqual(progress.at(-1), { done: 17, total: 17 });
  assert.ok(progress.every((p, k) => k === 0 || p.done === progress[k - 1].done + 1));
  const stepped = counts(map.frame(t += 1));
  assert.deepEqual(stepped, [4, 4]);
  manager.cluster();
  assert.deepEqual(counts(map.frame(t += 1)), stepped);
  // Destroying the manager between steps ends the clustering quietly.
  const ended = manager.clusterAsync({ yield: async () => { manager.destroy(); } });
  await ended;
  map.destroy();
});

test('keys with ctrl, alt or cmd stay the browser\'s; shift and plain keys move the map', () => {
  /** @type {Record<string, (e: any) => void>} */
  const listeners = {};
  const element = /** @type {any} */ ({
    tabIndex: -1, style: {}, parentNode: null,
    addEventListener: (type, fn) => { listeners[type] = fn; },
    removeEventListener: (type) => { delete listeners[type]; },
  });
  const engine = new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 5 }, width: 800, height: 600 });
  let forwarded = 0;
  const stop = forwardInput(element, engine, () => { forwarded++; });
  const press = (key, modifiers = {}) => {
    let prevented = false;
    listeners.keydown({ key, target: element, timeStamp: 1000, ...modifiers, preventDefault: () => { prevented = true; } });
    return prevented;
  };
  engine.frame(0);
  for (const modifier of ['ctrlKey', 'altKey', 'metaKey']) {
    assert.equal(press('+', { [modifier]: true }), false, `${modifier}+plus zooms the page, not the map`);
    assert.equal(press('ArrowLeft', { [modifier]: true }), false, `${modifier}+left is not the map's`);
  }
  assert.equal(forwarded, 0);
  assert.equal(engine.frame(2).camera.zoom, 5);
  assert.equal(press('+'), true);
  assert.equal(press('ArrowLeft', { shiftKey: true }), true, 'shift+left rotates the map');
  assert.equal(forwarded, 2);
  engine.frame(3);
  const camera = engine.frame(4).camera;
  assert.equal(camera.zoom, 6);
  assert.notEqual(camera.bearing, 0);
  stop();
  engine.destroy();
});
