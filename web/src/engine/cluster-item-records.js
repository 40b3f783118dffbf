// A cluster manager's items as they cross to the engine: an item's options checked and
// completed, and the records `cairn_map_add_cluster_items` and `cairn_map_add_cluster_coordinates`
// read: whether an item has a title and a snippet (the text stays here), and the values of the
// manager's aggregated properties (feature C9) after each item's own.
// A value is a number or none (NaN); the engine refuses an infinite one, as a ClusterIndex's
// load does, with NON_FINITE_VALUE naming the item, and then adds none of the batch.

import { argumentError } from '../core/errors.js';
import { int32Arg, toNumber } from '../core/arguments.js';
import { aggregateValue } from '../core/aggregates.js';
import { markerChecks, resolveOptions } from './marker-records.js';
import { MapIcon } from './map-icon.js';

/** @typedef {import('./cluster-manager.js').ClusterItem} ClusterItem */
/** @typedef {import('../core/aggregates.js').Aggregate} Aggregate */

/**
 * An item's icon: a registered icon's number (-1 the default pin), or a CairnMap's icon (from
 * `map.icon`, `loadIcon` or `pinIcon`), kept as its number.
 * @type {(value: unknown, name: string, call: string) => number}
 */
export const itemIconArg = (value, name, call) => (value instanceof MapIcon ? value.number : int32Arg(value, name, call));

/** What an item keeps: the marker options of those names, with the marker defaults. */
const ITEM_CHECKS = Object.freeze({ ...markerChecks(['position', 'title', 'snippet', 'userData']), icon: itemIconArg });
const ITEM_DEFAULTS = Object.freeze({ icon: -1, title: '', snippet: '', userData: undefined });

/** Doubles per item record before its aggregated values: [latitude, longitude, icon, text flags, values…]. */
const ITEM_FIELDS = 4;

/** The text flags of an item record: the engine opens an item's window only when it has text (feature I2). */
const TEXT_FLAGS = Object.freeze({ hasTitle: 1, hasSnippet: 2 });

/**
 * An item's options checked and completed with the defaults.
 * @param {unknown} given
 * @param {string} label  how messages name the options ('' for the call's own argument)
 * @param {string} call
 * @returns {ClusterItem}
 */
export function resolveItem(given, label, call) {
  return /** @type {ClusterItem} */ (resolveOptions(ITEM_CHECKS, 'cluster item', given, ITEM_DEFAULTS, label, call));
}

/**
 * Doubles per item record for a manager with these aggregates.
 * @param {readonly Aggregate[]} aggregates
 * @returns {number}
 */
export function itemStride(aggregates) { return ITEM_FIELDS + aggregates.length; }

/**
 * Writes items' records: [latitude, longitude, icon, text flags, one value per aggregate].
 * @param {Float64Array} records  room for `itemStride(aggregates)` doubles per item
 * @param {readonly ClusterItem[]} items
 * @param {readonly Aggregate[]} aggregates
 */
export function writeItems(records, items, aggregates) {
  const stride = itemStride(aggregates);
  for (let i = 0, k = 0; i < items.length; i++, k += stride) {
    records[k] = items[i].position.latitude;
    records[k + 1] = items[i].position.longitude;
    records[k + 2] = items[i].icon;
    records[k + 3] = (items[i].title !== '' ? TEXT_FLAGS.hasTitle : 0) | (items[i].snippet !== '' ? TEXT_FLAGS.hasSnippet : 0);
    // An aggregate reads a number of the item's userData.
    aggregates.forEach((a, c) => { records[k + ITEM_FIELDS + c] = aggregateValue(items[i].userData, a.property); });
  }
}

/**
 * The values `addCoordinates` was given for each aggregate, in the aggregates' order (null for
 * a property left out: none for every item).
 * @param {unknown} given  the `values` option
 * @param {readonly Aggregate[]} aggregates
 * @param {number} count  items added
 * @param {string} call
 * @returns {(Float64Array | unknown[] | null)[]}
 */
export function coordinateValues(given, aggregates, count, call) {
  return aggregates.map((a) => {
    const v = /** @type {Record<string, unknown> | undefined} */ (given)?.[a.property];
    if (v === undefined) return null;
    if (!(v instanceof Float64Array || Array.isArray(v)) || v.length !== count) {
      throw argumentError(call, `options.values.${a.property} must hold one number per item (${count})`);
    }
    return v;
  });
}

/**
 * Writes [lng, lat] pairs as they are, each followed by its aggregated values when there are
 * some (converted to numbers, as `ClusterIndex.loadCoordinates` converts them).
 * @param {Float64Array} pairs  room for `2 + values.length` doubles per item
 * @param {Float64Array} coords  [lng, lat] per item
 * @param {readonly (Float64Array | unknown[] | null)[]} values  from `coordinateValues`
 */
export function writeCoordinates(pairs, coords, values) {
  const stride = 2 + values.length;
  if (stride === 2) {
    pairs.set(coords);
    return;
  }
  const count = coords.length / 2;
  for (let i = 0; i < count; i++) {
    pairs[stride * i] = coords[2 * i];
    pairs[stride * i + 1] = coords[2 * i + 1];
    values.forEach((v, c) => { pairs[stride * i + 2 + c] = v ? toNumber(v[i]) : NaN; });
  }
}
