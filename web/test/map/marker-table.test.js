// MarkerTable (a CairnMap's markers) over real engines, without a page: which handles a map
// takes as its own. Ids are per map, so two maps' markers and buildings share ids.
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
