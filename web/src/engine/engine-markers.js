// The markers of a MapEngine: every marker's options by id (the engine keeps only what it
// needs: no titles, snippets or user data), written to the engine as records (marker-records.js)
// and its refusals turned into errors that name the marker, the batch position or the property.

import { STATUS_BY_CODE, STATUS_CODES, errorFromStatus, refusedInBatch } from '../core/errors.js';
import { numberArg } from '../core/arguments.js';
import { MARKER_DEFAULTS, MARKER_FIELDS, MARKER_FLAGS, copyMarker, encodeMarker, resolveMarker } from './marker-records.js';

/** @typedef {import('./marker-records.js').Marker} Marker */
/** @typedef {import('./marker-records.js').MarkerOptions} MarkerOptions */
/** @typedef {import('./map-channel.js').MapChannel} MapChannel */

export class EngineMarkers {
  /** @type {MapChannel} */
  #channel;
  /** @type {Map<number, Marker>} every marker's options, by id */
  #markers = new Map();

  /** @param {MapChannel} channel */
  constructor(channel) {
    this.#channel = channel;
  }

  /** Markers on the map. */
  get size() { return this.#markers.size; }

  /**
   * Adds markers, all or none; returns their ids in order.
   * @param {unknown[]} options
   * @param {string} call
   * @param {boolean} batch  whether errors name the position in the batch (`markers[i]`)
   * @returns {number[]}
   */
  add(options, call, batch) {
    const markers = Array.from(options, (m, i) => resolveMarker(m, MARKER_DEFAULTS, batch ? `markers[${i}]` : '', call));
    const h = this.#channel.enter(call);
    const n = markers.length;
    if (n === 0) return [];
    const records = this.#records(n);
    for (let i = 0; i < n; i++) encodeMarker(records, i, markers[i]);
    const ch = this.#channel;
    const out = ch.ptr + records.byteLength;
    this.#check(ch.fn.cairn_map_add_markers(h, ch.ptr, n, out), call, { markers, batch });
    const ids = Array.from(ch.doubles(out, n));
    for (let i = 0; i < n; i++) this.#markers.set(ids[i], markers[i]);
    return ids;
  }

  /**
   * Changes a marker: `changes` over its current options.
   * @param {number} id
   * @param {Partial<MarkerOptions>} changes
   */
  update(id, changes) {
    const call = 'updateMarker';
    const old = this.known(id, call);
    const next = resolveMarker(changes, old, '', call);
    const h = this.#channel.enter(call);
    const record = this.#records(1);
    encodeMarker(record, 0, next);
    // The text stays here: tell the engine only that it changed; it decides about the window.
    if (old.title !== next.title || old.snippet !== next.snippet) record[MARKER_FIELDS.indexOf('flags')] += MARKER_FLAGS.contentChanged;
    this.#check(this.#channel.fn.cairn_map_update_marker(h, id, this.#channel.ptr), call, { id, markers: [next] });
    this.#markers.set(id, next);
  }

  /**
   * Removes a marker.
   * @param {number} id
   */
  remove(id) {
    const call = 'removeMarker';
    this.known(id, call);
    this.#check(this.#channel.fn.cairn_map_remove_marker(this.#channel.enter(call), id), call, { id });
    this.#markers.delete(id);
  }

  /** Removes every marker. */
  clear() {
    const call = 'clearMarkers';
    this.#channel.check(this.#channel.fn.cairn_map_clear_markers(this.#channel.enter(call)), call);
    this.#markers.clear();
  }

  /** Forgets every marker, without the engine (whose map is gone). */
  forget() { this.#markers.clear(); }

  /**
   * A copy of a marker's options.
   * @param {number} id
   * @returns {Marker}
   */
  copy(id) { return copyMarker(this.known(id, 'marker')); }

  /**
   * Selects a marker, or none (null).
   * @param {number | null} id
   */
  select(id) {
    const call = 'selectMarker';
    if (id !== null) this.known(id, call);
    this.#check(this.#channel.fn.cairn_map_select_marker(this.#channel.enter(call), id ?? -1), call, { id: id ?? -1 });
  }

  /**
   * The options of a marker the map holds. Ids reach the engine only once found here, so an id
   * this map never gave (or took back) never does.
   * @param {unknown} id
   * @param {string} call
   * @returns {Marker}
   */
  known(id, call) {
    const m = this.#markers.get(numberArg(id, 'id', call));
    if (!m) throw errorFromStatus(STATUS_BY_CODE.UNKNOWN_MARKER, /** @type {number} */ (id), { call });
    return m;
  }

  /**
   * The buffer as room for `n` marker records, followed by room for `n` ids.
   * @param {number} n
   * @returns {Float64Array}  the records' part
   */
  #records(n) {
    const stride = this.#channel.layout.markerStride;
    this.#channel.reserve(n * (stride + 1));
    return this.#channel.doubles(this.#channel.ptr, n * stride);
  }

  /**
   * The status of a marker export, or throws it: UNKNOWN_MARKER names the caller's id; a record
   * the engine refused is INVALID_MARKER naming the property, or for a batch
   * INVALID_MARKER_IN_BATCH naming the position (and the property in the message).
   * @param {number} status
   * @param {string} call
   * @param {{id?: number, markers?: Marker[], batch?: boolean}} about  what was sent
   * @returns {number}
   */
  #check(status, call, { id, markers, batch = false }) {
    if (status >= 0) return status;
    const detail = this.#channel.fn.cairn_last_error_detail();
    const code = STATUS_CODES[-status]?.code;
    if (code === 'UNKNOWN_MARKER') throw errorFromStatus(status, id ?? detail, { call });
    // One marker: a batch of one refused (add), a record that does not decode or a property
    // out of range (update). Many: the batch's refused marker.
    const refused = markers && (batch ? code === 'INVALID_MARKER_IN_BATCH'
      : code === 'INVALID_MARKER_IN_BATCH' || code === 'INVALID_ARGUMENT' || code === 'INVALID_MARKER');
    if (!markers || !refused) throw this.#channel.error(status, call);
    if (code === 'INVALID_MARKER_IN_BATCH') throw refusedInBatch(detail, call, batch);
    // One marker: its record did not decode (INVALID_ARGUMENT) or a property is out of range.
    throw errorFromStatus(STATUS_BY_CODE.INVALID_MARKER, code === 'INVALID_MARKER' ? detail : 0, { call });
  }
}
