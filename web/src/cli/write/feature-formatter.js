// Per-zoom GeoJSON written as bytes: a FeatureCollection with one feature per line, the same
// features getClusters gives (clusters with supercluster's properties and the aggregates,
// points with their input index and the properties carried from the input).
//
// The text goes into a chunk of a few MiB that is handed over whenever it fills, in exchange
// for the next one to fill: the writer recycles chunks once written, as fresh memory costs a
// page fault per 4 KiB on first touch, which for gigabytes of output measured as much as
// formatting the features.

import { ByteBuffer, putAscii, putByte, putBytes, putFixed, putInt, putJsonNumber, putSnippet, snippet } from './byte-buffer.js';
import { abbreviate } from '../../index/geojson.js';
import { COMMA } from '../ascii.js';

const HEADER = snippet('{"type":"FeatureCollection","features":[\n');
const FOOTER = snippet('\n]}\n');
const EMPTY_FOOTER = snippet(']}\n');
const SEPARATOR = ',\n';
const POINT_START = '{"type":"Feature","properties":{';
const INDEX_KEY = '"index":';
const CLUSTER_START = '{"type":"Feature","id":';
const CLUSTER_PROPERTIES = snippet(',"properties":{"cluster":true,"cluster_id":');
const POINT_COUNT = snippet(',"point_count":');
const ABBREVIATED = snippet(',"point_count_abbreviated":');
const GEOMETRY = snippet('},"geometry":{"type":"Point","coordinates":[');
const END = snippet(']}}');
/** Longest text of a number this file writes (sign, 17 digits, point, exponent…). */
const NUMBER_ROOM = 32;
/** Room for one feature without carried properties or aggregates. */
const FEATURE_ROOM = 256;
/** Size of the reused chunk. */
const CHUNK_BYTES = 4 << 20;

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

/** Turns batches of records (see world-scanner.js) into GeoJSON text, one file at a time. */
export class FeatureFormatter {
  #decimals;
  #scale;
  /** @type {import('./byte-buffer.js').Snippet[]} `,"name":` of each aggregate */
  #aggregateKeys;
  // What starts a point and a cluster, for the file's first feature ([0]) and the others ([1]):
  // one snippet each rather than three (the separator, the start, the index key).
  /** @type {import('./byte-buffer.js').Snippet[]} */
  #pointStart;
  /** @type {import('./byte-buffer.js').Snippet[]} */
  #clusterStart;
  #carried;
  #indexCarried;
  #inputIndex;
  #handOver;
  #chunk = new ByteBuffer(CHUNK_BYTES);
  #features = 0;

  /**
   * @param {FormatOptions} options
   * @param {(bytes: Buffer, length: number) => Buffer} handOver  takes a chunk whose first
   *   `length` bytes are text, and returns the buffer to write next (the same one if it is done
   *   with it already)
   */
  constructor({ decimals, aggregates, carried, indexCarried, inputIndex }, handOver) {
    this.#decimals = decimals;
    this.#scale = 10 ** decimals;
    // Written as ASCII (a name's other characters as \u escapes): snippets take no characters
    // beyond U+FFFF, and a name may hold any.
    this.#aggregateKeys = aggregates.map((name) => snippet(`,${JSON.stringify(name).replace(/[^\x00-\x7f]/g, unicodeEscape)}:`));
    this.#carried = carried;
    this.#indexCarried = indexCarried;
    this.#inputIndex = inputIndex;
    this.#handOver = handOver;
    const pointStart = POINT_START + (indexCarried ? '' : INDEX_KEY);
    this.#pointStart = [snippet(pointStart), snippet(SEPARATOR + pointStart)];
    this.#clusterStart = [snippet(CLUSTER_START), snippet(SEPARATOR + CLUSTER_START)];
  }

  /** Starts a file. */
  begin() {
    this.#features = 0;
    this.#chunk.length = putSnippet(this.#chunk.view, this.#chunk.length, HEADER);
  }

  /** Ends a file, handing over all of it. */
  end() {
    const chunk = this.#chunk;
    this.#flush(putSnippet(chunk.view, chunk.length, this.#features > 0 ? FOOTER : EMPTY_FOOTER));
  }

  /**
   * Hands over the chunk and continues in the one given back.
   * @param {number} length  bytes of text in the chunk
   */
  #flush(length) {
    this.#chunk.use(this.#handOver(this.#chunk.bytes, length));
  }

  /**
   * Adds the features of a batch.
   * @param {Float64Array} records
   * @param {number} count
   * @param {number} stride
   */
  add(records, count, stride) {
    const decimals = this.#decimals;
    const scale = this.#scale;
    const keys = this.#aggregateKeys;
    const aggregateRoom = keys.reduce((sum, key) => sum + key.length + NUMBER_ROOM, 0);
    const carried = this.#carried;
    const inputIndex = this.#inputIndex;
    const withIndex = !this.#indexCarried;
    const [pointFirst, point] = this.#pointStart;
    const [clusterFirst, cluster] = this.#clusterStart;
    const chunk = this.#chunk;
    let features = this.#features;
    // The view and position live in locals for the whole loop (see byte-buffer.js).
    let v = chunk.view;
    let room = v.byteLength; // a DataView's byteLength is a getter call: read it once
    let p = chunk.length;
    for (let i = 0, end = count * stride; i < end; i += stride) {
      const id = records[i];
      const pointCount = records[i + 1];
      const start = pointCount > 1 || !carried || id === 0 ? 0 : carried.ends[id - 1];
      const stop = pointCount > 1 || !carried ? 0 : carried.ends[id];
      const need = FEATURE_ROOM + (pointCount > 1 ? aggregateRoom : stop - start);
      if (p + need > room) {
        this.#flush(p);
        p = 0;
        chunk.reserve(need); // only grows for a feature larger than the chunk
        v = chunk.view;
        room = v.byteLength;
      }
      const first = features++ === 0;
      if (pointCount > 1) {
        p = putSnippet(v, p, first ? clusterFirst : cluster);
        p = putInt(v, p, id);
        p = putSnippet(v, p, CLUSTER_PROPERTIES);
        p = putInt(v, p, id);
        p = putSnippet(v, p, POINT_COUNT);
        p = putInt(v, p, pointCount);
        p = putSnippet(v, p, ABBREVIATED);
        const abbreviated = abbreviate(pointCount);
        p = typeof abbreviated === 'number' ? putInt(v, p, abbreviated) : putAscii(v, p, `"${abbreviated}"`);
        for (let a = 0; a < keys.length; a++) {
          p = putSnippet(v, p, keys[a]);
          p = putJsonNumber(v, p, records[i + 4 + a]);
        }
      } else {
        p = putSnippet(v, p, first ? pointFirst : point);
        if (withIndex) {
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
    chunk.length = p;
    this.#features = features;
  }
}

/**
 * A UTF-16 code unit as a JSON escape: \uXXXX.
 * @param {string} unit
 */
function unicodeEscape(unit) {
  return `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
