// A ClusterIndex's aggregated properties (feature C9): each declared aggregate is one column the
// engine computes over the loaded points (`cairn_index_aggregate_add`), read back for the
// clusters a query returns (`cairn_index_aggregate_values`).

import { STATUS_BY_CODE, memoryError } from '../core/errors.js';

/** @typedef {import('../core/aggregates.js').Aggregate} Aggregate */
/** @typedef {import('../core/engine-memory.js').Resources} Resources */
/** @typedef {import('./result-records.js').ErrorOf} ErrorOf */

export class IndexAggregates {
  /** @type {readonly Aggregate[]} as the options declared them */
  #list;
  /** @type {number[]} the engine's column of each aggregate, once computed for the loaded data */
  #columns = [];
  /** @type {import('../core/wasm.js').CairnModule} */
  #mod;
  /** @type {Resources} the index's (its handle changes with each load) */
  #res;
  /** @type {ErrorOf} */
  #error;

  /**
   * @param {readonly Aggregate[]} list
   * @param {import('../core/wasm.js').CairnModule} mod
   * @param {Resources} res
   * @param {ErrorOf} error  the index's error for a status, with its hints
   */
  constructor(list, mod, res, error) {
    this.#list = list;
    this.#mod = mod;
    this.#res = res;
    this.#error = error;
  }

  /**
   * The position of the aggregate of this name, or -1.
   * @param {unknown} name
   * @returns {number}
   */
  indexOf(name) { return this.#list.findIndex((aggregate) => aggregate.name === name); }

  /** Whether every aggregate is computed for the loaded data. */
  get ready() { return this.#columns.length === this.#list.length; }

  /** Takes the columns of a restored index: the engine saved one per aggregate, in order. */
  adopt() { this.#columns = this.#list.map((_, k) => k); }

  /** Forgets the columns (the engine's index they belong to is gone). */
  reset() { this.#columns = []; }

  /**
   * Computes every aggregate over the loaded points, one column each. On failure some columns
   * may be computed: the caller empties the index.
   * @param {(property: string) => Float64Array} valuesFor  one number per engine point, NaN for none
   * @param {string} call
   * @param {(point: number) => number} inputIndex  the caller's index of an engine point, which
   *   an infinite value's error names
   */
  compute(valuesFor, call, inputIndex) {
    this.#columns = [];
    const fn = this.#res.fn;
    for (const aggregate of this.#list) {
      const values = valuesFor(aggregate.property);
      const ptr = fn.cairn_alloc(Math.max(1, values.length) * 8) >>> 0;
      if (!ptr) throw memoryError(call, 'out of WebAssembly memory');
      new Float64Array(this.#mod.memory.buffer, ptr, values.length).set(values);
      const column = fn.cairn_index_aggregate_add(this.#res.handle, aggregate.operation, ptr, values.length);
      fn.cairn_free(ptr);
      if (column < 0) {
        const detail = fn.cairn_last_error_detail();
        throw this.#error(column, call, `aggregate ${aggregate.name}`,
          column === STATUS_BY_CODE.NON_FINITE_VALUE ? inputIndex(detail) : detail);
      }
      this.#columns.push(column);
    }
  }

  /**
   * Sets each aggregated property on the given cluster property objects.
   * @param {number[]} ids  the engine's cluster ids
   * @param {Record<string, any>[]} targets  where each cluster's values go
   */
  fill(ids, targets) {
    if (this.#columns.length === 0 || ids.length === 0) return;
    this.values(ids, this.#columns.map((_, c) => c), 'aggregates', (c, values) => {
      const name = this.#list[c].name;
      for (let k = 0; k < values.length; k++) targets[k][name] = values[k];
    });
  }

  /**
   * Asks the engine for aggregated values of clusters, one column at a time.
   * @param {ArrayLike<number>} ids  cluster ids
   * @param {number[]} which  positions of the aggregates to fetch
   * @param {string} call
   * @param {(aggregate: number, values: Float64Array) => void} visit  called per aggregate with
   *   one value per id; the view is only valid during the call (wasm memory may grow after it)
   * @param {{shift: number, points: number}} [callers]  for ids as callers see them: what the
   *   index adds to the engine's ids, and the engine's point count (below which no cluster is)
   */
  values(ids, which, call, visit, callers = { shift: 0, points: 0 }) {
    const fn = this.#res.fn;
    const n = ids.length;
    const idPtr = fn.cairn_alloc(n * 8) >>> 0;
    const outPtr = fn.cairn_alloc(n * 8) >>> 0;
    try {
      if (!idPtr || !outPtr) throw memoryError(call, 'out of WebAssembly memory');
      const engineIds = new Float64Array(this.#mod.memory.buffer, idPtr, n);
      engineIds.set(ids);
      const { shift, points } = callers;
      for (let k = 0; shift && k < n; k++) {
        engineIds[k] -= shift;
        // Below the points' count the engine has points, or nothing: name the caller's id.
        if (!(engineIds[k] >= points)) throw this.#error(STATUS_BY_CODE.UNKNOWN_CLUSTER, call, undefined, ids[k]);
      }
      for (const a of which) {
        const status = fn.cairn_index_aggregate_values(this.#res.handle, this.#columns[a], idPtr, n, outPtr);
        // The detail of an unknown cluster is the engine's id: name the caller's.
        if (status < 0) throw this.#error(status, call, undefined, fn.cairn_last_error_detail() + shift);
        visit(a, new Float64Array(this.#mod.memory.buffer, outPtr, n));
      }
    } finally {
      if (idPtr) fn.cairn_free(idPtr);
      if (outPtr) fn.cairn_free(outPtr);
    }
  }
}
