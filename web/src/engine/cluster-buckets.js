// A cluster manager's icon buckets (feature C3): Google's thresholds and colours, the checks of
// an app's own, and the icon a frame's bucket stands for. The engine picks the bucket of each
// cluster; these read its choice back as a label, a colour and a size.

import { argumentError } from '../core/errors.js';
import { numberArg, stringArg } from '../core/arguments.js';

/** Google's cluster icon buckets (feature C3), as the engine's `ClusterIconBuckets.standard`. */
export const STANDARD_BUCKETS = Object.freeze([10, 50, 100, 200, 1000]);

/** The colours of the standard buckets, in their order. */
export const STANDARD_COLORS = Object.freeze(['#0099cc', '#669900', '#ff8800', '#cc0000', '#9933cc']);

/**
 * @typedef {object} ClusterIcon  how the host draws a cluster
 * @property {string} text  the label: the count below the first bucket, else "10+", "50+", …
 * @property {string} color  '#rrggbb'
 * @property {number} diameter  of the circle, in CSS pixels
 */

const COLOR = /^#[0-9a-f]{6}$/i;

/**
 * Buckets and colours checked for their JS types; colours by default the standard ones in turn.
 * Their rules (positive, increasing) are the engine's to check.
 * @param {unknown} buckets
 * @param {unknown} colors
 * @param {string} call
 * @returns {{buckets: number[], colors: string[]}}
 */
export function bucketArgs(buckets, colors, call) {
  if (!Array.isArray(buckets)) throw argumentError(call, 'buckets must be an array of numbers');
  const b = Array.from(buckets, (v, i) => numberArg(v, `buckets[${i}]`, call));
  if (colors === undefined) return { buckets: b, colors: b.map((_, i) => STANDARD_COLORS[i % STANDARD_COLORS.length]) };
  if (!Array.isArray(colors)) throw argumentError(call, "colors must be an array of '#rrggbb' strings");
  const c = Array.from(colors, (v, i) => {
    const s = stringArg(v, `colors[${i}]`, call);
    if (!COLOR.test(s)) throw argumentError(call, `colors[${i}] must be '#rrggbb', got ${JSON.stringify(s)}`);
    return s.toLowerCase();
  });
  return { buckets: b, colors: c };
}

/**
 * A cluster icon from the bucket the engine chose for it. The rule is the engine's
 * (`ClusterIconBuckets` in Sources/Cairn/Clustering/ClusterIconStyle.swift: `text(for:)`,
 * `color(for:)`, `diameter(for:)`); the frame carries the bucket, and this reads it back.
 * @param {number} bucket  -1 below the first bucket
 * @param {number} count
 * @param {readonly number[]} buckets
 * @param {readonly string[]} colors
 * @returns {ClusterIcon}
 */
export function clusterIcon(bucket, count, buckets, colors) {
  return {
    text: bucket < 0 ? String(count) : `${buckets[bucket]}+`,
    // Below the first bucket, the first bucket's colour.
    color: colors[Math.max(bucket, 0)],
    // ClusterIconBuckets.diameter(for:): 30 points, and 4 more for each bucket reached.
    diameter: 30 + 4 * (bucket + 1),
  };
}
