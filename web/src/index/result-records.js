// The buffer a ClusterIndex's queries write their result records into: one per index, kept
// between queries and doubled when a query reports more records than fit, then asked again.

import { STATUS_CODES, memoryError } from '../core/errors.js';

/** @typedef {import('../core/engine-memory.js').Resources} Resources */
/** @typedef {(status: number, call: string, hint?: string, detail?: number) => Error} ErrorOf  an index's error for a status */

// Smallest result buffer, in records; it doubles from there as queries need more.
const MIN_RESULT_RECORDS = 256;

export class ResultRecords {
  /** @type {import('../core/wasm.js').CairnModule} */
  #mod;
  /** @type {Resources} the index's: the buffer is its `ptr`, `capacity` records long */
  #res;
  /** @type {ErrorOf} */
  #error;

  /**
   * @param {import('../core/wasm.js').CairnModule} mod
   * @param {Resources} res
   * @param {ErrorOf} error  the index's error for a status, with its hints
   */
  constructor(mod, res, error) {
    this.#mod = mod;
    this.#res = res;
    this.#error = error;
  }

  /** Records the buffer holds. */
  get capacity() { return this.#res.capacity; }

  /**
   * Runs a query into the buffer, growing it and asking again when the engine reports more
   * records than fit.
   * @param {(handle: number, ptr: number, capacity: number) => number} run
   * @param {string} call
   * @param {string} [argumentHint]  advice for an INVALID_ARGUMENT status
   * @param {number} [room]  records the caller can use (default: all)
   * @param {number} [clusterId]  the id asked about, for UNKNOWN_CLUSTER messages
   * @returns {number} total records
   */
  query(run, call, argumentHint, room = Infinity, clusterId) {
    const res = this.#res;
    let total = run(res.handle, res.ptr, res.capacity);
    if (total > res.capacity && res.capacity < room) {
      this.#grow(Math.min(total, room), call);
      total = run(res.handle, res.ptr, res.capacity);
    }
    if (total < 0) {
      const info = STATUS_CODES[-total];
      const hint = info && info.code === 'INVALID_ARGUMENT' ? argumentHint : undefined;
      throw this.#error(total, call, hint, clusterId);
    }
    return total;
  }

  /**
   * A view of the first `records` results. Made after the query, never kept: any call into
   * the module may grow its memory and detach older views.
   * @param {number} records
   */
  view(records) {
    const n = Math.min(records, this.#res.capacity);
    return new Float64Array(this.#mod.memory.buffer, this.#res.ptr, n * this.#mod.recordStride);
  }

  /**
   * @param {number} records
   * @param {string} call  the query that needs them
   */
  #grow(records, call) {
    const res = this.#res;
    const recordBytes = this.#mod.recordStride * 8;
    let capacity = Math.max(MIN_RESULT_RECORDS, res.capacity);
    while (capacity < records) capacity *= 2;
    const limit = this.#mod.bufferLimit;
    if (capacity * recordBytes > limit) capacity = Math.max(records, Math.floor(limit / recordBytes));
    if (res.ptr) res.fn.cairn_free(res.ptr);
    res.ptr = 0;
    res.capacity = 0;
    // Addresses are unsigned; an i32 result above 2 GiB would read as negative.
    const ptr = res.fn.cairn_alloc(capacity * recordBytes) >>> 0;
    if (!ptr) throw memoryError(call, `out of WebAssembly memory for ${records} result records`);
    res.ptr = ptr;
    res.capacity = capacity;
  }
}
