// CSV with a header row (RFC 4180: comma separated, fields optionally in double quotes, a
// quote inside a quoted field doubled, line breaks inside quoted fields allowed, LF or CRLF).
//
// Records are found in the raw bytes and the coordinates read with parseDecimal straight from
// them: ten million rows make no string per row or per field. Only the fields a run uses are
// decoded, and only when they are quoted, carried to the output, or wrong.

import { parseDecimal, JSON_NUMBER } from './numbers.js';
import { positionProblem, memberPrefixes } from './points.js';
import { InputError, quoted, quotedList, unquoted } from '../errors.js';
import { COMMA, CR, LF, QUOTE, SPACE, TAB } from '../ascii.js';

/** A record longer than this is refused (it is most likely an unterminated quote). */
const MAX_RECORD_BYTES = 64 * 2 ** 20;
/** Header names recognised for the coordinates, lower case. */
const LNG_NAMES = ['lng', 'lon', 'longitude'];
const LAT_NAMES = ['lat', 'latitude'];

/**
 * @typedef {object} CsvOptions
 * @property {string | null} lngColumn  the longitude column's name, or null to look for one
 * @property {string | null} latColumn
 */

/**
 * Reads CSV points into a store.
 * @param {AsyncIterable<Buffer>} chunks
 * @param {import('./point-store.js').PointStore} store
 * @param {import('./points.js').PropertySpec} spec
 * @param {CsvOptions} options
 */
export async function readCsv(chunks, store, spec, options) {
  const reader = new CsvReader(store, spec, options);
  /** @type {Buffer | null} an incomplete record left at the end of the last chunk */
  let rest = null;
  for await (const chunk of chunks) {
    const data = rest ? Buffer.concat([rest, chunk]) : chunk;
    const used = reader.records(data, false);
    rest = used < data.length ? data.subarray(used) : null;
    if (rest && rest.length > MAX_RECORD_BYTES) {
      reader.fail(`a record longer than ${MAX_RECORD_BYTES / 2 ** 20} MiB (is a quote left open?)`);
    }
  }
  if (rest) reader.records(rest, true);
  reader.finish();
}

/** The parser proper: the fields of one record at a time, then what they mean. */
class CsvReader {
  /** Line number of the next record's first line. */
  line = 1;
  /** @type {string[] | null} column names, once the header is read */
  header = null;
  // Fields of the current record: bytes [starts[i], ends[i]) of the data, quoted[i] = 1 when
  // the field was in quotes (and may hold doubled quotes).
  starts = new Int32Array(64);
  ends = new Int32Array(64);
  quoted = new Uint8Array(64);
  fields = 0;
  /** Line breaks inside quoted fields of the current record. */
  innerLines = 0;
  /** @type {string | null} what is wrong with the current record's quoting, if anything */
  malformed = null;
  lngAt = -1;
  latAt = -1;
  /** @type {number[]} */
  valueAt = [];
  /** The current record's numbers for the aggregates. */
  values = new Float64Array(0);
  /** @type {number[]} */
  carriedAt = [];
  /** Fields a record needs: one more than the highest column used. */
  needed = 0;

  /**
   * @param {import('./point-store.js').PointStore} store
   * @param {import('./points.js').PropertySpec} spec
   * @param {CsvOptions} options
   */
  constructor(store, spec, options) {
    this.store = store;
    this.spec = spec;
    this.options = options;
    this.prefixes = memberPrefixes(spec.carried);
  }

  /**
   * Handles every complete record in `data`.
   * @param {Buffer} data
   * @param {boolean} final  whether the input ends with `data` (the last record needs no newline)
   * @returns {number} bytes used: where the first incomplete record starts
   */
  records(data, final) {
    let pos = 0;
    while (pos < data.length) {
      const end = this.#split(data, pos, final);
      if (end < 0) break;
      this.#record(data);
      this.line += 1 + this.innerLines;
      pos = end;
    }
    return pos;
  }

  /** Checks at the end of the input. */
  finish() {
    if (!this.header) this.fail('no header row (the input is empty)');
  }

  /**
   * Fails the run: a problem no --skip-invalid can step over.
   * @param {string} problem
   * @returns {never}
   */
  fail(problem) {
    throw new InputError(`${this.store.options.source}: line ${this.line}: ${problem}`);
  }

  /**
   * Finds the fields of the record starting at `pos`.
   * @param {Buffer} data
   * @param {number} pos
   * @param {boolean} final
   * @returns {number} where the next record starts, or -1 when the record is incomplete
   */
  #split(data, pos, final) {
    const len = data.length;
    let p = pos;
    let n = 0;
    this.innerLines = 0;
    this.malformed = null;
    for (;;) {
      if (n === this.starts.length) this.#growFields();
      const starts = this.starts;
      const ends = this.ends;
      if (p < len && data[p] === QUOTE) {
        // A quoted field: up to the quote that is not doubled.
        let q = p + 1;
        let close;
        for (;;) {
          close = data.indexOf(QUOTE, q);
          if (close < 0 || (close + 1 === len && !final)) {
            if (final) this.fail('a quoted field is not closed before the end of the input');
            return -1;
          }
          if (data[close + 1] !== QUOTE) break;
          q = close + 2;
        }
        for (let i = p + 1; i < close; i++) if (data[i] === LF) this.innerLines++;
        starts[n] = p + 1;
        ends[n] = close;
        this.quoted[n++] = 1;
        p = close + 1;
        if (p === len) break;
        const c = data[p];
        if (c === COMMA) {
          p++;
          continue;
        }
        if (c === CR && p + 1 === len && !final) return -1;
        if (c === LF || (c === CR && (p + 1 === len || data[p + 1] === LF))) {
          p += c === CR && p + 1 < len ? 2 : 1;
          break;
        }
        // The record cannot be read: it ends at the end of its line, and is refused whole.
        this.malformed = `unexpected ${JSON.stringify(String.fromCharCode(c))} after the closing quote of field ${n}`;
        const lineEnd = data.indexOf(LF, p);
        if (lineEnd < 0 && !final) return -1;
        p = lineEnd < 0 ? len : lineEnd + 1;
        break;
      }
      // An unquoted field: up to the next comma or line end.
      let q = p;
      while (q < len) {
        const c = data[q];
        if (c === COMMA || c === LF) break;
        q++;
      }
      if (q === len && !final) return -1;
      starts[n] = p;
      ends[n] = q > p && data[q - 1] === CR && (q === len || data[q] === LF) ? q - 1 : q;
      this.quoted[n++] = 0;
      if (q === len) {
        p = q;
        break;
      }
      p = q + 1;
      if (data[q] === LF) break;
    }
    this.fields = n;
    return p;
  }

  /** @param {Buffer} data */
  #record(data) {
    if (this.malformed !== null) {
      if (!this.header) this.fail(this.malformed);
      this.store.invalid(`line ${this.line}`, this.malformed);
      return;
    }
    // A blank line (or one of white space only) is no record.
    if (this.fields === 1 && !this.quoted[0] && this.#isBlank(data, this.starts[0], this.ends[0])) return;
    if (!this.header) {
      this.#readHeader(data);
      return;
    }
    const store = this.store;
    if (this.fields < this.needed) {
      store.invalid(`line ${this.line}`, `has ${this.fields} field${this.fields === 1 ? '' : 's'}, the header has ${this.header.length}`);
      return;
    }
    const lng = this.#number(data, this.lngAt);
    const lat = this.#number(data, this.latAt);
    // One test for the common case (both finite, latitude in range); messages only when not.
    if (!(lng - lng === 0 && lat >= -90 && lat <= 90)) {
      store.invalid(`line ${this.line}`, /** @type {string} */ (this.#coordinateProblem(data, 'longitude', this.lngAt, lng) ??
        this.#coordinateProblem(data, 'latitude', this.latAt, lat) ?? positionProblem(lng, lat)));
      return;
    }
    const values = this.values;
    for (let c = 0; c < values.length; c++) {
      const value = this.#number(data, this.valueAt[c]);
      if (value === Infinity || value === -Infinity) {
        const at = this.valueAt[c];
        store.invalid(`line ${this.line}`, `column ${unquoted(this.header[at])}: ${unquoted(this.#text(data, at))} is not a finite number`);
        return;
      }
      values[c] = value;
    }
    const k = store.add(lng, lat);
    for (let c = 0; c < values.length; c++) store.setValue(c, k, values[c]);
    if (this.carriedAt.length > 0) store.carry(this.#carriedText(data));
  }

  /**
   * Whether bytes [start, end) of the data are white space only (or nothing).
   * @param {Buffer} data
   * @param {number} start
   * @param {number} end
   */
  #isBlank(data, start, end) {
    for (let i = start; i < end; i++) if (data[i] !== SPACE && data[i] !== TAB) return false;
    return true;
  }

  /** @param {Buffer} data */
  #readHeader(data) {
    const names = [];
    for (let i = 0; i < this.fields; i++) names.push(this.#text(data, i).trim());
    this.header = names;
    const lower = names.map((name) => name.toLowerCase());
    const find = (/** @type {string | null} */ given, /** @type {string[]} */ usual, /** @type {string} */ what, /** @type {string} */ flag) => {
      const at = given !== null ? names.indexOf(given) : lower.findIndex((name) => usual.includes(name));
      if (at < 0) {
        const expected = given !== null ? `no column named ${quoted(given)}` :
          `no ${what} column (looked for ${usual.join(', ')}; name it with ${flag})`;
        this.fail(`${expected}; the header has ${quotedList(names)}`);
      }
      // Two columns that could both be meant: guessing one would put points in the wrong place.
      const other = given !== null ? names.indexOf(given, at + 1) : lower.findIndex((name, i) => i > at && usual.includes(name));
      if (other >= 0) {
        this.fail(`two ${what} columns, ${quoted(names[at])} and ${quoted(names[other])}` +
          (given !== null ? '' : `; name one with ${flag}`));
      }
      return at;
    };
    this.lngAt = find(this.options.lngColumn, LNG_NAMES, 'longitude', '--lng-column');
    this.latAt = find(this.options.latColumn, LAT_NAMES, 'latitude', '--lat-column');
    const column = (/** @type {string} */ name, /** @type {string} */ flag) => {
      const at = names.indexOf(name);
      if (at < 0) this.fail(`no column named ${quoted(name)} (for ${flag}); the header has ${quotedList(names)}`);
      return at;
    };
    this.valueAt = this.spec.values.map((name) => column(name, '--aggregate'));
    this.values = new Float64Array(this.valueAt.length);
    this.carriedAt = this.spec.carried.map((name) => column(name, '--properties'));
    this.needed = 1 + Math.max(this.lngAt, this.latAt, ...this.valueAt, ...this.carriedAt);
  }

  /**
   * A field as a number (NaN when empty or not a number). A quoted field is read between its
   * quotes: a doubled quote inside would make it no number anyway.
   * @param {Buffer} data
   * @param {number} i
   */
  #number(data, i) {
    return parseDecimal(data, this.starts[i], this.ends[i]);
  }

  /**
   * What is wrong with a coordinate field that did not give a number, or null.
   * @param {Buffer} data
   * @param {string} what
   * @param {number} i
   * @param {number} value
   * @returns {string | null}
   */
  #coordinateProblem(data, what, i, value) {
    if (!Number.isNaN(value)) return null;
    const text = this.#text(data, i).trim();
    if (text === '') return `no ${what} (column ${unquoted(/** @type {string[]} */ (this.header)[i])} is empty)`;
    return `${what} ${quoted(text)} is not a number`;
  }

  /**
   * The carried columns of the record as JSON members. Values that are JSON numbers are
   * written as numbers, other text as strings; empty fields are left out.
   * @param {Buffer} data
   */
  #carriedText(data) {
    /** @type {string[]} */
    const members = [];
    this.carriedAt.forEach((at, c) => {
      const text = this.#text(data, at);
      if (text === '') return;
      const number = JSON_NUMBER.test(text) && Number.isFinite(Number(text));
      members.push(this.prefixes[c] + (number ? text : JSON.stringify(text)));
    });
    return members.join(',');
  }

  /**
   * A field's text, quotes undone.
   * @param {Buffer} data
   * @param {number} i
   */
  #text(data, i) {
    const text = data.toString('utf8', this.starts[i], this.ends[i]);
    return this.quoted[i] ? text.replaceAll('""', '"') : text;
  }

  #growFields() {
    const size = 2 * this.starts.length;
    const grow = (/** @type {any} */ a) => {
      const b = new a.constructor(size);
      b.set(a);
      return b;
    };
    this.starts = grow(this.starts);
    this.ends = grow(this.ends);
    this.quoted = grow(this.quoted);
  }
}
