// Checking what callers pass before it reaches the engine: option types, bounding boxes,
// integer arguments. Ranges are the engine's to check (its errors name the option); these
// checks catch what the engine could not see, such as a string where a number belongs.

import { argumentError, describeValue, optionError } from './errors.js';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** supercluster's defaults, so that switching libraries changes no output. */
export const DEFAULT_OPTIONS = Object.freeze({
  minZoom: 0,
  maxZoom: 16,
  minPoints: 2,
  radius: 40,
  extent: 512,
  generateId: false,
  log: false,
  aggregates: null,
  map: null,
  reduce: null,
});

/** Aggregate operations by name, with the engine's numbers for them. */
export const AGGREGATE_OPERATIONS = Object.freeze({ sum: 0, min: 1, max: 2, count: 3, mean: 4 });

/**
 * @typedef {object} ClusterOptions
 * @property {number} [minZoom=0]    lowest zoom at which clusters are generated
 * @property {number} [maxZoom=16]   highest zoom at which clusters are generated
 * @property {number} [minPoints=2]  fewest points that form a cluster
 * @property {number} [radius=40]    cluster radius in pixels of a tile `extent` wide
 * @property {number} [extent=512]   tile extent the radius is measured in
 * @property {boolean} [generateId=false]  give point features of getTile their input index as id
 * @property {boolean} [log=false]   accepted for compatibility; ignored
 * @property {Record<string, [string, string]> | null} [aggregates=null]  aggregated cluster
 *   properties (SPEC C9): `{ name: [operation, property] }`, operation one of sum, min, max,
 *   count, mean over the points' numeric `property`; clusters then carry `name`
 * @property {((properties: any) => any) | null} [map=null]  supercluster's: a point's properties
 *   as `reduce` takes them (null: as they are)
 * @property {((accumulated: any, properties: any) => void) | null} [reduce=null]  supercluster's:
 *   folds a child's properties into a cluster's; clusters then carry what it accumulates
 */

/**
 * @typedef {object} Aggregate  one aggregated property, resolved
 * @property {string} name       the cluster property it becomes
 * @property {number} operation  the engine's number for it
 * @property {string} property   the point property it reads
 */

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
 * @param {Record<string, any>} given
 * @returns {Required<ClusterOptions>}
 */
export function resolveOptions(given) {
  if (given === null || typeof given !== 'object') throw argumentError('ClusterIndex', 'options must be an object');
  /** @type {Record<string, any>} */
  const options = { ...DEFAULT_OPTIONS };
  for (const key of Object.keys(DEFAULT_OPTIONS)) {
    if (given[key] !== undefined) options[key] = given[key];
  }
  for (const key of ['radius', 'extent']) {
    if (typeof options[key] !== 'number') {
      throw optionError('ClusterIndex', key, `option ${key} must be a number, got ${typeof options[key]}`);
    }
  }
  for (const key of ['minZoom', 'maxZoom', 'minPoints']) {
    if (!Number.isInteger(options[key])) {
      throw optionError('ClusterIndex', key, `option ${key} must be an integer, got ${describeValue(options[key])}`);
    }
  }
  // supercluster's: a falsy reduce (null is its default) computes nothing, and map alone only
  // feeds reduce; either, when given, must be a function.
  for (const key of ['map', 'reduce']) {
    if (!options[key]) options[key] = null;
    else if (typeof options[key] !== 'function') {
      throw optionError('ClusterIndex', key, `option ${key} must be a function, got ${describeValue(options[key])}`);
    }
  }
  options.generateId = Boolean(options.generateId);
  options.log = Boolean(options.log);
  return /** @type {Required<ClusterOptions>} */ (Object.freeze(options));
}

/**
 * The value an aggregate reads of a point's properties (or an item's userData): a number as it
 * is (an infinite one is the engine's to refuse), anything else none (NaN).
 * @param {unknown} bag  the properties
 * @param {string} property
 * @returns {number}
 */
export function aggregateValue(bag, property) {
  const v = bag !== null && typeof bag === 'object' ? /** @type {Record<string, unknown>} */ (bag)[property] : undefined;
  return typeof v === 'number' ? v : NaN;
}

/**
 * The `aggregates` option of a ClusterIndex or a cluster manager: `{name: [operation, property]}`.
 * @param {any} given
 * @param {string} [call='ClusterIndex']  what takes it, for messages
 * @returns {Aggregate[]}
 */
export function resolveAggregates(given, call = 'ClusterIndex') {
  if (given === null || given === undefined) return [];
  if (typeof given !== 'object') throw optionError(call, 'aggregates', 'option aggregates must be an object');
  return Object.entries(given).map(([name, spec]) => {
    const [operation, property] = Array.isArray(spec) ? spec : [];
    if (!Object.hasOwn(AGGREGATE_OPERATIONS, operation) || typeof property !== 'string') {
      throw optionError(call, 'aggregates', `aggregate ${name} must be [operation, property] with operation one of ` +
        `${Object.keys(AGGREGATE_OPERATIONS).join(', ')}`);
    }
    return { name, operation: AGGREGATE_OPERATIONS[/** @type {keyof AGGREGATE_OPERATIONS} */ (operation)], property };
  });
}
