// The tile pyramid: DIR/{z}/{x}/{y}.json holding getTile(z, x, y), for the tiles that have
// something in them. Which tiles those are comes from the items of each zoom (a tile also
// shows items within radius/extent of its edges, and tiles at the antimeridian wrap around),
// so a zoom costs its items and its non-empty tiles, never 4^z tile queries. getTile has the
// last word: a tile it finds empty is not written.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { WorldScanner } from './world-scanner.js';
import { mercatorX, mercatorY } from '../../core/mercator.js';
import { count } from '../progress.js';

/** Tiles written between two looks at the event loop (where signals arrive) and checkpoints. */
const TILES_PER_TURN = 256;
/** Above this zoom x·2^z + y no longer fits a double's integers; pairs are sorted instead. */
const MAX_KEY_ZOOM = 26;

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
 * `pointTags`, zoom by zoom in the order `order` puts each zoom's tiles in (x then y unless
 * given); reports progress and calls `checkpoint` now and then.
 * @param {import('../../index/cluster-index.js').ClusterIndex} index
 * @param {{zooms: number[], buffer: number, pointTags: (point: number) => Record<string, any>,
 *   reporter: import('../progress.js').Reporter, checkpoint: () => void, extent?: number,
 *   order?: (z: number, pairs: Uint32Array) => Uint32Array, pointId?: (point: number) => number,
 *   clusterIds?: boolean}} options
 *   `extent`: getTile's, and then `buffer` is passed to getTile too (in units of it);
 *   `pointId`: gives points a feature id; `clusterIds` false: clusters keep no feature id
 *   (their cluster_id property stays)
 * @param {(z: number, x: number, y: number, tile: {features: import('../../index/geojson.js').TileFeature[]}) => (Promise<void> | void)} visit
 * @returns {Promise<number>} tiles visited
 */
export async function forEachTile(index, { zooms, buffer, pointTags, reporter, checkpoint, extent, order, pointId, clusterIds = true }, visit) {
  const tileOptions = extent === undefined ? {} : { extent, buffer: buffer * extent };
  const scanner = new WorldScanner(index, { reuse: true });
  let visited = 0;
  for (const z of zooms) {
    const pairs = tilesWithItems(scanner, z, buffer);
    const tiles = order ? order(z, pairs) : pairs;
    for (let t = 0; t < tiles.length; t += 2) {
      const x = tiles[t];
      const y = tiles[t + 1];
      const tile = index.getTile(z, x, y, tileOptions);
      if (!tile) continue;
      for (const f of tile.features) {
        if (f.tags?.cluster) {
          if (!clusterIds) delete f.id;
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

/**
 * The tiles at zoom z that may hold an item (with its margin), as x, y pairs sorted by x then
 * y, each once.
 * @param {WorldScanner} scanner
 * @param {number} z
 * @param {number} buffer
 * @returns {Uint32Array}
 */
export function tilesWithItems(scanner, z, buffer) {
  const n = 2 ** z;
  // Positions come back as longitude/latitude from float32 world positions; the slack covers
  // the difference (a tile too many is harmless: getTile finds it empty).
  const margin = buffer + 1e-6 + n * 2 ** -22;
  let pairs = new Uint32Array(1 << 16);
  let length = 0;
  for (const { records, count: items, stride } of scanner.zoom(z)) {
    for (let i = 0; i < items * stride; i += stride) {
      const x = mercatorX(records[i + 2]) * n;
      const y = mercatorY(records[i + 3]) * n;
      const y0 = Math.max(0, Math.floor(y - margin));
      const y1 = Math.min(n - 1, Math.floor(y + margin));
      for (let tx = Math.floor(x - margin), x1 = Math.floor(x + margin); tx <= x1; tx++) {
        const wrapped = ((tx % n) + n) % n; // tiles 0 and n-1 show items across the antimeridian
        for (let ty = y0; ty <= y1; ty++) {
          if (length + 2 > pairs.length) {
            const grown = new Uint32Array(2 * pairs.length);
            grown.set(pairs);
            pairs = grown;
          }
          pairs[length++] = wrapped;
          pairs[length++] = ty;
        }
      }
    }
  }
  return sortUnique(pairs.subarray(0, length), z);
}

/**
 * Sorts x, y pairs and drops repeats.
 * @param {Uint32Array} pairs
 * @param {number} z
 * @returns {Uint32Array}
 */
function sortUnique(pairs, z) {
  const count = pairs.length / 2;
  const sorted = new Uint32Array(2 * count);
  if (z <= MAX_KEY_ZOOM) {
    // One number per tile and the typed array's native sort: fast for millions of tiles.
    const side = 2 ** z;
    const keys = new Float64Array(count);
    for (let k = 0; k < count; k++) keys[k] = pairs[2 * k] * side + pairs[2 * k + 1];
    keys.sort();
    for (let k = 0; k < count; k++) {
      sorted[2 * k] = Math.floor(keys[k] / side);
      sorted[2 * k + 1] = keys[k] % side;
    }
  } else {
    const order = Uint32Array.from({ length: count }, (_, k) => k)
      .sort((a, b) => pairs[2 * a] - pairs[2 * b] || pairs[2 * a + 1] - pairs[2 * b + 1]);
    for (let k = 0; k < count; k++) {
      sorted[2 * k] = pairs[2 * order[k]];
      sorted[2 * k + 1] = pairs[2 * order[k] + 1];
    }
  }
  let length = 0;
  for (let k = 0; k < 2 * count; k += 2) {
    if (length > 0 && sorted[length - 2] === sorted[k] && sorted[length - 1] === sorted[k + 1]) continue;
    sorted[length++] = sorted[k];
    sorted[length++] = sorted[k + 1];
  }
  return sorted.subarray(0, length);
}

