// Output text assembled as bytes. Per-zoom GeoJSON of ten million points is gigabytes of
// digits and punctuation; writing them into one preallocated buffer avoids a string per number
// and a string per feature, which is what makes the output phase fast enough.
//
// The writers are plain functions over (DataView, position) that return the new position: hot
// loops keep both in local variables, which V8 compiles to far tighter code than updating an
// object's fields at every byte. They go through a DataView because it stores 2 and 4 bytes at
// a time at any alignment: constant text is copied 4 bytes per store and digits 2 per store,
// which measured about twice as fast as byte stores. They do not check room: reserve an upper
// bound first.

/** 10^0 … 10^15, for counting digits. */
const POW10 = Float64Array.from({ length: 16 }, (_, i) => 10 ** i);
/** The two ASCII digits of 0 … 99 as one little-endian 16-bit store. */
const DIGIT_PAIRS = Uint16Array.from({ length: 100 }, (_, i) => (0x30 + Math.floor(i / 10)) | ((0x30 + (i % 10)) << 8));
const ZERO = 0x30;
const MINUS = 0x2d;
const DOT = 0x2e;

/**
 * Constant text, prepared for putSnippet: its bytes as 32-bit words plus up to 3 left over.
 * @typedef {object} Snippet
 * @property {Uint32Array} words
 * @property {Uint8Array} tail
 * @property {number} length  in bytes
 */

/**
 * @param {string} text
 * @returns {Snippet}
 */
export function snippet(text) {
  const bytes = Buffer.from(text, 'utf8');
  const whole = bytes.length >> 2;
  const words = new Uint32Array(whole);
  for (let i = 0; i < whole; i++) words[i] = bytes.readUInt32LE(4 * i);
  return { words, tail: Uint8Array.from(bytes.subarray(4 * whole)), length: bytes.length };
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
  for (let i = 0; i < words.length; i++, p += 4) v.setUint32(p, words[i], true);
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
  if (n < 0x80000000) {
    // Indices, ids and coordinates at up to 9 decimals: int32 arithmetic.
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
  let digits = 1;
  while (digits < 16 && n >= POW10[digits]) digits++;
  return putDigits(v, p, n, digits);
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
  // Whole part and fraction apart, so that the fraction (below 2^30 up to 9 decimals) stays a
  // small integer for V8: a double % costs a library call per digit test.
  let whole = Math.floor(magnitude);
  let fraction = Math.round((magnitude - whole) * scale);
  if (fraction === scale) {
    whole++;
    fraction = 0;
  }
  if (whole === 0 && fraction === 0) {
    v.setUint8(p, ZERO); // never "-0"
    return p + 1;
  }
  if (value < 0) v.setUint8(p++, MINUS);
  p = putInt(v, p, whole);
  if (fraction === 0) return p;
  let digits = decimals;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  v.setUint8(p++, DOT);
  return putDigits(v, p, fraction, digits); // leading zeros kept: 0.05 → "05"
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
   * Makes room for `n` more bytes (`bytes` and `view` may then be new).
   * @param {number} n
   */
  reserve(n) {
    const need = this.length + n;
    if (need <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(need, 2 * this.bytes.length));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
    this.view = new DataView(grown.buffer, grown.byteOffset, grown.length);
  }
}
