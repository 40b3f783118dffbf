// The tile pyramid: DIR/{z}/{x}/{y}.json holding getTile(z, x, y), for the tiles that have
// something in them. Which tiles those are the engine finds from the items of each zoom
// (getTileCover), so a zoom costs its items and its non-empty tiles, never 4^z tile queries.
// getTile has the last word: a tile it finds empty is not written.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { count } from '../progress.js';

/** Tiles written between two looks at the event loop (where signals arrive) and checkpoints. */
const TILES_PER_TURN = 256;

/**
 * @typedef {object} TileOptions
 * @property {string} dir  the (temporary) directory to write into
 * @property {number[]} zooms
 * @property {number} buffer  radius / extent: the margin around a tile, in tiles
 * @property {(point: number) => Record<string, any>} pointTags  a point's properties, by its
 *   engine index (its input index and carried properties)
 * @property {import('../progress.js').Reporter} reporter
 * @property {() => void} checkpoint  called now and then; throws to stop the run
 */

/**
 * Writes the non-empty tiles of every zoom.
 * @param {import('../../index/cluster-index.js').ClusterIndex} index
 * @param {TileOptions} options
 * @returns {Promise<number>} tiles written
 */
export async function writeTiles(index, { dir, zooms, buffer, pointTags, reporter, checkpoint }) {
  let lastX = -1;
  let lastZ = -1;
  return forEachTile(index, { zooms, buffer, pointTags, reporter, checkpoint }, (z, x, y, tile) => {
    if (x !== lastX || z !== lastZ) {
      mkdirSync(join(dir, String(z), String(x)), { recursive: true });
      lastX = x;
      lastZ = z;
    }
    writeFileSync(join(dir, String(z), String(x), `${y}.json`), JSON.stringify(tile));
  });
}

/**
 * Visits the non-empty tiles of every zoom, as getTile gives them with points tagged by
 * `pointTags`, zoom by zoom, each zoom's tiles by column then row or in PMTiles tile id order
 * (`order: 'pmtiles'`); reports progress and calls `checkpoint` now and then.
 * @param {import('../../index/cluster-index.js').ClusterIndex} index
 * @param {{zooms: number[], buffer: number, pointTags: (point: number) => Record<string, any>,
 *   reporter: import('../progress.js').Reporter, checkpoint: () => void, extent?: number,
 *   order?: 'columns' | 'pmtiles', pointId?: (point: number) => number,
 *   clusterIds?: boolean, clusterIdProperty?: boolean}} options
 *   `extent`: getTile's, and then `buffer` is passed to getTile too (in units of it);
 *   `pointId`: gives points a feature id; `clusterIds` false: clusters keep no feature id
 *   (their cluster_id property stays); `clusterIdProperty` false: clusters lose that property
 * @param {(z: number, x: number, y: number, tile: {features: import('../../index/geojson.js').TileFeature[]}) => (Promise<void> | void)} visit
 * @returns {Promise<number>} tiles visited
 */
export async function forEachTile(index, { zooms, buffer, pointTags, reporter, checkpoint, extent, order, pointId, clusterIds = true, clusterIdProperty = true }, visit) {
  const tileOptions = extent === undefined ? {} : { extent, buffer: buffer * extent };
  let visited = 0;
  for (const z of zooms) {
    const tiles = index.getTileCover(z, { ...tileOptions, order });
    for (let t = 0; t < tiles.length; t += 2) {
      const x = tiles[t];
      const y = tiles[t + 1];
      const tile = index.getTile(z, x, y, tileOptions);
      if (!tile) continue;
      for (const f of tile.features) {
        if (f.tags?.cluster) {
          if (!clusterIds) delete f.id;
          if (!clusterIdProperty) delete f.tags.cluster_id;
          continue;
        }
        const point = /** @type {any} */ (f.tags).index;
        f.tags = pointTags(point);
        if (pointId) f.id = pointId(point);
      }
      // A sink that has enough in flight answers with a promise: wait for it.
      const busy = visit(z, x, y, tile);
      if (busy) await busy;
      visited++;
      if (visited % TILES_PER_TURN === 0) {
        reporter.progress(`zoom ${z}: ${count(visited)} tiles written`);
        await new Promise((resolve) => setImmediate(resolve));
        checkpoint();
      }
    }
    reporter.progress(`zoom ${z}: ${count(visited)} tiles written`, true);
  }
  return visited;
}
