// Every cluster and point of one zoom, for the whole world, in batches of bounded size.
//
// The engine answers bounding-box queries into a buffer of fixed capacity, so the world is
// cut into latitude bands, each asked for separately. Bands span all longitudes: a query costs
// one step per grid row it covers plus one per result, so full-width bands cost no more in all
// than one world query, where longitude strips would pay for every row once per strip. A band
// whose answer does not fit is split and asked again; bands are kept from zoom to zoom, so a
// scan from the highest zoom down learns the split once.

import { latitudeAt } from '../../core/mercator.js';

/** Records per query: 16 MiB of results at 4 doubles per record. */
const DEFAULT_ROOM = 1 << 19;
/**
 * Bands to start with. More bands cost nearly nothing; a band that overflows costs a query
 * that is thrown away, and one over the whole world was measured at three times the cost of
 * asking for the same items in bands.
 */
const INITIAL_BANDS = 64;
/** Below this height (in world units, 1 = pole to pole) bands are not split further. */
const MIN_BAND_HEIGHT = 2 ** -28;
/**
 * Degrees within which an item may sit on both sides of a band edge: the engine compares
 * float32 positions, which are within about 2e-5° of the latitude it returns.
 */
const EDGE_SLACK = 1e-4;

/** Latitude of a band edge at world y: the outer edges take in the poles. */
function yLat(y) {
  if (y <= 0) return 90;
  if (y >= 1) return -90;
  return latitudeAt(y);
}

/**
 * @typedef {object} Batch
 * @property {Float64Array} records  `count` records of `stride` numbers: id, point count,
 *   longitude, latitude, then one value per aggregate (NaN for points)
 * @property {number} count
 * @property {number} stride
 */

/** Walks zooms of a loaded ClusterIndex, band by band. */
export class WorldScanner {
  /** @type {import('../../index/cluster-index.js').ClusterIndex} */
  #index;
  /** @type {string[]} */
  #aggregates;
  #room;
  /** @type {Float64Array} */
  #out;
  /** @type {(length: number) => Float64Array} */
  #allocate;
  #reuse;
  /** @type {Float64Array | null} with `reuse`: the array of the batch last handed out */
  #spare = null;
  /** Band edges in world y, north to south: band i is [edges[i], edges[i + 1]]. */
  #edges = Array.from({ length: INITIAL_BANDS + 1 }, (_, i) => i / INITIAL_BANDS);

  /**
   * @param {import('../../index/cluster-index.js').ClusterIndex} index  loaded
   * @param {{aggregates?: string[], room?: number, allocate?: (length: number) => Float64Array, reuse?: boolean}} [options]
   *   `aggregates`: names of the index's aggregates to fetch for clusters; `room`: records per
   *   query; `allocate`: where batch arrays come from (so that a consumer can recycle them);
   *   `reuse`: the caller is done with a batch when it asks for the next, so its array can
   *   serve again (fresh memory is slow to touch)
   */
  constructor(index, { aggregates = [], room = DEFAULT_ROOM, allocate, reuse = false } = {}) {
    this.#index = index;
    this.#reuse = reuse;
    this.#allocate = allocate ?? ((length) => this.#spareOr(length));
    this.#aggregates = aggregates;
    this.#room = room;
    this.#out = new Float64Array(room * index.recordStride);
  }

  /** Numbers per record in the batches. */
  get stride() {
    return 4 + this.#aggregates.length;
  }

  /**
   * The items at zoom `z`, each exactly once, in batches (one per band), north to south.
   * @param {number} z
   * @returns {Generator<Batch>}
   */
  *zoom(z) {
    const edges = this.#edges;
    /** @type {Set<number>} items seen just north of the current band's top edge */
    let above = new Set();
    for (let b = 0; b < edges.length - 1; b++) {
      const top = edges[b];
      const bottom = edges[b + 1];
      const total = this.#query(top, bottom, z);
      if (total > this.#out.length / this.#index.recordStride) {
        if (bottom - top > MIN_BAND_HEIGHT) {
          // Split into enough bands that each should fit with room to spare, and redo this one.
          const parts = Math.min(256, Math.max(2, Math.ceil((2 * total) / this.#room)));
          const cuts = Array.from({ length: parts - 1 }, (_, k) => top + ((bottom - top) * (k + 1)) / parts);
          edges.splice(b + 1, 0, ...cuts);
          b--;
          continue;
        }
        // A band thinner than float32 positions can tell apart: take it whole, if the engine
        // can give that many records at once (its buffers have a limit; the last record tells).
        const stride = this.#index.recordStride;
        this.#out = new Float64Array(total * stride).fill(NaN);
        this.#query(top, bottom, z);
        if (Number.isNaN(this.#out[(total - 1) * stride + 1])) {
          throw new RangeError(`zoom ${z}: ${total} items on one line of latitude are more than one query can return`);
        }
      }
      const below = new Set();
      const batch = this.#collect(total, top > 0 ? yLat(top) : NaN, bottom < 1 ? yLat(bottom) : NaN, above, below);
      above = below;
      if (batch.count > 0) {
        yield batch;
        if (this.#reuse) this.#spare = batch.records;
      }
    }
  }

  /**
   * An array of `length` numbers: the spare one if it is large enough, else a new one.
   * @param {number} length
   */
  #spareOr(length) {
    const spare = this.#spare;
    this.#spare = null;
    return spare && spare.length >= length ? spare.subarray(0, length) : new Float64Array(length);
  }

  /**
   * @param {number} top
   * @param {number} bottom
   * @param {number} z
   * @returns {number} how many items the band holds
   */
  #query(top, bottom, z) {
    return this.#index.getClustersInto([-180, yLat(bottom), 180, yLat(top)], z, this.#out);
  }

  /**
   * Makes a batch of a band's records, leaving out those the band to the north already had,
   * with the aggregates of its clusters. Without aggregates, a large band's query array becomes
   * the batch (the next query gets a new one): copying every record cost as much as a tenth of
   * the query.
   * @param {number} total
   * @param {number} northLat  the band's north edge, NaN at the pole
   * @param {number} southLat  the band's south edge, NaN at the pole
   * @param {Set<number>} above  items near the north edge that the previous band gave
   * @param {Set<number>} below  filled with the items near the south edge
   * @returns {Batch}
   */
  #collect(total, northLat, southLat, above, below) {
    const inStride = this.#index.recordStride;
    const stride = this.stride;
    const out = this.#out;
    // Handing over only pays for large bands: a small one is copied rather than costing a
    // whole new query array.
    const inPlace = stride === inStride && total >= this.#room / 4;
    const records = inPlace ? out : this.#allocate(total * stride);
    let count = 0;
    let clusters = 0;
    for (let k = 0, i = 0; k < total; k++, i += inStride) {
      const id = out[i];
      const pointCount = out[i + 1];
      const lat = out[i + 3];
      // Items on an edge come back from both bands; a key tells clusters and points apart.
      if (Math.abs(lat - northLat) <= EDGE_SLACK && above.has(pointCount > 1 ? id : -1 - id)) continue;
      if (Math.abs(lat - southLat) <= EDGE_SLACK) below.add(pointCount > 1 ? id : -1 - id);
      const j = count * stride;
      if (!inPlace || j !== i) {
        records[j] = id;
        records[j + 1] = pointCount;
        records[j + 2] = out[i + 2];
        records[j + 3] = lat;
        for (let a = 4; a < stride; a++) records[j + a] = NaN;
      }
      if (pointCount > 1) clusters++;
      count++;
    }
    if (inPlace) this.#out = this.#allocate(this.#room * inStride);
    else if (clusters > 0) this.#addAggregates(records, count, clusters);
    return { records, count, stride };
  }

  /**
   * @param {Float64Array} records
   * @param {number} count
   * @param {number} clusters  how many of the records are clusters
   */
  #addAggregates(records, count, clusters) {
    const stride = this.stride;
    const ids = new Float64Array(clusters);
    for (let k = 0, c = 0; k < count; k++) if (records[k * stride + 1] > 1) ids[c++] = records[k * stride];
    const values = new Float64Array(clusters);
    this.#aggregates.forEach((name, a) => {
      this.#index.getAggregatesInto(name, ids, values);
      for (let k = 0, c = 0; k < count; k++) if (records[k * stride + 1] > 1) records[k * stride + 4 + a] = values[c++];
    });
  }
}
