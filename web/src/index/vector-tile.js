// Mapbox Vector Tiles from tile features: the features' positions and properties are written
// into one request buffer and the engine encodes the tile (cairn_mvt_encode): protobuf, point
// geometry, zigzag, keys and values stored once, numbers typed as integers or doubles. JS only
// turns property values into the request's three kinds: strings, numbers, booleans (objects and
// arrays as their JSON text; null and undefined are left out, as MVT has no null).

import { getModule } from '../core/wasm.js';
import { errorFromStatus, memoryError } from '../core/errors.js';

/** MVT's usual extent and the layer name the CLI and getTile use unless told otherwise. */
export const DEFAULT_TILE_EXTENT = 4096;
export const DEFAULT_LAYER = 'clusters';

const encoder = new TextEncoder();

/**
 * The name of an MVT value's type in a TileJSON `vector_layers` field list.
 * @typedef {'String' | 'Number' | 'Boolean'} FieldType
 */

/**
 * One request buffer in the engine's memory, reused across tiles and grown when needed, and one
 * for the answers.
 */
class EngineBuffers {
  request = { ptr: 0, bytes: 0 };
  answer = { ptr: 0, bytes: 0 };

  /**
   * @param {import('../core/wasm.js').CairnModule} mod
   * @param {{ptr: number, bytes: number}} buffer
   * @param {number} bytes
   * @param {string} call
   */
  ensure(mod, buffer, bytes, call) {
    if (buffer.bytes >= bytes) return;
    let size = Math.max(4096, buffer.bytes);
    while (size < bytes) size *= 2;
    if (size > mod.bufferLimit) size = bytes;
    if (buffer.ptr) mod.fn.cairn_free(buffer.ptr);
    buffer.ptr = 0;
    buffer.bytes = 0;
    const ptr = mod.fn.cairn_alloc(size) >>> 0;
    if (!ptr) throw memoryError(call, `out of WebAssembly memory for a tile of ${bytes} bytes`);
    buffer.ptr = ptr;
    buffer.bytes = size;
  }
}

/** @type {EngineBuffers | null} */
let buffers = null;

/**
 * A growable little-endian byte writer for the request.
 */
class RequestWriter {
  bytes = new Uint8Array(1 << 16);
  view = new DataView(this.bytes.buffer);
  length = 0;

  /** @param {number} n */
  room(n) {
    if (this.length + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  /** @param {number} v */
  u8(v) { this.room(1); this.bytes[this.length++] = v; }
  /** @param {number} v */
  u32(v) { this.room(4); this.view.setUint32(this.length, v, true); this.length += 4; }
  /** @param {number} v */
  i32(v) { this.room(4); this.view.setInt32(this.length, v, true); this.length += 4; }
  /** @param {number} v */
  f64(v) { this.room(8); this.view.setFloat64(this.length, v, true); this.length += 8; }
  /** @param {string} text */
  text(text) {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.room(4 + 3 * text.length);
    const written = encoder.encodeInto(text, this.bytes.subarray(this.length + 4)).written ?? 0;
    this.view.setUint32(this.length, written, true);
    this.length += 4 + written;
  }
}

/** @type {RequestWriter | null} */
let writer = null;

/**
 * Encodes point features in tile coordinates as one MVT layer.
 * @param {Iterable<import('./geojson.js').TileFeature>} features  as getTile gives them (the
 *   coordinates already in units of `extent`)
 * @param {object} [options]
 * @param {number} [options.extent]  the tile's extent (4096)
 * @param {string} [options.layer]  the layer's name ('clusters')
 * @param {Map<string, Set<FieldType>>} [options.fields]  collects each property's value types
 *   (for a TileJSON `vector_layers` list)
 * @returns {Uint8Array} the tile's bytes (empty when there are no features)
 * @throws {import('../core/errors.js').CairnError} (INVALID_ARGUMENT) for an empty layer name
 *   or an extent that is not a positive integer
 */
export function encodeVectorTile(features, options = {}) {
  const { extent = DEFAULT_TILE_EXTENT, layer = DEFAULT_LAYER, fields } = options;
  const mod = getModule();
  const w = (writer ??= new RequestWriter());
  w.length = 0;
  w.u32(extent >>> 0 === extent ? extent : 0);
  w.text(String(layer));
  // Keys first: the features name them by number.
  /** @type {Map<string, number>} */
  const keys = new Map();
  const list = Array.isArray(features) ? features : [...features];
  for (const f of list) {
    if (f.tags) for (const k of Object.keys(f.tags)) if (!keys.has(k)) keys.set(k, keys.size);
  }
  w.u32(keys.size);
  for (const k of keys.keys()) w.text(k);
  w.u32(list.length);
  for (const f of list) {
    const id = typeof f.id === 'number' ? f.id : NaN;
    w.f64(id);
    const [x, y] = f.geometry[0];
    w.i32(x);
    w.i32(y);
    const countAt = w.length;
    w.u32(0);
    let count = 0;
    const tags = f.tags;
    if (tags) {
      for (const k in tags) {
        const v = tags[k];
        /** @type {FieldType} */
        let type;
        if (typeof v === 'string') {
          w.u32(/** @type {number} */ (keys.get(k))); w.u8(0); w.text(v); type = 'String';
        } else if (typeof v === 'number') {
          w.u32(/** @type {number} */ (keys.get(k))); w.u8(1); w.f64(v); type = 'Number';
        } else if (typeof v === 'boolean') {
          w.u32(/** @type {number} */ (keys.get(k))); w.u8(2); w.u8(v ? 1 : 0); type = 'Boolean';
        } else if (v === null || v === undefined || typeof v === 'function' || typeof v === 'symbol') {
          continue;
        } else {
          w.u32(/** @type {number} */ (keys.get(k))); w.u8(0); w.text(typeof v === 'bigint' ? String(v) : JSON.stringify(v)); type = 'String';
        }
        count++;
        if (fields) {
          let types = fields.get(k);
          if (!types) fields.set(k, (types = new Set()));
          types.add(type);
        }
      }
    }
    w.view.setUint32(countAt, count, true);
  }
  return encode(mod, w, 'encodeVectorTile');
}

/**
 * @param {import('../core/wasm.js').CairnModule} mod
 * @param {RequestWriter} w
 * @param {string} call
 * @returns {Uint8Array}
 */
function encode(mod, w, call) {
  const b = (buffers ??= new EngineBuffers());
  b.ensure(mod, b.request, w.length, call);
  new Uint8Array(mod.memory.buffer, b.request.ptr, w.length).set(w.bytes.subarray(0, w.length));
  b.ensure(mod, b.answer, 2 * w.length + 64, call);
  let total = mod.fn.cairn_mvt_encode(b.request.ptr, w.length, b.answer.ptr, b.answer.bytes);
  if (total > b.answer.bytes) {
    b.ensure(mod, b.answer, total, call);
    total = mod.fn.cairn_mvt_encode(b.request.ptr, w.length, b.answer.ptr, b.answer.bytes);
  }
  if (total < 0) {
    throw errorFromStatus(total, mod.fn.cairn_last_error_detail(), { call, hint: 'the layer needs a name and the extent must be a positive integer' });
  }
  return new Uint8Array(mod.memory.buffer, b.answer.ptr, total).slice();
}
