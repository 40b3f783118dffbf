// The default cluster icon (feature C3), as Google's marker clustering utility draws it: a disc
// of the bucket's colour with the label ("7", "10+", "1000+") in white bold at the centre.
// Labels, colours and diameters come from the engine by way of ClusterManager.iconFor; this file
// draws them, once per distinct look, and measures the label font for the engine, whose
// diameters grow with the measured label (Google's rule).

import { createCanvas, context2d } from './canvas.js';
import { argumentError } from '../core/errors.js';
import { LRU } from './lru.js';

/**
 * @typedef {object} ClusterIconStyle  what ClusterManager.iconFor returns
 * @property {string} text
 * @property {string} color  any CSS colour
 * @property {number} diameter  CSS pixels, above 0
 * @property {number} [labelSize]  the label's font size in CSS pixels, as measured for the engine
 *   (`measureClusterLabels`); without it the label is sized to the icon
 */

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
  const { text, color, diameter, labelSize } = style;
  if (!(Number.isFinite(diameter) && diameter > 0)) throw argumentError('clusterIconImage', `diameter must be above 0, not ${diameter}`);
  if (!(Number.isFinite(pixelRatio) && pixelRatio > 0)) throw argumentError('clusterIconImage', `pixelRatio must be above 0, not ${pixelRatio}`);
  const key = `${text}|${color}|${diameter}|${labelSize}|${pixelRatio}`;
  const cached = cache.get(key);
  if (cached) return cached;

  const canvas = createCanvas(diameter * pixelRatio, diameter * pixelRatio);
  const ctx = context2d(canvas);
  ctx.scale(canvas.width / diameter, canvas.height / diameter);
  const r = diameter / 2;
  ctx.beginPath();
  ctx.arc(r, r, r, 0, 2 * Math.PI);
  ctx.fillStyle = color;
  ctx.fill();
  drawClusterLabel(ctx, text, diameter, diameter * 0.84, labelSize);
  cache.set(key, canvas);
  return canvas;
}

/**
 * A cluster's label, white and bold, centred in a square icon of `diameter` CSS pixels: at
 * `size` when given (the size measured for the engine, which made the icon fit it), else
 * filling most of `room` (the width it may take) and never taller than 40% of the icon.
 * @param {CanvasRenderingContext2D} ctx  scaled to CSS pixels
 * @param {string} text
 * @param {number} diameter
 * @param {number} room
 * @param {number} [given]
 */
export function drawClusterLabel(ctx, text, diameter, room, given) {
  let size = given ?? diameter * 0.4;
  ctx.font = `bold ${size}px ${FONT_FAMILY}`;
  const width = ctx.measureText(text).width;
  if (given === undefined && width > room) {
    size *= room / width;
    ctx.font = `bold ${size}px ${FONT_FAMILY}`;
  }
  ctx.fillStyle = '#ffffff';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, diameter / 2, diameter / 2 + size * 0.04);
}

/** The characters cluster labels are made of, in the order the engine takes their advances. */
const LABEL_CHARACTERS = '0123456789+';

/**
 * The page's measure of cluster labels in their bold font at `size` CSS pixels, for the engine
 * (`ClusterLabelMetrics`): the advance of each of "0"…"9" and "+", and the font's line height.
 * @param {number} size
 * @returns {{advances: number[], height: number}}
 */
export function measureClusterLabels(size) {
  const ctx = context2d(createCanvas(1, 1));
  ctx.font = `bold ${size}px ${FONT_FAMILY}`;
  const advances = Array.from(LABEL_CHARACTERS, (c) => ctx.measureText(c).width);
  const m = ctx.measureText(LABEL_CHARACTERS);
  const height = (m.fontBoundingBoxAscent ?? m.actualBoundingBoxAscent) + (m.fontBoundingBoxDescent ?? m.actualBoundingBoxDescent);
  return { advances, height: Number.isFinite(height) ? height : 0 };
}
