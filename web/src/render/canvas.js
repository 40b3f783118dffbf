// Browser helpers the sprite and tile code share: making canvases, reading an image's pixel
// size whatever kind of image it is, naming images in cache keys, and letting the browser
// resolve any CSS colour (names, hsl()) to one the colour maths can read.

import { parseColor } from './color.js';
import { argumentError } from '../core/errors.js';
import { LRU } from './lru.js';

/** @typedef {import('./color.js').Rgba} Rgba */

/**
 * A canvas of this many device pixels (at least 1 × 1).
 * @param {number} width
 * @param {number} height
 * @returns {HTMLCanvasElement}
 */
export function createCanvas(width, height) {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.ceil(width));
  canvas.height = Math.max(1, Math.ceil(height));
  return canvas;
}

/**
 * The canvas's 2D context; one is always there unless the canvas was given another kind.
 * @param {HTMLCanvasElement} canvas
 * @returns {CanvasRenderingContext2D}
 */
export function context2d(canvas) {
  const ctx = canvas.getContext('2d');
  if (!ctx) throw argumentError('context2d', 'this canvas has no 2D context (it was already given another kind)');
  return ctx;
}

/**
 * An image's width in its own pixels (an <img>'s natural size, not its layout size).
 * @param {CanvasImageSource} image
 * @returns {number}
 */
export function imageWidth(image) {
  if ('naturalWidth' in image) return image.naturalWidth;
  if ('videoWidth' in image) return image.videoWidth;
  const w = image.width;
  return typeof w === 'number' ? w : w.baseVal.value;
}

/**
 * An image's height in its own pixels.
 * @param {CanvasImageSource} image
 * @returns {number}
 */
export function imageHeight(image) {
  if ('naturalHeight' in image) return image.naturalHeight;
  if ('videoHeight' in image) return image.videoHeight;
  const h = image.height;
  return typeof h === 'number' ? h : h.baseVal.value;
}

/**
 * Whether drawing the image now would draw something (and not throw, as a broken <img> does).
 * @param {CanvasImageSource} image
 * @returns {boolean}
 */
export function imageReady(image) {
  if ('complete' in image && 'naturalWidth' in image) return image.complete && image.naturalWidth > 0;
  return true;
}

/** @type {WeakMap<object, number>} */
const imageIds = new WeakMap();
let nextImageId = 1;

/**
 * A number naming this image object for as long as it lives, for cache keys of sprites drawn
 * from it (the same image gives the same number).
 * @param {object} image
 * @returns {number}
 */
export function imageId(image) {
  let id = imageIds.get(image);
  if (id === undefined) {
    id = nextImageId++;
    imageIds.set(image, id);
  }
  return id;
}

/** @type {CanvasRenderingContext2D | null} */
let colorContext = null;

/**
 * Any CSS colour as channels: the browser normalises it (a 2D context reads back what it was
 * given as '#rrggbb' or 'rgba(…)'), then color.js reads that.
 * @param {string} color
 * @returns {Rgba | null} null when the browser does not take it as a colour
 */
export function cssToRgba(color) {
  const direct = parseColor(color);
  if (direct) return direct;
  if (typeof document === 'undefined') return null;
  // Sprites are asked for often with the same few colours; asking the browser is not free.
  const known = resolved.get(color);
  if (known !== undefined) return known;
  const rgba = resolveColor(color);
  resolved.set(color, rgba);
  return rgba;
}

/** @type {LRU<string, Rgba | null>} */
const resolved = new LRU(256);

/**
 * @param {string} color
 * @returns {Rgba | null}
 */
function resolveColor(color) {
  colorContext ??= context2d(createCanvas(1, 1));
  // Two different sentinels: a colour the context refuses leaves the sentinel in place.
  colorContext.fillStyle = '#000001';
  colorContext.fillStyle = color;
  const first = String(colorContext.fillStyle);
  colorContext.fillStyle = '#000002';
  colorContext.fillStyle = color;
  if (String(colorContext.fillStyle) !== first) return null;
  return parseColor(first);
}
