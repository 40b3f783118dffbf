// The default marker pin (features M2, V1): Google's classic red teardrop with a darker border and
// a dark round glyph in its head, 27 × 43 CSS pixels with its tip at the bottom centre. The
// engine hit-tests the default pin with exactly that box, so the drawing fills it: the head
// spans the full width and the tip touches the bottom edge.
//
// Pins are drawn once per distinct style and pixel ratio and kept: thousands of markers share
// a handful of canvases.

import { createCanvas, context2d, cssToRgba, imageHeight, imageId, imageReady, imageWidth } from './canvas.js';
import { cssColor, darken } from './color.js';
import { argumentError, describeValue } from '../core/errors.js';
import { LRU } from './lru.js';

/**
 * @typedef {object} PinStyle  Google's PinElement options
 * @property {string} [background='#EA4335']  the body's fill
 * @property {string} [borderColor]  the outline; '#B31412' on the default body, else a darker shade of the background
 * @property {string | CanvasImageSource | null} [glyph]  text, an image (drawn only once loaded), or null for none;
 *   left out, a round dot
 * @property {string} [glyphColor]  the dot's or text's colour; defaults like borderColor
 * @property {number} [scale=1]  size multiplier, above 0
 */

/** The unscaled pin in CSS pixels, and where its tip is (fractions of the box). */
export const PIN = Object.freeze({ width: 27, height: 43, anchorX: 0.5, anchorY: 1 });

const DEFAULT_BACKGROUND = '#EA4335';
const DEFAULT_BORDER = '#B31412';
const GLYPH_FONT = 'Roboto, Arial, sans-serif';

// The outline in the 27 × 43 box: a head of radius 12.5 centred 13.5 from the top and sides
// (half the 1-pixel border stays inside the box), narrowing to the tip at the bottom centre.
const HEAD = { x: 13.5, y: 13.5, r: 12.5 };
const TIP_Y = 42.25;
const DOT_RADIUS = 4.5;
const GLYPH_BOX = 15;

/** @type {LRU<string, HTMLCanvasElement>} */
const cache = new LRU(512);

/**
 * The drawn size of a pin of this style, in CSS pixels.
 * @param {PinStyle} [style]
 * @returns {{width: number, height: number}}
 */
export function pinSize(style) {
  const scale = pinScale(style);
  return { width: PIN.width * scale, height: PIN.height * scale };
}

/**
 * The pin drawn for a screen of this pixel ratio: a canvas of its CSS size times the ratio, to
 * be drawn at `pinSize(style)` with the anchor (0.5, 1). The same style and ratio return the
 * same canvas.
 * @param {PinStyle} [style]
 * @param {number} [pixelRatio=1]
 * @returns {HTMLCanvasElement}
 */
export function pinImage(style = {}, pixelRatio = 1) {
  const scale = pinScale(style);
  if (!(Number.isFinite(pixelRatio) && pixelRatio > 0)) throw argumentError('pinImage', `pixelRatio must be above 0, not ${pixelRatio}`);
  const colors = pinColors(style);
  // An image glyph still loading is left out, under a key of its own: asked again once the
  // image has loaded, the pin is drawn whole.
  const loading = style.glyph != null && typeof style.glyph !== 'string' && !imageReady(style.glyph);
  const glyph = loading ? null : style.glyph;
  const key = `${colors.background}|${colors.border}|${colors.glyph}|${glyphKey(style.glyph)}${loading ? '|loading' : ''}|${scale}|${pixelRatio}`;
  const cached = cache.get(key);
  if (cached) return cached;

  const canvas = createCanvas(PIN.width * scale * pixelRatio, PIN.height * scale * pixelRatio);
  const ctx = context2d(canvas);
  // Fill the whole canvas even where rounding made it a fraction of a pixel larger.
  ctx.scale(canvas.width / PIN.width, canvas.height / PIN.height);
  pinPath(ctx);
  ctx.fillStyle = colors.background;
  ctx.fill();
  ctx.lineWidth = 1;
  ctx.strokeStyle = colors.border;
  ctx.stroke();
  drawGlyph(ctx, glyph, colors.glyph);
  cache.set(key, canvas);
  return canvas;
}

/**
 * @param {PinStyle | undefined} style
 * @returns {number}
 */
function pinScale(style) {
  const scale = style?.scale ?? 1;
  if (!(typeof scale === 'number' && Number.isFinite(scale) && scale > 0)) {
    throw argumentError('pinIcon', `scale must be a number above 0, not ${describeValue(scale)}`);
  }
  return scale;
}

/**
 * The style's colours, with Google's defaults; a custom background without a border or glyph
 * colour gets darker shades of itself for them.
 * @param {PinStyle} style
 * @returns {{background: string, border: string, glyph: string}}
 */
function pinColors(style) {
  const background = style.background ?? DEFAULT_BACKGROUND;
  let shade = DEFAULT_BORDER;
  if (style.background !== undefined && (style.borderColor === undefined || style.glyphColor === undefined)) {
    const rgba = cssToRgba(background);
    if (rgba) shade = cssColor(darken(rgba, 0.3));
  }
  return { background, border: style.borderColor ?? shade, glyph: style.glyphColor ?? shade };
}

/**
 * @param {PinStyle['glyph']} glyph
 * @returns {string}
 */
function glyphKey(glyph) {
  if (glyph === undefined) return 'dot';
  if (glyph === null || glyph === '') return 'none';
  if (typeof glyph === 'string') return 'text:' + glyph;
  return 'image:' + imageId(glyph);
}

/**
 * The teardrop: from the tip up the left side to the head, over the top, and back down.
 * @param {CanvasRenderingContext2D} ctx
 */
function pinPath(ctx) {
  const { x, y, r } = HEAD;
  const left = x - r, right = x + r;
  ctx.beginPath();
  ctx.moveTo(x, TIP_Y);
  // The sides leave the head vertically at its widest and meet at the tip almost vertically,
  // which gives the pin its narrow neck.
  ctx.bezierCurveTo(x - 1.2, TIP_Y - 6, left, y + 10, left, y);
  ctx.arc(x, y, r, Math.PI, 0);
  ctx.bezierCurveTo(right, y + 10, x + 1.2, TIP_Y - 6, x, TIP_Y);
  ctx.closePath();
}

/**
 * Draws the glyph in the head.
 * @param {CanvasRenderingContext2D} ctx
 * @param {PinStyle['glyph']} glyph  an image glyph is loaded
 * @param {string} color
 */
function drawGlyph(ctx, glyph, color) {
  if (glyph === null || glyph === '') return;
  if (glyph === undefined) {
    ctx.beginPath();
    ctx.arc(HEAD.x, HEAD.y, DOT_RADIUS, 0, 2 * Math.PI);
    ctx.fillStyle = color;
    ctx.fill();
    return;
  }
  if (typeof glyph === 'string') {
    // Shrink the text until it fits across the head.
    let size = 14;
    ctx.font = `bold ${size}px ${GLYPH_FONT}`;
    const width = ctx.measureText(glyph).width;
    if (width > GLYPH_BOX + 2) {
      size = Math.max(6, size * (GLYPH_BOX + 2) / width);
      ctx.font = `bold ${size}px ${GLYPH_FONT}`;
    }
    ctx.fillStyle = color;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(glyph, HEAD.x, HEAD.y + 0.5, GLYPH_BOX + 2);
    return;
  }
  const w = imageWidth(glyph), h = imageHeight(glyph);
  if (!(w > 0 && h > 0)) return;
  const k = GLYPH_BOX / Math.max(w, h);
  ctx.drawImage(glyph, HEAD.x - (w * k) / 2, HEAD.y - (h * k) / 2, w * k, h * k);
}
