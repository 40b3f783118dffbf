// Draws the frame's basemap tiles. The engine gives each tile's four screen corners; a tile that
// is only moved, scaled or turned is one affine drawImage, a tilted one two clipped triangles
// (see quad.js). A tile not loaded yet shows the matching part of its nearest loaded ancestor,
// so zooming in shows a blurred map at once instead of background.
//
// Everything here runs for every tile of every frame, so it works in preallocated scratch
// arrays and allocates nothing.

import { imageHeight, imageWidth } from '../canvas.js';
import { affineFromTriangles, growTriangle, isParallelogram, parallelogramTransform } from '../quad.js';
import { emptyPatch, findTileImage } from './tile-pyramid.js';

/** @typedef {import('../../core/frame.js').Tile} Tile */
/** @typedef {import('./tile-source.js').TileSource} TileSource */

/** How far each tile is grown beyond its edges, in CSS pixels, to hide seams. */
const GROW = 0.5;

const patch = emptyPatch();
const transform = new Float64Array(6);
const corners = new Float64Array(6);
const grown = new Float64Array(6);
// The unit square's corners for the two triangles: top-left, top-right, bottom-left; and
// top-right, bottom-right, bottom-left.
const UNIT_A = new Float64Array([0, 0, 1, 0, 0, 1]);
const UNIT_B = new Float64Array([1, 0, 1, 1, 0, 1]);

/**
 * Draws the tiles, asking the source for the ones it lacks (in the frame's order: nearest first).
 * @param {CanvasRenderingContext2D} ctx  with the CSS-pixel transform (pixelRatio scale) set
 * @param {readonly Tile[]} tiles
 * @param {TileSource} source
 * @param {number} pixelRatio
 */
export function drawTiles(ctx, tiles, source, pixelRatio) {
  for (let i = 0; i < tiles.length; i++) {
    const tile = tiles[i];
    if (!findTileImage(source, tile.z, tile.wrappedX, tile.y, patch)) continue;
    const image = /** @type {CanvasImageSource} */ (patch.image);
    const w = imageWidth(image), h = imageHeight(image);
    if (!(w > 0 && h > 0)) continue;
    const sx = patch.sx * w, sy = patch.sy * h, sw = patch.size * w, sh = patch.size * h;
    const c = tile.corners;
    if (isParallelogram(c)) {
      if (!parallelogramTransform(c, GROW, transform)) continue;
      drawUnit(ctx, image, sx, sy, sw, sh, pixelRatio, null);
    } else {
      // Top-left, top-right, bottom-left; then top-right, bottom-right, bottom-left.
      corners[0] = c[0]; corners[1] = c[1]; corners[2] = c[2]; corners[3] = c[3]; corners[4] = c[6]; corners[5] = c[7];
      if (growTriangle(corners, GROW, grown) && affineFromTriangles(UNIT_A, grown, transform)) {
        drawUnit(ctx, image, sx, sy, sw, sh, pixelRatio, grown);
      }
      corners[0] = c[2]; corners[1] = c[3]; corners[2] = c[4]; corners[3] = c[5]; corners[4] = c[6]; corners[5] = c[7];
      if (growTriangle(corners, GROW, grown) && affineFromTriangles(UNIT_B, grown, transform)) {
        drawUnit(ctx, image, sx, sy, sw, sh, pixelRatio, grown);
      }
    }
  }
}

/**
 * Draws the image's part into the unit square under `transform`, clipped to a triangle when given.
 * @param {CanvasRenderingContext2D} ctx
 * @param {CanvasImageSource} image
 * @param {number} sx
 * @param {number} sy
 * @param {number} sw
 * @param {number} sh
 * @param {number} pixelRatio
 * @param {Float64Array | null} clip  x0, y0, x1, y1, x2, y2 in CSS pixels
 */
function drawUnit(ctx, image, sx, sy, sw, sh, pixelRatio, clip) {
  const t = transform, r = pixelRatio;
  if (clip) {
    ctx.save();
    ctx.beginPath();
    ctx.moveTo(clip[0], clip[1]);
    ctx.lineTo(clip[2], clip[3]);
    ctx.lineTo(clip[4], clip[5]);
    ctx.closePath();
    ctx.clip();
  }
  ctx.setTransform(r * t[0], r * t[1], r * t[2], r * t[3], r * t[4], r * t[5]);
  ctx.drawImage(image, sx, sy, sw, sh, 0, 0, 1, 1);
  if (clip) ctx.restore();
  else ctx.setTransform(r, 0, 0, r, 0, 0);
}
