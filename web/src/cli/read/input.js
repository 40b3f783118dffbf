// Opening the input (a file, or standard input for "-"), telling its format, and handing its
// bytes to the matching reader.

import { openSync, fstatSync, closeSync, createReadStream } from 'node:fs';

import { readCsv } from './csv.js';
import { readNdjson } from './ndjson.js';
import { readFeatureCollection } from './geojson-stream.js';
import { UsageError, systemReason } from '../errors.js';
import { RS } from '../ascii.js';

/** Bytes per read: large enough that per-chunk work is noise. */
const CHUNK_BYTES = 1 << 20;

/**
 * Most bytes read ahead to tell the format: JSON's first line must be whole to tell one
 * feature per line from a FeatureCollection. A first line longer than this is taken for a
 * collection written on one line (whose reader says so if it is a Feature after all).
 */
const HEAD_LIMIT = 1 << 20;

/** UTF-8's byte order mark. */
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/** @typedef {'csv' | 'ndjson' | 'geojson'} Format */

/** Formats by file name ending; .json and .geojson are told apart by their first line. */
const EXTENSIONS = /** @type {const} */ ([
  [/\.csv$/i, 'csv'],
  [/\.(ndjson|geojsonl|geojsons|geojsonseq|jsonl|jsonseq)$/i, 'ndjson'],
]);

/**
 * @typedef {object} InputOptions
 * @property {string} path  a file, or "-" for standard input
 * @property {Format | null} format  as given on the command line, or null to tell
 * @property {NodeJS.ReadableStream} stdin
 * @property {import('./csv.js').CsvOptions} csv
 */

/**
 * Reads every point of the input into the store.
 * @param {InputOptions} options
 * @param {import('./point-store.js').PointStore} store
 * @param {import('./points.js').PropertySpec} spec
 * @returns {Promise<Format>} the format read
 */
export async function readInput(options, store, spec) {
  const iterator = open(options.path, options.stdin)[Symbol.asyncIterator]();
  // Chunks come as they come (a pipe's may be a few bytes): read on until the format shows.
  /** @type {Buffer[]} */
  const head = [];
  const ahead = new HeadScan();
  let ended = false;
  let bytes = 0;
  while (!ended) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
    } else {
      const chunk = /** @type {Buffer} */ (next.value);
      head.push(chunk);
      bytes += chunk.length;
      // At least a byte order mark's worth, to take it away whole.
      if ((options.format !== null || ahead.enough(chunk)) && bytes >= BYTE_ORDER_MARK.length) break;
    }
  }
  let first = Buffer.concat(head);
  // A byte order mark is taken away here, once, for every reader.
  if (BYTE_ORDER_MARK.every((byte, i) => first[i] === byte)) first = first.subarray(BYTE_ORDER_MARK.length);
  const format = options.format ?? formatOf(options.path, first, ended);
  /** The stream again, the bytes read ahead included. */
  const chunks = (async function* all() {
    if (first.length > 0) yield first;
    if (ended) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield /** @type {Buffer} */ (next.value);
  })();
  if (format === 'csv') await readCsv(chunks, store, spec, options.csv);
  else if (format === 'ndjson') await readNdjson(chunks, store, spec);
  else await readFeatureCollection(chunks, store, spec);
  return format;
}

/**
 * The input's bytes, in chunks.
 * @param {string} path
 * @param {NodeJS.ReadableStream} stdin
 * @returns {AsyncIterable<Buffer>}
 */
function open(path, stdin) {
  if (path === '-') {
    // A directory given as standard input reads as nothing: say what it is instead.
    const fd = /** @type {{fd?: unknown}} */ (stdin).fd;
    if (typeof fd === 'number' && fstatSync(fd).isDirectory()) throw new UsageError('cannot read standard input: it is a directory');
    return /** @type {AsyncIterable<Buffer>} */ (stdin);
  }
  // Opened here, not lazily by the stream, so that a missing file is a usage error with a
  // plain message before anything else happens.
  let fd;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${systemReason(error)}`);
  }
  if (fstatSync(fd).isDirectory()) {
    closeSync(fd);
    throw new UsageError(`cannot read ${path}: it is a directory`);
  }
  return createReadStream('', { fd, highWaterMark: CHUNK_BYTES });
}

/**
 * Follows the first chunks of an input until they show its format (see `formatOf`): the first
 * byte that is not white space (or a byte order mark), and when that opens JSON, the
 * end of its line.
 */
class HeadScan {
  #bytes = 0;
  /** @type {number | null} the first byte that is not white space, once seen */
  #start = null;

  /**
   * @param {Buffer} chunk  the next chunk
   * @returns {boolean} whether the chunks so far are enough to tell the format
   */
  enough(chunk) {
    const offset = this.#bytes;
    this.#bytes += chunk.length;
    let p = 0;
    if (this.#start === null) {
      while (p < chunk.length && ((chunk[p] <= 0x20 && chunk[p] !== RS) || (offset + p < 3 && chunk[p] === BYTE_ORDER_MARK[offset + p]))) p++;
      if (p === chunk.length) return false;
      this.#start = chunk[p];
    }
    if (this.#start === RS) return true;   // a sequence (see formatOf)
    if (this.#start !== 0x7b && this.#start !== 0x5b) return true;   // not JSON: CSV
    return chunk.indexOf(0x0a, p) >= 0 || this.#bytes >= HEAD_LIMIT;
  }
}

/**
 * The format of an input from its name, else from its first bytes: a record separator (RS, RFC
 * 8142) opens a sequence of features, read as newline-delimited (its records may span lines);
 * JSON whose first line is a whole Feature is newline-delimited; other JSON, and an input of
 * white space only, is a FeatureCollection; anything else is CSV.
 * @param {string} path
 * @param {Buffer} head  the first bytes (see HeadScan), without a byte order mark
 * @param {boolean} [whole]  whether they are the whole input
 * @returns {Format}
 */
export function formatOf(path, head, whole = false) {
  for (const [pattern, format] of EXTENSIONS) if (pattern.test(path)) return format;
  let p = 0;
  while (p < head.length && head[p] <= 0x20 && head[p] !== RS) p++;   // white space (RS is below 0x20 too)
  // Nothing but white space, in a file not named CSV: its reader says it is empty, where the
  // CSV reader would miss a header row.
  if (whole && p === head.length) return 'geojson';
  if (head[p] === RS) return 'ndjson';
  if (head[p] !== 0x7b && head[p] !== 0x5b) return 'csv'; // neither { nor [
  const lineEnd = head.indexOf(0x0a, p);
  // A first line the head does not hold whole is a collection's (never parsed here: it may be
  // the whole document).
  if (lineEnd < 0 && !whole) return 'geojson';
  try {
    const first = JSON.parse(head.toString('utf8', p, lineEnd < 0 ? head.length : lineEnd));
    if (first !== null && first.type === 'Feature') return 'ndjson';
  } catch {
    // Not one value on the first line: a FeatureCollection spread over lines, which its reader
    // checks.
  }
  return 'geojson';
}
