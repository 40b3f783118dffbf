// The GeoJSON shapes results take, as supercluster gives them, and the check of the point
// features an index loads.

import { describeValue } from './errors.js';

/**
 * @typedef {object} PointFeature  a GeoJSON Point feature
 * @property {'Feature'} type
 * @property {any} [id]
 * @property {Record<string, any> | null} [properties]
 * @property {{type: 'Point', coordinates: number[]} | null} [geometry]
 */

/**
 * @typedef {object} ClusterFeature  a cluster as getClusters and getChildren return it
 * @property {'Feature'} type
 * @property {number} id
 * @property {{cluster: true, cluster_id: number, point_count: number, point_count_abbreviated: number | string}} properties
 * @property {{type: 'Point', coordinates: [number, number]}} geometry
 */

/**
 * @typedef {object} TileFeature  one feature of getTile, in tile coordinates of `extent`
 * @property {1} type
 * @property {[[number, number]]} geometry
 * @property {Record<string, any> | null | undefined} tags
 * @property {any} [id]
 */

/**
 * supercluster's abbreviation: 12345 → '12k', 1234 → '1.2k', 123 → 123.
 * @param {number} count
 * @returns {number | string}
 */
export function abbreviate(count) {
  if (count >= 10000) return `${Math.round(count / 1000)}k`;
  if (count >= 1000) return `${Math.round(count / 100) / 10}k`;
  return count;
}

/**
 * @param {number} id
 * @param {number} count
 */
export function clusterProperties(id, count) {
  return { cluster: true, cluster_id: id, point_count: count, point_count_abbreviated: abbreviate(count) };
}

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
