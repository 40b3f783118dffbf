// Where the readers put points: coordinates in one growing Float64Array (16 bytes a point),
// one Float64Array per property that an aggregate reads, and the properties carried onto the
// output as JSON text in one growing byte array. Ten million points are then a few hundred
// megabytes of typed arrays rather than ten million objects.

import { InputError } from '../errors.js';

/** Points the arrays start with room for; they double from there. */
const INITIAL_CAPACITY = 1 << 16;
/** How many problems a run with --skip-invalid quotes; the rest are only counted. */
const QUOTED_PROBLEMS = 5;

/**
 * @typedef {object} StoreOptions
 * @property {string} source  the input's name in messages ("points.csv", "stdin")
 * @property {string[]} valueProperties  properties read as one number per point (aggregates)
 * @property {boolean} carry  whether points carry properties to the output
 * @property {boolean} skipInvalid  drop bad records (and count them) instead of failing
 */

/** The points read so far, and the records dropped. */
export class PointStore {
  /** Points kept. */
  count = 0;
  /** Records seen, kept or dropped: the next record's input index. */
  records = 0;
  /** Records dropped as invalid. */
  dropped = 0;
  /** @type {string[]} the first few problems, when dropping */
  problems = [];
  capacity = INITIAL_CAPACITY;
  /** Longitude, latitude of point k at 2k, 2k + 1. */
  lngLat = new Float64Array(2 * INITIAL_CAPACITY);
  /** @type {Float64Array[]} per value property: the number of point k, NaN for none */
  values;
  /** @type {Int32Array | null} input index of point k, once a record has been dropped */
  inputIndex = null;
  /** @type {Uint8Array} carried properties as JSON text (see feature-formatter.js) */
  carriedBytes = new Uint8Array(0);
  /** @type {Float64Array} where the carried text of point k ends in carriedBytes */
  carriedEnds = new Float64Array(0);
  carriedLength = 0;

  /** @param {StoreOptions} options */
  constructor(options) {
    this.options = options;
    this.values = options.valueProperties.map(() => new Float64Array(INITIAL_CAPACITY));
    if (options.carry) {
      this.carriedBytes = new Uint8Array(1 << 20);
      this.carriedEnds = new Float64Array(INITIAL_CAPACITY);
    }
  }

  /**
   * Adds a point (already checked: finite, latitude within ±90); its values and carried text
   * are set next with setValue and carry.
   * @param {number} lng
   * @param {number} lat
   * @returns {number} the point's index
   */
  add(lng, lat) {
    if (this.count === this.capacity) this.#grow();
    const k = this.count++;
    this.lngLat[2 * k] = lng;
    this.lngLat[2 * k + 1] = lat;
    if (this.inputIndex) this.inputIndex[k] = this.records;
    if (this.options.carry) this.carriedEnds[k] = this.carriedLength;
    this.records++;
    return k;
  }

  /**
   * Sets value property `column` of point k.
   * @param {number} column  position in options.valueProperties
   * @param {number} k
   * @param {number} value  NaN for none
   */
  setValue(column, k, value) {
    this.values[column][k] = value;
  }

  /**
   * Appends carried properties of the last point added, as JSON members: `"name":value,…`.
   * @param {string} text
   */
  carry(text) {
    if (text.length === 0) return;
    const most = 3 * text.length; // UTF-8 bytes per UTF-16 unit, at most
    if (this.carriedLength + most > this.carriedBytes.length) {
      const grown = new Uint8Array(Math.max(2 * this.carriedBytes.length, this.carriedLength + most));
      grown.set(this.carriedBytes.subarray(0, this.carriedLength));
      this.carriedBytes = grown;
    }
    const { written } = encoder.encodeInto(text, this.carriedBytes.subarray(this.carriedLength));
    this.carriedLength += written;
    this.carriedEnds[this.count - 1] = this.carriedLength;
  }

  /**
   * A bad record: fails the run, or with --skip-invalid drops the record and counts it.
   * @param {string} where  "line 12", "feature 3"
   * @param {string} problem  what is wrong, e.g. "latitude 91 is beyond ±90"
   */
  invalid(where, problem) {
    if (!this.options.skipInvalid) throw new InputError(`${this.options.source}: ${where}: ${problem}`);
    if (!this.inputIndex) {
      this.inputIndex = new Int32Array(this.capacity);
      for (let k = 0; k < this.count; k++) this.inputIndex[k] = k;
    }
    if (this.problems.length < QUOTED_PROBLEMS) this.problems.push(`${where}: ${problem}`);
    this.dropped++;
    this.records++;
  }

  /**
   * Hands over the points as loadCoordinates takes them (views of the stored arrays, no
   * copies). The store lets go of its arrays, so that they can be freed once used.
   * @returns {{lngLat: Float64Array, values: Float64Array[], inputIndex: Int32Array | null,
   *   carried: import('../write/feature-formatter.js').CarriedText | null}}
   */
  finish() {
    const n = this.count;
    const points = {
      lngLat: this.lngLat.subarray(0, 2 * n),
      values: this.values.map((column) => column.subarray(0, n)),
      inputIndex: this.inputIndex ? this.inputIndex.subarray(0, n) : null,
      carried: this.options.carry ? { bytes: this.carriedBytes.subarray(0, this.carriedLength), ends: this.carriedEnds.subarray(0, n) } : null,
    };
    this.lngLat = new Float64Array(0);
    this.values = [];
    this.inputIndex = null;
    this.carriedBytes = new Uint8Array(0);
    this.carriedEnds = new Float64Array(0);
    return points;
  }

  #grow() {
    const capacity = 2 * this.capacity;
    /** @type {<T extends Float64Array | Int32Array>(a: T, size: number) => T} */
    const grown = (a, size) => {
      const b = /** @type {any} */ (new /** @type {any} */ (a.constructor)(size));
      b.set(a);
      return b;
    };
    this.lngLat = grown(this.lngLat, 2 * capacity);
    this.values = this.values.map((column) => grown(column, capacity));
    if (this.inputIndex) this.inputIndex = grown(this.inputIndex, capacity);
    if (this.options.carry) this.carriedEnds = grown(this.carriedEnds, capacity);
    this.capacity = capacity;
  }
}

const encoder = new TextEncoder();
