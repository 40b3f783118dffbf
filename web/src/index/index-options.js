// A ClusterIndex's options: supercluster's defaults, and the check of what a caller gives.
// Ranges are the engine's to check (its errors name the option); this check catches what the
// engine could not see, such as a string where a number belongs.

import { argumentError, describeValue, optionError } from '../core/errors.js';

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
 *   properties (feature C9): `{ name: [operation, property] }`, operation one of sum, min, max,
 *   count, mean over the points' numeric `property`; clusters then carry `name`
 * @property {((properties: any) => any) | null} [map=null]  supercluster's: a point's properties
 *   as `reduce` takes them (null: as they are)
 * @property {((accumulated: any, properties: any) => void) | null} [reduce=null]  supercluster's:
 *   folds a child's properties into a cluster's; clusters then carry what it accumulates
 */

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
