// `cairn cluster`: read the points, cluster them in the engine, write every zoom. The steps
// are in order of what can go wrong cheapest first: the output target is checked before the
// input is read, and the input is read whole before any output exists.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { init } from '../core/wasm.js';
import { ClusterIndex } from '../index/cluster-index.js';
import { PointStore } from './read/point-store.js';
import { readInput } from './read/input.js';
import { WorldScanner } from './write/world-scanner.js';
import { StreamSink, WorkerSink } from './write/geojson-output.js';
import { writeTiles } from './write/tiles.js';
import { AtomicDirectory } from './write/atomic-directory.js';
import { AtomicFile } from './write/atomic-file.js';
import { PMTILES_MAGIC, PMTilesArchive } from './write/pmtiles-archive.js';
import { MVT_DIRECTORY_NAMES, MVT_METADATA_NAME, MvtDirectory } from './write/mvt-directory.js';
import { tileMetadata, writeVectorTiles } from './write/vector-tiles.js';
import { SignalWatch } from './signals.js';
import { Reporter, count } from './progress.js';

/** How a saved index begins (its format's magic, `CAIRNIDX`). */
const SAVED_INDEX_MAGIC = new TextEncoder().encode('CAIRNIDX');

/**
 * The process's streams, passed in so the command does not reach for globals.
 * @typedef {object} Io
 * @property {NodeJS.ReadableStream} stdin
 * @property {NodeJS.WritableStream} stdout
 * @property {NodeJS.WritableStream & {isTTY?: boolean}} stderr
 */

/**
 * Runs `cairn cluster`.
 * @param {import('./args.js').ClusterArgs} args
 * @param {Io} io
 * @returns {Promise<void>} resolves when the output is complete
 * @throws {import('./errors.js').UsageError | import('./errors.js').InputError | Error}
 */
export async function runCluster(args, io) {
  const reporter = new Reporter({
    stream: io.stderr,
    progress: args.progress ?? Boolean(io.stderr.isTTY),
    quiet: args.progress === false,
  });
  try {
    await cluster(args, io, reporter);
  } finally {
    reporter.end();
  }
}

/**
 * The run itself.
 * @param {import('./args.js').ClusterArgs} args
 * @param {Io} io
 * @param {Reporter} reporter
 */
async function cluster(args, io, reporter) {
  const target = args.tiles !== null ? new AtomicDirectory(args.tiles, '--tiles', [/^\d+$/, /^\d+$/, /^\d+\.json$/], args.force)
    : args.mvt !== null ? new AtomicDirectory(args.mvt, '--mvt', MVT_DIRECTORY_NAMES, args.force, MVT_METADATA_NAME)
    : args.pmtiles !== null ? new AtomicFile(args.pmtiles, '--pmtiles', PMTILES_MAGIC, args.force)
    : args.out !== null ? new AtomicDirectory(args.out, '--out', [/^z\d+\.geojson$/], args.force) : null;
  target?.check();
  // A saved index begins with its format's magic, which is how --force knows the file is one.
  const savedIndex = args.index !== null ? new AtomicFile(args.index, '--index', SAVED_INDEX_MAGIC, args.force) : null;
  savedIndex?.check();

  // Read.
  const valueProperties = [...new Set(args.aggregates.map((a) => a.property))];
  const source = args.input === '-' ? 'stdin' : args.input;
  const store = new PointStore({ source, valueProperties, carry: args.properties.length > 0, skipInvalid: args.skipInvalid });
  const ticker = setInterval(() => reporter.progress(`reading: ${count(store.records)} records`), 250);
  try {
    await readInput({ path: args.input, format: args.format, stdin: io.stdin, csv: args.csv }, store,
      { values: valueProperties, carried: args.properties });
  } finally {
    clearInterval(ticker);
  }
  reporter.progress(`read ${count(store.count)} points`, true);
  if (store.dropped > 0) {
    const more = store.dropped > store.problems.length ? `; ${count(store.dropped - store.problems.length)} more` : '';
    reporter.note(`${source}: skipped ${count(store.dropped)} invalid record${store.dropped === 1 ? '' : 's'} ` +
      `(${store.problems.join('; ')}${more})`);
  }

  // Cluster.
  await init();
  const index = new ClusterIndex({
    ...args.options,
    aggregates: Object.fromEntries(args.aggregates.map((a) => [a.name, [a.operation, a.property]])),
  });
  try {
    const points = store.count;
    const { carried, inputIndex, lngLat } = load(index, store, valueProperties, reporter);
    // GeoJSON gives points their input's coordinates back where the engine moved any (tiles
    // are in the engine's projection, which clamps as the map does).
    const tiled = args.tiles !== null || args.pmtiles !== null || args.mvt !== null;
    const inputPositions = !tiled && index.placement().moved > 0 ? lngLat : null;
    /** @type {import('./write/feature-formatter.js').FormatOptions} */
    const format = {
      decimals: args.precision,
      aggregates: args.aggregates.map((a) => a.name),
      carried,
      indexCarried: args.properties.includes('index'),
      inputIndex,
    };
    const zooms = args.zoom !== null ? [args.zoom] : range(args.options.minZoom, args.options.maxZoom);

    // Write.
    if (savedIndex !== null) {
      const path = savedIndex.temporary('index');
      try {
        writeFileSync(path, new Uint8Array(index.save()));
        savedIndex.commit(path);
      } finally {
        savedIndex.discard();
      }
      reporter.progress(`index saved to ${args.index}`, true);
      if (target === null && args.zoom === null) return;
    }
    if (target === null) {
      await writeZooms(index, zooms, new StreamSink(io.stdout, format), { pathOf: () => '', aggregates: format.aggregates, inputPositions, reporter, checkpoint: () => {} });
      return;
    }
    // From here temporaries exist: signals stop the run at its next checkpoint (signals.js).
    const watch = new SignalWatch();
    const checkpoint = () => watch.check();
    try {
      if (target instanceof AtomicFile) {
        const archive = new PMTilesArchive(target);
        try {
          const metadata = await writeVectorOutput(index, archive, args, { zooms, format, lngLat, reporter, checkpoint });
          checkpoint();
          await archive.finish(metadata);
        } finally {
          archive.close();
        }
        watch.finish();
      } else {
        const dir = target.begin();
        if (args.mvt !== null) {
          const directory = new MvtDirectory(dir);
          directory.finish(await writeVectorOutput(index, directory, args, { zooms, format, lngLat, reporter, checkpoint }));
        } else if (args.tiles !== null) {
          const tiles = await writeTiles(index, {
            dir,
            zooms,
            buffer: args.options.radius / args.options.extent,
            pointTags: pointTagsOf(format),
            reporter,
            checkpoint,
          });
          reporter.progress(`${count(tiles)} tiles written`, true);
        } else {
          const sink = new WorkerSink(format);
          await writeZooms(index, zooms, sink, { pathOf: (z) => join(dir, `z${z}.geojson`), aggregates: format.aggregates, inputPositions, reporter, checkpoint });
        }
        checkpoint();
        const left = target.commit();
        watch.finish();
        if (left !== null) reporter.warn(left);
      }
    } catch (error) {
      target.discard();
      // An Interrupted error keeps the watch on: main() raises the signal once all is undone.
      if (watch.signal === null) watch.stop();
      throw error;
    }
    reporter.progress(`done: ${count(points)} points, zooms ${zooms[0]}–${zooms[zooms.length - 1]} in ${target.target}`, true);
  } finally {
    index.destroy();
  }
}

/**
 * Encodes the vector tiles into a sink (a PMTiles archive or an .mvt directory).
 * @param {ClusterIndex} index
 * @param {PMTilesArchive | MvtDirectory} sink
 * @param {import('./args.js').ClusterArgs} args
 * @param {{zooms: number[], format: import('./write/feature-formatter.js').FormatOptions, lngLat: Float64Array,
 *   reporter: Reporter, checkpoint: () => void}} run
 * @returns {Promise<Record<string, any>>} the metadata describing them, for the sink's `finish`
 */
async function writeVectorOutput(index, sink, args, { zooms, format, lngLat, reporter, checkpoint }) {
  const { layer, extent, buffer, featureIds, clusterIdProperty, attribution } = args.vectorTiles;
  const { tiles, fields } = await writeVectorTiles(index, {
    zooms,
    buffer,
    extent,
    layer,
    pointTags: pointTagsOf(format, false),
    // A carried `index` property stands in for the position, as in the GeoJSON.
    pointId: !featureIds || format.indexCarried ? undefined : (point) => (format.inputIndex ? format.inputIndex[point] : point),
    clusterIds: featureIds,
    clusterIdProperty,
    sink,
    reporter,
    checkpoint,
  });
  reporter.progress(`${count(tiles)} tiles written`, true);
  return tileMetadata({ layer, fields, minZoom: zooms[0], maxZoom: zooms[zooms.length - 1], bounds: index.placement().bounds, attribution });
}


/**
 * Loads the store's points into the index (which clusters every zoom), with progress.
 * @param {ClusterIndex} index
 * @param {PointStore} store
 * @param {string[]} valueProperties
 * @param {Reporter} reporter
 * @returns {{carried: import('./write/feature-formatter.js').CarriedText | null, inputIndex: Int32Array | null,
 *   lngLat: Float64Array}} what the output may still need
 */
function load(index, store, valueProperties, reporter) {
  const { lngLat, values, carried, inputIndex } = store.finish();
  const maxZoom = index.options.maxZoom;
  index.loadCoordinates(lngLat, {
    values: Object.fromEntries(valueProperties.map((name, i) => [name, values[i]])),
    // The engine clusters from the highest zoom down, one zoom per step.
    onProgress: ({ phase, done, total }) => {
      if (phase === 'add' && done < total) reporter.progress(`adding points: ${count(done)} of ${count(total)}`);
      else if (phase === 'add') reporter.progress(`clustering zoom ${maxZoom}`, true);
      else if (done < total) reporter.progress(`clustering zoom ${maxZoom - done}`);
      else reporter.progress(`clustered ${total} zooms`, true);
    },
  });
  return { carried, inputIndex, lngLat };
}



/**
 * Streams the GeoJSON of each zoom into a sink, from the highest zoom down (the scanner learns
 * its bands where there are the most items).
 * @param {ClusterIndex} index
 * @param {number[]} zooms  ascending
 * @param {import('./write/geojson-output.js').ZoomSink} sink
 * @param {object} options
 * @param {(z: number) => string} options.pathOf
 * @param {string[]} options.aggregates  names of the aggregates, for clusters
 * @param {Float64Array | null} options.inputPositions  the input's coordinates, when the engine moved some
 * @param {Reporter} options.reporter
 * @param {() => void} options.checkpoint  called between batches; throws to stop the run
 */
async function writeZooms(index, zooms, sink, { pathOf, aggregates, inputPositions, reporter, checkpoint }) {
  const scanner = new WorldScanner(index, { aggregates, allocate: (length) => sink.allocate(length) });
  try {
    for (const z of [...zooms].reverse()) {
      await sink.open(pathOf(z));
      let items = 0;
      for (const batch of scanner.zoom(z)) {
        if (inputPositions) restorePositions(batch, inputPositions);
        await sink.add(batch);
        checkpoint();
        items += batch.count;
        reporter.progress(`writing zoom ${z}: ${count(items)} features`);
      }
      await sink.close();
      reporter.progress(`wrote zoom ${z}: ${count(items)} features`, true);
    }
  } finally {
    await sink.stop();
  }
}

/**
 * Puts the input's coordinates back into the records of points.
 * @param {import('./write/world-scanner.js').Batch} batch
 * @param {Float64Array} lngLat  the input's coordinates, by point (engine index)
 */
function restorePositions({ records, count, stride }, lngLat) {
  for (let k = 0; k < count * stride; k += stride) {
    if (records[k + 1] !== 1) continue;
    const point = records[k];
    records[k + 2] = lngLat[2 * point];
    records[k + 3] = lngLat[2 * point + 1];
  }
}

/**
 * A point's tile tags: what its GeoJSON properties are (input index and carried properties).
 * Vector tiles leave the index out (`withIndex` false): with --feature-ids it is the feature's id.
 * @param {import('./write/feature-formatter.js').FormatOptions} format
 * @param {boolean} [withIndex]
 * @returns {(point: number) => Record<string, any>}
 */
function pointTagsOf({ carried, indexCarried, inputIndex }, withIndex = true) {
  const decoder = new TextDecoder();
  return (point) => {
    /** @type {Record<string, any>} */
    const tags = indexCarried || !withIndex ? {} : { index: inputIndex ? inputIndex[point] : point };
    if (!carried) return tags;
    const start = point > 0 ? carried.ends[point - 1] : 0;
    return Object.assign(tags, JSON.parse(`{${decoder.decode(carried.bytes.subarray(start, carried.ends[point]))}}`));
  };
}

/**
 * @param {number} from
 * @param {number} to  inclusive
 */
function range(from, to) {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
