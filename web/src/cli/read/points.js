// The checks every reader applies to a point, and turning a parsed GeoJSON feature into one
// (newline-delimited and FeatureCollection input share it).

import { quotedJson, unquoted } from '../errors.js';

/**
 * What is wrong with a position, or null when it can be clustered: both numbers finite and the
 * latitude within ±90 (the engine clamps to the Web Mercator limit itself; longitudes wrap).
 * @param {number} lng
 * @param {number} lat
 * @returns {string | null}
 */
export function positionProblem(lng, lat) {
  if (!Number.isFinite(lng)) return `longitude ${lng} is not a finite number`;
  if (!Number.isFinite(lat)) return `latitude ${lat} is not a finite number`;
  if (lat < -90 || lat > 90) return `latitude ${lat} is beyond ±90`;
  return null;
}

/**
 * The properties a run reads from each point: numbers for aggregates, and properties carried
 * to the output.
 * @typedef {object} PropertySpec
 * @property {string[]} values  property names read as numbers
 * @property {string[]} carried  property names copied onto output points
 */

/**
 * A JSON member prefix per carried property (`"name":`), made once.
 * @param {string[]} names
 */
export function memberPrefixes(names) {
  return names.map((name) => `${JSON.stringify(name)}:`);
}

/**
 * Deepest nesting of a carried property: JSON.parse reads any depth, but writing a value out
 * again (JSON.stringify, here and for tiles) recurses, and runs out of stack some thousands
 * of levels down.
 */
const MAX_CARRIED_DEPTH = 1000;

/**
 * Whether arrays and objects nest in `value` more than `limit` levels deep (walked without
 * recursion, which is what it guards against).
 * @param {unknown} value
 * @param {number} limit
 */
function nestedDeeper(value, limit) {
  if (value === null || typeof value !== 'object') return false;
  /** @type {Array<[object, number]>} */
  const open = [[value, 1]];
  while (open.length > 0) {
    const [node, depth] = /** @type {[object, number]} */ (open.pop());
    if (depth > limit) return true;
    for (const inner of Array.isArray(node) ? node : Object.values(node)) {
      if (inner !== null && typeof inner === 'object') open.push([inner, depth + 1]);
    }
  }
  return false;
}

/** Adds GeoJSON Point features to a PointStore, or reports what is wrong with them. */
export class FeatureAdder {
  #store;
  #values;
  #carried;
  #prefixes;

  /**
   * @param {import('./point-store.js').PointStore} store
   * @param {PropertySpec} spec
   */
  constructor(store, spec) {
    this.#store = store;
    this.#values = spec.values;
    this.#carried = spec.carried;
    this.#prefixes = memberPrefixes(spec.carried);
  }

  /**
   * Adds a parsed feature, or reports it to the store as invalid.
   * @param {any} feature  what JSON.parse gave
   * @param {string} where  "line 3", "feature 12"
   */
  add(feature, where) {
    const problem = this.#problem(feature);
    if (problem) {
      this.#store.invalid(where, problem);
      return;
    }
    const properties = feature.properties !== null && typeof feature.properties === 'object' ? feature.properties : {};
    const numbers = this.#values.map((name) => (typeof properties[name] === 'number' ? properties[name] : NaN));
    const bad = numbers.findIndex((v) => v === Infinity || v === -Infinity);
    if (bad >= 0) {
      this.#store.invalid(where, `property ${this.#values[bad]} is ${numbers[bad]}, not a finite number`);
      return;
    }
    if (this.#carried.length > 0) {
      const deep = this.#carried.find((name) => nestedDeeper(properties[name], MAX_CARRIED_DEPTH));
      if (deep !== undefined) {
        this.#store.invalid(where, `property ${deep} is nested more than ${MAX_CARRIED_DEPTH.toLocaleString('en-US')} levels deep`);
        return;
      }
    }
    const [lng, lat] = feature.geometry.coordinates;
    const k = this.#store.add(lng, lat);
    numbers.forEach((v, column) => this.#store.setValue(column, k, v));
    if (this.#carried.length > 0) {
      /** @type {string[]} */
      const members = [];
      this.#carried.forEach((name, i) => {
        if (properties[name] !== undefined) members.push(this.#prefixes[i] + JSON.stringify(properties[name]));
      });
      this.#store.carry(members.join(','));
    }
  }

  /**
   * @param {any} f
   * @returns {string | null}
   */
  #problem(f) {
    if (f === null || typeof f !== 'object' || Array.isArray(f)) return `is ${describe(f)}, not a GeoJSON Feature`;
    if (f.type !== 'Feature') {
      const hint = f.type === 'FeatureCollection' ? ' (a FeatureCollection must be the whole input: use --format geojson)' : '';
      return `has type ${quotedJson(f.type)}, not "Feature"${hint}`;
    }
    const g = f.geometry;
    if (g === null || g === undefined) return 'has no geometry';
    if (typeof g !== 'object') return `has ${describe(g)} as its geometry, not a Point`;
    if (g.type === undefined) return 'has a geometry without a type, not a Point';
    if (typeof g.type !== 'string') return `has a geometry whose type is ${describe(g.type)}, not "Point"`;
    if (g.type !== 'Point') return `has a ${unquoted(g.type)} geometry, not a Point`;
    const c = g.coordinates;
    if (!Array.isArray(c) || c.length < 2) return 'has no [longitude, latitude] coordinates';
    if (typeof c[0] !== 'number') return `longitude ${quotedJson(c[0])} is not a number`;
    if (typeof c[1] !== 'number') return `latitude ${quotedJson(c[1])} is not a number`;
    return positionProblem(c[0], c[1]);
  }
}

/**
 * A short description of a JSON value for messages.
 * @param {any} value
 */
function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
