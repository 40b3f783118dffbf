// Buildings with floors and the floor picker (feature G4) through the wasm module: the picker in
// the frame, a tap on a level, markers on levels, the events, and bad input.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, MapEngine } from '../../src/index.js';
import { at, click, refused } from '../support/map-helpers.js';

before(async () => {
  await init();
});

/** A square building of ±0.001° around (0, 0). */
const FOOTPRINT = [
  { latitude: -0.001, longitude: -0.001 }, { latitude: -0.001, longitude: 0.001 },
  { latitude: 0.001, longitude: 0.001 }, { latitude: 0.001, longitude: -0.001 },
];

const drawnMarkers = (frame) => frame.items.filter((i) => i.kind === 'marker').map((i) => i.id).sort((a, b) => a - b);

test('G4: a prominent building\'s floors on the picker; a tapped level shows its markers', () => {
  const map = new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 15 }, width: 800, height: 600 });
  const building = map.addIndoorBuilding({ footprint: FOOTPRINT, levels: 3, defaultLevel: 1 });
  const [top, middle] = map.addMarkers([
    { ...at(0, 0.0002), indoorLevel: { building, level: 0 } },
    { ...at(0, -0.0002), indoorLevel: { building, level: 1 } },
  ]);
  const street = map.addMarker(at(0.0005, 0));
  let frame = map.frame(0);
  assert.equal(frame.floorPicker, null, 'not prominent at zoom 15');
  assert.deepEqual(drawnMarkers(frame), [middle, street]);
  map.moveCamera({ zoom: 17 });
  frame = map.frame(1);
  assert.deepEqual(frame.events.filter((e) => e.type === 'indoorBuildingFocused'), [{ type: 'indoorBuildingFocused', building }]);
  const p = frame.floorPicker;
  assert.deepEqual([p.building, p.activeLevel, p.first, p.count, p.size], [building, 1, 0, 3, 40]);
  assert.equal(p.x, 800 - 12 - 20, 'bottom right');
  click(map, p.x, p.top + p.size / 2, 2);
  frame = map.frame(2.5);
  assert.deepEqual(frame.events, [{ type: 'indoorLevelActivated', building, level: 0 }]);
  assert.equal(frame.floorPicker.activeLevel, 0);
  assert.deepEqual(drawnMarkers(frame), [top, street]);
  // The host changes levels too; the setting hides the picker; removal shows every marker.
  assert.equal(map.indoorLevel(building), 0, 'the tapped level, read back from the engine');
  map.activateIndoorLevel(building, 2);
  assert.equal(map.indoorLevel(building), 2);
  assert.deepEqual(drawnMarkers(map.frame(3)), [street]);
  map.setSettings({ indoorPicker: false });
  assert.equal(map.frame(4).floorPicker, null);
  map.removeIndoorBuilding(building);
  frame = map.frame(5);
  assert.deepEqual(frame.events, [{ type: 'indoorBuildingFocused', building: null }]);
  assert.deepEqual(drawnMarkers(frame), [top, middle, street]);
  map.destroy();
});

test('G4: bad buildings and levels are refused and change nothing', () => {
  const map = new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 17 }, width: 800, height: 600 });
  assert.match(refused(() => map.addIndoorBuilding({ footprint: FOOTPRINT.slice(0, 2), levels: 2 }), 'INVALID_ARGUMENT').message,
    /3 to 4096 corners/);
  refused(() => map.addIndoorBuilding({ footprint: FOOTPRINT, levels: 0 }), 'INVALID_ARGUMENT');
  refused(() => map.addIndoorBuilding({ footprint: FOOTPRINT, levels: 2, defaultLevel: 2 }), 'INVALID_ARGUMENT');
  refused(() => map.addIndoorBuilding({ footprint: 'square', levels: 2 }), 'INVALID_ARGUMENT');
  const nan = refused(() => map.addIndoorBuilding({ footprint: [...FOOTPRINT, { latitude: NaN, longitude: 0 }], levels: 2 }),
    'NON_FINITE_COORDINATE');
  assert.equal(nan.detail, 4);
  assert.equal(refused(() => map.addIndoorBuilding({ footprint: [{ latitude: 91, longitude: 0 }, ...FOOTPRINT], levels: 2 }),
    'LATITUDE_OUT_OF_RANGE').detail, 0);
  assert.equal(map.frame(0).floorPicker, null, 'nothing was added');
  const building = map.addIndoorBuilding({ footprint: FOOTPRINT, levels: 2 });
  assert.equal(map.frame(1).floorPicker.activeLevel, 0, 'the default level is the top one');
  assert.equal(map.indoorLevel(building), 0, 'as the engine holds it');
  refused(() => map.addIndoorBuilding({ footprint: FOOTPRINT, levels: 2, defaultLevel: -1 }), 'INVALID_ARGUMENT');
  refused(() => map.indoorLevel(building + 1), 'INVALID_HANDLE');
  refused(() => map.activateIndoorLevel(building, 2), 'INVALID_ARGUMENT');
  refused(() => map.activateIndoorLevel(building + 1, 0), 'INVALID_HANDLE');
  refused(() => map.removeIndoorBuilding(building + 1), 'INVALID_HANDLE');
  refused(() => map.addMarker({ ...at(0, 0), indoorLevel: { building, level: 0.5 } }), 'INVALID_MARKER');
  refused(() => map.addMarker({ ...at(0, 0), indoorLevel: { building } }), 'INVALID_ARGUMENT');
  const noSuchLevel = refused(() => map.addMarker({ ...at(0, 0), indoorLevel: { building, level: 2 } }), 'INVALID_MARKER');
  assert.match(noSuchLevel.message, /indoorLevel/);
  refused(() => map.addMarker({ ...at(0, 0), indoorLevel: { building: building + 1, level: 0 } }), 'INVALID_MARKER');
  assert.equal(map.markerCount, 0);
  // What marker() gives is a copy.
  const id = map.addMarker({ ...at(0, 0), indoorLevel: { building, level: 1 } });
  map.marker(id).indoorLevel.level = 0;
  assert.deepEqual(map.marker(id).indoorLevel, { building, level: 1 });
  map.destroy();
});

test('G4: a building added while input waits to be sent keeps its footprint', () => {
  const map = new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 17 }, width: 800, height: 600 });
  map.pointerMove(1, 100, 100, 0.01);   // queued: it goes to the engine with the next call
  const building = map.addIndoorBuilding({ footprint: FOOTPRINT, levels: 2 });
  assert.equal(map.frame(0.02).floorPicker?.building, building);
  map.destroy();
});
