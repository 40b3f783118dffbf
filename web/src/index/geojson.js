// The GeoJSON shapes results take, as supercluster gives them.

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
 * @property {{cluster: true, cluster_id: number, point_count: number, point_count_abbreviated: number | string}
 *   & Record<string, any>} properties  with the aggregated properties (feature C9) and what
 *   `reduce` accumulates, when the index has them
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
