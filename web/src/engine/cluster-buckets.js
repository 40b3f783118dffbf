// A cluster manager's icon buckets (feature C3) as the engine holds them: the checks of an app's
// own list for their JS types, and the engine's defaults and buckets in force read back. The
// rules (positive, increasing, Google's thresholds and colours, the label, the colour and the
// diameter of each cluster's icon) are the engine's (`ClusterIconBuckets`, `ClusterRendering`);
// each frame's cluster records carry the icon, and nothing here decides one.

import { argumentError } from '../core/errors.js';
import { numberArg, stringArg } from '../core/arguments.js';

/**
 * @typedef {object} ClusterIcon  how the host draws a cluster, as its draw record says
 * @property {string} text  the label: the count below the first bucket, else "10+", "50+", …
 * @property {string} color  '#rrggbb'
 * @property {number} diameter  of the circle, in CSS pixels: Google's, from the label's measured size and the bucket
 */

/**
 * @typedef {object} ClusterDefaults  a manager's defaults, the engine's
 * @property {number} algorithm  the engine's number of the algorithm
 * @property {number} minimumClusterSize
 * @property {number} maximumClusterZoom
 * @property {number} radius
 * @property {boolean} animatesClusters
 * @property {number} labelFontSize  CSS pixels of the bold label font the host measures and draws with
 * @property {readonly number[]} buckets
 * @property {readonly string[]} colors
 */

const COLOR = /^#[0-9a-f]{6}$/i;

/**
 * A colour of the engine's (0xRRGGBB) as '#rrggbb'.
 * @param {number} rgb
 * @returns {string}
 */
export const hexColor = (rgb) => `#${rgb.toString(16).padStart(6, '0')}`;

/**
 * Buckets and colours checked for their JS types (colours may be left out: the engine's then).
 * Their rules (positive, increasing) are the engine's to check.
 * @param {unknown} buckets
 * @param {unknown} colors
 * @param {string} call
 * @returns {{buckets: number[], colors: string[] | undefined}}
 */
export function bucketArgs(buckets, colors, call) {
  if (!Array.isArray(buckets)) throw argumentError(call, 'buckets must be an array of numbers');
  const b = Array.from(buckets, (v, i) => numberArg(v, `buckets[${i}]`, call));
  if (colors === undefined) return { buckets: b, colors: undefined };
  if (!Array.isArray(colors)) throw argumentError(call, "colors must be an array of '#rrggbb' strings");
  const c = Array.from(colors, (v, i) => {
    const s = stringArg(v, `colors[${i}]`, call);
    if (!COLOR.test(s)) throw argumentError(call, `colors[${i}] must be '#rrggbb', got ${JSON.stringify(s)}`);
    return s.toLowerCase();
  });
  return { buckets: b, colors: c };
}

/**
 * Reads doubles an export writes "when they fit" (returning how many it has), growing the
 * buffer once when the first is too short.
 * @param {(doubles: number) => Float64Array} buffer  a fresh view of at least that many doubles
 * @param {(out: number, capacity: number) => number} write
 * @returns {number[]}
 */
function readDoubles(buffer, write) {
  let b = buffer(64);
  let n = write(b.byteOffset, b.length);
  if (n > b.length) {
    b = buffer(n);
    n = write(b.byteOffset, b.length);
  }
  return n < 0 ? [] : Array.from(b.subarray(0, n));
}

/** @type {WeakMap<object, ClusterDefaults>} by the module's exports */
const defaultsByModule = new WeakMap();

/**
 * A manager's defaults, from the module (`cairn_cluster_defaults`), read once per module.
 * @param {Record<string, Function>} fn  the module's exports
 * @param {(doubles: number) => Float64Array} buffer
 * @returns {ClusterDefaults}
 */
export function clusterDefaults(fn, buffer) {
  let d = defaultsByModule.get(fn);
  if (!d) {
    const v = readDoubles(buffer, (out, capacity) => fn.cairn_cluster_defaults(out, capacity));
    const n = v[6];
    d = Object.freeze({
      algorithm: v[0], minimumClusterSize: v[1], maximumClusterZoom: v[2], radius: v[3], animatesClusters: v[4] === 1,
      labelFontSize: v[5], buckets: Object.freeze(v.slice(7, 7 + n)), colors: Object.freeze(v.slice(7 + n, 7 + 2 * n).map(hexColor)),
    });
    defaultsByModule.set(fn, d);
  }
  return d;
}

/**
 * A manager's buckets in force and their colours, from the engine (`cairn_map_cluster_buckets`).
 * @param {(out: number, capacity: number) => number} write
 * @param {(doubles: number) => Float64Array} buffer
 * @returns {{buckets: number[], colors: string[]}}
 */
export function bucketsInForce(write, buffer) {
  const v = readDoubles(buffer, write);
  const n = v.length / 2;
  return { buckets: v.slice(0, n), colors: v.slice(n).map(hexColor) };
}
