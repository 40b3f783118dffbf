// Markers through the real module: options in and back out, ids, errors that name the property
// or the position, the draw list (placement, order, flat markers, collisions), taps answered by
// the host, the info window, scale, and garbage that must never trap.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, MapEngine, CairnError } from '../../src/index.js';
import { MARKER_FIELDS, MARKER_FLAGS, MARKER_OPTIONS, MARKER_PROPERTY_FIELDS, checkMarkerStride, decodeMarker, encodeMarker } from '../../src/engine/marker-records.js';
import { mulberry32 } from '../../bench/generate.js';
import { itemTransform } from '../../src/render/item-transform.js';
import { at, click, closeTo, garbage, refused } from '../support/map-helpers.js';

/** @type {import('../../src/core/wasm.js').CairnModule} */
let mod;
before(async () => {
  mod = await init();
});

/** The default pin's size in CSS pixels (the engine's DefaultPin). */
const PIN = { width: 27, height: 43 };

/**
 * Google's marker defaults, which the engine gives a marker added with only a position (the JS
 * side writes none of them), and the text the JS side keeps.
 */
const DEFAULTS = Object.freeze({
  altitude: 0, altitudeMode: 'clampToGround', icon: -1, groundAnchor: { x: 0.5, y: 1 }, infoWindowAnchor: { x: 0.5, y: 0 },
  rotation: 0, flat: false, opacity: 1, zIndex: 0, visible: true, collisionBehavior: 'required', collisionPriority: 0,
  appearAnimation: 'none', customInfoWindow: false, tracksInfoWindowChanges: false, indoorLevel: null,
  title: '', snippet: '', userData: undefined,
});

const newMap = (camera = { latitude: 0, longitude: 0, zoom: 3 }) => new MapEngine({ camera, width: 800, height: 600 });

/** The drawn marker with this id in a frame, or undefined. */
const drawn = (frame, id) => frame.items.find((item) => item.kind === 'marker' && item.id === id);

/** Clicks the middle of a drawn default pin at `t`; returns the frame 0.35 s after the release. */
function clickPin(map, item, t) {
  click(map, item.x, item.y - PIN.height / 2, t);
  return map.frame(t + 0.04 + 0.35);
}

test('the marker record: MARKER_FIELDS matches the module stride; another stride is refused', () => {
  assert.equal(MARKER_FIELDS.length, mod.fn.cairn_map_layout(5));
  checkMarkerStride(mod.fn.cairn_map_layout(5));
  assert.throws(() => checkMarkerStride(MARKER_FIELDS.length + 1), /marker records have \d+ doubles but marker-records.js names/);
});

test('a record carries only what was given; the engine completes it and writes it back whole', () => {
  const R = Object.fromEntries(MARKER_FIELDS.map((f, i) => [f, i]));
  const record = new Float64Array(MARKER_FIELDS.length).fill(7);
  encodeMarker(record, 0, { position: { latitude: 10, longitude: 20 } });
  assert.equal(record[R.given], (1 << R.latitude) | (1 << R.longitude), 'the position, nothing else');
  assert.equal(record[R.givenFlags], 0);
  assert.deepEqual([...record].filter((v, i) => i !== R.latitude && i !== R.longitude && i !== R.given), new Array(MARKER_FIELDS.length - 3).fill(0));
  encodeMarker(record, 0, { opacity: 0.5, title: 'T', flat: false });
  assert.equal(record[R.given], 1 << R.opacity);
  assert.equal(record[R.givenFlags], MARKER_FLAGS.flat | MARKER_FLAGS.hasTitle);
  assert.equal(record[R.flags], MARKER_FLAGS.hasTitle);
  // Through the ABI alone: what the engine makes of a record giving only a position.
  const fn = mod.fn;
  const h = fn.cairn_map_create(0, 0, 3, 0, 0, 800, 600);
  const buffer = fn.cairn_alloc(8 * (MARKER_FIELDS.length + 1)) >>> 0;
  try {
    const view = () => new Float64Array(mod.memory.buffer, buffer, MARKER_FIELDS.length + 1);
    encodeMarker(view(), 0, { position: { latitude: 10, longitude: 20 } });
    assert.equal(fn.cairn_map_add_markers(h, buffer, 1, buffer + 8 * MARKER_FIELDS.length), 1);
    const id = view()[MARKER_FIELDS.length];
    assert.equal(fn.cairn_map_marker(h, id, buffer), 0);
    const { title, snippet, userData, ...engineDefaults } = DEFAULTS;
    const engine = decodeMarker(view().subarray(0, MARKER_FIELDS.length));
    assert.deepEqual(engine, { position: { latitude: 10, longitude: 20 }, ...engineDefaults });
    // And a MapEngine reports what the engine holds.
    const map = newMap();
    const a = map.addMarker(at(10, 20));
    assert.deepEqual(map.marker(a), { ...engine, title, snippet, userData });
    map.destroy();
  } finally {
    fn.cairn_free(buffer);
    fn.cairn_map_destroy(h);
  }
});

test('add, read back with the defaults, update merges, remove and clear', () => {
  const map = newMap();
  const data = { shop: 42 };
  const a = map.addMarker({ ...at(10, 20), title: 'Café', snippet: 'Open', userData: data });
  const b = map.addMarker({ ...at(-5, -8), zIndex: 2, flat: true, icon: -1, collisionBehavior: 'requiredAndHidesOptional' });
  assert.equal(map.markerCount, 2);
  assert.deepEqual(map.marker(a), { ...DEFAULTS, position: { latitude: 10, longitude: 20 },
    title: 'Café', snippet: 'Open', userData: data });
  assert.equal(map.marker(a).userData, data, 'userData is the app value itself');
  assert.deepEqual(map.marker(a).groundAnchor, { x: 0.5, y: 1 });
  assert.deepEqual(map.marker(a).infoWindowAnchor, { x: 0.5, y: 0 });
  assert.equal(map.marker(a).collisionBehavior, 'required');
  assert.equal(map.marker(b).collisionBehavior, 'requiredAndHidesOptional');
  assert.equal(map.marker(b).flat, true);

  // marker() hands out copies.
  const copy = map.marker(a);
  copy.position.latitude = 0;
  copy.groundAnchor.x = 0;
  assert.deepEqual(map.marker(a).position, { latitude: 10, longitude: 20 });
  assert.deepEqual(map.marker(a).groundAnchor, { x: 0.5, y: 1 });

  let frame = map.frame(0);
  assert.deepEqual(frame.items.map((i) => i.id).sort(), [a, b].sort());
  const before = drawn(frame, a);
  const point = map.screenPoint(10, 20);
  closeTo(before.x, point.x, 1e-9, 'x');
  closeTo(before.y, point.y, 1e-9, 'y');

  // Changes merge over the current options: the engine puts those given over what it holds.
  map.updateMarker(a, { position: { latitude: 20, longitude: 30 }, opacity: 0.5, title: undefined });
  assert.deepEqual(map.marker(a), { ...DEFAULTS, position: { latitude: 20, longitude: 30 }, opacity: 0.5,
    title: 'Café', snippet: 'Open', userData: data });
  frame = map.frame(0.1);
  const moved = drawn(frame, a);
  const point2 = map.screenPoint(20, 30);
  closeTo(moved.x, point2.x, 1e-9, 'moved x');
  closeTo(moved.y, point2.y, 1e-9, 'moved y');
  assert.equal(moved.opacity, 0.5);
  map.updateMarker(a, { visible: false });
  assert.equal(drawn(map.frame(0.2), a), undefined, 'an invisible marker is not drawn');
  assert.equal(map.marker(a).opacity, 0.5, 'earlier changes stay');

  map.removeMarker(a);
  assert.equal(map.markerCount, 1);
  assert.deepEqual(map.frame(0.3).items.map((i) => i.id), [b]);
  map.addMarker(at(1, 1));
  map.clearMarkers();
  assert.equal(map.markerCount, 0);
  assert.deepEqual(map.frame(0.4).items, []);
  refused(() => map.marker(b), 'UNKNOWN_MARKER');
  assert.deepEqual(map.addMarkers([]), []);
  map.destroy();
});

test('ids are unique, and stale ids are refused after remove and after clear', () => {
  const map = newMap();
  const ids = map.addMarkers([at(0, 0), at(1, 1), at(2, 2)]);
  assert.equal(new Set(ids).size, 3);
  map.removeMarker(ids[1]);
  const again = map.addMarker(at(3, 3));
  assert.ok(!ids.includes(again), 'a reused slot gives a new id');
  for (const call of [() => map.removeMarker(ids[1]), () => map.selectMarker(ids[1]),
    () => map.updateMarker(ids[1], { opacity: 1 }), () => map.marker(ids[1])]) {
    const error = refused(call, 'UNKNOWN_MARKER');
    assert.equal(error.detail, ids[1]);
    assert.match(error.message, new RegExp(`no marker with id ${ids[1]}`));
  }
  map.clearMarkers();
  for (const id of [...ids, again]) {
    refused(() => map.removeMarker(id), 'UNKNOWN_MARKER');
    refused(() => map.selectMarker(id), 'UNKNOWN_MARKER');
  }
  const fresh = map.addMarkers([at(0, 0), at(1, 1), at(2, 2), at(3, 3)]);
  for (const id of fresh) assert.ok(![...ids, again].includes(id), `id ${id} was given before the clear`);
  // Ids that were never given, and ones that are not ids at all.
  for (const id of [-1, 0.5, NaN, Infinity, 2 ** 53, fresh[0] + 2 ** 32]) refused(() => map.removeMarker(id), 'UNKNOWN_MARKER');
  refused(() => map.removeMarker('0'), 'INVALID_ARGUMENT');
  assert.equal(map.markerCount, 4);
  map.destroy();
});

test('options of the wrong type are INVALID_ARGUMENT; the engine refusing one is INVALID_MARKER naming it', () => {
  const map = newMap();
  const id = map.addMarker({ ...at(1, 2), title: 'T' });
  const wrongTypes = [
    [undefined, /position\.latitude must be a number/],
    [{ position: { latitude: '1', longitude: 2 } }, /position\.latitude must be a number, got "1"/],
    [{ ...at(0, 0), opacity: '1' }, /opacity must be a number/],
    [{ ...at(0, 0), flat: 1 }, /flat must be a boolean/],
    [{ ...at(0, 0), title: 5 }, /title must be a string/],
    [{ ...at(0, 0), icon: 1.5 }, /icon must be a 32-bit integer/],
    [{ ...at(0, 0), groundAnchor: null }, /groundAnchor must be an object/],
    [{ ...at(0, 0), altitudeMode: 'floating' }, /altitudeMode must be one of clampToGround, relativeToGround, absolute/],
    [{ ...at(0, 0), collisionBehavior: 'optional' }, /collisionBehavior must be one of required, /],
    [{ ...at(0, 0), appearAnimation: 'drop' }, /appearAnimation must be one of none, pop, fadeIn/],
    [{ ...at(0, 0), zindex: 1 }, /zindex is not a marker option/],
  ];
  for (const [options, message] of wrongTypes) {
    assert.match(refused(() => map.addMarker(options), 'INVALID_ARGUMENT').message, message);
  }
  // One bad property at a time, in the engine's numbering (MARKER_PROPERTY_FIELDS).
  const badProperties = [
    [1, 'position', at(91, 0)], [1, 'position', at(0, NaN)], [2, 'altitude', { ...at(0, 0), altitude: Infinity }],
    [3, 'icon', { ...at(0, 0), icon: 0 }], [3, 'icon', { ...at(0, 0), icon: -2 }],
    [4, 'groundAnchor', { ...at(0, 0), groundAnchor: { x: NaN, y: 1 } }],
    [5, 'infoWindowAnchor', { ...at(0, 0), infoWindowAnchor: { x: 0, y: -Infinity } }],
    [6, 'rotation', { ...at(0, 0), rotation: NaN }], [7, 'opacity', { ...at(0, 0), opacity: 1.5 }],
    [8, 'zIndex', { ...at(0, 0), zIndex: Infinity }], [9, 'collisionPriority', { ...at(0, 0), collisionPriority: NaN }],
    [10, 'indoorLevel', { ...at(0, 0), indoorLevel: { building: 1, level: 0 } }],
  ];
  assert.equal(MARKER_PROPERTY_FIELDS.length, 10);
  for (const [field, name, options] of badProperties) {
    const added = refused(() => map.addMarker(options), 'INVALID_MARKER');
    assert.equal(added.detail, field, `${name}: ${added.message}`);
    assert.match(added.message, new RegExp(`^addMarker: marker ${name}`));
    const updated = refused(() => map.updateMarker(id, options), 'INVALID_MARKER');
    assert.equal(updated.detail, field, `${name}: ${updated.message}`);
    assert.match(updated.message, new RegExp(`^updateMarker: marker ${name}`));
  }
  // Two bad properties: the one the engine checks first (an unknown icon before a bad opacity).
  assert.equal(refused(() => map.addMarker({ ...at(0, 0), icon: 3, opacity: 2 }), 'INVALID_MARKER').detail, 3);
  assert.equal(map.markerCount, 1, 'nothing was added by the refused calls or by finding the property');
  assert.deepEqual(map.frame(0).items.map((i) => i.id), [id]);
  assert.deepEqual(map.marker(id), { ...DEFAULTS, ...at(1, 2), title: 'T' }, 'a refused update changes nothing');
  const icon = map.registerIcon({ width: 20, height: 20 });
  map.updateMarker(id, { icon });
  assert.equal(map.frame(0.1).items[0].icon, icon);
  map.destroy();
});

test('a batch with one bad marker adds none and names its position', () => {
  const map = newMap();
  const batch = [at(0, 0), at(1, 1), { ...at(2, 2), opacity: -1 }, at(3, 3)];
  const error = refused(() => map.addMarkers(batch), 'INVALID_MARKER_IN_BATCH');
  assert.equal(error.detail, 2);
  assert.match(error.message, /^addMarkers: marker 2 of the batch .* none was added \(marker opacity/);
  assert.equal(refused(() => map.addMarkers([at(0, 0), { ...at(0, 0), icon: 9 }]), 'INVALID_MARKER_IN_BATCH').detail, 1);
  assert.match(refused(() => map.addMarkers([at(0, 0), at(0, 0), { ...at(0, 0), flat: 'yes' }]), 'INVALID_ARGUMENT').message,
    /^addMarkers: markers\[2\]\.flat must be a boolean/);
  assert.match(refused(() => map.addMarkers([at(0, 0), null]), 'INVALID_ARGUMENT').message, /markers\[1\] must be an object/);
  // eslint-disable-next-line no-sparse-arrays
  assert.match(refused(() => map.addMarkers([at(0, 0), , at(0, 0)]), 'INVALID_ARGUMENT').message, /markers\[1\]\.position/);
  refused(() => map.addMarkers(at(0, 0)), 'INVALID_ARGUMENT');
  assert.equal(map.markerCount, 0);
  assert.deepEqual(map.frame(0).items, []);
  batch[2].opacity = 1;
  assert.equal(map.addMarkers(batch).length, 4);
  assert.equal(map.frame(0.1).items.length, 4);
  map.destroy();
});

test('the draw list: screen points with altitude and tilt, zIndex order, flat markers, icons, appear animations', () => {
  const map = newMap({ latitude: 0, longitude: 0, zoom: 4, bearing: 30, tilt: 40 });
  const ground = map.addMarker({ ...at(2, 3), zIndex: 5 });
  const raised = map.addMarker({ ...at(2, 3), altitude: 500000, altitudeMode: 'relativeToGround', zIndex: 1 });
  const flat = map.addMarker({ ...at(-3, -2), flat: true, rotation: 50 });
  const upright = map.addMarker({ ...at(-3, 2), rotation: 50 });
  const low = map.addMarker(at(-6, 0));
  const frame = map.frame(0);
  for (const [id, point] of [[ground, map.screenPoint(2, 3)], [raised, map.screenPoint(2, 3, 500000, 'relativeToGround')],
    [flat, map.screenPoint(-3, -2)], [low, map.screenPoint(-6, 0)]]) {
    closeTo(drawn(frame, id).x, point.x, 1e-6, `x of ${id}`);
    closeTo(drawn(frame, id).y, point.y, 1e-6, `y of ${id}`);
  }
  assert.ok(drawn(frame, raised).y < drawn(frame, ground).y - 10, 'with a tilt, altitude lifts the marker');
  // Bottom to top: zIndex first, then the marker lower on screen on top.
  const order = frame.items.map((i) => i.id);
  assert.equal(order.at(-1), ground);
  assert.equal(order.at(-2), raised);
  const zeros = frame.items.filter((i) => i.zIndex === 0);
  for (let i = 1; i < zeros.length; i++) assert.ok(zeros[i - 1].y <= zeros[i].y, 'equal zIndex: lower on screen on top');
  assert.ok(order.indexOf(low) > order.indexOf(upright), 'the lowest of the zIndex 0 markers is drawn after the others');
  // A flat marker lies on the ground: its vertical points on screen where the ground's 50° from
  // north does, and the tilt squeezes its area by cos 40°. An upright one faces the screen.
  const r = (50 * Math.PI) / 180;
  const o = map.screenPoint(-3, -2);
  const tip = map.screenPoint(-3 + 0.01 * Math.cos(r), -2 + (0.01 * Math.sin(r)) / Math.cos((3 * Math.PI) / 180));
  closeTo(drawn(frame, flat).rotation, (Math.atan2(tip.x - o.x, o.y - tip.y) * 180) / Math.PI, 1, 'flat rotation (the squeeze is the view centre\'s)');
  closeTo(drawn(frame, flat).scaleX * drawn(frame, flat).scaleY, Math.cos((40 * Math.PI) / 180), 1e-9, 'flat foreshortening');
  // Its horizontal axis, as the renderer draws it, points where the ground's east
  // of it (140° from north) does: the icon is drawn as the ground's parallelogram.
  const f = drawn(frame, flat);
  const [a, b] = itemTransform(f, 1);   // the renderer's matrix: where the icon's (1, 0) goes
  const right = { x: a, y: b };
  const r2 = (140 * Math.PI) / 180;
  const east = map.screenPoint(-3 + 0.01 * Math.cos(r2), -2 + (0.01 * Math.sin(r2)) / Math.cos((3 * Math.PI) / 180));
  closeTo(Math.atan2(right.y, right.x), Math.atan2(east.y - o.y, east.x - o.x), 1 * (Math.PI / 180), 'flat horizontal axis');
  assert.ok(Math.abs(f.shear) > 0.05, 'sheared');
  assert.equal(drawn(frame, upright).shear, 0);
  assert.equal(drawn(frame, upright).rotation, 50);
  assert.equal(drawn(frame, upright).scaleY, 1);
  assert.ok(frame.items.every((i) => i.icon === -1 && i.count === 1 && i.kind === 'marker'));

  // Appear animations start with the first frame after the marker is added, however long after
  // the last frame that comes (a page draws only while something changes), and play once.
  map.frame(10);
  const pop = map.addMarker({ ...at(1, 1), appearAnimation: 'pop' });
  const fade = map.addMarker({ ...at(1, 2), appearAnimation: 'fadeIn', opacity: 0.8 });
  const start = map.frame(40);
  assert.equal(drawn(start, pop)?.scaleX ?? 0, 0);
  const middle = map.frame(40.15);
  assert.ok(drawn(middle, pop).scaleX > 0 && drawn(middle, pop).scaleX < 1);
  assert.ok(drawn(middle, fade).opacity > 0 && drawn(middle, fade).opacity < 0.8);
  // The draw records carry the animation's progress: half of the 0.3 s, then done.
  assert.ok(Math.abs(drawn(middle, pop).progress - 0.5) < 1e-9, `progress ${drawn(middle, pop).progress}`);
  assert.ok(Math.abs(drawn(middle, fade).progress - 0.5) < 1e-9);
  const end = map.frame(40.5);
  assert.equal(drawn(end, pop).scaleX, 1);
  assert.equal(drawn(end, pop).progress, 1);
  assert.equal(drawn(end, fade).opacity, 0.8);
  map.updateMarker(pop, { rotation: 10 });
  assert.equal(drawn(map.frame(40.55), pop).scaleX, 1, 'an update does not replay it');
  map.destroy();
});

test('collisions: required markers always show, optional ones give way by priority', () => {
  const map = newMap();
  const hider = map.addMarker({ ...at(0, 0), collisionBehavior: 'requiredAndHidesOptional' });
  const optional = map.addMarker({ ...at(0, 0.01), collisionBehavior: 'optionalAndHidesLowerPriority', collisionPriority: 9 });
  const required = map.addMarker(at(0, 0.02));
  let frame = map.frame(0);
  assert.equal(frame.hiddenCount, 1);
  assert.deepEqual(frame.items.map((i) => i.id).sort(), [hider, required].sort());

  // Away from the hider, two overlapping optional markers: the higher priority wins.
  map.updateMarker(optional, { position: { latitude: 20, longitude: 20 } });
  const weaker = map.addMarker({ ...at(20, 20.01), collisionBehavior: 'optionalAndHidesLowerPriority', collisionPriority: 1 });
  frame = map.frame(0.1);
  assert.equal(frame.hiddenCount, 1);
  assert.ok(drawn(frame, optional) && !drawn(frame, weaker));
  map.updateMarker(weaker, { collisionPriority: 10 });
  frame = map.frame(0.2);
  assert.ok(!drawn(frame, optional) && drawn(frame, weaker));
  // Moved apart, nothing is hidden.
  map.updateMarker(weaker, { position: { latitude: -20, longitude: -20 } });
  frame = map.frame(0.3);
  assert.equal(frame.hiddenCount, 0);
  assert.equal(frame.items.length, 4);
  map.destroy();
});

test('a tap on a marker waits for the host; answerTap(false) selects it, opens its window and centres it', () => {
  const map = newMap();
  const data = new Date(0);
  const id = map.addMarker({ ...at(10, 20), title: 'Pier', snippet: 'Boats', userData: data });
  map.addMarker(at(-10, -20));
  const pin = drawn(map.frame(0), id);
  const tapped = clickPin(map, pin, 1);
  assert.deepEqual(tapped.events, [{ type: 'markerTapped', marker: id }]);
  const e = tapped.events[0];
  assert.deepEqual([map.marker(e.marker).title, map.marker(e.marker).snippet], ['Pier', 'Boats']);
  assert.equal(map.marker(e.marker).userData, data);
  assert.equal(tapped.selectedMarker, null, 'nothing happens before the answer');
  assert.equal(tapped.infoWindow, null);

  map.answerTap(false);
  const opened = map.frame(1.5);
  assert.deepEqual(opened.events.filter((x) => x.type.startsWith('infoWindow')), [{ type: 'infoWindowOpened', marker: id }]);
  assert.ok(opened.events.some((x) => x.type === 'cameraWillMove' && x.cause === 'apiAnimation'));
  assert.equal(opened.selectedMarker, id);
  assert.equal(map.selectedMarker, id);
  const item = drawn(opened, id);
  assert.equal(opened.infoWindow.marker, id);
  closeTo(opened.infoWindow.x, item.x, 1e-9, 'window x');
  closeTo(opened.infoWindow.y, item.y - PIN.height, 1e-9, 'window at the top of the pin');
  assert.deepEqual(map.markerAnchor(id), { x: opened.infoWindow.x, y: opened.infoWindow.y }, 'where a popover stands');
  map.updateMarker(id, { visible: false });
  map.frame(1.6);
  assert.equal(map.markerAnchor(id), null, 'not drawn');
  map.updateMarker(id, { visible: true });

  const centred = map.frame(2.5);
  closeTo(centred.camera.latitude, 10, 1e-6, 'camera latitude');
  closeTo(centred.camera.longitude, 20, 1e-6, 'camera longitude');
  closeTo(drawn(centred, id).x, 400, 1e-6, 'marker x');
  closeTo(drawn(centred, id).y, 300, 1e-6, 'marker y');
  map.answerTap(false);
  assert.deepEqual(map.frame(3).events, [], 'a second answer does nothing');
  map.destroy();
});

test('answerTap(true): the host consumed the tap, so nothing is selected and the camera stays', () => {
  const map = newMap();
  const id = map.addMarker({ ...at(10, 20), title: 'Pier' });
  const tapped = clickPin(map, drawn(map.frame(0), id), 1);
  assert.deepEqual(tapped.events, [{ type: 'markerTapped', marker: id }]);
  map.answerTap(true);
  const after = map.frame(3);
  assert.deepEqual(after.events, []);
  assert.equal(after.selectedMarker, null);
  assert.equal(after.infoWindow, null);
  assert.deepEqual(after.camera, { latitude: 0, longitude: 0, zoom: 3, bearing: 0, tilt: 0 });
  refused(() => map.answerTap(1), 'INVALID_ARGUMENT');
  map.destroy();
});

test('no window opens for a marker without title or snippet, unless it has a custom window', () => {
  const map = newMap();
  const plain = map.addMarker(at(10, 20));
  const titled = map.addMarker({ ...at(-10, 20), title: 'T' });
  const snippet = map.addMarker({ ...at(10, -20), snippet: 'S' });
  const custom = map.addMarker({ ...at(-10, -20), customInfoWindow: true });
  map.frame(0);
  map.selectMarker(plain);
  assert.equal(map.selectedMarker, null, 'nothing to show: not selected');
  let frame = map.frame(0.1);
  assert.deepEqual(frame.events, []);
  assert.equal(frame.selectedMarker, null);
  assert.equal(frame.infoWindow, null);
  // Tapped and not consumed: centred, but no window.
  frame = clickPin(map, drawn(frame, plain), 1);
  assert.deepEqual(frame.events, [{ type: 'markerTapped', marker: plain }]);
  map.answerTap(false);
  map.frame(2);
  frame = map.frame(2.5);
  assert.equal(frame.events.some((x) => x.type.startsWith('infoWindow')), false);
  assert.equal(frame.infoWindow, null);
  closeTo(frame.camera.longitude, 20, 1e-6, 'centred anyway');
  for (const id of [titled, snippet, custom]) {
    map.selectMarker(id);
    assert.equal(map.selectedMarker, id, 'selected at once');
    frame = map.frame(3);
    assert.equal(frame.selectedMarker, id);
    assert.equal(frame.events.at(-1).type, 'infoWindowOpened');
  }
  // A title set later: the next selection opens a window.
  map.updateMarker(plain, { title: 'Now titled' });
  map.selectMarker(plain);
  assert.equal(map.frame(3.1).selectedMarker, plain);
  map.destroy();
});

test('the info window: a map tap closes it, reopening reports both, taps on it, removing or clearing closes it', () => {
  const map = newMap();
  const a = map.addMarker({ ...at(10, 20), title: 'A', userData: 'a' });
  const b = map.addMarker({ ...at(-10, -20), title: 'B' });
  map.frame(0);
  map.selectMarker(a);
  assert.equal(map.selectedMarker, a, 'at once, before the next frame');
  let frame = map.frame(0.1);
  assert.deepEqual(frame.events, [{ type: 'infoWindowOpened', marker: a }]);
  assert.equal(map.selectedMarker, a);

  // A tap on the map away from the markers.
  click(map, 100, 500, 1);
  frame = map.frame(1.5);
  assert.deepEqual(frame.events.map((x) => x.type), ['tap', 'infoWindowClosed']);
  assert.equal(frame.events[1].marker, a);
  assert.equal(map.marker(frame.events[1].marker).userData, 'a');
  assert.equal(frame.selectedMarker, null);
  assert.equal(frame.infoWindow, null);

  // Reopening the same marker, by selection or by a tap, reports closed then opened.
  map.selectMarker(a);
  map.frame(2);
  map.selectMarker(a);
  assert.deepEqual(map.frame(2.1).events, [{ type: 'infoWindowClosed', marker: a }, { type: 'infoWindowOpened', marker: a }]);
  frame = clickPin(map, drawn(map.frame(2.2), a), 3);
  assert.deepEqual(frame.events, [{ type: 'markerTapped', marker: a }]);
  map.answerTap(false);
  frame = map.frame(4);
  assert.deepEqual(frame.events.filter((x) => x.type.startsWith('infoWindow')),
    [{ type: 'infoWindowClosed', marker: a }, { type: 'infoWindowOpened', marker: a }]);
  map.frame(4.6);   // the centring on the tapped marker (0.5 s from the frame after the answer) ends
  // Selecting another closes this one.
  map.selectMarker(b);
  assert.deepEqual(map.frame(4.7).events, [{ type: 'infoWindowClosed', marker: a }, { type: 'infoWindowOpened', marker: b }]);

  // With its size given, the window is tapped and long-pressed (it stays open).
  map.setInfoWindowSize(200, 80);
  frame = map.frame(4.8);
  assert.deepEqual([frame.infoWindow.width, frame.infoWindow.height], [200, 80]);
  const w = frame.infoWindow;
  assert.deepEqual([w.left, w.top], [w.x - 100, w.y - 80], 'its box: centred above the tail, as the engine hit-tests it');
  click(map, w.x + 90, w.y - 40, 5);
  frame = map.frame(5.5);
  assert.deepEqual(frame.events, [{ type: 'infoWindowTapped', marker: b }]);
  map.pointerDown(7, 'mouse', w.x - 90, w.y - 70, 0, 0, 6);
  frame = map.frame(6.6);
  map.pointerUp(7, w.x - 90, w.y - 70, 6.7);
  assert.deepEqual(frame.events, [{ type: 'infoWindowLongPressed', marker: b }]);
  assert.equal(map.frame(7).selectedMarker, b);
  refused(() => map.setInfoWindowSize(-1, 10), 'INVALID_ARGUMENT');
  refused(() => map.setInfoWindowSize('200', 10), 'INVALID_ARGUMENT');

  // Removing the selected marker closes its window at once.
  map.removeMarker(b);
  assert.equal(map.selectedMarker, null);
  frame = map.frame(7.1);
  assert.deepEqual(frame.events, [{ type: 'infoWindowClosed', marker: b }]);
  assert.equal(frame.infoWindow, null);
  // So does clearing, and selecting none.
  map.selectMarker(a);
  map.frame(7.2);
  map.clearMarkers();
  assert.equal(map.selectedMarker, null);
  assert.deepEqual(map.frame(7.3).events, [{ type: 'infoWindowClosed', marker: a }]);
  const c = map.addMarker({ ...at(0, 0), snippet: 'C' });
  map.selectMarker(c);
  map.frame(7.4);
  map.selectMarker(null);
  assert.deepEqual(map.frame(7.5).events, [{ type: 'infoWindowClosed', marker: c }]);
  map.destroy();
});

test('icons: registered sizes place the window at the content top; bad icons are refused', () => {
  const map = newMap();
  const icon = map.registerIcon({ width: 40, height: 50, insets: { top: 10, bottom: 5 }, anchor: { x: 0.5, y: 1 } });
  assert.equal(map.registerIcon({ width: 10, height: 10 }), icon + 1, 'numbers follow on');
  const id = map.addMarker({ ...at(0, 0), icon, title: 'I' });
  map.selectMarker(id);
  const frame = map.frame(0);
  const item = drawn(frame, id);
  assert.equal(item.icon, icon);
  closeTo(frame.infoWindow.y, item.y - (50 - 10 - 5), 1e-9, 'the insets do not count');
  for (const bad of [{ width: 0, height: 10 }, { width: 10, height: 10, insets: { left: 6, right: 4 } },
    { width: 5000, height: 10 }, { width: 10, height: 10, anchor: { x: NaN, y: 0 } }]) {
    assert.match(refused(() => map.registerIcon(bad), 'INVALID_ARGUMENT').message, /^registerIcon: /);
  }
  assert.match(refused(() => map.registerIcon({ width: 10, height: '10' }), 'INVALID_ARGUMENT').message, /height must be a number/);
  assert.match(refused(() => map.registerIcon({ width: 10, height: 10, insets: { top: null } }), 'INVALID_ARGUMENT').message,
    /insets\.top must be a number/);
  map.destroy();
});

test('10,000 markers in one call', () => {
  const map = newMap({ latitude: 0, longitude: 0, zoom: 2 });
  const random = mulberry32(7);
  const options = Array.from({ length: 10000 }, (_, i) => ({
    ...at(random() * 100 - 50, random() * 200 - 100), zIndex: i % 7, title: `#${i}`, userData: i,
  }));
  const ids = map.addMarkers(options);
  assert.equal(ids.length, 10000);
  assert.equal(new Set(ids).size, 10000);
  assert.equal(map.markerCount, 10000);
  for (const i of [0, 4321, 9999]) {
    assert.deepEqual(map.marker(ids[i]).position, options[i].position);
    assert.equal(map.marker(ids[i]).userData, i);
  }
  const frame = map.frame(0);
  assert.equal(frame.items.length, 10000);
  assert.equal(frame.hiddenCount, 0);
  for (let i = 1; i < frame.items.length; i++) assert.ok(frame.items[i - 1].zIndex <= frame.items[i].zIndex);
  map.clearMarkers();
  assert.equal(map.frame(0.1).items.length, 0);
  map.destroy();
});

test('seeded garbage through every marker call never traps the module', () => {
  const random = mulberry32(20261130);
  const NUMBERS = [NaN, Infinity, -Infinity, -1, -0, 0, 0.5, 1, 2, 91, -91, 1e308, -1e308, 5e-324, 4096, 4097,
    2 ** 31, 2 ** 32, 2 ** 53, -(2 ** 31) - 1, 10000, 10001];
  const OTHERS = ['', '1', 'pop', 'required', null, undefined, true, false, {}, [], [1, 2], 10n, Symbol('s'), () => 1,
    { x: 0.5, y: 1 }, { latitude: 1, longitude: 2 }, { valueOf: () => 3 }];
  const NAMES = [...MARKER_OPTIONS, 'position', 'map', 'zindex'];
  const live = new Set();
  const { pick, value } = garbage(random, NUMBERS, OTHERS, ['x', 'y', 'latitude', 'longitude']);
  const options = () => {
    if (random() < 0.05) return value();
    const o = random() < 0.7 ? at(random() * 180 - 90, random() * 360 - 180) : {};
    const n = Math.floor(random() * 4);
    for (let i = 0; i < n; i++) o[pick(NAMES)] = value();
    return o;
  };
  const id = () => (random() < 0.6 && live.size ? pick([...live]) + pick([0, 0, 0, 1, -1, 2 ** 32, 0.5]) : value());

  const map = newMap();
  let t = 0;
  const calls = {
    addMarker: () => live.add(map.addMarker(options())),
    addMarkers: () => {
      for (const added of map.addMarkers(random() < 0.1 ? value() : Array.from({ length: Math.floor(random() * 4) }, options))) live.add(added);
    },
    updateMarker: () => map.updateMarker(id(), options()),
    removeMarker: () => { const x = id(); map.removeMarker(x); live.delete(x); },
    clearMarkers: () => { if (random() < 0.1) { map.clearMarkers(); live.clear(); } },
    selectMarker: () => map.selectMarker(random() < 0.2 ? null : id()),
    marker: () => map.marker(id()),
    registerIcon: () => map.registerIcon(random() < 0.3 ? value() : { width: value(), height: value(), insets: value(), anchor: value() }),
    setInfoWindowSize: () => map.setInfoWindowSize(value(), value()),
    answerTap: () => map.answerTap(random() < 0.7 ? random() < 0.5 : value()),
    tap: () => { click(map, random() * 800, random() * 600, t); t += 0.5; map.frame(t); },
    frame: () => { t += 0.1; map.frame(t); },
  };
  const names = Object.keys(calls);
  for (let i = 0; i < 3000; i++) {
    const name = pick(names);
    try {
      calls[name]();
    } catch (error) {
      if (!(error instanceof CairnError)) throw new Error(`call ${i} (${name}) threw ${error?.name}: ${error?.message}`, { cause: error });
    }
  }
  // The JS side and the engine still agree on which markers exist.
  assert.equal(map.markerCount, live.size);
  for (const x of live) map.removeMarker(x);
  assert.equal(map.markerCount, 0);
  const frame = map.frame(t + 1);
  assert.deepEqual(frame.items, []);
  const fresh = map.addMarker(at(0, 0));
  assert.deepEqual(map.frame(t + 2).items.map((i) => i.id), [fresh]);
  map.destroy();
});

test('the ABI itself refuses any marker id without trapping', () => {
  const fn = mod.fn;
  const handle = fn.cairn_map_create(0, 0, 3, 0, 0, 800, 600);
  try {
    for (const id of [2 ** 31, 2 ** 32 - 1, 1e15]) {
      assert.equal(fn.cairn_map_remove_marker(handle, id), -13, `id ${id}`);
      assert.equal(fn.cairn_map_select_marker(handle, id), -13, `id ${id}`);
    }
  } finally {
    fn.cairn_map_destroy(handle);
  }
});

test('I6: an open window asks to be redrawn when its text changes only if the marker tracks changes', async () => {
  await init();
  const map = new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 10 }, width: 800, height: 600 });
  const tracked = map.addMarker({ position: { latitude: 0, longitude: 0 }, title: 'Old', tracksInfoWindowChanges: true });
  const plain = map.addMarker({ position: { latitude: 0.01, longitude: 0 }, title: 'Old' });
  const changed = (t) => map.frame(t).events.filter((e) => e.type === 'infoWindowContentChanged').map((e) => e.marker);
  map.selectMarker(tracked);
  map.frame(1);
  map.updateMarker(tracked, { title: 'New' });
  assert.deepEqual(changed(2), [tracked]);
  map.updateMarker(tracked, { opacity: 0.5 });
  assert.deepEqual(changed(3), [], 'no text changed');
  map.selectMarker(plain);
  map.frame(4);
  map.updateMarker(plain, { snippet: 'More' });
  assert.deepEqual(changed(5), [], 'shows the old content until reopened');
  assert.equal(map.marker(plain).snippet, 'More');
  map.destroy();
});
