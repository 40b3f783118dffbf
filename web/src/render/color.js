// Colour arithmetic for the sprites: a pin given only a background colour gets a border and a
// glyph of a darker shade of it, as Google's pins do, and rings are drawn in a translucent
// version of a cluster's colour. Colours arrive as CSS strings; the browser normalises named
// colours (see `cssToRgba` in canvas.js), this file reads what it normalises to.

/** @typedef {{r: number, g: number, b: number, a: number}} Rgba  channels 0–255, alpha 0–1 */

const HEX = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNCTIONAL = /^rgba?\(\s*([^)]*)\)$/i;

/**
 * Reads '#rgb', '#rgba', '#rrggbb', '#rrggbbaa', 'rgb(r, g, b)' and 'rgba(r, g, b, a)' (commas or
 * spaces, alpha after a comma or a slash, percentages for alpha).
 * @param {string} text
 * @returns {Rgba | null} null for anything else (named colours, hsl(), garbage)
 */
export function parseColor(text) {
  const s = String(text).trim();
  const hex = HEX.exec(s);
  if (hex) {
    let h = hex[1];
    if (h.length <= 4) h = h.replace(/./g, (c) => c + c);
    const n = (/** @type {number} */ i) => parseInt(h.slice(i, i + 2), 16);
    return { r: n(0), g: n(2), b: n(4), a: h.length === 8 ? n(6) / 255 : 1 };
  }
  const fn = FUNCTIONAL.exec(s);
  if (!fn) return null;
  const parts = fn[1].split(/\s*[,/]\s*|\s+/).filter((p) => p !== '');
  if (parts.length !== 3 && parts.length !== 4) return null;
  const channels = parts.slice(0, 3).map((p) => (p.endsWith('%') ? parseFloat(p) * 2.55 : parseFloat(p)));
  const alpha = parts.length === 4 ? (parts[3].endsWith('%') ? parseFloat(parts[3]) / 100 : parseFloat(parts[3])) : 1;
  if (![...channels, alpha].every(Number.isFinite)) return null;
  const [r, g, b] = channels.map((c) => Math.min(255, Math.max(0, c)));
  return { r, g, b, a: Math.min(1, Math.max(0, alpha)) };
}

/**
 * The colour mixed towards black.
 * @param {Rgba} c
 * @param {number} amount  0 keeps it, 1 is black
 * @returns {Rgba}
 */
export function darken(c, amount) {
  const k = 1 - Math.min(1, Math.max(0, amount));
  return { r: c.r * k, g: c.g * k, b: c.b * k, a: c.a };
}

/**
 * The colour with another alpha.
 * @param {Rgba} c
 * @param {number} alpha  0–1
 * @returns {Rgba}
 */
export function withAlpha(c, alpha) {
  return { r: c.r, g: c.g, b: c.b, a: Math.min(1, Math.max(0, alpha)) };
}

/**
 * A CSS string: '#rrggbb' when opaque, else 'rgba(r, g, b, a)'.
 * @param {Rgba} c
 * @returns {string}
 */
export function cssColor(c) {
  const r = Math.round(c.r), g = Math.round(c.g), b = Math.round(c.b);
  if (c.a >= 1) return '#' + ((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1);
  return `rgba(${r}, ${g}, ${b}, ${Math.round(c.a * 1000) / 1000})`;
}
