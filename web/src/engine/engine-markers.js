// The markers of a MapEngine: what the engine does not hold of them (titles, snippets, user
// data) by id, the options callers give written to the engine as records (marker-records.js),
// what the engine holds read back from it, and its refusals turned into errors that name the
// marker, the batch position or the property.

import { STATUS_BY_CODE, STATUS_CODES, errorFromStatus, refusedInBatch } from '../core/errors.js';
import { numberArg } from '../core/arguments.js';
import { MARKER_FIELDS, MARKER_FLAGS, checkMarker, decodeMarker, encodeMarker } from './marker-records.js';

/** @typedef {import('./marker-records.js').Marker} Marker */
/** @typedef {import('./marker-records.js').MarkerOptions} MarkerOptions */
/** @typedef {import('./map-channel.js').MapChannel} MapChannel */

/** @typedef {{title: string, snippet: string, userData: unknown}} MarkerText  what the JS side keeps of a marker */

export class EngineMarkers {
  /** @type {MapChannel} */
  #channel;
  /** @type {Map<number, MarkerText>} every marker's text and user data, by id */
  #text = new Map();

  /** @param {MapChannel} channel */
  constructor(channel) {
    this.#channel = channel;
  }

  /** Markers on the map. */
  get size() { return this.#text.size; }

  /**
   * Adds markers, all or none; returns their ids in order.
   * @param {unknown[]} options
   * @param {string} call
   * @param {boolean} batch  whether errors name the position in the batch (`markers[i]`)
   * @returns {number[]}
   */
  add(options, call, batch) {
    const markers = Array.from(options, (m, i) => checkMarker(m, true, batch ? `markers[${i}]` : '', call));
    const h = this.#channel.enter(call);
    const n = markers.length;
    if (n === 0) return [];
    const records = this.#records(n);
    for (let i = 0; i < n; i++) encodeMarker(records, i, markers[i]);
    const ch = this.#channel;
    const out = ch.ptr + records.byteLength;
    this.#check(ch.fn.cairn_map_add_markers(h, ch.ptr, n, out), call, { count: n, batch });
    const ids = Array.from(ch.doubles(out, n));
    for (let i = 0; i < n; i++) {
      const m = markers[i];
      this.#text.set(ids[i], { title: m.title ?? '', snippet: m.snippet ?? '', userData: m.userData });
    }
    return ids;
  }

  /**
   * Changes a marker: the engine puts `changes` over what it holds, and the text here changes.
   * @param {number} id
   * @param {Partial<MarkerOptions>} changes
   */
  update(id, changes) {
    const call = 'updateMarker';
    const text = this.known(id, call);
    const given = checkMarker(changes, false, '', call);
    const h = this.#channel.enter(call);
    const record = this.#records(1);
    encodeMarker(record, 0, given);
    // The text stays here: tell the engine only that it changed; it decides about the window.
    if ((given.title !== undefined && given.title !== text.title) || (given.snippet !== undefined && given.snippet !== text.snippet)) {
      record[MARKER_FIELDS.indexOf('flags')] += MARKER_FLAGS.contentChanged;
    }
    this.#check(this.#channel.fn.cairn_map_update_marker(h, id, this.#channel.ptr), call, { id, count: 1 });
    if (given.title !== undefined) text.title = given.title;
    if (given.snippet !== undefined) text.snippet = given.snippet;
    if ('userData' in given) text.userData = given.userData;
  }

  /**
   * Removes a marker.
   * @param {number} id
   */
  remove(id) {
    const call = 'removeMarker';
    this.known(id, call);
    this.#check(this.#channel.fn.cairn_map_remove_marker(this.#channel.enter(call), id), call, { id });
    this.#text.delete(id);
  }

  /** Removes every marker. */
  clear() {
    const call = 'clearMarkers';
    this.#channel.check(this.#channel.fn.cairn_map_clear_markers(this.#channel.enter(call)), call);
    this.#text.clear();
  }

  /** Forgets every marker, without the engine (whose map is gone). */
  forget() { this.#text.clear(); }

  /**
   * A marker's options: what the engine holds, read back from it, with the text kept here.
   * @param {number} id
   * @returns {Marker}
   */
  copy(id) {
    const call = 'marker';
    const text = this.known(id, call);
    const ch = this.#channel;
    const h = ch.enter(call);
    const record = this.#records(1);
    this.#check(ch.fn.cairn_map_marker(h, id, record.byteOffset), call, { id });
    return { ...decodeMarker(ch.doubles(record.byteOffset, record.length)), ...text };
  }

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
   * The text of a marker the map holds. Ids reach the engine only once found here, so an id
   * this map never gave (or took back) never does.
   * @param {unknown} id
   * @param {string} call
   * @returns {MarkerText}
   */
  known(id, call) {
    const m = this.#text.get(numberArg(id, 'id', call));
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
   * @param {{id?: number, count?: number, batch?: boolean}} about  what was sent: a marker's id, how many records
   * @returns {number}
   */
  #check(status, call, { id, count, batch = false }) {
    if (status >= 0) return status;
    const detail = this.#channel.fn.cairn_last_error_detail();
    const code = STATUS_CODES[-status]?.code;
    if (code === 'UNKNOWN_MARKER') throw errorFromStatus(status, id ?? detail, { call });
    // One marker: a batch of one refused (add), a record that does not decode or a property
    // out of range (update). Many: the batch's refused marker.
    const refused = count !== undefined && (batch ? code === 'INVALID_MARKER_IN_BATCH'
      : code === 'INVALID_MARKER_IN_BATCH' || code === 'INVALID_ARGUMENT' || code === 'INVALID_MARKER');
    if (!refused) throw this.#channel.error(status, call);
    if (code === 'INVALID_MARKER_IN_BATCH') throw refusedInBatch(detail, call, batch);
    // One marker: its record did not decode (INVALID_ARGUMENT) or a property is out of range.
    throw errorFromStatus(STATUS_BY_CODE.INVALID_MARKER, code === 'INVALID_MARKER' ? detail : 0, { call });
  }
}
