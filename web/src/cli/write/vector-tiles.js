// The tile pyramid as Mapbox Vector Tiles: for every zoom the tiles that hold something (see
// tiles.js), in PMTiles tile id order (a Hilbert curve), each encoded by the engine
// and handed to a sink: a PMTiles archive or a directory of .mvt files.

import { encodeVectorTile } from '../../index/vector-tile.js';
import { forEachTile } from './tiles.js';
import { count } from '../progress.js';

/**
 * Where the tiles go.
 * @typedef {object} TileSink
 * @property {(z: number, x: number, y: number, tile: Uint8Array) => (Promise<void> | void)} add  tiles
 *   come in tile id order; a promise says to wait before the next
 */

/**
 * @typedef {object} VectorTileOptions
 * @property {number[]} zooms  ascending
 * @property {number} buffer  the margin around a tile, in units of `extent`
 * @property {number} extent  the vector tiles' extent
 * @property {string} layer  the layer's name
 * @property {(point: number) => Record<string, any>} pointTags  a point's properties, by its
 *   engine index
 * @property {((point: number) => number) | undefined} pointId  a point's feature id (its input
 *   position), by its engine index; none without
 * @property {boolean} clusterIds  whether clusters have their cluster_id as feature id too
 * @property {boolean} clusterIdProperty  whether clusters keep their cluster_id property
 * @property {TileSink} sink
 * @property {import('../progress.js').Reporter} reporter
 * @property {() => void} checkpoint  called now and then; throws to stop the run
 */

/**
 * Encodes and hands over the non-empty tiles of every zoom.
 * @param {import('../../index/cluster-index.js').ClusterIndex} index
 * @param {VectorTileOptions} options
 * @returns {Promise<{tiles: number, fields: Map<string, Set<import('../../index/vector-tile.js').FieldType>>}>}
 *   tiles written and the layer's properties with their value types
 */
export async function writeVectorTiles(index, { zooms, buffer, extent, layer, pointTags, pointId, clusterIds, clusterIdProperty, sink, reporter, checkpoint }) {
  /** @type {Map<string, Set<import('../../index/vector-tile.js').FieldType>>} */
  const fields = new Map();
  const tiles = await forEachTile(index, { zooms, buffer: buffer / extent, pointTags, pointId, clusterIds, clusterIdProperty, reporter, checkpoint, extent, order: 'pmtiles' },
    (z, x, y, tile) => sink.add(z, x, y, encodeVectorTile(tile.features, { extent, layer, fields })));
  return { tiles, fields };
}

/**
 * The TileJSON-style description both outputs carry (PMTiles metadata, metadata.json).
 * @param {object} options
 * @param {string} options.layer
 * @param {Map<string, Set<string>>} options.fields
 * @param {number} options.minZoom
 * @param {number} options.maxZoom
 * @param {[number, number, number, number]} options.bounds  west, south, east, north
 * @param {string | null} options.attribution
 * @returns {Record<string, any>}
 */
export function tileMetadata({ layer, fields, minZoom, maxZoom, bounds, attribution }) {
  /** @type {Record<string, string>} */
  const described = {};
  for (const [name, types] of fields) described[name] = types.size === 1 ? [...types][0] : 'Mixed';
  return {
    name: layer,
    format: 'pbf',
    type: 'overlay',
    generator: 'cairn',
    minzoom: minZoom,
    maxzoom: maxZoom,
    bounds,
    center: [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2, minZoom],
    ...(attribution !== null ? { attribution } : {}),
    vector_layers: [{ id: layer, fields: described, minzoom: minZoom, maxzoom: maxZoom }],
  };
}
