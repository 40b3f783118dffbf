// The map engine through the real module: frames, gestures, controls, the programmatic camera,
// projection, and bad input (refused whole, never a trap).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

import { init, MapEngine, CairnError } from '../../src/index.js';
import { FRAME_FIELDS, readLayout } from '../../src/engine/read-frame.js';
import { SETTINGS, checkSettingCount, readSettings, settingsBits } from '../../src/engine/ui-settings.js';
import { mulberry32 } from '../../bench/generate.js';
import { MAP_SCRIPT } from '../support/map-script.js';

/** @type {import('../../src/core/wasm.js').CairnModule} */
let mod;
before(async () => {
  mod = await init();
});

const near = (actual, expected, tolerance, label) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${label}: ${actual} is not within ${tolerance} of ${expected}`);

const mapAt = (camera, width = 800, height = 600) => new MapEngine({ camera, width, height });

/** Runs frames from `from` to `to` every 1/60 s; returns every event, in order, and the last frame. */
function runFrames(map, from, to) {
  const events = [];
  let frame;
  for (let t = from; t <= to + 1e-9; t += 1 / 60) {
    frame = map.frame(t);
    events.push(...frame.events);
  }
  return { events, frame };
}

/** A mouse drag by (dx, dy) from (x, y) in `steps` moves, starting at `t`. */
function drag(map, x, y, dx, dy, t, steps = 4) {
  map.pointerDown(1, 'mouse', x, y, 0, 0, t);
  for (let i = 1; i <= steps; i++) map.pointerMove(1, x + (dx * i) / steps, y + (dy * i) / steps, t + 0.016 * i);
  map.pointerUp(1, x + dx, y + dy, t + 0.016 * steps);
}

/** A tap (down and up, 50 ms apart) at (x, y). */
function tap(map, x, y, t, kind = 'mouse') {
  map.pointerDown(9, kind, x, y, 0, 0, t);
  map.pointerUp(9, x, y, t + 0.05);
}

/** Expects `f` to throw a CairnError with `code`; returns it. */
function throwsCairn(f, code) {
  let caught;
  assert.throws(f, (error) => {
    caught = error;
    return error instanceof CairnError && error.code === code;
  });
  return caught;
}

test('the frame header: names match the module, and a mismatch is refused', () => {
  assert.equal(FRAME_FIELDS.length, mod.fn.cairn_map_layout(0));
  const layout = readLayout((which) => mod.fn.cairn_map_layout(which));
  assert.equal(layout.inputStride, mod.fn.cairn_map_layout(3));
  assert.throws(() => readLayout((which) => (which === 0 ? FRAME_FIELDS.length + 1 : mod.fn.cairn_map_layout(which))),
    /frame header has \d+ fields but read-frame.js names/);
  assert.equal(layout.settingCount, mod.fn.cairn_map_layout(6));
  assert.equal(layout.drawStride, 22, 'a cluster\'s icon (label, colour, diameter) ends the draw record');
  assert.throws(() => readLayout((which) => (which === 4 ? 18 : mod.fn.cairn_map_layout(which))), /draw records of 18 and popover records of 7 doubles are shorter than these bindings read \(12, 5, 22 and 7\)/);
  assert.equal(layout.popoverStride, mod.fn.cairn_map_layout(7));
  assert.equal(mod.fn.cairn_map_layout(8), -2);
  assert.throws(() => readLayout((which) => (which === 7 ? 6 : mod.fn.cairn_map_layout(which))), /popover records of 6 doubles/);
});

test('a frame of a known camera: target, tiles, bounds, controls', () => {
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 2 });
  const f = map.frame(0);
  assert.deepEqual(f.camera, { latitude: 0, longitude: 0, zoom: 2, bearing: 0, tilt: 0 });
  assert.deepEqual(f.target, { x: 0.5, y: 0.5 });
  assert.equal(f.time, 0);
  assert.equal(f.tileZoom, 2);
  assert.deepEqual(f.viewport, { width: 800, height: 600 });
  assert.equal(f.moving, false);
  assert.equal(f.animating, false);
  assert.deepEqual(f.events, []);
  // 800 × 600 of a world 1024 pixels wide: ±400 px is ±140.625°, ±300 px the latitude of world y 0.5 ∓ 300/1024.
  const latitude = (y) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
  near(f.bounds.west, -140.625, 1e-9, 'west');
  near(f.bounds.east, 140.625, 1e-9, 'east');
  near(f.bounds.north, latitude(0.5 - 300 / 1024), 1e-9, 'north');
  near(f.bounds.south, -latitude(0.5 - 300 / 1024), 1e-9, 'south');
  assert.deepEqual(f.visibleRegion.farLeft, { latitude: f.bounds.north, longitude: f.bounds.west });
  assert.ok(f.tiles.length >= 4);
  for (const tile of f.tiles) {
    assert.equal(tile.z, 2);
    assert.equal(tile.corners.length, 8);
    assert.equal(tile.wrappedX, ((tile.x % 4) + 4) % 4);
  }
  // Tile 1/1 at zoom 2 spans world 0.25…0.5: its corners on screen, top-left first.
  const t11 = f.tiles.find((t) => t.x === 1 && t.y === 1);
  assert.deepEqual(t11.corners, [144, 44, 400, 44, 400, 300, 144, 300]);
  assert.equal(f.compass.opacity, 0);
  assert.equal(f.myLocationButton.visible, false);
  assert.equal(f.locationDot, null);
  assert.ok(f.compass.size > 0 && f.compass.x > 400 && f.compass.y < 300, 'compass top right');
  map.destroy();
});

/** What a map made straight through the ABI reports with `read(fn, handle, out)`, then frees. */
function rawMap(read) {
  const fn = mod.fn;
  const h = fn.cairn_map_create(0, 0, 3, NaN, NaN, 800, 600);
  const out = fn.cairn_alloc(64) >>> 0;
  try {
    return read(fn, h, out, () => new Float64Array(mod.memory.buffer, out, 8));
  } finally {
    fn.cairn_free(out);
    fn.cairn_map_destroy(h);
  }
}

test('UI settings: names in the engine order, defaults the engine\'s (Google\'s), scroll off stops a drag', () => {
  assert.equal(SETTINGS.length, mod.fn.cairn_map_layout(6));
  checkSettingCount(mod.fn.cairn_map_layout(6));
  assert.throws(() => checkSettingCount(SETTINGS.length + 1), /module has \d+ UI settings but ui-settings.js names/);
  // The defaults are the engine's: a map reports what a map made through the ABI holds.
  const engineDefaults = rawMap((fn, h) => fn.cairn_map_settings(h));
  assert.equal(engineDefaults, 0b1001111, 'gestures and the floor picker on, buttons off');
  const fresh = mapAt({ latitude: 0, longitude: 0, zoom: 3 });
  assert.deepEqual(fresh.settings, readSettings(engineDefaults));
  assert.deepEqual(fresh.settings, { scrollGestures: true, zoomGestures: true, tiltGestures: true, rotateGestures: true,
    compassButton: false, myLocationButton: false, indoorPicker: true });
  // A setting given changes that one; those left out go back to the engine's defaults.
  SETTINGS.forEach((name, i) => {
    const flipped = !(engineDefaults & (1 << i));
    assert.deepEqual(settingsBits({ [name]: flipped }, 't'), { bits: flipped ? 1 << i : 0, given: 1 << i }, name);
    fresh.setSettings({ [name]: flipped });
    assert.deepEqual(fresh.settings, readSettings(engineDefaults ^ (1 << i)), name);
  });
  fresh.setSettings({});
  assert.deepEqual(fresh.settings, readSettings(engineDefaults));
  fresh.destroy();
  assert.deepEqual(settingsBits(undefined, 't'), { bits: 0, given: 0 });
  throwsCairn(() => settingsBits({ zoomGestures: 1 }, 't'), 'INVALID_ARGUMENT');

  const map = mapAt({ latitude: 10, longitude: 20, zoom: 5 });
  map.setSettings({ scrollGestures: false });
  assert.equal(map.settings.scrollGestures, false);
  assert.equal(map.settings.zoomGestures, true);
  const before = map.frame(0).camera;
  drag(map, 400, 300, 200, 0, 0.1);
  const { frame, events } = runFrames(map, 0.2, 1);
  assert.deepEqual(frame.camera, before);
  assert.deepEqual(events.filter((e) => e.type !== 'tap'), []);
  map.setSettings({});
  drag(map, 400, 300, 200, 0, 2);
  assert.ok(map.frame(2.1).camera.longitude < before.longitude);
  map.destroy();
});

test('limits, camera fields and durations left out take the engine\'s defaults, which the map reports', () => {
  const engineLimits = rawMap((fn, h, out, view) => (fn.cairn_map_limits(h, out), Array.from(view().subarray(0, 4))));
  assert.deepEqual(engineLimits, [0, 22, 60, 22], 'Google\'s');
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 5 });
  const standard = map.limits;
  assert.deepEqual(Object.values(standard), engineLimits);
  assert.deepEqual(Object.keys(standard), ['minZoom', 'maxZoom', 'maxTilt', 'maxTileZoom']);
  map.setLimits({ maxZoom: 7 });
  assert.deepEqual(map.limits, { ...standard, maxZoom: 7 });
  map.setLimits({ minZoom: 3, maxTileZoom: 18 });
  assert.deepEqual(map.limits, { ...standard, minZoom: 3, maxTileZoom: 18 }, 'those left out take the defaults again');
  map.setLimits({});
  assert.deepEqual(map.limits, standard);
  map.moveCamera({ zoom: 40, tilt: 89 });
  const f = map.frame(1);
  assert.equal(f.camera.zoom, standard.maxZoom);
  assert.equal(f.camera.tilt, standard.maxTilt);
  for (const bad of [{ maxZoom: NaN }, { maxTilt: NaN }, { maxTileZoom: NaN }]) throwsCairn(() => map.setLimits(bad), 'INVALID_ARGUMENT');
  assert.deepEqual(map.limits, standard, 'a NaN is refused, not taken as left out');
  // A camera without bearing or tilt: the engine's (north up, flat), reported before any frame.
  const engineCamera = rawMap((fn, h, out, view) => (fn.cairn_map_camera(h, out), Array.from(view().subarray(0, 5))));
  assert.deepEqual(engineCamera, [0, 0, 3, 0, 0]);
  const plain = mapAt({ latitude: 0, longitude: 0, zoom: 3 });
  assert.deepEqual(Object.values(plain.camera), engineCamera);
  assert.deepEqual(plain.frame(0).camera, plain.camera);
  throwsCairn(() => mapAt({ latitude: 0, longitude: 0, zoom: 3, tilt: NaN }), 'INVALID_ARGUMENT');
  // An animation without duration or easing: the engine's half second, easing in and out.
  plain.animateCamera({ zoom: 5 });
  plain.frame(1);
  near(plain.frame(1.25).camera.zoom, 4, 1e-9, 'half way in time and in zoom');
  const done = plain.frame(1.51);
  assert.equal(done.camera.zoom, 5);
  assert.equal(done.animating, false);
  // Bounds and zooms without a duration move at once; a location without accuracy has none.
  plain.showBounds({ west: -1, south: -1, east: 1, north: 1 });
  assert.equal(plain.frame(1.52).animating, false);
  plain.zoomBy(-1);
  assert.equal(plain.frame(1.53).animating, false);
  plain.setMyLocation({ latitude: 0, longitude: 0 });
  assert.equal(plain.frame(1.54).locationDot?.radius, 0);
  throwsCairn(() => plain.animateCamera({ zoom: 4 }, { duration: NaN }), 'INVALID_ARGUMENT');
  throwsCairn(() => plain.showBounds({ west: -1, south: -1, east: 1, north: 1 }, { padding: NaN }), 'INVALID_ARGUMENT');
  throwsCairn(() => plain.setMyLocation({ latitude: 0, longitude: 0, accuracy: NaN }), 'INVALID_ARGUMENT');
  map.destroy();
  plain.destroy();
});

test('a mouse drag pans (dragging right moves west), then will-move, changed, idle', () => {
  const map = mapAt({ latitude: 40, longitude: -74, zoom: 10 });
  map.frame(0);
  const grabbed = map.coordinate(400, 300);
  map.pointerDown(1, 'mouse', 400, 300, 0, 0, 0);
  const first = map.frame(0.01);
  assert.deepEqual(first.events, []);
  map.pointerMove(1, 450, 300, 0.016);
  map.pointerMove(1, 500, 300, 0.033);
  const during = map.frame(0.034);
  assert.deepEqual(during.events, [{ type: 'cameraWillMove', cause: 'gesture' }, { type: 'cameraChanged' }]);
  assert.ok(during.moving);
  assert.ok(during.camera.longitude < -74);
  // The grabbed point stays under the pointer.
  const under = map.coordinate(500, 300);
  near(under.longitude, grabbed.longitude, 1e-9, 'longitude under the pointer');
  near(under.latitude, grabbed.latitude, 1e-9, 'latitude under the pointer');
  map.pointerUp(1, 500, 300, 0.05);
  const { events, frame } = runFrames(map, 0.05, 3);
  assert.equal(frame.moving, false);
  assert.deepEqual(events.at(-1), { type: 'cameraIdle' });
  assert.equal(events.filter((e) => e.type === 'cameraIdle').length, 1);
  assert.ok(events.slice(0, -1).every((e) => e.type === 'cameraChanged'), 'only changes until idle');
  assert.ok(frame.camera.longitude < during.camera.longitude, 'the fling carries on west');
  map.destroy();
});

test('a wheel zoom about a point keeps the ground under it', () => {
  const map = mapAt({ latitude: 48.85, longitude: 2.35, zoom: 12, bearing: 20, tilt: 30 });
  map.frame(0);
  const before = map.coordinate(200, 150);
  map.wheel(200, 150, 0, -100, 'pixel', 0, 0.1);
  const f = map.frame(0.1);
  assert.ok(f.camera.zoom > 12);
  const after = map.coordinate(200, 150);
  near(after.latitude, before.latitude, 1e-9, 'latitude');
  near(after.longitude, before.longitude, 1e-9, 'longitude');
  // Line mode takes the engine's line height; a numeric deltaMode works as the DOM gives it.
  map.wheel(200, 150, 0, 1, 1, 0, 0.2);
  assert.ok(map.frame(0.2).camera.zoom < f.camera.zoom);
  map.destroy();
});

test('a double tap zooms in by one when its animation ends', () => {
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 4 });
  map.frame(0);
  tap(map, 400, 300, 0);
  tap(map, 402, 301, 0.2);
  const f = map.frame(0.25);
  assert.ok(f.animating);
  const done = map.frame(1.25);
  near(done.camera.zoom, 5, 1e-9, 'zoom');
  assert.equal(done.animating, false);
  assert.deepEqual(done.events.map((e) => e.type), ['cameraChanged', 'cameraIdle']);
  map.destroy();
});

test('a pinch that doubles the distance between two fingers zooms in by one', () => {
  const map = mapAt({ latitude: 10, longitude: 10, zoom: 6 });
  map.frame(0);
  map.pointerDown(1, 'touch', 300, 300, 0, 0, 0);
  map.pointerDown(2, 'touch', 500, 300, 0, 0, 0);
  for (let i = 1; i <= 10; i++) {
    map.pointerMove(1, 300 - 10 * i, 300, 0.01 * i);
    map.pointerMove(2, 500 + 10 * i, 300, 0.01 * i);
  }
  map.pointerUp(1, 200, 300, 0.11);
  map.pointerUp(2, 600, 300, 0.11);
  const f = map.frame(1);
  near(f.camera.zoom, 7, 1e-6, 'zoom');
  near(f.camera.latitude, 10, 1e-6, 'latitude');
  near(f.camera.longitude, 10, 1e-6, 'longitude');
  map.destroy();
});

test('a single tap is reported only once no second tap can follow (0.3 s)', () => {
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 3 });
  map.frame(0);
  tap(map, 100, 120, 0, 'touch');
  assert.deepEqual(map.frame(0.3).events, []);
  const where = map.coordinate(100, 120);
  const f = map.frame(0.36);
  assert.deepEqual(f.events, [{ type: 'tap', x: 100, y: 120, latitude: where.latitude, longitude: where.longitude }]);
  map.destroy();
});

test('the compass: shown once rotated, a tap turns the map north, then it fades', () => {
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 3 });
  map.setSettings({ compassButton: true });
  assert.equal(map.frame(0).compass.opacity, 0);
  // Right-button drag sideways rotates.
  map.pointerDown(1, 'mouse', 400, 300, 2, 0, 0.1);
  map.pointerMove(1, 360, 300, 0.2);
  map.pointerUp(1, 360, 300, 0.3);
  const rotated = map.frame(0.3);
  assert.equal(rotated.camera.bearing, 20);
  assert.equal(rotated.compass.opacity, 1);
  assert.equal(rotated.compass.rotation, -20);
  tap(map, rotated.compass.x, rotated.compass.y, 1);
  const tapped = map.frame(1.05);
  assert.deepEqual(tapped.events.slice(0, 2), [{ type: 'compassTapped' }, { type: 'cameraWillMove', cause: 'apiAnimation' }]);
  const north = map.frame(1.6);
  assert.equal(north.camera.bearing, 0);
  assert.ok(north.compass.opacity > 0 && north.compass.opacity <= 1, 'fading');
  assert.equal(map.frame(2).compass.opacity, 0);
  map.destroy();
});

test('the my-location button asks for the location, then goes there', () => {
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 10 });
  map.setSettings({ myLocationButton: true });
  const f = map.frame(0);
  assert.equal(f.myLocationButton.visible, true);
  tap(map, f.myLocationButton.x, f.myLocationButton.y, 0.1);
  assert.deepEqual(map.frame(0.2).events, [{ type: 'myLocationButtonTapped' }, { type: 'locationRequested' }]);
  map.setMyLocation({ latitude: 48.8566, longitude: 2.3522, accuracy: 50 });
  const moving = map.frame(0.3);
  assert.deepEqual(moving.events.slice(0, 1), [{ type: 'cameraWillMove', cause: 'apiAnimation' }]);
  const there = map.frame(1);
  near(there.camera.latitude, 48.8566, 1e-9, 'latitude');
  near(there.camera.longitude, 2.3522, 1e-9, 'longitude');
  near(there.locationDot.x, 400, 1e-6, 'dot x');
  near(there.locationDot.y, 300, 1e-6, 'dot y');
  assert.ok(there.locationDot.radius > 0);
  map.setMyLocation(null);
  assert.equal(map.frame(1.1).locationDot, null);
  map.destroy();
});

test('screenPoint and coordinate are inverse, tilted and rotated too', () => {
  const map = mapAt({ latitude: 35, longitude: 139, zoom: 11, bearing: 30, tilt: 45 });
  const f = map.frame(0);
  const centre = map.screenPoint(35, 139);
  near(centre.x, 400, 1e-6, 'x');
  near(centre.y, 300, 1e-6, 'y');
  for (const [x, y] of [[0, 599], [799, 599], [123, 456], [700, 200]]) {
    const c = map.coordinate(x, y);
    const s = map.screenPoint(c.latitude, c.longitude);
    near(s.x, x, 1e-6, `x of ${x}, ${y}`);
    near(s.y, y, 1e-6, `y of ${x}, ${y}`);
  }
  const high = map.screenPoint(35, 139, 1000, 'absolute');
  assert.ok(high.y < centre.y, 'a point above the ground appears higher');
  map.moveCamera({ tilt: 60 });
  const g = map.frame(0.1);
  assert.equal(map.coordinate(400, g.horizonY - 10), null);
  assert.ok(f.horizonY < g.horizonY || f.horizonY === -1e9);
  throwsCairn(() => map.screenPoint(35, 139, 0, 'sideways'), 'INVALID_ARGUMENT');
  throwsCairn(() => map.coordinate(NaN, 0), 'INVALID_ARGUMENT');
  map.destroy();
});

test('showBounds fits a box in the view, north up and flat', () => {
  const map = mapAt({ latitude: 50, longitude: 50, zoom: 3, bearing: 40, tilt: 30 });
  map.showBounds({ west: -10, south: -10, east: 10, north: 10 });
  const f = map.frame(0);
  assert.equal(f.camera.bearing, 0);
  assert.equal(f.camera.tilt, 0);
  near(f.camera.latitude, 0, 1e-9, 'latitude');
  near(f.camera.longitude, 0, 1e-9, 'longitude');
  // Taller than wide on a wide view: the height fits exactly.
  near(map.screenPoint(10, 0).y, 0, 1e-6, 'north edge');
  near(map.screenPoint(-10, 0).y, 600, 1e-6, 'south edge');
  assert.ok(f.bounds.west < -10 && f.bounds.east > 10);
  map.showBounds({ west: -10, south: -10, east: 10, north: 10 }, { padding: 50, duration: 0.5 });
  assert.ok(map.frame(0.1).animating);
  near(map.frame(1).camera.zoom, f.camera.zoom - Math.log2(600 / 500), 1e-9, 'padded zoom');
  map.destroy();
});

test('keys and the programmatic camera', () => {
  assert.equal(MapEngine.keyCommand('ArrowLeft'), 'panLeft');
  assert.equal(MapEngine.keyCommand('='), 'zoomIn');
  assert.equal(MapEngine.keyCommand('_'), 'zoomOut');
  assert.equal(MapEngine.keyCommand('a'), null);
  assert.equal(MapEngine.keyCommand('toString'), null);
  assert.equal(MapEngine.modifiers({ shiftKey: true, metaKey: true }), 9);
  assert.equal(MapEngine.modifiers({ ctrlKey: true, altKey: true }), 6);

  const map = mapAt({ latitude: 0, longitude: 0, zoom: 5 });
  map.frame(0);
  // The engine says which keys it takes: not with ctrl, alt or meta, which are the browser's.
  for (const held of [{ ctrlKey: true }, { altKey: true }, { metaKey: true }, { shiftKey: true, ctrlKey: true }]) {
    assert.equal(map.key('zoomIn', MapEngine.modifiers(held), 0.05), false, JSON.stringify(held));
    assert.equal(mod.fn.cairn_map_takes_key(5, MapEngine.modifiers(held)), 0);
  }
  assert.equal(map.flushInput(), 0, 'a key the map does not take is not queued');
  assert.equal(map.key(MapEngine.keyCommand('+'), 0, 0.1), true);
  near(map.frame(1).camera.zoom, 6, 1e-9, 'zoom after +');
  assert.equal(map.key('panLeft', MapEngine.modifiers({ shiftKey: true }), 1.1), true);
  assert.equal(map.frame(2).camera.bearing, 345);
  map.moveCamera({ zoom: 8 });
  assert.deepEqual(map.frame(2.1).camera, { latitude: 0, longitude: 0, zoom: 8, bearing: 345, tilt: 0 });
  map.animateCamera({ latitude: 10 }, { duration: 1, easing: 'linear' });
  assert.equal(map.frame(2.2).camera.latitude, 0, 'it starts with the first frame after the call');
  const half = map.frame(2.7);
  assert.ok(half.animating && half.camera.latitude > 0 && half.camera.latitude < 10);
  map.stopAnimation();
  const stopped = map.frame(3);
  assert.equal(stopped.camera.latitude, half.camera.latitude);
  assert.equal(stopped.camera.zoom, 8);
  map.zoomBy(-2, { x: 0, y: 0 });
  const zoomed = map.frame(3.1);
  assert.equal(zoomed.camera.zoom, 6);
  map.setLimits({ maxZoom: 7 });
  map.zoomBy(3);
  assert.equal(map.frame(3.2).camera.zoom, 7);
  map.setViewport(400, 300, { top: 100 });
  const small = map.frame(3.3);
  assert.deepEqual(small.viewport, { width: 400, height: 300 });
  near(map.screenPoint(small.camera.latitude, small.camera.longitude).y, 200, 1e-6, 'padded centre');
  map.destroy();
});

test('programmatic animations start with the next frame, however long after the last one it comes', () => {
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 10 });
  map.frame(1);
  // The page drew nothing for a while (it draws only while something changes).
  map.zoomBy(2, { duration: 0.5 });
  near(map.frame(60).camera.zoom, 10, 1e-12, 'the first frame is the start');
  const middle = map.frame(60.25).camera.zoom;
  assert.ok(middle > 10 && middle < 12, `zoom ${middle} half way`);
  near(map.frame(60.5).camera.zoom, 12, 1e-12, 'the end');
  map.animateCamera({ latitude: 20 }, { duration: 1, easing: 'linear' });
  near(map.frame(100).camera.latitude, 0, 1e-12, 'animateCamera too');
  const half = map.frame(100.5).camera.latitude;
  assert.ok(half > 5 && half < 15, `latitude ${half}`);
  map.showBounds({ west: 10, south: 10, east: 11, north: 11 }, { duration: 0.5 });
  assert.ok(map.frame(200).camera.longitude < 1, 'showBounds too');
  near(map.frame(200.5).camera.longitude, 10.5, 1e-9, 'and ends where asked');
  map.destroy();
});

test('fields not given keep what moveCamera set before the next frame; unknown fields are refused', () => {
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 3 });
  map.frame(0);
  map.moveCamera({ latitude: 48.86, longitude: 2.35 });
  map.moveCamera({ zoom: 12 });
  const camera = map.frame(0.1).camera;
  near(camera.latitude, 48.86, 1e-9, 'latitude kept');
  near(camera.longitude, 2.35, 1e-9, 'longitude kept');
  assert.equal(camera.zoom, 12);
  map.moveCamera({ latitude: 40.7, longitude: -74 });
  map.animateCamera({ zoom: 14 }, { duration: 0 });
  const animated = map.frame(0.2).camera;
  near(animated.latitude, 40.7, 1e-9, 'the animation starts from the move');
  assert.equal(animated.zoom, 14);
  // Any move since the last frame counts: bounds shown, a zoom step.
  map.showBounds({ west: 10, south: 10, east: 20, north: 20 });
  map.zoomBy(1);
  map.moveCamera({ tilt: 30 });
  const kept = map.frame(0.25).camera;
  near(kept.longitude, 15, 1e-9, 'the bounds\' centre kept');
  assert.equal(kept.tilt, 30);
  assert.match(throwsCairn(() => map.moveCamera({ zoom: NaN }), 'INVALID_ARGUMENT').message, /camera zoom must be a number, not NaN/);
  // Google's names, or a misspelling, would otherwise move nothing without a word.
  for (const [run, message] of [
    [() => map.moveCamera({ center: { lat: 1, lng: 2 } }), /moveCamera: camera has no "center" \(it takes latitude, longitude, zoom, bearing, tilt\)/],
    [() => map.animateCamera({ heading: 90 }), /camera has no "heading"/],
    [() => map.setSettings({ compass: true }), /setSettings: settings has no "compass"/],
    [() => new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 1, zom: 2 }, width: 10, height: 10 }), /MapEngine: camera has no "zom"/],
  ]) {
    assert.match(throwsCairn(run, 'INVALID_ARGUMENT').message, message);
  }
  assert.equal(map.frame(0.3).camera.tilt, 30, 'nothing changed');
  map.destroy();
});

test('a batch with a bad record is refused whole and named; bad arguments never reach the engine', () => {
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 5 });
  const before = map.frame(0).camera;
  map.pointerDown(1, 'mouse', 400, 300, 0, 0, 0.1);
  map.pointerMove(1, 450, 300, 0.2);
  map.pointerMove(1, NaN, 300, 0.3);
  const error = throwsCairn(() => map.frame(0.4), 'INVALID_RECORD');
  assert.equal(error.detail, 2);
  assert.match(error.message, /^frame: record 2 of the batch is malformed.*record 2 came from pointerMove\(\)/);
  // Nothing applied: pointer 1 is not down, so this move does nothing.
  map.pointerMove(1, 600, 300, 0.5);
  assert.deepEqual(map.frame(0.5).camera, before);
  // Malformed in the engine's terms: a fractional id, an unknown button or wheel mode.
  for (const push of [
    () => map.pointerDown(1.5, 'touch', 0, 0, 0, 0, 1),
    () => map.pointerDown(1, 'mouse', 0, 0, 7, 0, 1),
    () => map.wheel(0, 0, 0, 1, 3, 0, 1),
    () => map.key('zoomIn', 16, 1),
  ]) {
    push();
    assert.equal(throwsCairn(() => map.flushInput(), 'INVALID_RECORD').detail, 0);
  }
  // Pointers that are not down are ignored.
  map.pointerMove(99, 10, 10, 1);
  map.pointerUp(98, 10, 10, 1);
  map.pointerCancel(97, 1);
  assert.equal(map.flushInput(), 3);
  const still = map.frame(1.1);
  assert.deepEqual([still.camera, still.events], [before, []]);
  // Refused before the engine sees them.
  throwsCairn(() => map.pointerDown('1', 'mouse', 0, 0, 0, 0, 1), 'INVALID_ARGUMENT');
  throwsCairn(() => map.pointerDown(1, 'finger', 0, 0, 0, 0, 1), 'INVALID_ARGUMENT');
  throwsCairn(() => map.key('jump', 0, 1), 'INVALID_ARGUMENT');
  throwsCairn(() => map.wheel(0, 0, 0, 1, 'pages', 0, 1), 'INVALID_ARGUMENT');
  throwsCairn(() => map.frame('1'), 'INVALID_ARGUMENT');
  throwsCairn(() => map.setLimits({ maxTileZoom: 1.5 }), 'INVALID_ARGUMENT');
  throwsCairn(() => map.zoomBy(1, { x: NaN, y: 0 }), 'INVALID_ARGUMENT');
  throwsCairn(() => map.setMyLocation({ latitude: NaN, longitude: 0 }), 'INVALID_ARGUMENT');
  throwsCairn(() => map.animateCamera({}, { easing: 'bounce' }), 'INVALID_ARGUMENT');
  throwsCairn(() => new MapEngine({ camera: { latitude: 0, longitude: 0 }, width: 1, height: 1 }), 'INVALID_ARGUMENT');
  assert.equal(map.flushInput(), 0, 'nothing was queued');
  // Refused by the engine, named by the method.
  assert.match(throwsCairn(() => map.setViewport(0, 600), 'INVALID_ARGUMENT').message, /^setViewport: /);
  assert.match(throwsCairn(() => map.setLimits({ minZoom: 5, maxZoom: 4 }), 'INVALID_ARGUMENT').message, /^setLimits: /);
  throwsCairn(() => map.moveCamera({ zoom: Infinity }), 'INVALID_ARGUMENT');
  throwsCairn(() => map.frame(NaN), 'INVALID_ARGUMENT');
  throwsCairn(() => new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 1 }, width: 0, height: 1 }), 'INVALID_ARGUMENT');
  assert.deepEqual(map.frame(1.2).camera, before);
  map.destroy();
  map.destroy();
  assert.match(throwsCairn(() => map.frame(2), 'INVALID_HANDLE').message, /destroy\(\) was called/);
  throwsCairn(() => map.pointerDown(1, 'mouse', 0, 0, 0, 0, 2), 'INVALID_HANDLE');
  throwsCairn(() => map.coordinate(0, 0), 'INVALID_HANDLE');
  assert.equal(mod.fn.cairn_map_frame(0, 0, 0, 0), -1, 'the engine refuses a handle that is not a map');
});

test('big batches and big frames: the buffers grow', () => {
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 5, tilt: 60 }, 4000, 4000);
  const f = map.frame(0);
  assert.ok(f.tiles.length > 200, `${f.tiles.length} tiles`);
  assert.equal(new Set(f.tiles.map((t) => `${t.z}/${t.x}/${t.y}`)).size, f.tiles.length);
  map.setViewport(800, 600);
  map.moveCamera({ tilt: 0 });
  map.frame(0.1);
  const grabbed = map.coordinate(100, 100);
  map.pointerDown(1, 'mouse', 100, 100, 0, 0, 1);
  for (let i = 1; i <= 1000; i++) map.pointerMove(1, 100 + i * 0.5, 100 + i * 0.3, 1 + i * 0.001);
  map.frame(2);
  const under = map.coordinate(600, 400);
  near(under.latitude, grabbed.latitude, 1e-9, 'latitude');
  near(under.longitude, grabbed.longitude, 1e-9, 'longitude');
  map.destroy();
});

test('scripted drag and pinch give the same camera as natively', () => {
  // Must equal the native Swift test's literals (Tests/CairnTests/Map/MapControllerTests.swift).
  const expected = {
    latitude: 40.31419591388263,
    longitude: -75.02775563045753,
    zoom: 11.028291764183184,
    bearing: 358.4176460773814,
    tilt: 0,
  };
  const map = new MapEngine(MAP_SCRIPT.map);
  let last;
  for (const [method, ...args] of MAP_SCRIPT.steps) {
    const result = map[method](...args);
    if (method === 'frame') last = result;
  }
  // The same tolerance as the native test: the two builds may differ in the last bits of libm.
  for (const [field, value] of Object.entries(expected)) near(last.camera[field], value, 1e-9, field);
  map.destroy();
});

test('the 32,768th map at once is refused as too many maps, not as a wrong state', () => {
  // All but one made through the ABI: a MapEngine each would take minutes.
  const handles = [];
  for (;;) {
    const h = mod.fn.cairn_map_create(0, 0, 1, 0, 0, 100, 100);
    if (h < 0) break;
    handles.push(h);
  }
  assert.ok(handles.length >= 32_767 - 16, `${handles.length} maps`);
  mod.fn.cairn_map_destroy(handles.pop());
  const last = mapAt({ latitude: 0, longitude: 0, zoom: 1 });
  let error = null;
  try {
    mapAt({ latitude: 0, longitude: 0, zoom: 1 });
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof CairnError, String(error));
  assert.equal(error.code, 'TOO_MANY_MAPS');
  assert.match(error.message, /^MapEngine: too many maps at once: at most 32767 can exist \(destroy one first\)$/);
  assert.equal(error.detail, 32_767);
  for (const h of handles) assert.equal(mod.fn.cairn_map_destroy(h), 0);
  last.destroy();
  mapAt({ latitude: 0, longitude: 0, zoom: 1 }).destroy();
});

test('2,000 batches of random garbage never trap, and the camera stays in range', () => {
  const random = mulberry32(20240607);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const NUMBERS = [NaN, Infinity, -Infinity, -1, -0, 0, 0.5, 1, 2, 3, 4, 5, 15, 16, 5e-324,
    2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 85.1, -90, 90, 180, 360, 1e5, 1e6, 1e7, 1e150, -1e150,
    1e308, -1e308, Number.MAX_VALUE, 1e299, -1e200];
  const HUGE = [1e308, -1e308, Number.MAX_VALUE, 1e299, -1e200];
  const OTHERS = ['1', null, undefined, true, {}, [], 10n];
  const value = () => (random() < 0.03 ? pick(HUGE) : position());
  const position = () => {
    const r = random();
    if (r < 0.05) return pick(NUMBERS);
    if (r < 0.06) return pick(OTHERS);
    return (random() - 0.3) * 10 ** Math.floor(random() * 5);
  };
  const kind = () => (random() < 0.98 ? pick(['mouse', 'touch', 'pen']) : pick(['finger', 1, null]));
  let time = 0;
  const stamp = () => (random() < 0.97 ? (time += random() * 0.05) : value());
  const id = () => (random() < 0.95 ? pick([1, 2, 3]) : value());
  const inputs = [
    (m) => m.pointerDown(id(), kind(), position(), position(), random() < 0.95 ? pick([0, 0, 2]) : value(), random() < 0.95 ? 0 : value(), stamp()),
    (m) => m.pointerMove(id(), position(), position(), stamp()),
    (m) => m.pointerMove(id(), position(), position(), stamp()),
    (m) => m.pointerUp(id(), position(), position(), stamp()),
    (m) => m.pointerCancel(id(), stamp()),
    (m) => m.wheel(position(), position(), value(), value(), random() < 0.95 ? pick([0, 1, 2]) : value(), random() < 0.95 ? 0 : value(), stamp()),
    (m) => m.key(random() < 0.9 ? pick(['panLeft', 'panUp', 'panRight', 'panDown', 'zoomIn', 'zoomOut']) : value(),
      random() < 0.7 ? Math.floor(random() * 16) : value(), stamp()),
  ];
  let limits = { minZoom: 0, maxZoom: 22 };
  const calls = [
    (m) => m.moveCamera({ latitude: value(), longitude: value(), zoom: value(), bearing: value(), tilt: value() }),
    (m) => m.animateCamera({ latitude: value(), zoom: value() }, { duration: value(), easing: pick(['linear', 'easeOut', 'x']) }),
    (m) => m.showBounds({ west: value(), south: value(), east: value(), north: value() }, { padding: value(), duration: value() }),
    (m) => m.zoomBy(value(), random() < 0.5 ? { x: position(), y: position(), duration: value() } : undefined),
    (m) => m.stopAnimation(),
    (m) => m.setMyLocation(random() < 0.2 ? null : { latitude: value(), longitude: value(), accuracy: value() }),
    (m) => m.setSettings({ scrollGestures: random() < 0.8, zoomGestures: random() < 0.8, tiltGestures: random() < 0.8,
      rotateGestures: random() < 0.8, compassButton: random() < 0.5, myLocationButton: random() < 0.5 }),
    (m) => m.setViewport(random() < 0.8 ? 100 + random() * 1500 : value(), random() < 0.8 ? 100 + random() * 1000 : value(),
      { top: value(), left: random() * 50 }),
    (m) => {
      const l = { minZoom: value(), maxZoom: value(), maxTilt: value(), maxTileZoom: pick([0, 5, 22, 30, 31, -1]) };
      m.setLimits(l);
      limits = l;
    },
    (m) => m.screenPoint(value(), value(), value(), pick(['clampToGround', 'absolute', 'relativeToGround'])),
    (m) => m.coordinate(value(), value()),
  ];
  const survive = (label, f) => {
    try {
      f();
    } catch (error) {
      if (!(error instanceof CairnError)) throw new Error(`${label} threw ${error && error.name}: ${error && error.message}`, { cause: error });
    }
  };
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 3 });
  for (let round = 0; round < 2000; round++) {
    const n = 1 + Math.floor(random() * 12);
    for (let i = 0; i < n; i++) survive(`input ${round}`, () => pick(inputs)(map));
    if (random() < 0.3) survive(`call ${round}`, () => pick(calls)(map));
    if (random() < 0.1) survive(`frame ${round}`, () => map.frame(value()));
    let frame;
    survive(`frame ${round}`, () => { frame = map.frame(time); });
    frame ??= map.frame(time);
    const c = frame.camera;
    for (const k of ['latitude', 'longitude', 'zoom', 'bearing', 'tilt']) assert.ok(Number.isFinite(c[k]), `round ${round}: ${k} ${c[k]}`);
    assert.ok(Math.abs(c.latitude) <= 85.06, `round ${round}: latitude ${c.latitude}`);
    assert.ok(c.zoom >= limits.minZoom && c.zoom <= limits.maxZoom, `round ${round}: zoom ${c.zoom} outside ${limits.minZoom}…${limits.maxZoom}`);
    assert.ok(c.longitude >= -180 && c.longitude <= 180 && c.bearing >= 0 && c.bearing < 360);
  }
  map.destroy();
});

// Each case in a fresh process: a trap leaves the module's state undefined.
const OVERFLOW_CASES = {
  'a pan to x = 1e308': 'm.pointerDown(1, "mouse", 0, 2, 0, 0, 1); m.pointerMove(1, 1e308, 2, 1.04);',
  'a wheel at x = 1e308': 'm.wheel(1e308, 0, 0, -100, 0, 0, 1);',
  'a double tap at x = -1e308': 'for (const t of [1, 1.1]) { m.pointerDown(1, "touch", -1e308, 2, 0, 0, t); m.pointerUp(1, -1e308, 2, t + 0.04); }',
  'a pinch to x = 1e155': 'm.pointerDown(1, "touch", 0, 2, 0, 0, 1); m.pointerDown(2, "touch", 100, 2, 0, 0, 1); m.pointerMove(1, 1e155, 2, 1.04);',
  'zoomBy about x = 1e308': 'm.zoomBy(1, { x: 1e308, y: 0 });',
};

test('finite but huge screen positions never trap', () => {
  const index = new URL('../../src/index.js', import.meta.url).href;
  const trapped = [];
  for (const [name, body] of Object.entries(OVERFLOW_CASES)) {
    const script = `
      import { init, MapEngine } from ${JSON.stringify(index)};
      await init();
      const m = new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 3 }, width: 800, height: 600 });
      m.frame(0);
      try { ${body} m.frame(1.1); m.frame(2); console.log('survived'); }
      catch (error) { console.log(error.name); }`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    if (!/^(survived|CairnError)$/m.test(result.stdout)) trapped.push(`${name}: ${result.stdout.trim() || result.stderr}`);
  }
  assert.deepEqual(trapped, []);
});

test('frameTiming splits the last frame into the engine building it and reading it into objects', () => {
  const map = new MapEngine({ camera: { latitude: 48.85, longitude: 2.35, zoom: 12 }, width: 800, height: 600 });
  assert.deepEqual(map.frameTiming, { engineMs: 0, readMs: 0 }, 'no frame yet');
  map.addMarkers(Array.from({ length: 2000 }, (_, k) => ({ position: { latitude: 48.85 + (k % 50) * 1e-4, longitude: 2.35 + Math.floor(k / 50) * 1e-4 } })));
  const start = performance.now();
  const frame = map.frame(1);
  const total = performance.now() - start;
  assert.ok(frame.items.length > 0);
  const { engineMs, readMs } = map.frameTiming;
  assert.ok(engineMs > 0 && readMs > 0, `engine ${engineMs} ms, read ${readMs} ms`);
  assert.ok(engineMs + readMs <= total, `${engineMs} + ${readMs} within the ${total} ms the call took`);
  map.frameTiming.engineMs = -1;   // a copy: the engine's record is not changed from outside
  assert.equal(map.frameTiming.engineMs, engineMs);
  map.destroy();
});

test('V2: a popover stands above its marker, closes on a tap elsewhere, pans into view and goes with its marker', () => {
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 10 });
  const marker = map.addMarker({ position: { latitude: 0, longitude: 0 } });
  const popover = map.addPopover(marker, { open: true });
  assert.deepEqual(map.popover(popover), { open: true, autoClose: true, autoPan: true }, 'the others are the defaults');
  map.setPopoverSize(popover, 100, 50);
  let frame = map.frame(1);
  assert.deepEqual(frame.popovers, [{ popover, marker, shown: true, x: 350, y: 300 - 43 - 4 - 50, width: 100, height: 50 }]);
  // A tap on its marker leaves it; one on the map closes it, and says so.
  tap(map, 400, 280, 2);
  frame = map.frame(2.5);
  assert.deepEqual(frame.events.map((e) => e.type), ['markerTapped']);
  map.answerTap(true);
  tap(map, 100, 500, 3);
  frame = map.frame(3.5);
  assert.deepEqual(frame.events[0], { type: 'popoverClosed', popover, marker });
  assert.deepEqual(frame.popovers, []);
  assert.equal(map.popover(popover)?.open, false);
  // Opened near the top edge, it pans the map until it is 10 px inside (the info window's margin).
  map.moveCamera({ latitude: -0.38 });   // the marker 23 px below the top: its popover's top 74 px above
  map.updatePopover(popover, { open: true });
  frame = runFrames(map, 4, 5).frame;
  assert.ok(Math.abs(frame.popovers[0].y - 10) < 1e-6, `top at ${frame.popovers[0].y}`);
  map.updatePopover(popover, { autoClose: false });
  assert.deepEqual(map.popover(popover), { open: true, autoClose: false, autoPan: true });
  // Refused: unknown settings, wrong types, a marker not on the map, sizes out of range, ids never given.
  assert.match(throwsCairn(() => map.addPopover(marker, { modal: true }), 'INVALID_ARGUMENT').message, /modal/);
  throwsCairn(() => map.updatePopover(popover, { open: 'yes' }), 'INVALID_ARGUMENT');
  throwsCairn(() => map.addPopover(marker + 1), 'UNKNOWN_MARKER');
  throwsCairn(() => map.setPopoverSize(popover, -1, 10), 'INVALID_ARGUMENT');
  assert.match(throwsCairn(() => map.updatePopover(popover + 1, { open: true }), 'INVALID_HANDLE').message, /no popover with this id/);
  throwsCairn(() => map.setPopoverSize(1.5, 1, 1), 'INVALID_ARGUMENT');
  // Its marker removed, it is gone too: reported, and unknown from then on.
  map.removeMarker(marker);
  assert.deepEqual(map.frame(6).events.filter((e) => e.type.startsWith('popover')), [{ type: 'popoverRemoved', popover, marker }]);
  assert.equal(map.popover(popover), null);
  throwsCairn(() => map.removePopover(popover), 'INVALID_HANDLE');
  map.destroy();
});

test('nextFrameIn: Infinity at rest, 0 while anything animates, the time left while a timer waits', () => {
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 5 });
  assert.equal(map.frame(1).nextFrameIn, Infinity);
  map.animateCamera({ zoom: 6 }, { duration: 0.5 });
  assert.equal(map.frame(2).nextFrameIn, 0, 'animating');
  assert.equal(map.frame(2.25).nextFrameIn, 0);
  assert.equal(map.frame(2.5).nextFrameIn, Infinity, 'done');
  // A tap waits 0.3 s for a second one (feature G6), then is reported.
  tap(map, 100, 100, 3);
  near(map.frame(3.1).nextFrameIn, 0.25, 1e-9, 'the double-tap wait left');
  const reported = map.frame(3.4);
  assert.deepEqual(reported.events.map((e) => e.type), ['tap']);
  assert.equal(reported.nextFrameIn, Infinity);
  // A press waits for the long press.
  map.pointerDown(1, 'touch', 200, 200, 0, 0, 4);
  near(map.frame(4.1).nextFrameIn, 0.4, 1e-9, 'the long press left');
  map.pointerUp(1, 200, 200, 4.2);
  // Without a duration, an animation takes the engine's (0.5 s).
  map.animateCamera({ zoom: 7 });
  assert.equal(map.frame(10).nextFrameIn, 0);
  assert.equal(map.frame(10.49).nextFrameIn, 0);
  const done = map.frame(10.5);
  assert.deepEqual([done.nextFrameIn, done.camera.zoom], [Infinity, 7]);
  throwsCairn(() => map.animateCamera({ zoom: 8 }, { duration: NaN }), 'INVALID_ARGUMENT');
  map.destroy();
});

test('seeded garbage through the popover calls never traps, and the ABI refuses bad arguments', () => {
  const random = mulberry32(20261202);
  const map = mapAt({ latitude: 0, longitude: 0, zoom: 5 });
  const markers = [map.addMarker({ position: { latitude: 0, longitude: 0 } }), map.addMarker({ position: { latitude: 1, longitude: 1 } })];
  const VALUES = [NaN, Infinity, -1, 0, 0.5, 1, 2, 7, 8, 2 ** 31, 2 ** 53, true, false, null, undefined, '', 'open', {}, [],
    { open: true }, { autoClose: 1 }, { autoPan: false, open: true }, { nope: 1 }];
  const pick = (list) => list[Math.floor(random() * list.length)];
  const ids = [1, 2, 3];
  const calls = [
    () => ids.push(map.addPopover(pick([...markers, ...VALUES]), pick(VALUES))),
    () => map.updatePopover(pick([...ids, ...VALUES]), pick(VALUES)),
    () => map.popover(pick([...ids, ...VALUES])),
    () => map.setPopoverSize(pick([...ids, ...VALUES]), pick(VALUES), pick(VALUES)),
    () => map.removePopover(pick([...ids, ...VALUES])),
    () => map.frame(random() * 100),
  ];
  for (let i = 0; i < 2000; i++) {
    try {
      pick(calls)();
    } catch (error) {
      if (!(error instanceof CairnError)) throw new Error(`call ${i} threw ${error?.name}: ${error?.message}`, { cause: error });
    }
  }
  const fn = mod.fn;
  const h = fn.cairn_map_create(0, 0, 3, 0, 0, 800, 600);
  try {
    assert.equal(fn.cairn_map_add_popover(h, 1, 0, 0), -13, 'no such marker');
    assert.equal(fn.cairn_map_add_popover(h, NaN, 0, 0), -13);
    assert.equal(fn.cairn_map_set_popover(h, 1, 8, 0), -2, 'no such setting');
    assert.equal(fn.cairn_map_set_popover(h, 1, 0, 1), -2, 'a bit outside the mask');
    assert.equal(fn.cairn_map_set_popover(h, 1, 1, 1), -1, 'no such popover');
    assert.equal(fn.cairn_map_popover_state(h, -5), -1);
    assert.equal(fn.cairn_map_set_popover_size(h, 1, NaN, 1), -2);
    assert.equal(fn.cairn_map_remove_popover(h, 2 ** 30), -1);
    assert.equal(fn.cairn_map_set_custom_info_windows(h, 5), -2);
    assert.equal(fn.cairn_map_add_popover(h + 1000, 1, 0, 0), -1, 'no such map');
  } finally {
    fn.cairn_map_destroy(h);
  }
  map.destroy();
});
