// Web Mercator for the JavaScript layers that draw or reason about the world without a map (the
// offline basemap's tiles, the command line's scan of the world in bands): asked of the engine,
// so that the projection is written once. The module must be loaded (`await init()`).

import { getModule } from './wasm.js';

/** @type {Record<string, Function> | null} the module's exports, once loaded (it never changes) */
let exports = null;
/** The exports, looked up once: these functions run per point in the command line's scans. */
const fn = () => (exports ??= getModule().fn);

/**
 * The latitude where the square Web Mercator world ends (≈ 85.0511°).
 * @returns {number}
 */
export function maxLatitude() {
  return fn().cairn_mercator_max_latitude();
}

/**
 * Longitude to the world's x, 0 … 1 from 180°W.
 * @param {number} lng
 * @returns {number}
 */
export function mercatorX(lng) {
  return fn().cairn_mercator_x(lng);
}

/**
 * Latitude to the world's y, 0 … 1 from the north edge of Web Mercator.
 * @param {number} lat  clamped to the map's edges
 * @returns {number}
 */
export function mercatorY(lat) {
  return fn().cairn_mercator_y(lat);
}

/**
 * The latitude at a world y (inverse of mercatorY).
 * @param {number} y
 * @returns {number}
 */
export function latitudeAt(y) {
  return fn().cairn_mercator_latitude(y);
}
