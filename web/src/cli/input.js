// Opening the input (a file, or standard input for "-"), telling its format, and handing its
// bytes to the matching reader.

import { openSync, fstatSync, closeSync, createReadStream } from 'node:fs';

import { readCsv } from './csv.js';
import { readNdjson } from './ndjson.js';
import { readFeatureCollection } from './geojson-stream.js';
import { UsageError } from './errors.js';

/** Bytes per read: large enough that per-chunk work is noise. */
const CHUNK_BYTES = 1 << 20;

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
  const first = await iterator.next();
  const firstChunk = first.done ? Buffer.alloc(0) : /** @type {Buffer} */ (first.value);
  const format = options.format ?? formatOf(options.path, firstChunk);
  /** The stream again, first chunk included. */
  const chunks = (async function* all() {
    if (first.done) return;
    yield firstChunk;
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
  if (path === '-') return /** @type {AsyncIterable<Buffer>} */ (stdin);
  // Opened here, not lazily by the stream, so that a missing file is a usage error with a
  // plain message before anything else happens.
  let fd;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${reason(error)}`);
  }
  if (fstatSync(fd).isDirectory()) {
    closeSync(fd);
    throw new UsageError(`cannot read ${path}: it is a directory`);
  }
  return createReadStream('', { fd, highWaterMark: CHUNK_BYTES });
}

/**
 * The format of an input from its name, else from its first bytes: JSON whose first line is a
 * whole Feature is newline-delimited; other JSON is a FeatureCollection; anything else is CSV.
 * @param {string} path
 * @param {Buffer} head  the first chunk
 * @returns {Format}
 */
export function formatOf(path, head) {
  for (const [pattern, format] of EXTENSIONS) if (pattern.test(path)) return format;
  let p = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) p = 3; // byte order mark
  while (p < head.length && (head[p] <= 0x20 || head[p] === 0x1e)) p++;
  if (head[p] !== 0x7b && head[p] !== 0x5b) return 'csv'; // neither { nor [
  const lineEnd = head.indexOf(0x0a, p);
  try {
    const first = JSON.parse(head.toString('utf8', p, lineEnd < 0 ? head.length : lineEnd));
    if (first !== null && first.type === 'Feature') return 'ndjson';
  } catch {
    // Not one value on the first line: a FeatureCollection spread over lines (or cut off by
    // the chunk), which its reader checks.
  }
  return 'geojson';
}

/**
 * A system error's reason without the call details: "no such file or directory".
 * @param {any} error
 */
export function reason(error) {
  const code = error && error.code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return error && error.message ? error.message : String(error);
}
