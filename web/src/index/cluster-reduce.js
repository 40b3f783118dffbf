// supercluster's `map` and `reduce` options on a ClusterIndex: cluster properties computed by
// the app's own functions. supercluster folds them into every cluster while it loads; here a
// cluster's are computed the first time a query returns it (from its children's, each computed
// the same way or mapped from a point's properties) and kept until the next load, so a load
// costs nothing more and only the clusters asked for, with what lies below them, are computed.

import { STATUS_BY_CODE, errorFromStatus } from '../core/errors.js';

/**
 * @typedef {object} ChildRecord  one of a cluster's children, as the engine lists them
 * @property {number} id     the engine's cluster id, or the point's engine index
 * @property {number} count  1 for a point
 * @property {number} lng
 * @property {number} lat
 */

/**
 * @typedef {object} ReduceSource  what the fold reads of the index
 * @property {(cluster: number, call: string) => ChildRecord[]} children  a cluster's children (engine ids) in fold order, its seed first; `call` names the query for errors
 * @property {(point: number, lng: number, lat: number) => any} properties  a point's properties, as its feature has them
 */

export class ClusterReduce {
  /** @type {((properties: any) => any) | null} */
  #map;
  /** @type {(accumulated: any, properties: any) => void} */
  #reduce;
  /** @type {Map<number, any>} each cluster's accumulated properties, by engine id, once computed */
  #done = new Map();
  /** @type {Set<number>} the clusters being folded (the app's functions run inside a fold) */
  #folding = new Set();

  /**
   * @param {((properties: any) => any) | null} map  a point's properties to what is reduced (null: as they are)
   * @param {(accumulated: any, properties: any) => void} reduce  folds properties into the accumulated ones
   */
  constructor(map, reduce) {
    this.#map = map;
    this.#reduce = reduce;
  }

  /** Forgets what was computed (the data changed). */
  clear() { this.#done.clear(); }

  /** Whether a fold is running: the app's `map` or `reduce` is on the stack. */
  get busy() { return this.#folding.size > 0; }

  /**
   * A cluster's accumulated properties, as supercluster computes them: a copy of the child it
   * grew from, into which `reduce` folds each other child's (a point's mapped, a cluster's own
   * accumulated ones), in supercluster's order (the engine lists them so). The object is
   * shared: callers copy it.
   * @param {number} cluster  the engine's id
   * @param {ReduceSource} source
   * @param {string} call  the query that returned it, for errors
   * @returns {any}
   */
  of(cluster, source, call) {
    const known = this.#done.get(cluster);
    if (known !== undefined) return known;
    // The app's functions may query the index: one that asks for a cluster being folded would
    // fold it again, without end.
    if (this.#folding.has(cluster)) {
      throw errorFromStatus(STATUS_BY_CODE.INVALID_STATE, cluster, { call, hint: 'a query inside map or reduce returned a cluster being folded' });
    }
    this.#folding.add(cluster);
    try {
      let accumulated = null;
      let first = true;
      for (const child of source.children(cluster, call)) {
        if (first) {
          // The first is copied, so the fold never changes a point's or another cluster's own.
          accumulated = { ...this.#childProperties(child, source, call) };
          first = false;
        } else {
          this.#reduce(accumulated, this.#childProperties(child, source, call));
        }
      }
      this.#done.set(cluster, accumulated);
      return accumulated;
    } finally {
      this.#folding.delete(cluster);
    }
  }

  /**
   * @param {ChildRecord} child
   * @param {ReduceSource} source
   * @param {string} call
   */
  #childProperties(child, source, call) {
    if (child.count > 1) return this.of(child.id, source, call);
    const properties = source.properties(child.id, child.lng, child.lat);
    return this.#map ? this.#map(properties) : properties;
  }
}
