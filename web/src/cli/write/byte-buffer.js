// Output text assembled as bytes. Per-zoom GeoJSON of ten million points is gigabytes of
// digits and punctuation; writing them into one preallocated buffer avoids a string per number
// and a string per feature, which is what makes the output phase fast enough.
//
// The writers are plain functions over (DataView, position) that return the new position: hot
// loops keep both in local variables, which V8 compiles to far tighter code than updating an
// object's fields at every byte. They go through a DataView because it stores several bytes at
// any alignment: constant text goes 8 bytes per store and digits 2 or 4 per store, which
// measured about twice as fast as byte stores. They do not check room: reserve an upper bound
// first, with 4 bytes to spare (putFixed may store a few bytes past the text it writes, which
// what follows then overwrites).

import { DOT, MINUS, ZERO } from '../ascii.js';

/** 10^0 … 10^15, for counting digits. */
const POW10 = Float64Array.from({ length: 16 }, (_, i) => 10 ** i);
/** The two ASCII digits of 0 … 99 as one little-endian 16-bit store. */
const DIGIT_PAIRS = Uint16Array.from({ length: 100 }, (_, i) => (0x30 + Math.floor(i / 10)) | ((0x30 + (i % 10)) << 8));
/** Integers below this (2^30) are small integers to V8, with fast arithmetic. */
const SMALL = 0x40000000;
/** The four ASCII digits of 0 … 9999 (zero-padded) as one little-endian 32-bit store. */
const DIGIT_QUADS = Int32Array.from({ length: 10000 }, (_, i) => {
  const text = String(i).padStart(4, '0');
  return text.charCodeAt(0) | (text.charCodeAt(1) << 8) | (text.charCodeAt(2) << 16) | (text.charCodeAt(3) << 24);
});
/** Trailing zeros of 1 … 9999 written with four digits (4 for 0). */
const TRAILING_ZEROS = Uint8Array.from({ length: 10000 }, (_, i) => {
  let zeros = 0;
  for (let n = i; zeros < 4 && n % 10 === 0; n /= 10) zeros++;
  return zeros;
});

/**
 * Constant text, prepared for putSnippet: its bytes in groups of 8 read as doubles, plus up to
 * 7 left over. Storing a group through setFloat64 writes its 8 bytes exactly: bit patterns
 * that a double store could alter are NaNs, whose top bytes are 0x7ff… or 0xfff…, and a byte
 * of ASCII or UTF-8 text below 0xf0 in those places never makes one (0xf0 and above only
 * start 4-byte UTF-8 sequences, which snippet() refuses).
 * @typedef {object} Snippet
 * @property {Float64Array} words
 * @property {Uint8Array} tail
 * @property {number} length  in bytes
 */

/**
 * @param {string} text  without characters beyond U+FFFF
 * @returns {Snippet}
 */
export function snippet(text) {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.some((b) => b >= 0xf0)) throw new RangeError('snippet: characters beyond U+FFFF are not supported');
  const whole = bytes.length >> 3;
  const words = new Float64Array(whole);
  for (let i = 0; i < whole; i++) words[i] = bytes.readDoubleLE(8 * i);
  return { words, tail: Uint8Array.from(bytes.subarray(8 * whole)), length: bytes.length };
}

/**
 * Writes constant text.
 * @param {DataView} v
 * @param {number} p  position
 * @param {Snippet} s
 * @returns {number} the position after it
 */
export function putSnippet(v, p, s) {
  const words = s.words;
  for (let i = 0; i < words.length; i++, p += 8) v.setFloat64(p, words[i], true);
  const tail = s.tail;
  for (let i = 0; i < tail.length; i++) v.setUint8(p++, tail[i]);
  return p;
}

/**
 * Copies bytes (stored property text).
 * @param {DataView} v
 * @param {number} p
 * @param {Uint8Array} source
 * @param {number} start
 * @param {number} end
 * @returns {number}
 */
export function putBytes(v, p, source, start, end) {
  new Uint8Array(v.buffer, v.byteOffset + p, end - start).set(source.subarray(start, end));
  return p + end - start;
}

/**
 * Writes a string of ASCII characters.
 * @param {DataView} v
 * @param {number} p
 * @param {string} text
 * @returns {number}
 */
export function putAscii(v, p, text) {
  for (let i = 0; i < text.length; i++) v.setUint8(p++, text.charCodeAt(i));
  return p;
}

/**
 * Writes one byte.
 * @param {DataView} v
 * @param {number} p
 * @param {number} byte
 * @returns {number}
 */
export function putByte(v, p, byte) {
  v.setUint8(p, byte);
  return p + 1;
}

/**
 * Writes `n` as exactly `count` decimal digits, zero-padded on the left.
 * @param {DataView} v
 * @param {number} p
 * @param {number} n  integer ≥ 0, below 10^count
 * @param {number} count
 * @returns {number}
 */
function putDigits(v, p, n, count) {
  let q = p + count;
  if (n < SMALL) {
    // Indices, ids and whole degrees: small-integer arithmetic, four then two digits per step.
    while (q - p >= 4) {
      const next = (n / 10000) | 0;
      q -= 4;
      v.setInt32(q, DIGIT_QUADS[n - next * 10000], true);
      n = next;
    }
    while (q - p >= 2) {
      const next = (n / 100) | 0;
      q -= 2;
      v.setUint16(q, DIGIT_PAIRS[n - next * 100], true);
      n = next;
    }
  } else {
    while (q - p >= 2) {
      const next = Math.floor(n / 100);
      q -= 2;
      v.setUint16(q, DIGIT_PAIRS[n - next * 100], true);
      n = next;
    }
  }
  if (q > p) v.setUint8(p, ZERO + n);
  return p + count;
}

/**
 * How many decimal digits `n` has.
 * @param {number} n  integer ≥ 0, below 2^53
 */
function digitCount(n) {
  if (n < 100000) return n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : 5;
  let digits = 6;
  while (digits < 16 && n >= POW10[digits]) digits++;
  return digits;
}

/**
 * Writes an integer (magnitude below 2^53) in decimal.
 * @param {DataView} v
 * @param {number} p
 * @param {number} n
 * @returns {number}
 */
export function putInt(v, p, n) {
  if (n < 0) {
    v.setUint8(p++, MINUS);
    n = -n;
  }
  return putDigits(v, p, n, digitCount(n));
}

/**
 * Writes a finite number rounded to `decimals` places, without trailing zeros ("12.5",
 * "-0.0001234", "3"): a JSON number.
 * @param {DataView} v
 * @param {number} p
 * @param {number} value
 * @param {number} decimals  0 … 12
 * @param {number} scale  10 ** decimals (computed once by the caller)
 * @returns {number}
 */
export function putFixed(v, p, value, decimals, scale) {
  const magnitude = value < 0 ? -value : value;
  let whole = Math.floor(magnitude);
  let fraction = Math.round((magnitude - whole) * scale);
  if (fraction === scale) {
    whole++;
    fraction = 0;
  }
  if (value < 0 && (whole > 0 || fraction > 0)) v.setUint8(p++, MINUS); // never "-0"
  p = putDigits(v, p, whole, digitCount(whole));
  if (fraction === 0) return p;
  v.setUint8(p++, DOT);
  if (decimals <= 8) return putFraction(v, p, fraction | 0, decimals);
  let digits = decimals;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  return putDigits(v, p, fraction, digits); // leading zeros kept: 0.05 → "05"
}

/**
 * Writes the digits after the point: `fraction` as `decimals` digits, zero-padded on the left,
 * without its trailing zeros. Coordinates are most of the output, so this is done with four
 * digits per table look-up and store rather than a division per digit (a third faster): the
 * digits are stored whole, then the position is moved back over the zeros, and stores may
 * reach 3 bytes past the returned position.
 * @param {DataView} v
 * @param {number} p
 * @param {number} fraction  1 … 10^decimals - 1
 * @param {number} decimals  1 … 8
 * @returns {number}
 */
function putFraction(v, p, fraction, decimals) {
  if (decimals <= 4) {
    // The last `decimals` of the four padded digits: shift the leading ones out of the store.
    v.setInt32(p, DIGIT_QUADS[fraction] >>> (8 * (4 - decimals)), true);
    return p + decimals - TRAILING_ZEROS[fraction];
  }
  const high = (fraction / 10000) | 0;
  const low = fraction - high * 10000;
  const highDigits = decimals - 4;
  v.setInt32(p, DIGIT_QUADS[high] >>> (8 * (4 - highDigits)), true);
  v.setInt32(p + highDigits, DIGIT_QUADS[low], true);
  return p + decimals - (low === 0 ? 4 + TRAILING_ZEROS[high] : TRAILING_ZEROS[low]);
}

/**
 * Writes any number as JSON does: shortest round-trip form, null when not finite.
 * @param {DataView} v
 * @param {number} p
 * @param {number} value
 * @returns {number}
 */
export function putJsonNumber(v, p, value) {
  return putAscii(v, p, Number.isFinite(value) ? String(value) : 'null');
}

/** A growable byte buffer that the put functions write into, through `view`. */
export class ByteBuffer {
  /** @param {number} [capacity] initial size in bytes */
  constructor(capacity = 1 << 20) {
    /** @type {Buffer} */
    this.bytes = Buffer.allocUnsafe(capacity);
    /** @type {DataView} over `bytes` */
    this.view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length);
    /** Bytes written so far. */
    this.length = 0;
  }

  /**
   * Continues, empty, in other memory.
   * @param {Buffer} bytes
   */
  use(bytes) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    this.length = 0;
  }

  /**
   * Makes room for `n` more bytes (`bytes` and `view` may then be new).
   * @param {number} n
   */
  reserve(n) {
    const need = this.length + n;
    if (need <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(need, 2 * this.bytes.length));
    this.bytes.copy(grown, 0, 0, this.length);
    const length = this.length;
    this.use(grown);
    this.length = length;
  }
}
