// The bytes the readers and writers look for, by name. Input is parsed as raw bytes (see
// csv.js, ndjson.js, geojson-stream.js), so characters appear as their ASCII codes.

export const TAB = 0x09;
export const LF = 0x0a;
export const CR = 0x0d;
export const RS = 0x1e; // record separator, starts each record of RFC 8142 GeoJSON text sequences
export const SPACE = 0x20;
export const QUOTE = 0x22;
export const PLUS = 0x2b;
export const COMMA = 0x2c;
export const MINUS = 0x2d;
export const DOT = 0x2e;
export const ZERO = 0x30;
export const COLON = 0x3a;
export const OPEN_BRACKET = 0x5b;
export const BACKSLASH = 0x5c;
export const CLOSE_BRACKET = 0x5d;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;

/**
 * Whether a byte is JSON whitespace (space, tab, CR, LF).
 * @param {number} c
 */
export function isJsonSpace(c) {
  return c === SPACE || c === TAB || c === CR || c === LF;
}
