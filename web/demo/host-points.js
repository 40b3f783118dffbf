// The host map demos' points: the panel's choice (?points=N, a reload on change) and the demo's
// synthetic million, the first N of them given to the layer as coordinates.

import { fetchPoints } from './points-file.js';

/** The number of points asked for (default 100,000), and the panel's readout. */
export function pointsChoice() {
  const count = Math.max(0, Number(new URLSearchParams(location.search).get('points') ?? 100000) || 0);
  const select = /** @type {HTMLSelectElement} */ (document.getElementById('points'));
  select.value = String(count);
  select.onchange = () => { location.search = `?points=${select.value}`; };
  return { count, readout: /** @type {HTMLElement} */ (document.getElementById('readout')) };
}

/**
 * Loads the first `count` synthetic points into a layer and says so in the readout.
 * @param {number} count
 * @param {(lngLat: Float64Array) => void} add
 * @param {HTMLElement} readout
 * @param {string} also  what else the layer shows
 */
export async function loadPoints(count, add, readout, also) {
  if (count === 0) {
    readout.textContent = also;
    return;
  }
  const t0 = performance.now();
  const points = await fetchPoints(new URL('data/synthetic-1m.bin', import.meta.url).href);
  const n = Math.min(count, points.count);
  add(points.lngLat.subarray(0, 2 * n));
  readout.textContent = `${n.toLocaleString()} points and ${also}, loaded in ${Math.round(performance.now() - t0)} ms`;
}
