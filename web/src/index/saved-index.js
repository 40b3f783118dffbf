// A ClusterIndex saved to one ArrayBuffer and read back. The engine writes and checks the
// format (header, version, checksum over everything: cairn_index_save, cairn_index_restore);
// what only the bindings know travels as the engine's "host data", which it stores at the
// buffer's end and covers by the same checksum: the options as given (without functions), the
// id shift and the map from engine points to input indices when load() skipped features.
//
// Host data: [UInt32 JSON byte count][JSON, UTF-8][padding to 4][Int32 per engine point, when
// the JSON says featureOf]. The engine's last 8 bytes give its byte count, the bytes before
// (padded to 8) are it.

import { STATUS_BY_CODE, errorFromStatus, memoryError } from '../core/errors.js';

/**
 * @typedef {object} SavedState
 * @property {Record<string, any>} options  the index's options, functions left out
 * @property {boolean} reduces  whether the index had map or reduce (not saved)
 * @property {number} idShift
 * @property {Int32Array | null} featureOf
 */

/**
 * The host data of a saved index.
 * @param {SavedState} state
 * @returns {Uint8Array}
 */
export function encodeHostData(state) {
  const { options, reduces, idShift, featureOf } = state;
  const json = new TextEncoder().encode(JSON.stringify({
    options: { ...options, map: undefined, reduce: undefined },
    reduces, idShift, featureOf: featureOf ? featureOf.length : -1,
  }));
  const jsonEnd = (4 + json.length + 3) & ~3;
  const bytes = new Uint8Array(jsonEnd + (featureOf ? featureOf.length * 4 : 0));
  new DataView(bytes.buffer).setUint32(0, json.length, true);
  bytes.set(json, 4);
  if (featureOf) new Int32Array(bytes.buffer, jsonEnd, featureOf.length).set(featureOf);
  return bytes;
}

/**
 * The host data of a saved index the engine accepted (its checksum covers these bytes).
 * @param {Uint8Array} saved
 * @param {string} call
 * @returns {SavedState}
 */
export function decodeHostData(saved, call) {
  const view = new DataView(saved.buffer, saved.byteOffset, saved.byteLength);
  const count = view.getUint32(saved.length - 8, true) + view.getUint32(saved.length - 4, true) * 2 ** 32;
  const start = saved.length - 8 - ((count + 7) & ~7);
  // Inconsistent (detail 4): the checksum held, so only a buffer forged to match it gets here.
  const refuse = () => errorFromStatus(STATUS_BY_CODE.INVALID_SAVED_INDEX, 4, { call });
  if (count < 4) throw refuse();
  const jsonLength = view.getUint32(start, true);
  if (4 + jsonLength > count) throw refuse();
  let parsed;
  try {
    parsed = JSON.parse(new TextDecoder().decode(saved.subarray(start + 4, start + 4 + jsonLength)));
  } catch {
    throw refuse();
  }
  const jsonEnd = (4 + jsonLength + 3) & ~3;
  let featureOf = null;
  if (parsed.featureOf >= 0) {
    if (jsonEnd + 4 * parsed.featureOf !== count) throw refuse();
    featureOf = new Int32Array(parsed.featureOf);
    featureOf.set(new Int32Array(saved.buffer.slice(saved.byteOffset + start + jsonEnd, saved.byteOffset + start + count)));
  }
  return { options: parsed.options ?? {}, reduces: parsed.reduces === true, idShift: parsed.idShift | 0, featureOf };
}

/**
 * Saves the engine index `handle` with the host data: one new ArrayBuffer.
 * @param {import('../core/wasm.js').CairnModule} mod
 * @param {number} handle
 * @param {Uint8Array} host
 * @param {string} call
 * @returns {ArrayBuffer}
 */
export function saveEngineIndex(mod, handle, host, call) {
  const fn = mod.fn;
  const size = fn.cairn_index_saved_size(handle, host.length);
  if (size < 0) throw errorFromStatus(size, fn.cairn_last_error_detail(), { call });
  const hostPtr = fn.cairn_alloc(Math.max(1, host.length)) >>> 0;
  const outPtr = fn.cairn_alloc(size) >>> 0;
  try {
    if (!hostPtr || !outPtr) throw memoryError(call, 'out of WebAssembly memory');
    new Uint8Array(mod.memory.buffer, hostPtr, host.length).set(host);
    const written = fn.cairn_index_save(handle, hostPtr, host.length, outPtr, size);
    if (written < 0) throw errorFromStatus(written, fn.cairn_last_error_detail(), { call });
    return mod.memory.buffer.slice(outPtr, outPtr + written);
  } finally {
    if (hostPtr) fn.cairn_free(hostPtr);
    if (outPtr) fn.cairn_free(outPtr);
  }
}

/**
 * Restores an engine index from a saved buffer; returns its handle.
 * @param {import('../core/wasm.js').CairnModule} mod
 * @param {Uint8Array} saved
 * @param {string} call
 * @returns {number}
 */
export function restoreEngineIndex(mod, saved, call) {
  const fn = mod.fn;
  const ptr = fn.cairn_alloc(Math.max(1, saved.length)) >>> 0;
  if (!ptr) throw memoryError(call, 'out of WebAssembly memory');
  try {
    new Uint8Array(mod.memory.buffer, ptr, saved.length).set(saved);
    const handle = fn.cairn_index_restore(ptr, saved.length);
    if (handle < 0) throw errorFromStatus(handle, fn.cairn_last_error_detail(), { call });
    return handle;
  } finally {
    fn.cairn_free(ptr);
  }
}
