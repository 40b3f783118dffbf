// Addressing tiles of the z/x/y pyramid: one number per tile for cache keys (no string built
// per lookup, which matters at 60 frames a second), and finding the image that can stand in
// for a tile: its own, or else the matching part of the nearest loaded ancestor's. A tile
// deeper than the source goes (overzoom) always shows part of a tile at the source's maxZoom.

/** @typedef {import('./tile-source.js').TileSource} TileSource */

/**
 * A number unique to each tile up to zoom 26: the tiles of lower zooms first, then row by row.
 * @param {number} z
 * @param {number} x  0 … 2^z - 1
 * @param {number} y  0 … 2^z - 1
 * @returns {number}
 */
export function tileKey(z, x, y) {
  const n = 2 ** z;
  return (n * n - 1) / 3 + y * n + x;
}

/**
 * @typedef {object} TilePatch  the image to draw for a tile and the part of it that covers the tile
 * @property {CanvasImageSource | null} image
 * @property {number} z   the zoom of the tile the image belongs to
 * @property {number} sx  left of the part, as a share of the image's width (0…1)
 * @property {number} sy  top, as a share of its height
 * @property {number} size  the part's width and height as a share of the image's
 */

/** @returns {TilePatch} a patch to reuse across calls */
export function emptyPatch() {
  return { image: null, z: 0, sx: 0, sy: 0, size: 1 };
}

/**
 * Fills `out` with what to draw for tile z/x/y of the source: the tile itself when loaded (or,
 * deeper than the source goes, its ancestor at maxZoom), else the nearest loaded ancestor.
 * Asks the source for the tile it lacks (the one at min(z, maxZoom)).
 * @param {TileSource} source
 * @param {number} z
 * @param {number} x  the wrapped column, 0 … 2^z - 1
 * @param {number} y
 * @param {TilePatch} out
 * @returns {boolean} whether an image was found
 */
export function findTileImage(source, z, x, y, out) {
  out.image = null;
  const n = 2 ** z;
  if (!(Number.isInteger(z) && z >= 0 && x >= 0 && x < n && y >= 0 && y < n)) return false;
  const top = Math.max(0, Math.min(z, Math.floor(source.maxZoom)));
  for (let level = top; level >= 0; level--) {
    const scale = 2 ** (z - level);
    const px = Math.floor(x / scale), py = Math.floor(y / scale);
    const image = source.get(level, px, py);
    if (image) {
      out.image = image;
      out.z = level;
      out.size = 1 / scale;
      out.sx = (x - px * scale) / scale;
      out.sy = (y - py * scale) / scale;
      return true;
    }
    if (level === top) source.request(level, px, py);
  }
  return false;
}
