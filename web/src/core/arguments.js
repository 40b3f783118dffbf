// Checking the JS types of what callers pass before it reaches the engine: numbers, booleans,
// strings, objects of numbers, insets, 32-bit integers, names from a table, known keys, bounding
// boxes. Ranges are the engine's to check (its errors name the option); these checks catch what
// the engine could not see, such as a string where a number belongs, or an integer wasm would
// truncate or wrap.

import { argumentError, describeValue } from './errors.js';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** @param {number} v */
export function clampInt32(v) {
  // Wasm would wrap an out-of-range i32 argument (2^32 + 16 becomes 16) and so turn a bad value
  // into a plausible one; clamping keeps it out of range for the engine to refuse.
  return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : v;
}

/**
 * A number from whatever a caller passed, coerced with `Number` ('12' is 12, as supercluster's
 * arithmetic takes it); what `Number` would throw on (a Symbol, an object whose `valueOf`
 * throws) becomes NaN, which the checks after refuse with a CairnError.
 * @param {unknown} value
 * @returns {number}
 */
export function toNumber(value) {
  if (typeof value === 'number') return value;
  if (typeof value === 'symbol') return NaN;
  try {
    return Number(value);
  } catch {
    return NaN;
  }
}

/**
 * @param {any} bbox
 * @param {string} call
 * @returns {[number, number, number, number]}
 */
export function bboxArgs(bbox, call) {
  if (bbox === null || typeof bbox !== 'object' || !(typeof bbox.length === 'number' && bbox.length >= 4)) {
    throw argumentError(call, 'bbox must be [westLng, southLat, eastLng, northLat]');
  }
  return [toNumber(bbox[0]), toNumber(bbox[1]), toNumber(bbox[2]), toNumber(bbox[3])];
}

/**
 * @param {any} value
 * @param {string} name
 * @param {string} call
 */
export function integerArg(value, name, call) {
  const n = toNumber(value);
  if (!Number.isInteger(n)) throw argumentError(call, `${name} must be an integer, got ${describeValue(value)}`);
  return clampInt32(n);
}

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
 * A number the caller may leave out: NaN when it is not given, which is the ABI's "not given"
 * (the engine takes its default, or keeps its value), so a NaN the caller gives is refused.
 * @param {unknown} value
 * @param {string} name
 * @param {string} call
 * @returns {number}
 */
export function optionalNumberArg(value, name, call) {
  if (value === undefined) return NaN;
  const v = numberArg(value, name, call);
  if (Number.isNaN(v)) throw argumentError(call, `${name} must be a number, not NaN`);
  return v;
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
  if (!Number.isInteger(v) || v < INT32_MIN || v > INT32_MAX) {
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
