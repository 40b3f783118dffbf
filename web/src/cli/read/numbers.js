// Reading numbers straight from input bytes. Millions of CSV fields go through here, so the
// common forms ("-12.345678", "7", "0.5") are read without making a string; anything else
// (exponents, more digits than a double holds exactly) falls back to Number() on the text,
// which gives the same result, only slower.

import { DOT, MINUS, PLUS, SPACE, TAB, ZERO } from '../ascii.js';

/** 10^0 … 10^22: the powers of ten a double holds exactly. */
const POW10 = Float64Array.from({ length: 23 }, (_, i) => 10 ** i);
/**
 * 2^53: below it every integer is exact in a double. (2^53 itself is too, but so is the sum
 * that rounds to it from 9007199254740993, so it cannot be trusted.)
 */
const EXACT_LIMIT = 2 ** 53;
/** A decimal number as Number() reads it, minus the forms CSV data never means (hex, "Infinity", ""). */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;


/**
 * Parses the decimal number written (in ASCII) in `bytes[start, end)`, spaces and tabs around
 * it allowed. The result is exactly what Number() gives for the same text.
 *
 * @param {Buffer} bytes
 * @param {number} start
 * @param {number} end  exclusive
 * @returns {number} NaN when the text is not a decimal number (empty text included); ±Infinity
 *   when it is one too large for a double
 */
export function parseDecimal(bytes, start, end) {
  while (start < end && (bytes[start] === SPACE || bytes[start] === TAB)) start++;
  while (end > start && (bytes[end - 1] === SPACE || bytes[end - 1] === TAB)) end--;
  let i = start;
  let negative = false;
  if (i < end && (bytes[i] === MINUS || bytes[i] === PLUS)) {
    negative = bytes[i] === MINUS;
    i++;
  }
  // Digits are gathered into one integer mantissa; with at most 2^53 as mantissa and 10^22 as
  // divisor, both are exact and the one division is correctly rounded (Clinger's fast path).
  let mantissa = 0;
  let decimals = 0;
  let digits = 0;
  for (; i < end; i++) {
    const d = bytes[i] - ZERO;
    if (d < 0 || d > 9) break;
    mantissa = mantissa * 10 + d;
    digits++;
  }
  if (i < end && bytes[i] === DOT) {
    for (i++; i < end; i++) {
      const d = bytes[i] - ZERO;
      if (d < 0 || d > 9) break;
      mantissa = mantissa * 10 + d;
      decimals++;
    }
    digits += decimals;
  }
  if (i === end && digits > 0 && mantissa < EXACT_LIMIT && decimals < POW10.length) {
    const value = decimals === 0 ? mantissa : mantissa / POW10[decimals];
    return negative ? -value : value;
  }
  // Number() also skips other white space (a no-break space, a stray carriage return).
  const text = bytes.toString('utf8', start, end).trim();
  return DECIMAL.test(text) ? Number(text) : NaN;
}

/**
 * Whether a text is a number in JSON's own grammar (no leading zeros, no "+", no bare "."):
 * the CSV values that are written as JSON numbers rather than strings. "02134" stays a string.
 */
export const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
