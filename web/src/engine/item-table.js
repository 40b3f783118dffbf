// What a cluster manager keeps of its items on the JS side, what the engine does not hold: their
// titles, snippets and user data, and their positions as given (the engine keeps them as it
// clusters them, with their icons). Items added one by one or in small batches are objects;
// items added in bulk from coordinates are ranges of consecutive ids over one typed array, so
// a million items cost 16 bytes each here instead of an object each.

/** @typedef {import('../core/frame.js').LatLng} LatLng */

/**
 * @typedef {object} HeldItem  an item's options the JS side keeps, every one resolved
 * @property {LatLng} position
 * @property {string} title
 * @property {string} snippet
 * @property {unknown} userData
 */

/**
 * @typedef {object} BulkRange  items first … first + count − 1, added from coordinates
 * @property {number} first
 * @property {number} count
 * @property {Float64Array} lngLat  a copy of the coordinates, [lng, lat] per item
 * @property {Uint8Array | null} gone  1 for an item removed or moved out of the range (made on first need)
 * @property {number} goneCount
 */

export class ItemTable {
  /** @type {Map<number, HeldItem>} */
  #single = new Map();
  /** @type {BulkRange[]} in increasing `first` (ids only grow) */
  #ranges = [];
  #size = 0;

  /** Items held. */
  get size() { return this.#size; }

  /**
   * @param {number} id
   * @param {HeldItem} item
   */
  set(id, item) {
    if (!this.#single.has(id)) {
      const r = this.#range(id);
      if (r) this.#markGone(r, id); else this.#size++;
    }
    this.#single.set(id, item);
  }

  /**
   * Items first, first + 1, … from [lng, lat] pairs (copied).
   * @param {number} first
   * @param {Float64Array} lngLat
   */
  addRange(first, lngLat) {
    const count = lngLat.length / 2;
    this.#ranges.push({ first, count, lngLat: lngLat.slice(), gone: null, goneCount: 0 });
    this.#size += count;
  }

  /**
   * @param {number} id
   * @returns {HeldItem | undefined}
   */
  get(id) {
    const single = this.#single.get(id);
    if (single) return single;
    const r = this.#range(id);
    if (!r) return undefined;
    const k = 2 * (id - r.first);
    return { position: { latitude: r.lngLat[k + 1], longitude: r.lngLat[k] }, title: '', snippet: '', userData: undefined };
  }

  /**
   * @param {number} id
   * @returns {boolean} whether it was held
   */
  delete(id) {
    if (this.#single.delete(id)) {
      this.#size--;
      return true;
    }
    const r = this.#range(id);
    if (!r) return false;
    this.#markGone(r, id);
    this.#size--;
    return true;
  }

  clear() {
    this.#single.clear();
    this.#ranges = [];
    this.#size = 0;
  }

  /**
   * The live range holding `id`, by binary search.
   * @param {number} id
   * @returns {BulkRange | null}
   */
  #range(id) {
    const ranges = this.#ranges;
    let lo = 0;
    let hi = ranges.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ranges[mid].first + ranges[mid].count <= id) lo = mid + 1; else hi = mid;
    }
    const r = ranges[lo];
    if (!r || id < r.first || !Number.isInteger(id)) return null;
    return r.gone && r.gone[id - r.first] ? null : r;
  }

  /**
   * @param {BulkRange} r
   * @param {number} id
   */
  #markGone(r, id) {
    r.gone ??= new Uint8Array(r.count);
    r.gone[id - r.first] = 1;
    if (++r.goneCount === r.count) this.#ranges.splice(this.#ranges.indexOf(r), 1);
  }
}
