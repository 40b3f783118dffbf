// The check of the GeoJSON features `ClusterIndex.load` takes, before the engine sees any.

import { describeValue } from '../core/errors.js';

/**
 * Checks the shapes of features as `ClusterIndex.load` takes them: each a Point feature with
 * [lng, lat] coordinates, or a feature without geometry, which is skipped (its position still
 * counts, as in supercluster). Gives the count kept and, when some are skipped, the input index
 * of each kept one; or the first feature it cannot take, and why.
 * @param {readonly any[]} features
 * @returns {{kept: number, featureOf: Int32Array | null} | {index: number, problem: string}}
 */
export function scanPointFeatures(features) {
  const n = features.length;
  let kept = 0;
  /** @type {Int32Array | null} */
  let featureOf = null;
  for (let i = 0; i < n; i++) {
    const f = features[i];
    const g = f !== null && typeof f === 'object' ? f.geometry : undefined;
    if (g === undefined || g === null) {
      if (f === null || typeof f !== 'object') return { index: i, problem: 'is not a GeoJSON feature' };
      if (!featureOf) {
        featureOf = new Int32Array(n);
        for (let j = 0; j < i; j++) featureOf[j] = j;
      }
      continue;
    }
    if (g.type !== 'Point') {
      return { index: i, problem: typeof g.type === 'string' ? `has a ${g.type} geometry, not a Point`
        : g.type === undefined ? 'has a geometry without a type, not a Point'
          : `has a geometry whose type is ${describeValue(g.type)}, not "Point"` };
    }
    const c = g.coordinates;
    if (c === null || typeof c !== 'object' || !(typeof c.length === 'number' && c.length >= 2)) {
      return { index: i, problem: 'has no [lng, lat] coordinates' };
    }
    if (featureOf) featureOf[kept] = i;
    kept++;
  }
  return { kept, featureOf: featureOf && featureOf.slice(0, kept) };
}

/**
 * A copy of a point feature at another position: what an update puts in `points` for a point it
 * moves (the caller's own object is left as it was).
 * @template {{geometry?: any}} F
 * @param {F} feature
 * @param {number} lng
 * @param {number} lat
 * @returns {F}
 */
export function movedFeature(feature, lng, lat) {
  return { ...feature, geometry: { type: 'Point', coordinates: [lng, lat] } };
}
