// Web Mercator, as far as the JavaScript side needs it: the one projection helper of the JS
// layers. The engine does the map's projecting; this is for the few places that draw or reason
// about the world without asking it (the offline basemap's tiles, the command line's tiles).

/** The latitude where the square Web Mercator world ends: atan(sinh(π)), in degrees (≈ 85.0511°). */
export const MAX_LATITUDE = (Math.atan(Math.sinh(Math.PI)) * 180) / Math.PI;

/**
 * Longitude to the world's x, 0 … 1 from 180°W.
 * @param {number} lng
 * @returns {number}
 */
export function mercatorX(lng) {
  return (lng + 180) / 360;
}

/**
 * Latitude to the world's y, 0 … 1 from the north edge of Web Mercator.
 * @param {number} lat  clamped to ±85.0511°
 * @returns {number}
 */
export function mercatorY(lat) {
  const phi = (Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)) * Math.PI) / 180;
  return (1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2;
}

/**
 * The latitude at a world y (inverse of mercatorY).
 * @param {number} y
 * @returns {number}
 */
export function latitudeAt(y) {
  return (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
}
