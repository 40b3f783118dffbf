// Newline-delimited GeoJSON: one Feature per line. RFC 8142 sequences read the same: each of
// their records starts with an RS character and runs to the next one, over as many lines as
// it takes (a record may be pretty-printed). Lines are found in the raw bytes and parsed one by
// one, so only the current line (or record) is ever a string.

import { FeatureAdder } from './points.js';
import { InputError, jsonReason } from '../errors.js';
import { CR, LF, RS } from '../ascii.js';

/** A line longer than this is refused rather than buffered without bound. */
const MAX_LINE_BYTES = 256 * 2 ** 20;

/**
 * Reads newline-delimited GeoJSON features into a store. Blank lines are ignored; a line that
 * is not JSON, or not a Point feature, is reported as invalid with its line number.
 *
 * @param {AsyncIterable<Buffer>} chunks
 * @param {import('./point-store.js').PointStore} store
 * @param {import('./points.js').PropertySpec} spec
 */
export async function readNdjson(chunks, store, spec) {
  const adder = new FeatureAdder(store, spec);
  let line = 0;
  /** @type {Buffer[]} the start of the current line, when it began in an earlier chunk */
  let pending = [];
  let pendingBytes = 0;

  /** @type {{line: number, text: string} | null} the RFC 8142 record being gathered */
  let record = null;

  /** @param {string} text @param {number} at  its first line */
  const parse = (text, at) => {
    let feature;
    try {
      feature = JSON.parse(text);
    } catch (error) {
      store.invalid(`line ${at}`, `malformed JSON (${jsonReason(error)})`);
      return;
    }
    adder.add(feature, `line ${at}`);
  };
  const endRecord = () => {
    if (record !== null && record.text.trim() !== '') parse(record.text, record.line);
    record = null;
  };

  /** @param {Buffer} data @param {number} start @param {number} end */
  const handle = (data, start, end) => {
    line++;
    while (start < end && data[start] !== RS && data[start] <= 0x20) start++;
    if (data[start] === RS) {
      endRecord();
      while (start < end && data[start] === RS) start++;
      record = { line, text: '' };
    } else if (record !== null && start < end) {
      // A line without RS after a record that is whole already: RS records and plain lines
      // mixed, which read as they did before records could span lines.
      let whole;
      try {
        whole = JSON.parse(record.text);
      } catch {
        whole = undefined;
      }
      if (whole !== undefined) {
        adder.add(whole, `line ${record.line}`);
        record = null;
      }
    }
    while (end > start && (data[end - 1] <= 0x20 || data[end - 1] === CR)) end--;
    if (record !== null) {
      record.text += `${data.toString('utf8', start, end)}\n`;
      if (record.text.length > MAX_LINE_BYTES) {
        throw new InputError(`${store.options.source}: line ${record.line}: a record longer than ${MAX_LINE_BYTES / 2 ** 20} Mi characters (an RS record runs to the next RS)`);
      }
    } else if (start < end) {
      parse(data.toString('utf8', start, end), line);
    }
  };

  for await (const chunk of chunks) {
    let start = 0;
    for (let nl = chunk.indexOf(LF); nl >= 0; nl = chunk.indexOf(LF, start)) {
      if (pending.length > 0) {
        pending.push(chunk.subarray(0, nl));
        const whole = Buffer.concat(pending);
        pending = [];
        pendingBytes = 0;
        handle(whole, 0, whole.length);
      } else {
        handle(chunk, start, nl);
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > MAX_LINE_BYTES) {
        throw new InputError(`${store.options.source}: line ${line + 1}: longer than ${MAX_LINE_BYTES / 2 ** 20} MiB; ` +
          'newline-delimited GeoJSON has one feature per line');
      }
    }
  }
  if (pending.length > 0) {
    const whole = Buffer.concat(pending);
    handle(whole, 0, whole.length);
  }
  endRecord();
}
