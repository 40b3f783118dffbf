// The interactive map over the engine: camera, gestures, controls, markers and cluster managers.
//
// The engine owns every decision (what a drag does, where the compass is, which tiles cover
// the view, which markers collide, what a tap hit); this class only checks what callers pass
// and moves it across the boundary through its channel (map-channel.js). Input methods
// append records to the channel's batch, `frame(time)` pushes the batch in one call, advances
// the engine and reads one frame buffer back, which it returns as a plain object. What the
// engine does not hold (marker titles, snippets, user data) stays in engine-markers.js.

import { getModule } from '../core/wasm.js';
import { STATUS_BY_CODE, argumentError } from '../core/errors.js';
import { booleanArg, clampInt32, int32Arg, knownKeys, nameArg, numberArg, numbersArg, objectArg, optionalNumberArg, sidesArg } from '../core/arguments.js';
import { DOM_KEYS, EASINGS, KEY_COMMANDS, MODIFIER_BITS, POINTER_KINDS, WHEEL_MODES } from './input-codes.js';
import { readSettings, settingsBits } from './ui-settings.js';
import { ALTITUDE_MODES } from './marker-records.js';
import { readFrame } from './read-frame.js';
import { MapChannel } from './map-channel.js';
import { EngineMarkers } from './engine-markers.js';
import { ClusterManager } from './cluster-manager.js';
import { clusterDefaults } from './cluster-buckets.js';

/** @typedef {import('../core/frame.js').CameraPosition} CameraPosition */
/** @typedef {import('../core/frame.js').LatLng} LatLng */
/** @typedef {import('../core/frame.js').Frame} Frame */
/** @typedef {import('./ui-settings.js').UISettings} UISettings */
/** @typedef {import('./marker-records.js').Marker} Marker */
/** @typedef {import('./marker-records.js').MarkerOptions} MarkerOptions */
/** @typedef {import('./cluster-manager.js').ClusterManagerOptions} ClusterManagerOptions */
/** @typedef {import('./cluster-manager.js').ClusterHost} ClusterHost */
/** @typedef {'mouse' | 'touch' | 'pen'} PointerKind */
/** @typedef {keyof KEY_COMMANDS} KeyCommand */

/** Camera fields, in the order the exports take them. */
const CAMERA_FIELDS = /** @type {const} */ (['latitude', 'longitude', 'zoom', 'bearing', 'tilt']);

/** Limits, in the order the exports take them. */
const LIMIT_FIELDS = /** @type {const} */ (['minZoom', 'maxZoom', 'maxTilt', 'maxTileZoom']);

/** The ABI's "not given" for an enumeration or a level (an easing, a building's first level): the engine's default. */
const DEFAULT_CHOICE = -1;

/**
 * One interactive map in the engine. `await init()` must have finished before one is created.
 *
 * Per animation frame: forward the DOM's input events (`pointerDown`, `wheel`, `key`, …), then
 * call `frame(time)` and draw what it returns. Every call that reaches the engine pushes the
 * input collected so far first, so the engine sees calls in the order they were made.
 */
export class MapEngine {
  /** @type {MapChannel} */
  #channel;
  /** @type {CameraPosition} */
  #camera;
  /** @type {EngineMarkers} */
  #markers;
  /** @type {{engineMs: number, readMs: number}} */
  #frameTiming = { engineMs: 0, readMs: 0 };
  /** @type {Map<number, ClusterManager>} the live cluster managers, by number */
  #managers = new Map();
  /** @type {import('./cluster-manager.js').MapLink} what the cluster managers reach the engine through (with their host's hooks) */
  #link = {
    fn: {},
    enter: (call) => this.#channel.enter(call),
    buffer: (doubles) => this.#channel.buffer(doubles),
    alive: () => this.#channel.alive,
    removed: (manager) => { this.#managers.delete(manager.number); },
  };

  /**
   * @param {{camera: {latitude: number, longitude: number, zoom: number, bearing?: number, tilt?: number},
   *   width: number, height: number}} options  the first camera (a bearing or tilt left out takes the
   *   engine's default), and the view's size in CSS pixels
   * @throws {CairnError} (INVALID_STATE) if `init()` has not finished
   * @throws {CairnError} (INVALID_ARGUMENT) for a camera or size that is not finite and positive
   */
  constructor(options) {
    const call = 'MapEngine';
    getModule();   // INVALID_STATE before init(), whatever the arguments
    const o = objectArg(options, 'options', call);
    const c = objectArg(o.camera, 'camera', call);
    knownKeys(c, CAMERA_FIELDS, 'camera', call);
    const latitude = numberArg(c.latitude, 'camera.latitude', call);
    const longitude = numberArg(c.longitude, 'camera.longitude', call);
    const zoom = numberArg(c.zoom, 'camera.zoom', call);
    const bearing = optionalNumberArg(c.bearing, 'camera.bearing', call);
    const tilt = optionalNumberArg(c.tilt, 'camera.tilt', call);
    const width = numberArg(o.width, 'width', call);
    const height = numberArg(o.height, 'height', call);
    this.#channel = new MapChannel(call, (fn) => fn.cairn_map_create(latitude, longitude, zoom, bearing, tilt, width, height));
    this.#link.fn = this.#channel.fn;
    this.#markers = new EngineMarkers(this.#channel);
    const h = this.#channel.enter(call);
    const v = this.#channel.buffer(CAMERA_FIELDS.length);
    this.#channel.check(this.#channel.fn.cairn_map_camera(h, v.byteOffset), call);
    this.#camera = /** @type {CameraPosition} */ (Object.fromEntries(CAMERA_FIELDS.map((name, i) => [name, v[i]])));
  }

  /**
   * The DOM key name's command, or null for keys the map does not use.
   * @param {string} key  `KeyboardEvent.key`
   * @returns {KeyCommand | null}
   */
  static keyCommand(key) {
    return Object.hasOwn(DOM_KEYS, key) ? /** @type {KeyCommand} */ (DOM_KEYS[/** @type {keyof DOM_KEYS} */ (key)]) : null;
  }

  /**
   * The modifier keys of a DOM event as the engine's bits.
   * @param {{shiftKey?: boolean, ctrlKey?: boolean, altKey?: boolean, metaKey?: boolean}} event
   * @returns {number}
   */
  static modifiers(event) {
    const e = objectArg(event, 'event', 'modifiers');
    let bits = 0;
    for (const [name, bit] of Object.entries(MODIFIER_BITS)) if (e[name]) bits |= bit;
    return bits;
  }

  /**
   * The camera of the last frame (the constructor's before the first frame). Fields that
   * `moveCamera` and `animateCamera` are not given keep these values.
   * @returns {CameraPosition}
   */
  get camera() { return { ...this.#camera }; }

  /**
   * The UI settings in force, as the engine holds them.
   * @returns {Required<UISettings>}
   */
  get settings() {
    const call = 'settings';
    return readSettings(this.#channel.check(this.#channel.fn.cairn_map_settings(this.#channel.enter(call)), call));
  }

  /**
   * The range of the camera and the highest tile zoom in force, as the engine holds them.
   * @returns {{minZoom: number, maxZoom: number, maxTilt: number, maxTileZoom: number}}
   */
  get limits() {
    const call = 'limits';
    const h = this.#channel.enter(call);
    const v = this.#channel.buffer(LIMIT_FIELDS.length);
    this.#channel.check(this.#channel.fn.cairn_map_limits(h, v.byteOffset), call);
    return /** @type {{minZoom: number, maxZoom: number, maxTilt: number, maxTileZoom: number}} */ (
      Object.fromEntries(LIMIT_FIELDS.map((name, i) => [name, v[i]])));
  }

  /**
   * The size of the default pin in CSS pixels (feature M2): the engine places, collides and
   * hit-tests it at this size, so the host draws it at this size.
   * @returns {{width: number, height: number}}
   */
  get pinSize() {
    const call = 'pinSize';
    this.#channel.checkAlive(call);
    const v = this.#channel.buffer(2);
    this.#channel.check(this.#channel.fn.cairn_map_pin_size(v.byteOffset), call);
    return { width: v[0], height: v[1] };
  }

  /**
   * The size of the bold font cluster labels are measured and drawn in, in CSS pixels (Google's
   * icon generator's): a host that draws the map measures "0"…"9" and "+" in it and passes them
   * to `addClusterManager` (its host's `labelMetrics`), since icon diameters grow with the label.
   * @returns {number}
   */
  get clusterLabelFontSize() {
    this.#channel.checkAlive('clusterLabelFontSize');
    return clusterDefaults(this.#channel.fn, (n) => this.#channel.buffer(n)).labelFontSize;
  }

  // ── stage ──────────────────────────────────────────────────────────────────────────────────

  /**
   * The view's size in CSS pixels and its padding, which moves the camera's centre and the
   * controls away from the edges.
   * @param {number} width
   * @param {number} height
   * @param {{top?: number, left?: number, bottom?: number, right?: number}} [padding]
   */
  setViewport(width, height, padding) {
    const call = 'setViewport';
    const args = [numberArg(width, 'width', call), numberArg(height, 'height', call), ...sidesArg(padding, 'padding', call)];
    this.#channel.check(this.#channel.fn.cairn_map_set_viewport(this.#channel.enter(call), ...args), call);
  }

  /**
   * The range of the camera, and the highest zoom the tile source has; each one left out takes
   * the engine's default (Google's, which `limits` reads back).
   * @param {{minZoom?: number, maxZoom?: number, maxTilt?: number, maxTileZoom?: number}} [limits]
   */
  setLimits(limits) {
    const call = 'setLimits';
    const l = objectArg(limits, 'limits', call);
    const args = LIMIT_FIELDS.map((name) => (name === 'maxTileZoom' && l[name] !== undefined
      ? int32Arg(l[name], name, call) : optionalNumberArg(l[name], name, call)));
    this.#channel.check(this.#channel.fn.cairn_map_set_limits(this.#channel.enter(call), ...args), call);
  }

  /**
   * Which gestures and controls are on; settings left out take the engine's defaults (see
   * `settings`). They apply from the next input event and never limit programmatic moves.
   * @param {UISettings} [settings]
   */
  setSettings(settings) {
    const call = 'setSettings';
    const { bits, given } = settingsBits(settings, call);
    this.#channel.check(this.#channel.fn.cairn_map_set_settings(this.#channel.enter(call), bits, given), call);
  }

  // ── input (collected; pushed by flushInput, frame and every other engine call) ───────────────

  /**
   * @param {number} id  `PointerEvent.pointerId`
   * @param {PointerKind} kind  `PointerEvent.pointerType`
   * @param {number} x  CSS pixels from the view's left
   * @param {number} y  CSS pixels from the view's top
   * @param {number} button  0 primary, 1 middle, 2 secondary
   * @param {number} modifiers  bits from `MapEngine.modifiers(event)`
   * @param {number} time  seconds, on the clock `frame` is given
   */
  pointerDown(id, kind, x, y, button, modifiers, time) {
    const call = 'pointerDown';
    this.#channel.checkAlive(call);
    this.#channel.batch.add(call, numberArg(time, 'time', call), numberArg(id, 'id', call), numberArg(x, 'x', call),
      numberArg(y, 'y', call), nameArg(POINTER_KINDS, kind, 'kind', call), numberArg(button, 'button', call), 0,
      numberArg(modifiers, 'modifiers', call));
  }

  /**
   * @param {number} id
   * @param {number} x
   * @param {number} y
   * @param {number} time
   */
  pointerMove(id, x, y, time) { this.#pointer('pointerMove', id, x, y, time); }

  /**
   * @param {number} id
   * @param {number} x
   * @param {number} y
   * @param {number} time
   */
  pointerUp(id, x, y, time) { this.#pointer('pointerUp', id, x, y, time); }

  /**
   * @param {number} id
   * @param {number} time
   */
  pointerCancel(id, time) { this.#pointer('pointerCancel', id, 0, 0, time); }

  /**
   * @param {number} x
   * @param {number} y
   * @param {number} deltaX
   * @param {number} deltaY
   * @param {number | 'pixel' | 'line' | 'page'} mode  `WheelEvent.deltaMode` or its name
   * @param {number} modifiers
   * @param {number} time
   */
  wheel(x, y, deltaX, deltaY, mode, modifiers, time) {
    const call = 'wheel';
    this.#channel.checkAlive(call);
    const m = typeof mode === 'string' ? nameArg(WHEEL_MODES, mode, 'mode', call) : numberArg(mode, 'mode', call);
    this.#channel.batch.add(call, numberArg(time, 'time', call), 0, numberArg(x, 'x', call), numberArg(y, 'y', call),
      numberArg(deltaX, 'deltaX', call), numberArg(deltaY, 'deltaY', call), m, numberArg(modifiers, 'modifiers', call));
  }

  /**
   * A key pressed, if the map takes it: keys with ctrl, alt or meta are the browser's (the
   * engine's rule), so the host lets the browser act on a key this returns false for.
   * @param {KeyCommand} command  see `MapEngine.keyCommand`
   * @param {number} modifiers
   * @param {number} time
   * @returns {boolean} whether the map took the key
   */
  key(command, modifiers, time) {
    const call = 'key';
    this.#channel.checkAlive(call);
    const t = numberArg(time, 'time', call);
    const c = nameArg(KEY_COMMANDS, command, 'command', call);
    const m = numberArg(modifiers, 'modifiers', call);
    // Modifiers that are no modifier bits are malformed: queued, the batch refuses them whole.
    const takes = this.#channel.fn.cairn_map_takes_key(c, Number.isInteger(m) ? clampInt32(m) : -1);
    if (takes === 0) return false;
    this.#channel.batch.add(call, t, c, 0, 0, 0, 0, 0, m);
    return takes > 0;
  }

  /**
   * Pushes the input collected so far to the engine in one call. A batch with a malformed
   * record (a NaN, a fractional pointer id, an unknown button) is refused whole and dropped.
   * @returns {number} records pushed
   * @throws {CairnError} (INVALID_RECORD) naming the record's position and the method that added it
   */
  flushInput() {
    const n = this.#channel.batch.count;
    this.#channel.enter('flushInput');
    return n;
  }

  // ── frames ─────────────────────────────────────────────────────────────────────────────────

  /**
   * Pushes the collected input, advances the engine to `time` (animations, fling, tap
   * confirmation, compass fade) and reads the frame, whose events are then drained.
   * @param {number} time  seconds; a time earlier than one seen before counts as that one
   * @returns {Frame}
   */
  frame(time) {
    const call = 'frame';
    const t = numberArg(time, 'time', call);
    const h = this.#channel.enter(call);
    const ch = this.#channel;
    const start = performance.now();
    let size = ch.fn.cairn_map_frame(h, t, ch.ptr, ch.capacity);
    while (size > ch.capacity) {
      // Nothing was written and the events are still queued: ask again, same time.
      ch.reserve(size);
      size = ch.fn.cairn_map_frame(h, t, ch.ptr, ch.capacity);
    }
    const built = performance.now();
    ch.check(size, call);
    // A fresh view: the call may have grown memory, detaching older ones.
    const frame = readFrame(ch.doubles(ch.ptr, size), ch.layout);
    this.#camera = { ...frame.camera };
    this.#frameTiming = { engineMs: built - start, readMs: performance.now() - built };
    return frame;
  }

  // ── programmatic camera (never gated by the UI settings) ────────────────────────────────────

  /**
   * Moves the camera at once. Fields not given keep their values (see animateCamera).
   * @param {Partial<CameraPosition>} camera
   */
  moveCamera(camera) {
    const call = 'moveCamera';
    const c = this.#cameraArgs(camera, call);
    this.#channel.check(this.#channel.fn.cairn_map_move_camera(this.#channel.enter(call), ...c), call);
  }

  /**
   * Animates the camera from where it is, starting with the next frame (however long after the
   * last one it comes). Fields not given keep the camera's values as they are now (a move since
   * the last frame included: the engine fills them in).
   * @param {Partial<CameraPosition>} camera
   * @param {{duration?: number, easing?: 'linear' | 'easeInOut' | 'easeOut'}} [options]
   *   duration in seconds; either left out takes the engine's default
   */
  animateCamera(camera, options) {
    const call = 'animateCamera';
    const c = this.#cameraArgs(camera, call);
    const o = objectArg(options, 'options', call);
    const duration = optionalNumberArg(o.duration, 'duration', call);
    const easing = o.easing === undefined ? DEFAULT_CHOICE : nameArg(EASINGS, o.easing, 'easing', call);
    this.#channel.check(this.#channel.fn.cairn_map_animate_camera(this.#channel.enter(call), ...c, duration, easing), call);
  }

  /**
   * Shows a longitude/latitude box north up and flat, `padding` pixels inside the padded view.
   * @param {{west: number, south: number, east: number, north: number}} bounds
   * @param {{padding?: number, duration?: number}} [options]  each left out takes the engine's default
   */
  showBounds(bounds, options) {
    const call = 'showBounds';
    const b = objectArg(bounds, 'bounds', call);
    const o = objectArg(options, 'options', call);
    const args = [numberArg(b.west, 'west', call), numberArg(b.south, 'south', call), numberArg(b.east, 'east', call),
      numberArg(b.north, 'north', call), optionalNumberArg(o.padding, 'padding', call), optionalNumberArg(o.duration, 'duration', call)];
    this.#channel.check(this.#channel.fn.cairn_map_show_bounds(this.#channel.enter(call), ...args), call);
  }

  /**
   * Zooms by `amount` levels keeping the ground under (x, y) still, or the padded centre when
   * no point is given.
   * @param {number} amount
   * @param {{x?: number, y?: number, duration?: number}} [options]  a duration left out takes the engine's
   *   default
   */
  zoomBy(amount, options) {
    const call = 'zoomBy';
    const o = objectArg(options, 'options', call);
    // NaN is the ABI's "no point", so a NaN from the caller must not slip through as one.
    const x = optionalNumberArg(o.x, 'x', call);
    const y = optionalNumberArg(o.y, 'y', call);
    const duration = optionalNumberArg(o.duration, 'duration', call);
    this.#channel.check(this.#channel.fn.cairn_map_zoom_by(this.#channel.enter(call), numberArg(amount, 'amount', call), x, y, duration), call);
  }

  /** Stops a camera animation where it is. */
  stopAnimation() {
    const call = 'stopAnimation';
    this.#channel.check(this.#channel.fn.cairn_map_stop_animation(this.#channel.enter(call)), call);
  }

  /**
   * The user's location for the dot and the my-location button, or null to forget it. When
   * a tap of the button asked for it (a `locationRequested` event), the camera goes there.
   * @param {{latitude: number, longitude: number, accuracy?: number} | null} location
   *   accuracy: radius in metres (left out: unknown)
   */
  setMyLocation(location) {
    const call = 'setMyLocation';
    let args = [NaN, NaN, NaN];
    if (location !== null) {
      const l = objectArg(location, 'location', call);
      // A NaN latitude is the ABI's "clear it".
      args = [notNaN(l.latitude, 'latitude', call), numberArg(l.longitude, 'longitude', call),
        optionalNumberArg(l.accuracy, 'accuracy', call)];
    }
    this.#channel.check(this.#channel.fn.cairn_map_set_my_location(this.#channel.enter(call), ...args), call);
  }

  // ── markers (the M and I features, V3, V4) ─────────────────────────────────────────────────

  /**
   * Registers an icon the host will draw: markers refer to it by the number returned.
   * @param {{width: number, height: number, insets?: {top?: number, left?: number, bottom?: number, right?: number},
   *   anchor?: {x: number, y: number}}} icon  size in CSS pixels; insets: transparent padding that
   *   does not count for anchoring and taps (default 0); anchor: where cluster items drawn with it
   *   stand (left out: the engine's default)
   * @returns {number}
   * @throws {CairnError} (INVALID_ARGUMENT) for a size that is not positive (at most 4096), insets that
   *   leave nothing of the image, or an anchor that is not finite
   */
  registerIcon(icon) {
    const call = 'registerIcon';
    const i = objectArg(icon, 'icon', call);
    // NaN is the ABI's "not given": the engine's default anchor.
    const a = i.anchor === undefined ? null : objectArg(i.anchor, 'anchor', call);
    const anchor = a ? [notNaN(a.x, 'anchor.x', call), notNaN(a.y, 'anchor.y', call)] : [NaN, NaN];
    const args = [numberArg(i.width, 'width', call), numberArg(i.height, 'height', call), ...sidesArg(i.insets, 'insets', call),
      ...anchor];
    return this.#channel.check(this.#channel.fn.cairn_map_register_icon(this.#channel.enter(call), ...args), call,
      'the size must be positive and at most 4096 pixels, the insets must leave part of the image');
  }

  /**
   * Adds a marker; returns its id.
   * @param {MarkerOptions} options
   * @returns {number}
   * @throws {CairnError} INVALID_ARGUMENT for an unknown option or a wrong type, INVALID_MARKER naming
   *   the property the engine refused (detail: its number)
   */
  addMarker(options) {
    return this.#markers.add([options], 'addMarker', false)[0];
  }

  /**
   * Adds markers in one crossing, all or none; returns their ids in order.
   * @param {MarkerOptions[]} markers
   * @returns {number[]}
   * @throws {CairnError} INVALID_ARGUMENT naming `markers[i]` and the option; INVALID_MARKER_IN_BATCH
   *   (detail: the position) when the engine refuses one, and then none is added
   */
  addMarkers(markers) {
    const call = 'addMarkers';
    if (!Array.isArray(markers)) throw argumentError(call, 'markers must be an array');
    return this.#markers.add(markers, call, true);
  }

  /**
   * Changes a marker: `changes` (options as for `addMarker`) over its current options.
   * @param {number} id
   * @param {Partial<MarkerOptions>} changes
   * @throws {CairnError} UNKNOWN_MARKER, INVALID_ARGUMENT, INVALID_MARKER (the marker stays as it was)
   */
  updateMarker(id, changes) { this.#markers.update(id, changes); }

  /**
   * Removes a marker (closing its info window); its id is never valid again.
   * @param {number} id
   */
  removeMarker(id) { this.#markers.remove(id); }

  /** Removes every marker and closes a marker's info window; no id given so far stays valid. */
  clearMarkers() { this.#markers.clear(); }

  /**
   * A marker's current options (a copy), with its title, snippet and userData: what an event's
   * `marker` id stands for.
   * @param {number} id
   * @returns {Marker}
   * @throws {CairnError} (UNKNOWN_MARKER) for an id removed, cleared or never given
   */
  marker(id) { return this.#markers.copy(id); }

  /** Markers on the map. */
  get markerCount() { return this.#markers.size; }

  /**
   * How long the last `frame()` took, in milliseconds: the engine building the frame (in
   * WebAssembly: the camera, clusters in view, collisions, draw order, the tap index) and
   * reading it into the returned objects (JavaScript).
   * @returns {{engineMs: number, readMs: number}}
   */
  get frameTiming() { return { ...this.#frameTiming }; }

  /**
   * The marker whose info window is open, or null (none, or a cluster item's).
   * @returns {number | null}
   */
  get selectedMarker() {
    const s = this.selection;
    return s && 'marker' in s ? s.marker : null;
  }

  /**
   * Where a marker's info-window anchor was in the last frame, as drawn (turned, scaled, lifted
   * with its icon): where a window's tail or a popover goes. Null while it is not drawn.
   * @param {number} id
   * @returns {{x: number, y: number} | null}
   */
  markerAnchor(id) {
    const call = 'markerAnchor';
    this.#markers.known(id, call);
    const pair = this.#channel.pair(call, (h, out) => this.#channel.fn.cairn_map_marker_anchor(h, id, out));
    return pair && { x: pair[0], y: pair[1] };
  }

  /**
   * Whose info window is open, as of now: a marker's, or a cluster manager's item's (C7), or null.
   * @returns {import('../core/frame.js').WindowOwner | null}
   */
  get selection() {
    if (!this.#channel.alive) return null;
    const pair = this.#channel.pair('selection', (h, out) => this.#channel.fn.cairn_map_selection(h, out));
    return pair && (pair[1] < 0 ? { marker: pair[0] } : { manager: pair[1], item: pair[0] });
  }

  /**
   * Selects a marker, opening its info window (none opens without title, snippet or custom
   * window), or selects none (null), closing it. Selecting the open one reopens it.
   * @param {number | null} id
   */
  selectMarker(id) { this.#markers.select(id); }

  /**
   * The size of the open info window as the host laid it out, in CSS pixels: it places the
   * window and makes it tappable.
   * @param {number} width
   * @param {number} height
   */
  setInfoWindowSize(width, height) {
    const call = 'setInfoWindowSize';
    const args = [numberArg(width, 'width', call), numberArg(height, 'height', call)];
    this.#channel.check(this.#channel.fn.cairn_map_set_info_window_size(this.#channel.enter(call), ...args), call,
      'width and height must be finite, from 0 to 10000');
  }

  /**
   * The answer to the last `markerTapped`, `clusterTapped` or `clusterItemTapped` event: true when
   * the app's handler consumed the tap; otherwise the default runs (a marker is selected and the
   * camera centred on it; a cluster zooms to where it splits, or spreads its items out when it
   * never can; an item is selected and centred as a marker is). Answering when no tap waits
   * does nothing.
   * @param {boolean} consumed
   */
  answerTap(consumed) {
    const call = 'answerTap';
    const c = booleanArg(consumed, 'consumed', call) ? 1 : 0;
    this.#channel.check(this.#channel.fn.cairn_map_answer_tap(this.#channel.enter(call), c), call);
  }

  /**
   * Whether the host may draw its own info window for any marker or cluster item (feature I7,
   * the app's window hooks): windows then open without title or snippet, and a host with
   * nothing to show for one closes it (`selectMarker(null)`).
   * @param {boolean} on
   */
  setCustomInfoWindows(on) {
    const call = 'setCustomInfoWindows';
    const v = booleanArg(on, 'on', call) ? 1 : 0;
    this.#channel.check(this.#channel.fn.cairn_map_set_custom_info_windows(this.#channel.enter(call), v), call);
  }

  // ── popovers (feature V2) ──────────────────────────────────────────────────────────────────

  /**
   * Adds a popover to a marker: content of the host's that the engine places where the marker's
   * info window would stand (`frame.popovers`, each open one's box), pans into view when it
   * opens (`autoPan`), closes on a tap that is not on its marker or that marker's window
   * (`autoClose`; a `popoverClosed` event) and removes with its marker (`popoverRemoved`).
   * Tell it the content's size with `setPopoverSize`.
   * @param {number} marker
   * @param {PopoverSettings} [settings]  those not given: closed, autoClose and autoPan on
   * @returns {number} its id
   */
  addPopover(marker, settings) {
    const call = 'addPopover';
    this.#markers.known(marker, call);
    const { mask, flags } = popoverBits(settings, call);
    return this.#channel.check(this.#channel.fn.cairn_map_add_popover(this.#channel.enter(call), marker, mask, flags), call,
      'at most 4096 popovers on one map');
  }

  /**
   * Changes a popover's settings (those given): one that opens pans into view when it has
   * `autoPan`; one that closes is reported (`popoverClosed`).
   * @param {number} id
   * @param {PopoverSettings} settings
   */
  updatePopover(id, settings) {
    const call = 'updatePopover';
    const p = int32Arg(id, 'id', call);
    const { mask, flags } = popoverBits(settings, call);
    const status = this.#channel.fn.cairn_map_set_popover(this.#channel.enter(call), p, mask, flags);
    this.#channel.check(status, call, popoverHint(status));
  }

  /**
   * A popover's settings, or null once it is gone (`removePopover`, or with its marker).
   * @param {number} id
   * @returns {Required<PopoverSettings> | null}
   */
  popover(id) {
    const call = 'popover';
    const p = int32Arg(id, 'id', call);
    const status = this.#channel.fn.cairn_map_popover_state(this.#channel.enter(call), p);
    if (status === STATUS_BY_CODE.INVALID_HANDLE) return null;
    const bits = this.#channel.check(status, call);
    return { open: (bits & POPOVER_BITS.open) !== 0, autoClose: (bits & POPOVER_BITS.autoClose) !== 0,
      autoPan: (bits & POPOVER_BITS.autoPan) !== 0 };
  }

  /**
   * The size of a popover's content as the host laid it out, in CSS pixels: it places the box
   * and fits it into view.
   * @param {number} id
   * @param {number} width
   * @param {number} height
   */
  setPopoverSize(id, width, height) {
    const call = 'setPopoverSize';
    const args = [int32Arg(id, 'id', call), numberArg(width, 'width', call), numberArg(height, 'height', call)];
    const status = this.#channel.fn.cairn_map_set_popover_size(this.#channel.enter(call), ...args);
    this.#channel.check(status, call, popoverHint(status) ?? 'width and height must be finite, from 0 to 10000');
  }

  /**
   * Takes a popover away (no event: the host asked).
   * @param {number} id
   */
  removePopover(id) {
    const call = 'removePopover';
    const status = this.#channel.fn.cairn_map_remove_popover(this.#channel.enter(call), int32Arg(id, 'id', call));
    this.#channel.check(status, call, popoverHint(status));
  }

  // ── buildings with floors (feature G4) ─────────────────────────────────────────────────────

  /**
   * Adds a building with floors: from zoom 16, while the camera looks inside its footprint, it
   * is prominent, the floor picker offers its levels, and markers on one of its levels
   * (`indoorLevel`) are drawn only while that level is shown.
   * @param {{footprint: LatLng[], levels: number, defaultLevel?: number}} options  the footprint's
   *   corners in order (3 or more), the number of levels (counted from the top, 0 first), the one
   *   shown first (left out: the engine's default)
   * @returns {number} its id
   * @throws {CairnError} INVALID_ARGUMENT for a footprint of fewer than 3 corners, or levels
   *   outside 1…256; NON_FINITE_COORDINATE, LATITUDE_OUT_OF_RANGE naming the corner
   */
  addIndoorBuilding(options) {
    const call = 'addIndoorBuilding';
    const b = objectArg(options, 'options', call);
    if (!Array.isArray(b.footprint)) throw argumentError(call, 'options.footprint must be an array of {latitude, longitude}');
    const corners = b.footprint.map((c, i) => numbersArg(c, ['latitude', 'longitude'], `options.footprint[${i}]`, call));
    const levels = int32Arg(b.levels, 'options.levels', call);
    const level = b.defaultLevel === undefined ? DEFAULT_CHOICE : int32Arg(b.defaultLevel, 'options.defaultLevel', call);
    // A -1 given must not pass for the ABI's "not given": it goes as another level the engine refuses.
    const defaultLevel = level === DEFAULT_CHOICE && b.defaultLevel !== undefined ? level - 1 : level;
    const h = this.#channel.enter(call);   // first: it sends waiting input through the same buffer
    const pairs = this.#channel.buffer(Math.max(2, 2 * corners.length));
    corners.forEach((c, i) => { pairs[2 * i] = c.longitude; pairs[2 * i + 1] = c.latitude; });
    const status = this.#channel.fn.cairn_map_add_indoor_building(h, pairs.byteOffset, corners.length, levels, defaultLevel);
    return this.#channel.check(status, call, status === STATUS_BY_CODE.INVALID_ARGUMENT
      ? 'a footprint needs 3 to 4096 corners, 1 to 256 levels and a default level among them' : undefined);
  }

  /**
   * The level of a building shown now (counted from the top, 0 first), as the engine holds it.
   * @param {number} id
   * @returns {number}
   */
  indoorLevel(id) {
    const call = 'indoorLevel';
    const status = this.#channel.fn.cairn_map_indoor_level(this.#channel.enter(call), int32Arg(id, 'id', call));
    return this.#channel.check(status, call, buildingHint(status));
  }

  /**
   * Removes a building: its markers are drawn again whatever their level.
   * @param {number} id
   */
  removeIndoorBuilding(id) {
    const call = 'removeIndoorBuilding';
    const status = this.#channel.fn.cairn_map_remove_indoor_building(this.#channel.enter(call), int32Arg(id, 'id', call));
    this.#channel.check(status, call, buildingHint(status));
  }

  /**
   * Shows a level of a building, as a tap on the floor picker does.
   * @param {number} id
   * @param {number} level  counted from the top, 0 first
   */
  activateIndoorLevel(id, level) {
    const call = 'activateIndoorLevel';
    const status = this.#channel.fn.cairn_map_activate_indoor_level(this.#channel.enter(call), int32Arg(id, 'id', call),
      int32Arg(level, 'level', call));
    this.#channel.check(status, call, status === STATUS_BY_CODE.INVALID_ARGUMENT ? 'level must be one of the building\'s' : buildingHint(status));
  }

  // ── cluster managers (features C1–C7, C10) ─────────────────────────────────────────────────

  /**
   * Adds a cluster manager: items clustered for the screen, drawn in the frames with the markers.
   * See cluster-manager.js.
   * @param {ClusterManagerOptions} [options]
   * @param {ClusterHost} [host]  what a host that draws the map adds (CairnMap gives it)
   * @returns {ClusterManager}
   */
  addClusterManager(options, host) {
    const { removed, ...hooks } = host ?? {};
    const link = {
      ...this.#link,
      ...hooks,
      removed: (/** @type {ClusterManager} */ manager) => {
        this.#link.removed(manager);
        removed?.(manager);
      },
    };
    const manager = new ClusterManager(link, options);
    this.#managers.set(manager.number, manager);
    return manager;
  }

  /**
   * The live manager a draw item's or an event's `manager` number names, or null.
   * @param {number} number
   * @returns {ClusterManager | null}
   */
  clusterManager(number) { return this.#managers.get(number) ?? null; }

  // ── projection ─────────────────────────────────────────────────────────────────────────────

  /**
   * Where a place appears on screen, or null when it is behind the camera.
   * @param {number} latitude
   * @param {number} longitude
   * @param {number} [altitude=0]  metres
   * @param {'clampToGround' | 'relativeToGround' | 'absolute'} [altitudeMode='clampToGround']
   * @returns {{x: number, y: number} | null}
   */
  screenPoint(latitude, longitude, altitude = 0, altitudeMode = 'clampToGround') {
    const call = 'screenPoint';
    const args = [numberArg(latitude, 'latitude', call), numberArg(longitude, 'longitude', call),
      numberArg(altitude, 'altitude', call), nameArg(ALTITUDE_MODES, altitudeMode, 'altitudeMode', call)];
    const pair = this.#channel.pair(call, (h, out) => this.#channel.fn.cairn_map_screen_point(h, ...args, out));
    return pair && { x: pair[0], y: pair[1] };
  }

  /**
   * The place on the ground under a screen point, or null above the horizon.
   * @param {number} x
   * @param {number} y
   * @returns {{latitude: number, longitude: number} | null}
   */
  coordinate(x, y) {
    const call = 'coordinate';
    const sx = numberArg(x, 'x', call);
    const sy = numberArg(y, 'y', call);
    const pair = this.#channel.pair(call, (h, out) => this.#channel.fn.cairn_map_coordinate(h, sx, sy, out));
    return pair && { latitude: pair[0], longitude: pair[1] };
  }

  /**
   * Frees the engine's memory for this map; it cannot be used afterwards. Optional (a
   * finalizer frees forgotten maps eventually) but prompt.
   */
  destroy() {
    this.#channel.destroy();
    this.#markers.forget();
    this.#managers.clear();
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────

  /**
   * @param {'pointerMove' | 'pointerUp' | 'pointerCancel'} call
   * @param {number} id
   * @param {number} x
   * @param {number} y
   * @param {number} time
   */
  #pointer(call, id, x, y, time) {
    this.#channel.checkAlive(call);
    this.#channel.batch.add(call, numberArg(time, 'time', call), numberArg(id, 'id', call), numberArg(x, 'x', call),
      numberArg(y, 'y', call), 0, 0, 0, 0);
  }

  /**
   * The camera fields in export order, missing ones from `this.camera`.
   * @param {unknown} camera
   * @param {string} call
   * @returns {[number, number, number, number, number]}
   */
  #cameraArgs(camera, call) {
    const c = objectArg(camera, 'camera', call);
    knownKeys(c, CAMERA_FIELDS, 'camera', call);
    // NaN tells the engine to keep the camera's own value, so a NaN given is refused here.
    return /** @type {[number, number, number, number, number]} */ (CAMERA_FIELDS.map((name) => {
      if (c[name] === undefined) return NaN;
      const value = numberArg(c[name], name, call);
      if (Number.isNaN(value)) throw argumentError(call, `camera ${name} must be a number, not NaN`);
      return value;
    }));
  }
}

/** A popover's settings as the engine's bits. */
const POPOVER_BITS = Object.freeze({ open: 1, autoClose: 2, autoPan: 4 });

/** @typedef {{open?: boolean, autoClose?: boolean, autoPan?: boolean}} PopoverSettings */

/**
 * The bits of the settings given (`mask`) and their values (`flags`); the engine keeps the others.
 * @param {unknown} settings
 * @param {string} call
 * @returns {{mask: number, flags: number}}
 */
function popoverBits(settings, call) {
  const s = objectArg(settings, 'settings', call);
  knownKeys(s, Object.keys(POPOVER_BITS), 'settings', call);
  let mask = 0;
  let flags = 0;
  for (const [name, bit] of Object.entries(POPOVER_BITS)) {
    if (s[name] === undefined) continue;
    mask |= bit;
    if (booleanArg(s[name], name, call)) flags |= bit;
  }
  return { mask, flags };
}

/**
 * The hint for an unknown popover: INVALID_HANDLE's own message speaks of maps and indexes.
 * @param {number} status
 * @returns {string | undefined}
 */
function popoverHint(status) {
  return status === STATUS_BY_CODE.INVALID_HANDLE ? 'no popover with this id on the map (never added, removed, or gone with its marker)' : undefined;
}

/**
 * A number that is not NaN (where NaN is the ABI's "none").
 * @param {unknown} value
 * @param {string} name
 * @param {string} call
 * @returns {number}
 */
function notNaN(value, name, call) {
  const v = numberArg(value, name, call);
  if (Number.isNaN(v)) throw argumentError(call, `${name} must not be NaN`);
  return v;
}

/**
 * The hint for an unknown building: INVALID_HANDLE's own message speaks of maps and indexes.
 * @param {number} status
 * @returns {string | undefined}
 */
function buildingHint(status) {
  return status === STATUS_BY_CODE.INVALID_HANDLE ? 'no building with this id on the map (never added, or removed)' : undefined;
}
