// Basemap tile sources: the interface the renderer draws from, and the two it comes with.

/**
 * @typedef {object} TileSource  where the renderer gets basemap tiles
 * @property {string} attribution  shown at the bottom right ('' for none)
 * @property {number} maxZoom  the deepest tiles it has; the renderer enlarges those for deeper views
 * @property {(z: number, x: number, y: number) => CanvasImageSource | null} get  a tile ready to draw, or null
 * @property {(z: number, x: number, y: number) => void} request  asks for a missing tile; the renderer asks
 *   for each frame's missing tiles nearest first, and a source fetches in that order
 * @property {(() => void) | null} [onLoad]  the source calls it when a tile has become ready; a renderer
 *   given a source without one sets it to its onNeedsRedraw
 * @property {(bearing: number) => void} [setBearing]  told the map's bearing before each frame's tiles, so
 *   a source that paints text can paint it the right way up
 */

export { RasterTileSource, tileUrl } from './raster-tile-source.js';
export { OfflineTileSource, graticuleStep, formatDegrees, mercatorX, mercatorY, OFFLINE_STYLE } from './offline-tile-source.js';
export { tileKey } from './tile-pyramid.js';
