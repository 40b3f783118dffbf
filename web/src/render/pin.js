// The default marker pin (features M2, V1): Google's classic red teardrop with a darker border and
// a dark round glyph in its head, its tip at the bottom centre. Its size is the engine's (the
// engine places, collides and hit-tests the default pin with that box), which the map hands
// in; the drawing fills the box: the head spans the full width and the tip touches the bottom
// edge.
//
// Pins are drawn once per distinct style, size and pixel ratio and kept: thousands of markers
// share a handful of canvases.

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

/** @typedef {{width: number, height: number}} PinBox  the unscaled pin's size in CSS pixels, the engine's */

const DEFAULT_BACKGROUND = '#EA4335';
const DEFAULT_BORDER = '#B31412';
const GLYPH_FONT = 'Roboto, Arial, sans-serif';

// The outline in the pin's box, a pixel wide: a head as wide as the box (half the border stays
// inside it), narrowing to the tip at the bottom centre. The rest of the shape is measured in
// head radii: the neck's control points, the round glyph, the square a text or image glyph is
// fitted in, and the text's size.
const BORDER = 1;
const TIP_INSET = 0.75;
const NECK = Object.freeze({ tipDx: 0.096, tipDy: 0.48, headDy: 0.8 });
const DOT_RADIUS = 0.36;
const GLYPH_BOX = 1.2;
const GLYPH_FONT_SIZE = 1.12;
const GLYPH_MIN_FONT_SIZE = 0.48;

/** @type {LRU<string, HTMLCanvasElement>} */
const cache = new LRU(512);

/**
 * The drawn size of a pin of this style, in CSS pixels.
 * @param {PinStyle | undefined} style
 * @param {PinBox} box  the engine's pin size
 * @returns {{width: number, height: number}}
 */
export function pinSize(style, box) {
  const scale = pinScale(style);
  const b = pinBox(box);
  return { width: b.width * scale, height: b.height * scale };
}

/**
 * The pin drawn for a screen of this pixel ratio: a canvas of its CSS size times the ratio, to
 * be drawn at `pinSize(style, box)` with its tip on the marker's point. The same style, size and
 * ratio return the same canvas.
 * @param {PinStyle} style
 * @param {PinBox} box  the engine's pin size
 * @param {number} [pixelRatio=1]
 * @returns {HTMLCanvasElement}
 */
export function pinImage(style, box, pixelRatio = 1) {
  const scale = pinScale(style);
  const b = pinBox(box);
  if (!(Number.isFinite(pixelRatio) && pixelRatio > 0)) throw argumentError('pinImage', `pixelRatio must be above 0, not ${pixelRatio}`);
  const colors = pinColors(style);
  // An image glyph still loading is left out, under a key of its own: asked again once the
  // image has loaded, the pin is drawn whole.
  const loading = style.glyph != null && typeof style.glyph !== 'string' && !imageReady(style.glyph);
  const glyph = loading ? null : style.glyph;
  const key = `${colors.background}|${colors.border}|${colors.glyph}|${glyphKey(style.glyph)}${loading ? '|loading' : ''}|${scale}|` +
    `${b.width}x${b.height}|${pixelRatio}`;
  const cached = cache.get(key);
  if (cached) return cached;

  const canvas = createCanvas(b.width * scale * pixelRatio, b.height * scale * pixelRatio);
  const ctx = context2d(canvas);
  // Fill the whole canvas even where rounding made it a fraction of a pixel larger.
  ctx.scale(canvas.width / b.width, canvas.height / b.height);
  const head = { x: b.width / 2, y: b.width / 2, r: (b.width - BORDER) / 2 };
  pinPath(ctx, head, b.height - TIP_INSET);
  ctx.fillStyle = colors.background;
  ctx.fill();
  ctx.lineWidth = BORDER;
  ctx.strokeStyle = colors.border;
  ctx.stroke();
  drawGlyph(ctx, head, glyph, colors.glyph);
  cache.set(key, canvas);
  return canvas;
}

/**
 * The engine's pin size, checked.
 * @param {PinBox} box
 * @returns {PinBox}
 */
function pinBox(box) {
  const ok = (/** @type {unknown} */ v) => typeof v === 'number' && Number.isFinite(v) && v > 0;
  if (!(box && ok(box.width) && ok(box.height))) {
    throw argumentError('pinImage', `the pin's size must be {width, height} above 0, not ${describeValue(box)}`);
  }
  return box;
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

/** @typedef {{x: number, y: number, r: number}} Head  the pin's round head, in CSS pixels of its box */

/**
 * The teardrop: from the tip up the left side to the head, over the top, and back down.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Head} head
 * @param {number} tipY
 */
function pinPath(ctx, { x, y, r }, tipY) {
  const left = x - r, right = x + r;
  ctx.beginPath();
  ctx.moveTo(x, tipY);
  // The sides leave the head vertically at its widest and meet at the tip almost vertically,
  // which gives the pin its narrow neck.
  ctx.bezierCurveTo(x - NECK.tipDx * r, tipY - NECK.tipDy * r, left, y + NECK.headDy * r, left, y);
  ctx.arc(x, y, r, Math.PI, 0);
  ctx.bezierCurveTo(right, y + NECK.headDy * r, x + NECK.tipDx * r, tipY - NECK.tipDy * r, x, tipY);
  ctx.closePath();
}

/**
 * Draws the glyph in the head.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Head} head
 * @param {PinStyle['glyph']} glyph  an image glyph is loaded
 * @param {string} color
 */
function drawGlyph(ctx, head, glyph, color) {
  if (glyph === null || glyph === '') return;
  if (glyph === undefined) {
    ctx.beginPath();
    ctx.arc(head.x, head.y, DOT_RADIUS * head.r, 0, 2 * Math.PI);
    ctx.fillStyle = color;
    ctx.fill();
    return;
  }
  const box = GLYPH_BOX * head.r;
  if (typeof glyph === 'string') {
    // Shrink the text until it fits across the head.
    let size = GLYPH_FONT_SIZE * head.r;
    ctx.font = `bold ${size}px ${GLYPH_FONT}`;
    const width = ctx.measureText(glyph).width;
    if (width > box + 2) {
      size = Math.max(GLYPH_MIN_FONT_SIZE * head.r, size * (box + 2) / width);
      ctx.font = `bold ${size}px ${GLYPH_FONT}`;
    }
    ctx.fillStyle = color;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(glyph, head.x, head.y + 0.5, box + 2);
    return;
  }
  const w = imageWidth(glyph), h = imageHeight(glyph);
  if (!(w > 0 && h > 0)) return;
  const k = box / Math.max(w, h);
  ctx.drawImage(glyph, head.x - (w * k) / 2, head.y - (h * k) / 2, w * k, h * k);
}
