// Input for the map engine, encoded for the module: the engine's numbers for pointer kinds,
// wheel modes, key commands, modifier keys and UI settings, argument checks, and the batch of
// input records a MapEngine collects between frames. Encodings only: what an event does to the
// map is decided in the engine.

import { argumentError, bindingError, describeValue } from '../core/errors.js';

/** Pointer Events' `pointerType`, as the engine numbers them. */
export const POINTER_KINDS = Object.freeze({ mouse: 0, touch: 1, pen: 2 });

/** `WheelEvent.deltaMode` by name (the numbers are the DOM's and the engine's). */
export const WHEEL_MODES = Object.freeze({ pixel: 0, line: 1, page: 2 });

/** Keyboard commands the engine understands. */
export const KEY_COMMANDS = Object.freeze({ panLeft: 1, panUp: 2, panRight: 3, panDown: 4, zoomIn: 5, zoomOut: 6 });

/** DOM `KeyboardEvent.key` values and the commands they stand for. */
export const DOM_KEYS = Object.freeze({
  ArrowLeft: 'panLeft', ArrowUp: 'panUp', ArrowRight: 'panRight', ArrowDown: 'panDown',
  '+': 'zoomIn', '=': 'zoomIn', '-': 'zoomOut', _: 'zoomOut',
});

/** Modifier keys as the engine's bits, by the DOM event property that reports them. */
export const MODIFIER_BITS = Object.freeze({ shiftKey: 1, ctrlKey: 2, altKey: 4, metaKey: 8 });

/**
 * The UI settings in the engine's bit order (bit i is setting i), with their defaults: gestures
 * on, buttons off, the floor picker on, as Google's.
 */
export const SETTINGS = Object.freeze([
  { name: 'scrollGestures', default: true },
  { name: 'zoomGestures', default: true },
  { name: 'tiltGestures', default: true },
  { name: 'rotateGestures', default: true },
  { name: 'compassButton', default: false },
  { name: 'myLocationButton', default: false },
  { name: 'indoorPicker', default: true },
]);

/** Programmatic animation easings, as the engine numbers them. */
export const EASINGS = Object.freeze({ linear: 0, easeInOut: 1, easeOut: 2 });

/** How an altitude is measured, as the engine numbers it. */
export const ALTITUDE_MODES = Object.freeze({ clampToGround: 0, relativeToGround: 1, absolute: 2 });

/** Input record types, and the positions of the fields in a record. */
const RECORD = Object.freeze({ pointerDown: 1, pointerMove: 2, pointerUp: 3, pointerCancel: 4, wheel: 5, key: 6 });
/** [type, time, id, x, y, a, b, c, modifiers] */
const RECORD_FIELDS = 9;

/**
 * @typedef {object} UISettings
 * @property {boolean} [scrollGestures=true]   drag to pan, with fling
 * @property {boolean} [zoomGestures=true]     double tap, pinch, wheel, +/- keys
 * @property {boolean} [tiltGestures=true]     two-finger vertical drag, right- or ctrl-drag
 * @property {boolean} [rotateGestures=true]   two-finger rotation, right- or ctrl-drag
 * @property {boolean} [compassButton=false]   the compass while the bearing is not 0
 * @property {boolean} [myLocationButton=false]  the my-location button
 * @property {boolean} [indoorPicker=true]     the floor picker, while a building with floors is prominent
 */

/**
 * The value, which must be a number (NaN and infinities included: their range is the engine's
 * to check).
 * @param {unknown} value
 * @param {string} name
 * @param {string} call
 * @returns {number}
 */
export function numberArg(value, name, call) {
  return /** @type {number} */ (typeArg(value, 'number', name, call));
}

/**
 * @param {unknown} value
 * @param {string} name
 * @param {string} call
 * @returns {boolean}
 */
export function booleanArg(value, name, call) {
  return /** @type {boolean} */ (typeArg(value, 'boolean', name, call));
}

/**
 * @param {unknown} value
 * @param {string} name
 * @param {string} call
 * @returns {string}
 */
export function stringArg(value, name, call) {
  return /** @type {string} */ (typeArg(value, 'string', name, call));
}

/**
 * The value, which must be of the JS type `type`.
 * @param {unknown} value
 * @param {'number' | 'boolean' | 'string'} type
 * @param {string} name
 * @param {string} call
 */
function typeArg(value, type, name, call) {
  if (typeof value !== type) throw argumentError(call, `${name} must be a ${type}, got ${describeValue(value)}`);
  return value;
}

/**
 * An object of numbers, such as a point or a position: the named fields, each a number.
 * @template {string} K
 * @param {unknown} value
 * @param {readonly K[]} fields
 * @param {string} name
 * @param {string} call
 * @returns {Record<K, number>}
 */
export function numbersArg(value, fields, name, call) {
  const o = objectArg(value, name, call);
  /** @type {Record<string, number>} */
  const out = {};
  for (const f of fields) {
    // The name is built only for the message: this runs for every item of a large batch.
    const v = o[f];
    out[f] = typeof v === 'number' ? v : numberArg(v, `${name}.${f}`, call);
  }
  return /** @type {Record<K, number>} */ (out);
}

/**
 * Insets or padding `{top, left, bottom, right}`, each 0 when not given, in that order.
 * @param {unknown} value
 * @param {string} name
 * @param {string} call
 * @returns {[number, number, number, number]}
 */
export function sidesArg(value, name, call) {
  const o = objectArg(value, name, call);
  return /** @type {[number, number, number, number]} */ (['top', 'left', 'bottom', 'right'].map(
    (side) => (o[side] === undefined ? 0 : numberArg(o[side], `${name}.${side}`, call))));
}

/**
 * An integer passed as a wasm i32: a non-integer would be truncated silently, so it is refused.
 * @param {unknown} value
 * @param {string} name
 * @param {string} call
 * @returns {number}
 */
export function int32Arg(value, name, call) {
  const v = numberArg(value, name, call);
  if (!Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) {
    throw argumentError(call, `${name} must be a 32-bit integer, got ${v}`);
  }
  return v;
}

/**
 * The engine's number for a name in one of the tables above.
 * @param {Readonly<Record<string, number>>} table
 * @param {unknown} value
 * @param {string} name
 * @param {string} call
 * @returns {number}
 */
export function nameArg(table, value, name, call) {
  if (typeof value !== 'string' || !Object.hasOwn(table, value)) {
    throw argumentError(call, `${name} must be one of ${Object.keys(table).join(', ')}, got ${describeValue(value)}`);
  }
  return table[value];
}

/**
 * An object argument (or `{}` when undefined).
 * @param {unknown} value
 * @param {string} name
 * @param {string} call
 * @returns {Record<string, any>}
 */
export function objectArg(value, name, call) {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object') throw argumentError(call, `${name} must be an object`);
  return /** @type {Record<string, any>} */ (value);
}

/**
 * Refuses an object's keys that are not among `names`: a misspelt or foreign option (Google's
 * `center` or `heading` for a camera) would otherwise be dropped without a word.
 * @param {Record<string, any>} given
 * @param {readonly string[]} names
 * @param {string} what  the object, for the message
 * @param {string} call
 */
export function knownKeys(given, names, what, call) {
  for (const key of Object.keys(given)) {
    if (!names.includes(key)) throw argumentError(call, `${what} has no ${JSON.stringify(key)} (it takes ${names.join(', ')})`);
  }
}

/**
 * The settings with defaults for those not given, checked to be booleans.
 * @param {UISettings | undefined} settings
 * @param {string} call
 * @returns {Required<UISettings>}
 */
export function resolveSettings(settings, call) {
  const given = objectArg(settings, 'settings', call);
  knownKeys(given, SETTINGS.map((s) => s.name), 'settings', call);
  /** @type {Record<string, boolean>} */
  const out = {};
  for (const s of SETTINGS) {
    out[s.name] = given[s.name] === undefined ? s.default : booleanArg(given[s.name], s.name, call);
  }
  return /** @type {Required<UISettings>} */ (out);
}

/**
 * Settings as the engine's bits.
 * @param {Required<UISettings>} settings
 * @returns {number}
 */
export function settingsBits(settings) {
  return SETTINGS.reduce((bits, s, i) => (settings[/** @type {keyof UISettings} */ (s.name)] ? bits | (1 << i) : bits), 0);
}

/**
 * The input records collected between two pushes, in a growing Float64Array, with the name of
 * the method that added each (for the message when the engine refuses one).
 */
export class InputBatch {
  /** @type {Float64Array} */
  #records;
  /** @type {string[]} */
  #calls = [];
  #stride;
  #count = 0;

  /** @param {number} stride  doubles per record, as the module says */
  constructor(stride) {
    if (!(stride >= RECORD_FIELDS)) {
      throw bindingError('MODULE_MISMATCH', `cairn: input records have ${stride} doubles but these bindings write ${RECORD_FIELDS}`);
    }
    this.#stride = stride;
    this.#records = new Float64Array(16 * stride);
  }

  /** Records waiting. */
  get count() { return this.#count; }

  /** The waiting records, `count × stride` doubles (a view, valid until the next add). */
  get records() { return this.#records.subarray(0, this.#count * this.#stride); }

  /**
   * The method that added record `i`.
   * @param {number} i
   */
  callAt(i) { return this.#calls[i]; }

  clear() {
    this.#count = 0;
    this.#calls.length = 0;
  }

  /**
   * @param {keyof RECORD} call  the method, which names the record type
   * @param {number} time
   * @param {number} id  pointer id or key command
   * @param {number} x
   * @param {number} y
   * @param {number} a  pointer kind, or wheel deltaX
   * @param {number} b  button, or wheel deltaY
   * @param {number} c  wheel delta mode
   * @param {number} modifiers
   */
  add(call, time, id, x, y, a, b, c, modifiers) {
    const stride = this.#stride;
    if ((this.#count + 1) * stride > this.#records.length) {
      const grown = new Float64Array(this.#records.length * 2);
      grown.set(this.#records);
      this.#records = grown;
    }
    const r = this.#records;
    const k = this.#count * stride;
    r[k] = RECORD[call];
    r[k + 1] = time;
    r[k + 2] = id;
    r[k + 3] = x;
    r[k + 4] = y;
    r[k + 5] = a;
    r[k + 6] = b;
    r[k + 7] = c;
    r[k + 8] = modifiers;
    this.#calls[this.#count] = call;
    this.#count++;
  }
}
