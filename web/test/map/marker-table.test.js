// MarkerTable (a CairnMap's markers) over real engines, without a page: which handles a map
// takes as its own (ids are per map, so two maps' markers and buildings share ids), and what a
// handle reads: the engine's options, the page's own.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, MapEngine } from '../../src/index.js';
import { MarkerTable } from '../../src/map/marker-table.js';
import { IndoorBuildings } from '../../src/map/indoor-buildings.js';

before(async () => { await init(); });

const LOUVRE = [{ latitude: 48.8600, longitude: 2.3350 }, { latitude: 48.8600, longitude: 2.3390 },
  { latitude: 48.8625, longitude: 2.3390 }, { latitude: 48.8625, longitude: 2.3350 }];

/** One map's markers and buildings, as a CairnMap wires them. */
function map() {
  const engine = new MapEngine({ camera: { latitude: 48.861, longitude: 2.337, zoom: 17 }, width: 800, height: 600 });
  const buildings = new IndoorBuildings(engine, () => {});
  const views = { iconOf: () => undefined, attach() {}, detach() {} };
  const markers = new MarkerTable(engine, /** @type {any} */ ({}), /** @type {any} */ (views), buildings,
    { wake() {} });
  return { engine, buildings, markers };
}

test('a map holds its own markers, not another map\'s with the same id', () => {
  const a = map(), b = map();
  const [mine] = a.markers.add([{ position: { latitude: 0, longitude: 0 } }]);
  const [theirs] = b.markers.add([{ position: { latitude: 0, longitude: 0 } }]);
  assert.equal(mine.id, theirs.id, 'ids are per map');
  assert.equal(a.markers.holds(mine), true);
  assert.equal(a.markers.holds(theirs), false, 'selectedMarker and addPopover refuse it');
  assert.equal(a.markers.holds({ id: mine.id }), false, 'a look-alike is no handle');
  mine.remove();
  assert.equal(a.markers.holds(mine), false, 'a removed marker is not held');
  a.engine.destroy();
  b.engine.destroy();
});

test('a marker\'s level names a building of its own map, not another map\'s with the same id', () => {
  const a = map(), b = map();
  const levels = [{ name: 'Upper' }, { name: 'Ground' }];
  const own = a.buildings.add({ footprint: LOUVRE, levels });
  const foreign = b.buildings.add({ footprint: LOUVRE, levels });
  assert.equal(own.id, foreign.id, 'ids are per map');
  const position = { latitude: 48.861, longitude: 2.337 };
  assert.equal(a.markers.add([{ position, indoorLevel: { building: own, level: 1 } }]).length, 1);
  assert.throws(() => a.markers.add([{ position, indoorLevel: { building: foreign, level: 1 } }]),
    { code: 'INVALID_ARGUMENT', message: /a building of this map/ });
  a.engine.destroy();
  b.engine.destroy();
});

test('a handle reads what the engine holds: its defaults for options left out, changes merged, the page\'s own', () => {
  const { engine, buildings, markers } = map();
  const [m] = markers.add([{ position: { latitude: 48.861, longitude: 2.337 }, title: 'A', userData: 7 }]);
  assert.deepEqual([m.opacity, m.visible, m.zIndex, m.rotation, m.flat, m.collisionBehavior, m.altitudeMode],
    [1, true, 0, 0, false, 'required', 'clampToGround'], 'Google\'s, as the engine gives them');
  assert.deepEqual([m.groundAnchor, m.infoWindowAnchor], [{ x: 0.5, y: 1 }, { x: 0.5, y: 0 }]);
  m.opacity = 0.5;
  m.set({ zIndex: 3 });
  assert.deepEqual([m.opacity, m.zIndex, m.title, m.userData], [0.5, 3, 'A', 7], 'each change over the others');
  // One store: what the engine holds is what the handle reads, however it changed there.
  engine.updateMarker(m.id, { rotation: 30, title: 'B' });
  assert.deepEqual([m.rotation, m.title], [30, 'B']);
  assert.deepEqual(m.options.position, engine.marker(m.id).position);
  assert.deepEqual([m.icon, m.pin, m.view, m.tracksViewChanges], [null, null, null, true], 'the page\'s options, none given');
  // A level given with a building's handle reads back with it; given with its id, with the id.
  const building = buildings.add({ footprint: LOUVRE, levels: [{ name: 'Upper' }, { name: 'Ground' }] });
  m.indoorLevel = { building, level: 1 };
  assert.equal(m.indoorLevel?.building, building);
  assert.deepEqual(engine.marker(m.id).indoorLevel, { building: building.id, level: 1 });
  m.indoorLevel = { building: building.id, level: 0 };
  assert.deepEqual(m.indoorLevel, { building: building.id, level: 0 });
  m.indoorLevel = null;
  assert.equal(m.indoorLevel, null);
  engine.destroy();
});
