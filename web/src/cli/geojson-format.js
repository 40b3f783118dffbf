// Per-zoom GeoJSON written as bytes: a FeatureCollection with one feature per line, the same
// features getClusters gives (clusters with supercluster's properties and the aggregates,
// points with their input index and the properties carried from the input).

import { ByteBuffer, putAscii, putByte, putBytes, putFixed, putInt, putJsonNumber, putSnippet, snippet } from './byte-buffer.js';
import { abbreviate } from '../geojson.js';


const HEADER = Buffer.from('{"type":"FeatureCollection","features":[\n');
const FOOTER = Buffer.from('\n]}\n');
const EMPTY_FOOTER = Buffer.from(']}\n');
const SEPARATOR = snippet(',\n');
const POINT_START = snippet('{"type":"Feature","properties":{');
const INDEX_KEY = snippet('"index":');
const CLUSTER_START = snippet('{"type":"Feature","id":');
const CLUSTER_PROPERTIES = snippet(',"properties":{"cluster":true,"cluster_id":');
const POINT_COUNT = snippet(',"point_count":');
const ABBREVIATED = snippet(',"point_count_abbreviated":');
const GEOMETRY = snippet('},"geometry":{"type":"Point","coordinates":[');
const END = snippet(']}}');
const COMMA = 0x2c;
/** Longest text of a number this file writes (sign, 16 digits, point, exponent…). */
const NUMBER_ROOM = 32;

/**
 * Properties carried from the input, stored as JSON text per point: the bytes of
 * `"name":value,"other":value` of point k lie between ends[k - 1] (0 for k = 0) and ends[k].
 * @typedef {object} CarriedText
 * @property {Uint8Array} bytes
 * @property {Float64Array} ends
 */

/**
 * @typedef {object} FormatOptions
 * @property {number} decimals  decimal places of longitudes and latitudes
 * @property {string[]} aggregates  names of the aggregated properties, in batch order
 * @property {CarriedText | null} carried  carried properties, or null for none
 * @property {boolean} indexCarried  whether the carried properties include one named `index`
 *   (which then replaces the input index)
 * @property {Int32Array | null} inputIndex  input index of each point, when some input
 *   records were dropped (otherwise a point's index is its input index)
 */

/** Turns batches of records (see world-scan.js) into GeoJSON text, one file at a time. */
export class FeatureFormatter {
  #decimals;
  #scale;
  /** @type {import('./byte-buffer.js').Snippet[]} `,"name":` of each aggregate */
  #aggregateKeys;
  #carried;
  #indexCarried;
  #inputIndex;
  #features = 0;

  /** @param {FormatOptions} options */
  constructor({ decimals, aggregates, carried, indexCarried, inputIndex }) {
    this.#decimals = decimals;
    this.#scale = 10 ** decimals;
    this.#aggregateKeys = aggregates.map((name) => snippet(`,${JSON.stringify(name)}:`));
    this.#carried = carried;
    this.#indexCarried = indexCarried;
    this.#inputIndex = inputIndex;
  }

  /**
   * Starts a file.
   * @returns {Buffer}
   */
  header() {
    this.#features = 0;
    return HEADER;
  }

  /**
   * Ends a file.
   * @returns {Buffer}
   */
  footer() {
    return this.#features > 0 ? FOOTER : EMPTY_FOOTER;
  }

  /**
   * The features of a batch as text (preceded by a separator unless they are the file's first).
   * @param {Float64Array} records
   * @param {number} count
   * @param {number} stride
   * @returns {Buffer}
   */
  format(records, count, stride) {
    const decimals = this.#decimals;
    const scale = this.#scale;
    const keys = this.#aggregateKeys;
    const aggregateRoom = keys.reduce((sum, key) => sum + key.length + NUMBER_ROOM, 0);
    const carried = this.#carried;
    const inputIndex = this.#inputIndex;
    // About 120 bytes make a point; clusters and carried properties grow the buffer as needed.
    const out = new ByteBuffer(count * 160 + 4096);
    const withIndex = !this.#indexCarried;
    let features = this.#features;
    // The buffer and position live in locals for the whole loop (see byte-buffer.js).
    let v = out.view;
    let room = v.byteLength; // a DataView's byteLength is a getter call: read it once
    let p = out.length;
    for (let i = 0, end = count * stride; i < end; i += stride) {
      const id = records[i];
      const pointCount = records[i + 1];
      const start = pointCount > 1 || !carried || id === 0 ? 0 : carried.ends[id - 1];
      const stop = pointCount > 1 || !carried ? 0 : carried.ends[id];
      const need = 256 + (pointCount > 1 ? aggregateRoom : stop - start);
      if (p + need > room) {
        out.length = p;
        out.reserve(need);
        v = out.view;
        room = v.byteLength;
      }
      if (features++ > 0) p = putSnippet(v, p, SEPARATOR);
      if (pointCount > 1) {
        p = putSnippet(v, p, CLUSTER_START);
        p = putInt(v, p, id);
        p = putSnippet(v, p, CLUSTER_PROPERTIES);
        p = putInt(v, p, id);
        p = putSnippet(v, p, POINT_COUNT);
        p = putInt(v, p, pointCount);
        p = putSnippet(v, p, ABBREVIATED);
        const abbreviated = abbreviate(pointCount);
        p = putAscii(v, p, typeof abbreviated === 'number' ? String(abbreviated) : `"${abbreviated}"`);
        for (let a = 0; a < keys.length; a++) {
          p = putSnippet(v, p, keys[a]);
          p = putJsonNumber(v, p, records[i + 4 + a]);
        }
      } else {
        p = putSnippet(v, p, POINT_START);
        if (withIndex) {
          p = putSnippet(v, p, INDEX_KEY);
          p = putInt(v, p, inputIndex ? inputIndex[id] : id);
          if (stop > start) p = putByte(v, p, COMMA);
        }
        if (stop > start) p = putBytes(v, p, /** @type {CarriedText} */ (carried).bytes, start, stop);
      }
      p = putSnippet(v, p, GEOMETRY);
      p = putFixed(v, p, records[i + 2], decimals, scale);
      p = putByte(v, p, COMMA);
      p = putFixed(v, p, records[i + 3], decimals, scale);
      p = putSnippet(v, p, END);
    }
    this.#features = features;
    return out.bytes.subarray(0, p);
  }
}
