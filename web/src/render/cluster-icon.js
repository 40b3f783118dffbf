// The default cluster icon (feature C3), as Google's marker clustering utility draws it: a disc of
// the bucket's colour inside a translucent ring of the same colour, with the label ("7", "10+",
// "1000+") in white bold at the centre. Buckets, colours and diameters come from the engine by
// way of ClusterManager.iconFor; this file only draws them, once per distinct look.

import { createCanvas, context2d, cssToRgba } from './canvas.js';
import { cssColor, withAlpha } from './color.js';
import { argumentError } from '../core/errors.js';
import { LRU } from './lru.js';

/**
 * @typedef {object} ClusterIconStyle  what ClusterManager.iconFor returns
 * @property {string} text
 * @property {string} color  any CSS colour
 * @property {number} diameter  CSS pixels, above 0
 */

/** The inner disc's diameter as a share of the whole icon; the rest is the ring. */
export const CLUSTER_DISC_SHARE = 0.76;
/** The ring's opacity. */
const RING_ALPHA = 0.35;
const FONT_FAMILY = 'Roboto, Arial, sans-serif';

/** @type {LRU<string, HTMLCanvasElement>} */
const cache = new LRU(256);

/**
 * The icon as a canvas of `diameter × pixelRatio` device pixels, drawn at `diameter` CSS
 * pixels centred on the cluster (anchor 0.5, 0.5). The same look and ratio return the same canvas.
 * @param {ClusterIconStyle} style
 * @param {number} [pixelRatio=1]
 * @returns {HTMLCanvasElement}
 */
export function clusterIconImage(style, pixelRatio = 1) {
  const { text, color, diameter } = style;
  if (!(Number.isFinite(diameter) && diameter > 0)) throw argumentError('clusterIconImage', `diameter must be above 0, not ${diameter}`);
  if (!(Number.isFinite(pixelRatio) && pixelRatio > 0)) throw argumentError('clusterIconImage', `pixelRatio must be above 0, not ${pixelRatio}`);
  const key = `${text}|${color}|${diameter}|${pixelRatio}`;
  const cached = cache.get(key);
  if (cached) return cached;

  const canvas = createCanvas(diameter * pixelRatio, diameter * pixelRatio);
  const ctx = context2d(canvas);
  ctx.scale(canvas.width / diameter, canvas.height / diameter);
  const r = diameter / 2;
  const rgba = cssToRgba(color);
  ctx.beginPath();
  ctx.arc(r, r, r, 0, 2 * Math.PI);
  if (rgba) {
    ctx.fillStyle = cssColor(withAlpha(rgba, rgba.a * RING_ALPHA));
  } else {
    ctx.fillStyle = color;
    ctx.globalAlpha = RING_ALPHA;
  }
  ctx.fill();
  ctx.globalAlpha = 1;
  const inner = r * CLUSTER_DISC_SHARE;
  ctx.beginPath();
  ctx.arc(r, r, inner, 0, 2 * Math.PI);
  ctx.fillStyle = color;
  ctx.fill();

  drawClusterLabel(ctx, text, diameter, inner * 2 * 0.84);
  cache.set(key, canvas);
  return canvas;
}

/**
 * A cluster's label, white and bold, centred in a square icon of `diameter` CSS pixels: it fills
 * most of `room` (the width it may take), and is never taller than 40% of the icon.
 * @param {CanvasRenderingContext2D} ctx  scaled to CSS pixels
 * @param {string} text
 * @param {number} diameter
 * @param {number} room
 */
export function drawClusterLabel(ctx, text, diameter, room) {
  let size = diameter * 0.4;
  ctx.font = `bold ${size}px ${FONT_FAMILY}`;
  const width = ctx.measureText(text).width;
  if (width > room) {
    size *= room / width;
    ctx.font = `bold ${size}px ${FONT_FAMILY}`;
  }
  ctx.fillStyle = '#ffffff';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, diameter / 2, diameter / 2 + size * 0.04);
}
