// Aggregated properties (feature C9), as a ClusterIndex and a map's cluster managers take them:
// the operations and the engine's numbers for them, the check of the `aggregates` option, and
// the value an aggregate reads of a point's properties or an item's user data.

import { optionError } from './errors.js';

/** Aggregate operations by name, with the engine's numbers for them. */
export const AGGREGATE_OPERATIONS = Object.freeze({ sum: 0, min: 1, max: 2, count: 3, mean: 4 });

/**
 * @typedef {object} Aggregate  one aggregated property, resolved
 * @property {string} name       the cluster property it becomes
 * @property {number} operation  the engine's number for it
 * @property {string} property   the point property it reads
 */

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
