// The interactive map over the engine: camera, gestures, controls, markers and cluster managers.
//
// The engine owns every decision (what a drag does, where the compass is, which tiles cover
// the view, which markers collide, what a tap hit); this class only moves data across the
// boundary, and keeps what the engine does not hold (marker titles, snippets, user data).
// Input methods append records to a batch on the JS side, `frame(time)` pushes the batch in
// one call, advances the engine and reads one frame buffer back, which it returns as a plain
// object.

import { getModule } from './wasm.js';
import { STATUS_BY_CODE, STATUS_CODES, argumentError, errorFromStatus, memoryError, refusedInBatch } from './errors.js';
import {
  ALTITUDE_MODES, DOM_KEYS, EASINGS, InputBatch, KEY_COMMANDS, MODIFIER_BITS, POINTER_KINDS, WHEEL_MODES,
  booleanArg, int32Arg, knownKeys, nameArg, numberArg, numbersArg, objectArg, resolveSettings, settingsBits, sidesArg,
} from './map-input.js';
import { readFrame, readLayout } from './map-frame.js';
import {
  MARKER_DEFAULTS, MARKER_FIELDS, MARKER_FLAGS, checkMarkerStride, copyMarker, encodeMarker, resolveMarker,
} from './map-markers.js';
import { engineMemory } from './engine-memory.js';
import { ClusterManager } from './cluster-manager.js';

/** @typedef {import('./map-frame.js').CameraPosition} CameraPosition */
/** @typedef {import('./map-frame.js').LatLng} LatLng */
/** @typedef {import('./map-frame.js').Frame} Frame */
/** @typedef {import('./map-frame.js').FrameLayout} FrameLayout */
/** @typedef {import('./map-input.js').UISettings} UISettings */
/** @typedef {import('./map-markers.js').Marker} Marker */
/** @typedef {import('./map-markers.js').MarkerOptions} MarkerOptions */
/** @typedef {import('./cluster-manager.js').ClusterManagerOptions} ClusterManagerOptions */
/** @typedef {'mouse' | 'touch' | 'pen'} PointerKind */
/** @typedef {keyof KEY_COMMANDS} KeyCommand */

/** Camera fields, in the order the exports take them. */
const CAMERA_FIELDS = /** @type {const} */ (['latitude', 'longitude', 'zoom', 'bearing', 'tilt']);

/** @typedef {import('./engine-memory.js').Resources} Resources */

// Frees a map's engine memory on destroy(), or when a map is dropped without it. Its one
// buffer (capacity in doubles) carries input records in, frames and projections out.
const { release, registry } = engineMemory('cairn_map_destroy');

/**
 * One interactive map in the engine. `await init()` must have finished before one is created.
 *
 * Per animation frame: forward the DOM's input events (`pointerDown`, `wheel`, `key`, …), then
 * call `frame(time)` and draw what it returns. Every call that reaches the engine pushes the
 * input collected so far first, so the engine sees calls in the order they were made.
 */
export class MapEngine {
  /** @type {import('./wasm.js').CairnModule} */
  #mod;
  /** @type {Resources} */
  #res;
  /** @type {FrameLayout} */
  #layout;
  /** @type {InputBatch} */
  #batch;
  #destroyed = false;
  /** @type {CameraPosition} */
  #camera;
  /** @type {Required<UISettings>} */
  #settings;
  /** @type {Map<number, Marker>} every marker's options, by id */
  #markers = new Map();
  /** @type {{engineMs: number, readMs: number}} */
  #frameTiming = { engineMs: 0, readMs: 0 };
  /** @type {Map<number, ClusterManager>} the live cluster managers, by number */
  #managers = new Map();
  /** @type {import('./cluster-manager.js').MapLink} what the cluster managers reach the engine through */
  #link = {
    fn: {},
    enter: (call) => this.#enter(call),
    buffer: (doubles) => {
      this.#reserve(doubles);
      return new Float64Array(this.#mod.memory.buffer, this.#res.ptr, doubles);
    },
    alive: () => !this.#destroyed,
    removed: (manager) => { this.#managers.delete(manager.number); },
  };

  /**
   * @param {{camera: {latitude: number, longitude: number, zoom: number, bearing?: number, tilt?: number},
   *   width: number, height: number}} options  the first camera, and the view's size in CSS pixels
   * @throws {CairnError} (INVALID_STATE) if `init()` has not finished
   * @throws {CairnError} (INVALID_ARGUMENT) for a camera or size that is not finite and positive
   */
  constructor(options) {
    const call = 'MapEngine';
    this.#mod = getModule();
    const fn = this.#mod.fn;
    const o = objectArg(options, 'options', call);
    const c = objectArg(o.camera, 'camera', call);
    knownKeys(c, CAMERA_FIELDS, 'camera', call);
    this.#camera = {
      latitude: numberArg(c.latitude, 'camera.latitude', call),
      longitude: numberArg(c.longitude, 'camera.longitude', call),
      zoom: numberArg(c.zoom, 'camera.zoom', call),
      bearing: c.bearing === undefined ? 0 : numberArg(c.bearing, 'camera.bearing', call),
      tilt: c.tilt === undefined ? 0 : numberArg(c.tilt, 'camera.tilt', call),
    };
    const width = numberArg(o.width, 'width', call);
    const height = numberArg(o.height, 'height', call);
    this.#layout = readLayout((which) => fn.cairn_map_layout(which));
    checkMarkerStride(this.#layout.markerStride);
    this.#batch = new InputBatch(this.#layout.inputStride);
    this.#settings = resolveSettings(undefined, call);
    this.#res = { fn, handle: 0, ptr: 0, capacity: 0 };
    this.#link.fn = fn;
    const k = this.#camera;
    this.#res.handle = this.#check(fn.cairn_map_create(k.latitude, k.longitude, k.zoom, k.bearing, k.tilt, width, height), call);
    try {
      const l = this.#layout;
      this.#reserve(l.header + 64 * l.tileStride + 64 * l.eventStride);
    } catch (error) {
      release(this.#res);
      throw error;
    }
    if (registry) registry.register(this, this.#res, this);
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
   * The UI settings in force.
   * @returns {Required<UISettings>}
   */
  get settings() { return { ...this.#settings }; }

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
    this.#check(this.#res.fn.cairn_map_set_viewport(this.#enter(call), ...args), call);
  }

  /**
   * The range of the camera, and the highest zoom the tile source has.
   * @param {{minZoom?: number, maxZoom?: number, maxTilt?: number, maxTileZoom?: number}} [limits]
   *   defaults 0, 22, 60 and 22
   */
  setLimits(limits) {
    const call = 'setLimits';
    const l = objectArg(limits, 'limits', call);
    /** @param {string} name @param {number} fallback */
    const get = (name, fallback) => (l[name] === undefined ? fallback : numberArg(l[name], name, call));
    const maxTileZoom = l.maxTileZoom === undefined ? 22 : int32Arg(l.maxTileZoom, 'maxTileZoom', call);
    const args = [get('minZoom', 0), get('maxZoom', 22), get('maxTilt', 60), maxTileZoom];
    this.#check(this.#res.fn.cairn_map_set_limits(this.#enter(call), ...args), call);
  }

  /**
   * Which gestures and controls are on; settings not given take their defaults (gestures on,
   * buttons off). They apply from the next input event and never limit programmatic moves.
   * @param {UISettings} [settings]
   */
  setSettings(settings) {
    const call = 'setSettings';
    const resolved = resolveSettings(settings, call);
    this.#check(this.#res.fn.cairn_map_set_settings(this.#enter(call), settingsBits(resolved)), call);
    this.#settings = resolved;
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
    this.#alive(call);
    this.#batch.add(call, numberArg(time, 'time', call), numberArg(id, 'id', call), numberArg(x, 'x', call),
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
    this.#alive(call);
    const m = typeof mode === 'string' ? nameArg(WHEEL_MODES, mode, 'mode', call) : numberArg(mode, 'mode', call);
    this.#batch.add(call, numberArg(time, 'time', call), 0, numberArg(x, 'x', call), numberArg(y, 'y', call),
      numberArg(deltaX, 'deltaX', call), numberArg(deltaY, 'deltaY', call), m, numberArg(modifiers, 'modifiers', call));
  }

  /**
   * @param {KeyCommand} command  see `MapEngine.keyCommand`
   * @param {number} modifiers
   * @param {number} time
   */
  key(command, modifiers, time) {
    const call = 'key';
    this.#alive(call);
    this.#batch.add(call, numberArg(time, 'time', call), nameArg(KEY_COMMANDS, command, 'command', call), 0, 0, 0, 0, 0,
      numberArg(modifiers, 'modifiers', call));
  }

  /**
   * Pushes the input collected so far to the engine in one call. A batch with a malformed
   * record (a NaN, a fractional pointer id, an unknown button) is refused whole and dropped.
   * @returns {number} records pushed
   * @throws {CairnError} (INVALID_RECORD) naming the record's position and the method that added it
   */
  flushInput() {
    const n = this.#batch.count;
    this.#enter('flushInput');
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
    const h = this.#enter(call);
    const res = this.#res;
    const start = performance.now();
    let size = res.fn.cairn_map_frame(h, t, res.ptr, res.capacity);
    while (size > res.capacity) {
      // Nothing was written and the events are still queued: ask again, same time.
      this.#reserve(size);
      size = res.fn.cairn_map_frame(h, t, res.ptr, res.capacity);
    }
    const built = performance.now();
    this.#check(size, call);
    // A fresh view: the call may have grown memory, detaching older ones.
    const frame = readFrame(new Float64Array(this.#mod.memory.buffer, res.ptr, size), this.#layout);
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
    this.#check(this.#res.fn.cairn_map_move_camera(this.#enter(call), ...c), call);
  }

  /**
   * Animates the camera from where it is, starting with the next frame (however long after the
   * last one it comes). Fields not given keep the camera's values as they are now (a move since
   * the last frame included: the engine fills them in).
   * @param {Partial<CameraPosition>} camera
   * @param {{duration?: number, easing?: 'linear' | 'easeInOut' | 'easeOut'}} [options]
   *   duration in seconds (default 0.5), easing default 'easeInOut'
   */
  animateCamera(camera, options) {
    const call = 'animateCamera';
    const c = this.#cameraArgs(camera, call);
    const o = objectArg(options, 'options', call);
    const duration = o.duration === undefined ? 0.5 : numberArg(o.duration, 'duration', call);
    const easing = nameArg(EASINGS, o.easing ?? 'easeInOut', 'easing', call);
    this.#check(this.#res.fn.cairn_map_animate_camera(this.#enter(call), ...c, duration, easing), call);
  }

  /**
   * Shows a longitude/latitude box north up and flat, `padding` pixels inside the padded view.
   * @param {{west: number, south: number, east: number, north: number}} bounds
   * @param {{padding?: number, duration?: number}} [options]  defaults 0 and 0 (no animation)
   */
  showBounds(bounds, options) {
    const call = 'showBounds';
    const b = objectArg(bounds, 'bounds', call);
    const o = objectArg(options, 'options', call);
    const args = [numberArg(b.west, 'west', call), numberArg(b.south, 'south', call), numberArg(b.east, 'east', call),
      numberArg(b.north, 'north', call), o.padding === undefined ? 0 : numberArg(o.padding, 'padding', call),
      o.duration === undefined ? 0 : numberArg(o.duration, 'duration', call)];
    this.#check(this.#res.fn.cairn_map_show_bounds(this.#enter(call), ...args), call);
  }

  /**
   * Zooms by `amount` levels keeping the ground under (x, y) still, or the padded centre when
   * no point is given.
   * @param {number} amount
   * @param {{x?: number, y?: number, duration?: number}} [options]  duration default 0
   */
  zoomBy(amount, options) {
    const call = 'zoomBy';
    const o = objectArg(options, 'options', call);
    // NaN is the ABI's "no point", so a NaN from the caller must not slip through as one.
    const x = o.x === undefined ? NaN : notNaN(o.x, 'x', call);
    const y = o.y === undefined ? NaN : notNaN(o.y, 'y', call);
    const duration = o.duration === undefined ? 0 : numberArg(o.duration, 'duration', call);
    this.#check(this.#res.fn.cairn_map_zoom_by(this.#enter(call), numberArg(amount, 'amount', call), x, y, duration), call);
  }

  /** Stops a camera animation where it is. */
  stopAnimation() {
    const call = 'stopAnimation';
    this.#check(this.#res.fn.cairn_map_stop_animation(this.#enter(call)), call);
  }

  /**
   * The user's location for the dot and the my-location button, or null to forget it. When
   * a tap of the button asked for it (a `locationRequested` event), the camera goes there.
   * @param {{latitude: number, longitude: number, accuracy?: number} | null} location
   *   accuracy: radius in metres, default 0
   */
  setMyLocation(location) {
    const call = 'setMyLocation';
    let args = [NaN, NaN, 0];
    if (location !== null) {
      const l = objectArg(location, 'location', call);
      args = [notNaN(l.latitude, 'latitude', call), numberArg(l.longitude, 'longitude', call),
        l.accuracy === undefined ? 0 : numberArg(l.accuracy, 'accuracy', call)];
    }
    this.#check(this.#res.fn.cairn_map_set_my_location(this.#enter(call), ...args), call);
  }

  // ── markers (SPEC M, I, V3, V4) ────────────────────────────────────────────────────────────

  /**
   * Registers an icon the host will draw: markers refer to it by the number returned.
   * @param {{width: number, height: number, insets?: {top?: number, left?: number, bottom?: number, right?: number},
   *   anchor?: {x: number, y: number}}} icon  size in CSS pixels; insets: transparent padding that
   *   does not count for anchoring and taps (default 0); anchor: default {x: 0.5, y: 1}
   * @returns {number}
   * @throws {CairnError} (INVALID_ARGUMENT) for a size that is not positive (at most 4096), insets that
   *   leave nothing of the image, or an anchor that is not finite
   */
  registerIcon(icon) {
    const call = 'registerIcon';
    const i = objectArg(icon, 'icon', call);
    const anchor = i.anchor === undefined ? { x: 0.5, y: 1 } : numbersArg(i.anchor, ['x', 'y'], 'anchor', call);
    const args = [numberArg(i.width, 'width', call), numberArg(i.height, 'height', call), ...sidesArg(i.insets, 'insets', call),
      anchor.x, anchor.y];
    return this.#check(this.#res.fn.cairn_map_register_icon(this.#enter(call), ...args), call,
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
    const call = 'addMarker';
    return this.#addMarkers([resolveMarker(options, MARKER_DEFAULTS, '', call)], call, false)[0];
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
    return this.#addMarkers(Array.from(markers, (m, i) => resolveMarker(m, MARKER_DEFAULTS, `markers[${i}]`, call)), call, true);
  }

  /**
   * Changes a marker: `changes` (options as for `addMarker`) over its current options.
   * @param {number} id
   * @param {Partial<MarkerOptions>} changes
   * @throws {CairnError} UNKNOWN_MARKER, INVALID_ARGUMENT, INVALID_MARKER (the marker stays as it was)
   */
  updateMarker(id, changes) {
    const call = 'updateMarker';
    const next = resolveMarker(changes, this.#known(id, call), '', call);
    const h = this.#enter(call);
    const record = this.#markerRecords(1);
    encodeMarker(record, 0, next);
    // The text stays here: tell the engine only that it changed; it decides about the window.
    const old = this.#markers.get(id);
    if (old && (old.title !== next.title || old.snippet !== next.snippet)) {
      record[MARKER_FIELDS.indexOf('flags')] += MARKER_FLAGS.contentChanged;
    }
    this.#markerCheck(this.#res.fn.cairn_map_update_marker(h, id, this.#res.ptr), call, { id, markers: [next] });
    this.#markers.set(id, next);
  }

  /**
   * Removes a marker (closing its info window); its id is never valid again.
   * @param {number} id
   */
  removeMarker(id) {
    const call = 'removeMarker';
    this.#known(id, call);
    this.#markerCheck(this.#res.fn.cairn_map_remove_marker(this.#enter(call), id), call, { id });
    this.#markers.delete(id);
  }

  /** Removes every marker and closes a marker's info window; no id given so far stays valid. */
  clearMarkers() {
    const call = 'clearMarkers';
    this.#check(this.#res.fn.cairn_map_clear_markers(this.#enter(call)), call);
    this.#markers.clear();
  }

  /**
   * A marker's current options (a copy), with its title, snippet and userData: what an event's
   * `marker` id stands for.
   * @param {number} id
   * @returns {Marker}
   * @throws {CairnError} (UNKNOWN_MARKER) for an id removed, cleared or never given
   */
  marker(id) { return copyMarker(this.#known(id, 'marker')); }

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
    this.#known(id, call);
    const pair = this.#pair(call, (h, out) => this.#res.fn.cairn_map_marker_anchor(h, id, out));
    return pair && { x: pair[0], y: pair[1] };
  }

  /**
   * Whose info window is open, as of now: a marker's, or a cluster manager's item's (C7), or null.
   * @returns {import('./map-frame.js').WindowOwner | null}
   */
  get selection() {
    if (this.#destroyed) return null;
    const pair = this.#pair('selection', (h, out) => this.#res.fn.cairn_map_selection(h, out));
    return pair && (pair[1] < 0 ? { marker: pair[0] } : { manager: pair[1], item: pair[0] });
  }

  /**
   * Selects a marker, opening its info window (none opens without title, snippet or custom
   * window), or selects none (null), closing it. Selecting the open one reopens it.
   * @param {number | null} id
   */
  selectMarker(id) {
    const call = 'selectMarker';
    if (id !== null) this.#known(id, call);
    this.#markerCheck(this.#res.fn.cairn_map_select_marker(this.#enter(call), id ?? -1), call, { id: id ?? -1 });
  }

  /**
   * The size of the open info window as the host laid it out, in CSS pixels: it places the
   * window and makes it tappable.
   * @param {number} width
   * @param {number} height
   */
  setInfoWindowSize(width, height) {
    const call = 'setInfoWindowSize';
    const args = [numberArg(width, 'width', call), numberArg(height, 'height', call)];
    this.#check(this.#res.fn.cairn_map_set_info_window_size(this.#enter(call), ...args), call,
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
    this.#check(this.#res.fn.cairn_map_answer_tap(this.#enter(call), c), call);
  }

  // ── buildings with floors (SPEC G4) ─────────────────────────────────────────────────────────

  /**
   * Adds a building with floors: from zoom 16, while the camera looks inside its footprint, it
   * is prominent, the floor picker offers its levels, and markers on one of its levels
   * (`indoorLevel`) are drawn only while that level is shown.
   * @param {{footprint: LatLng[], levels: number, defaultLevel?: number}} options  the footprint's
   *   corners in order (3 or more), the number of levels (counted from the top, 0 first), the one
   *   shown first (default 0)
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
    const defaultLevel = b.defaultLevel === undefined ? 0 : int32Arg(b.defaultLevel, 'options.defaultLevel', call);
    const h = this.#enter(call);   // first: it sends waiting input through the same buffer
    const pairs = this.#link.buffer(Math.max(2, 2 * corners.length));
    corners.forEach((c, i) => { pairs[2 * i] = c.longitude; pairs[2 * i + 1] = c.latitude; });
    const status = this.#res.fn.cairn_map_add_indoor_building(h, pairs.byteOffset, corners.length, levels, defaultLevel);
    return this.#check(status, call, status === STATUS_BY_CODE.INVALID_ARGUMENT
      ? 'a footprint needs 3 to 4096 corners, 1 to 256 levels and a default level among them' : undefined);
  }

  /**
   * Removes a building: its markers are drawn again whatever their level.
   * @param {number} id
   */
  removeIndoorBuilding(id) {
    const call = 'removeIndoorBuilding';
    const status = this.#res.fn.cairn_map_remove_indoor_building(this.#enter(call), int32Arg(id, 'id', call));
    this.#check(status, call, buildingHint(status));
  }

  /**
   * Shows a level of a building, as a tap on the floor picker does.
   * @param {number} id
   * @param {number} level  counted from the top, 0 first
   */
  activateIndoorLevel(id, level) {
    const call = 'activateIndoorLevel';
    const status = this.#res.fn.cairn_map_activate_indoor_level(this.#enter(call), int32Arg(id, 'id', call),
      int32Arg(level, 'level', call));
    this.#check(status, call, status === STATUS_BY_CODE.INVALID_ARGUMENT ? 'level must be one of the building\'s' : buildingHint(status));
  }

  // ── cluster managers (SPEC C1–C7, C10) ─────────────────────────────────────────────────────

  /**
   * Adds a cluster manager: items clustered for the screen, drawn in the frames with the markers.
   * See cluster-manager.js.
   * @param {ClusterManagerOptions} [options]
   * @returns {ClusterManager}
   */
  addClusterManager(options) {
    const manager = new ClusterManager(this.#link, options);
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
    const pair = this.#pair(call, (h, out) => this.#res.fn.cairn_map_screen_point(h, ...args, out));
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
    const pair = this.#pair(call, (h, out) => this.#res.fn.cairn_map_coordinate(h, sx, sy, out));
    return pair && { latitude: pair[0], longitude: pair[1] };
  }

  /**
   * Frees the engine's memory for this map; it cannot be used afterwards. Optional (a
   * finalizer frees forgotten maps eventually) but prompt.
   */
  destroy() {
    if (this.#destroyed) return;
    this.#destroyed = true;
    if (registry) registry.unregister(this);
    release(this.#res);
    this.#batch.clear();
    this.#markers.clear();
    this.#managers.clear();
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────

  /** @param {string} call */
  #alive(call) {
    if (this.#destroyed) throw errorFromStatus(-1, 0, { call, hint: 'destroy() was called' });
  }

  /**
   * Checks the map is alive and pushes the collected input; returns the handle.
   * @param {string} call
   * @returns {number}
   */
  #enter(call) {
    this.#alive(call);
    const res = this.#res;
    const batch = this.#batch;
    const n = batch.count;
    if (n === 0) return res.handle;
    try {
      const records = batch.records;
      this.#reserve(records.length);
      new Float64Array(this.#mod.memory.buffer, res.ptr, records.length).set(records);
      const status = res.fn.cairn_map_push_events(res.handle, res.ptr, n);
      if (status < 0) {
        const detail = res.fn.cairn_last_error_detail();
        const source = batch.callAt(detail);
        throw this.#error(status, call, source ? `record ${detail} came from ${source}()` : 'while pushing the input');
      }
    } finally {
      batch.clear();
    }
    return res.handle;
  }

  /**
   * @param {'pointerMove' | 'pointerUp' | 'pointerCancel'} call
   * @param {number} id
   * @param {number} x
   * @param {number} y
   * @param {number} time
   */
  #pointer(call, id, x, y, time) {
    this.#alive(call);
    this.#batch.add(call, numberArg(time, 'time', call), numberArg(id, 'id', call), numberArg(x, 'x', call),
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

  /**
   * Runs an export that writes two doubles to the buffer and returns 1, or 0 for none.
   * @param {string} call
   * @param {(handle: number, out: number) => number} run
   * @returns {[number, number] | null}
   */
  #pair(call, run) {
    const h = this.#enter(call);
    if (this.#check(run(h, this.#res.ptr), call) === 0) return null;
    const v = new Float64Array(this.#mod.memory.buffer, this.#res.ptr, 2);
    return [v[0], v[1]];
  }

  /**
   * The options of a marker the map holds. Ids reach the engine only once found here, so an id
   * this map never gave (or took back) never does.
   * @param {unknown} id
   * @param {string} call
   * @returns {Marker}
   */
  #known(id, call) {
    const m = this.#markers.get(numberArg(id, 'id', call));
    if (!m) throw errorFromStatus(STATUS_BY_CODE.UNKNOWN_MARKER, /** @type {number} */ (id), { call });
    return m;
  }

  /**
   * Adds resolved markers, all or none; returns their ids.
   * @param {Marker[]} markers
   * @param {string} call
   * @param {boolean} batch  whether errors name the position in the batch
   * @returns {number[]}
   */
  #addMarkers(markers, call, batch) {
    const h = this.#enter(call);
    const n = markers.length;
    if (n === 0) return [];
    const records = this.#markerRecords(n);
    for (let i = 0; i < n; i++) encodeMarker(records, i, markers[i]);
    const res = this.#res;
    const out = res.ptr + records.byteLength;
    this.#markerCheck(res.fn.cairn_map_add_markers(h, res.ptr, n, out), call, { markers, batch });
    const ids = Array.from(new Float64Array(this.#mod.memory.buffer, out, n));
    for (let i = 0; i < n; i++) this.#markers.set(ids[i], markers[i]);
    return ids;
  }

  /**
   * The buffer as room for `n` marker records, followed by room for `n` ids.
   * @param {number} n
   * @returns {Float64Array}  the records' part
   */
  #markerRecords(n) {
    const stride = this.#layout.markerStride;
    this.#reserve(n * (stride + 1));
    return new Float64Array(this.#mod.memory.buffer, this.#res.ptr, n * stride);
  }

  /**
   * The status of a marker export, or throws it: UNKNOWN_MARKER names the caller's id; a record
   * the engine refused is INVALID_MARKER naming the property, or for a batch
   * INVALID_MARKER_IN_BATCH naming the position (and the property in the message).
   * @param {number} status
   * @param {string} call
   * @param {{id?: number, markers?: Marker[], batch?: boolean}} about  what was sent
   * @returns {number}
   */
  #markerCheck(status, call, { id, markers, batch = false }) {
    if (status >= 0) return status;
    const detail = this.#res.fn.cairn_last_error_detail();
    const code = STATUS_CODES[-status]?.code;
    if (code === 'UNKNOWN_MARKER') throw errorFromStatus(status, id ?? detail, { call });
    // One marker: a batch of one refused (add), a record that does not decode or a property
    // out of range (update). Many: the batch's refused marker.
    const refused = markers && (batch ? code === 'INVALID_MARKER_IN_BATCH'
      : code === 'INVALID_MARKER_IN_BATCH' || code === 'INVALID_ARGUMENT' || code === 'INVALID_MARKER');
    if (!markers || !refused) throw this.#error(status, call, code === 'TOO_MANY_POINTS' ? 'too many markers for one map' : undefined);
    if (code === 'INVALID_MARKER_IN_BATCH') throw refusedInBatch(detail, call, batch);
    // One marker: its record did not decode (INVALID_ARGUMENT) or a property is out of range.
    throw errorFromStatus(STATUS_BY_CODE.INVALID_MARKER, code === 'INVALID_MARKER' ? detail : 0, { call });
  }

  /**
   * Makes the buffer hold at least `doubles`.
   * @param {number} doubles
   */
  #reserve(doubles) {
    const res = this.#res;
    if (doubles <= res.capacity) return;
    const limit = Math.floor(this.#mod.bufferLimit / 8);
    let capacity = Math.max(1024, res.capacity);
    while (capacity < doubles) capacity *= 2;
    capacity = Math.min(capacity, limit);
    if (capacity < doubles) throw memoryError('MapEngine', `a buffer of ${doubles} doubles is larger than the module allows`);
    if (res.ptr) res.fn.cairn_free(res.ptr);
    res.ptr = 0;
    res.capacity = 0;
    // Addresses are unsigned; an i32 result above 2 GiB would read as negative.
    const ptr = res.fn.cairn_alloc(capacity * 8) >>> 0;
    if (!ptr) throw memoryError('MapEngine', `out of WebAssembly memory for a buffer of ${doubles} doubles`);
    res.ptr = ptr;
    res.capacity = capacity;
  }

  /**
   * The status, or throws it as a CairnError when negative.
   * @param {number} status
   * @param {string} call
   * @param {string} [hint]  what the engine's rule is, for the message
   * @returns {number}
   */
  #check(status, call, hint) {
    if (status < 0) throw this.#error(status, call, hint);
    return status;
  }

  /**
   * @param {number} status
   * @param {string} call
   * @param {string} [hint]
   */
  #error(status, call, hint) {
    return errorFromStatus(status, this.#res.fn.cairn_last_error_detail(), { call, hint });
  }
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
