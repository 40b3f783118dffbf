// A map's way into the engine: its handle, its one buffer (input records in, frames and
// projections out) and the input collected on the JS side. Every call that reaches the engine
// goes through `enter`, which pushes the collected input first, so the engine sees calls in
// the order they were made.

import { getModule } from '../core/wasm.js';
import { errorFromStatus, memoryError } from '../core/errors.js';
import { InputBatch } from './input-batch.js';
import { readLayout } from './read-frame.js';
import { checkMarkerStride } from './marker-records.js';
import { checkSettingCount } from './ui-settings.js';
import { engineMemory } from '../core/engine-memory.js';

/** @typedef {import('./read-frame.js').FrameLayout} FrameLayout */
/** @typedef {import('../core/engine-memory.js').Resources} Resources */

// Frees a map's engine memory on destroy(), or when its channel is dropped without it (a
// channel belongs to one MapEngine and goes with it). The buffer's capacity is in doubles.
const { release, registry } = engineMemory('cairn_map_destroy');

/** One MapEngine's handle, buffer and input batch, and the checks of what the engine answers. */
export class MapChannel {
  /** @type {import('../core/wasm.js').CairnModule} */
  #mod;
  /** @type {Resources} */
  #res;
  /** @type {FrameLayout} */
  #layout;
  /** @type {InputBatch} */
  #batch;
  #destroyed = false;

  /**
   * Makes the engine's map with `create`, and a buffer room for a frame of some tiles and events.
   * @param {string} call  the caller's name, for errors
   * @param {(fn: Record<string, Function>) => number} create  calls the export; returns the handle or a status
   * @throws {CairnError} (INVALID_STATE) if `init()` has not finished
   */
  constructor(call, create) {
    this.#mod = getModule();
    const fn = this.#mod.fn;
    this.#layout = readLayout((which) => fn.cairn_map_layout(which));
    checkMarkerStride(this.#layout.markerStride);
    checkSettingCount(this.#layout.settingCount);
    this.#batch = new InputBatch(this.#layout.inputStride);
    this.#res = { fn, handle: 0, ptr: 0, capacity: 0 };
    this.#res.handle = this.check(create(fn), call);
    try {
      const l = this.#layout;
      this.reserve(l.header + 64 * l.tileStride + 64 * l.eventStride);
    } catch (error) {
      release(this.#res);
      throw error;
    }
    if (registry) registry.register(this, this.#res, this);
  }

  /** The frame's and the records' layout, as the module gives it. */
  get layout() { return this.#layout; }

  /** The input collected since the last call that reached the engine. */
  get batch() { return this.#batch; }

  /** The module's bound exports. @returns {Record<string, Function>} */
  get fn() { return this.#res.fn; }

  /** The buffer's address. */
  get ptr() { return this.#res.ptr; }

  /** The buffer's size, in doubles. */
  get capacity() { return this.#res.capacity; }

  /** Whether `destroy()` has not been called. */
  get alive() { return !this.#destroyed; }

  /**
   * A fresh view of `count` doubles of the module's memory (a call may have grown the memory,
   * detaching older views).
   * @param {number} byteOffset
   * @param {number} count
   * @returns {Float64Array}
   */
  doubles(byteOffset, count) { return new Float64Array(this.#mod.memory.buffer, byteOffset, count); }

  /**
   * The buffer, made at least `doubles` long (a fresh view).
   * @param {number} doubles
   * @returns {Float64Array}
   */
  buffer(doubles) {
    this.reserve(doubles);
    return this.doubles(this.#res.ptr, doubles);
  }

  /**
   * Throws when the map was destroyed.
   * @param {string} call
   */
  checkAlive(call) {
    if (this.#destroyed) throw errorFromStatus(-1, 0, { call, hint: 'destroy() was called' });
  }

  /**
   * Checks the map is alive and pushes the collected input; returns the handle.
   * @param {string} call
   * @returns {number}
   */
  enter(call) {
    this.checkAlive(call);
    const res = this.#res;
    const batch = this.#batch;
    const n = batch.count;
    if (n === 0) return res.handle;
    try {
      const records = batch.records;
      this.buffer(records.length).set(records);
      const status = res.fn.cairn_map_push_events(res.handle, res.ptr, n);
      if (status < 0) {
        const detail = res.fn.cairn_last_error_detail();
        const source = batch.callAt(detail);
        throw this.error(status, call, source ? `record ${detail} came from ${source}()` : 'while pushing the input');
      }
    } finally {
      batch.clear();
    }
    return res.handle;
  }

  /**
   * Runs an export that writes two doubles to the buffer and returns 1, or 0 for none.
   * @param {string} call
   * @param {(handle: number, out: number) => number} run
   * @returns {[number, number] | null}
   */
  pair(call, run) {
    const h = this.enter(call);
    if (this.check(run(h, this.#res.ptr), call) === 0) return null;
    const v = this.doubles(this.#res.ptr, 2);
    return [v[0], v[1]];
  }

  /**
   * Makes the buffer hold at least `doubles`.
   * @param {number} doubles
   */
  reserve(doubles) {
    const res = this.#res;
    if (doubles <= res.capacity) return;
    const limit = Math.floor(this.#mod.bufferLimit / 8);
    let capacity = Math.max(1024, res.capacity);
    while (capacity < doubles) capacity *= 2;
    capacity = Math.min(capacity, limit);
    if (capacity < doubles) throw memoryError('MapEngine', `a buffer of ${doubles} doubles is larger than the module allows`);
    if (res.ptr) res.fn.cairn_free(res.ptr);
    res.ptr = 0;
    res.capacity = 0;
    // Addresses are unsigned; an i32 result above 2 GiB would read as negative.
    const ptr = res.fn.cairn_alloc(capacity * 8) >>> 0;
    if (!ptr) throw memoryError('MapEngine', `out of WebAssembly memory for a buffer of ${doubles} doubles`);
    res.ptr = ptr;
    res.capacity = capacity;
  }

  /**
   * The status, or throws it as a CairnError when negative.
   * @param {number} status
   * @param {string} call
   * @param {string} [hint]  what the engine's rule is, for the message
   * @returns {number}
   */
  check(status, call, hint) {
    if (status < 0) throw this.error(status, call, hint);
    return status;
  }

  /**
   * The error of a status, with the engine's detail of the last error.
   * @param {number} status
   * @param {string} call
   * @param {string} [hint]
   */
  error(status, call, hint) {
    return errorFromStatus(status, this.#res.fn.cairn_last_error_detail(), { call, hint });
  }

  /** Frees the engine's map and the buffer; calls afterwards throw. */
  destroy() {
    if (this.#destroyed) return;
    this.#destroyed = true;
    if (registry) registry.unregister(this);
    release(this.#res);
    this.#batch.clear();
  }
}
