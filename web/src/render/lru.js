// A least-recently-used cache: the tile sources and the sprite caches hold a bounded number of
// images, and the ones seen last are the ones the next frame most likely needs again. A Map
// keeps insertion order, so re-inserting on every read makes its first key the oldest.

import { argumentError, describeValue } from '../core/errors.js';

/**
 * A cache size a caller gave (`cacheSize`), as a capacity: the default when absent (undefined or
 * null), at least 1, whole; anything but a finite number is refused.
 * @param {unknown} value
 * @param {number} fallback
 * @param {string} call
 * @returns {number}
 */
export function cacheCapacity(value, fallback, call) {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw argumentError(call, `cacheSize must be a number, not ${describeValue(value)}`);
  return Math.max(1, Math.floor(value));
}

/**
 * @template K, V
 */
export class LRU {
  /** @type {Map<K, V>} */
  #map = new Map();
  #capacity;
  /** @type {((key: K, value: V) => void) | null} */
  #onEvict;

  /**
   * @param {number} capacity  entries kept; the oldest is dropped when one more is set
   * @param {(key: K, value: V) => void} [onEvict]  told of each entry dropped for room (not of `delete` or `clear`)
   */
  constructor(capacity, onEvict) {
    if (!(Number.isInteger(capacity) && capacity >= 1)) throw new RangeError(`LRU capacity must be a whole number from 1, not ${capacity}`);
    this.#capacity = capacity;
    this.#onEvict = onEvict ?? null;
  }

  /** Entries held. */
  get size() { return this.#map.size; }

  /** Entries kept at most. */
  get capacity() { return this.#capacity; }

  /**
   * The value, which becomes the most recently used.
   * @param {K} key
   * @returns {V | undefined}
   */
  get(key) {
    const map = this.#map;
    const value = map.get(key);
    if (value === undefined) return undefined;
    map.delete(key);
    map.set(key, value);
    return value;
  }

  /**
   * The value without marking it used.
   * @param {K} key
   * @returns {V | undefined}
   */
  peek(key) { return this.#map.get(key); }

  /**
   * @param {K} key
   * @returns {boolean}
   */
  has(key) { return this.#map.has(key); }

  /**
   * Stores a value as the most recently used, dropping the least recently used beyond capacity.
   * @param {K} key
   * @param {V} value
   */
  set(key, value) {
    const map = this.#map;
    map.delete(key);
    map.set(key, value);
    while (map.size > this.#capacity) {
      const oldest = /** @type {K} */ (map.keys().next().value);
      const dropped = /** @type {V} */ (map.get(oldest));
      map.delete(oldest);
      this.#onEvict?.(oldest, dropped);
    }
  }

  /**
   * @param {K} key
   * @returns {boolean} whether it was there
   */
  delete(key) { return this.#map.delete(key); }

  clear() { this.#map.clear(); }

  /**
   * Keys from the least to the most recently used.
   * @returns {IterableIterator<K>}
   */
  keys() { return this.#map.keys(); }
}
