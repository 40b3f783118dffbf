// The command line: what `cairn` accepts, its help text, and turning argv into a checked
// description of the run. Everything wrong with the command line is a UsageError (exit 2).

import { parseArgs } from 'node:util';

import { UsageError } from './errors.js';
import { AGGREGATE_OPERATIONS } from '../core/aggregates.js';
import { DEFAULT_OPTIONS } from '../index/index-options.js';
import { DEFAULT_LAYER, DEFAULT_TILE_EXTENT } from '../index/vector-tile.js';

/** The engine's zoom limit. */
const MAX_ZOOM = 30;
/** Decimals of coordinates in GeoJSON output unless --precision says otherwise (about 1 cm). */
const DEFAULT_PRECISION = 7;
const MAX_PRECISION = 12;
/** Cluster properties that an aggregate must not overwrite. */
const RESERVED = ['cluster', 'cluster_id', 'point_count', 'point_count_abbreviated'];
const OPERATIONS = Object.keys(AGGREGATE_OPERATIONS);
const FORMATS = ['csv', 'ndjson', 'geojson'];
/** Vector tile extents: powers of two, as renderers scale by them. */
const MIN_TILE_EXTENT = 16;
const MAX_TILE_EXTENT = 65536;
/**
 * The vector tiles' margin, in 256ths of a tile (5 of 256: 80 of 4096, 10 pixels of a 512-pixel
 * tile): room for a label or an icon drawn across a tile's edge, as vector tile tools usually
 * leave; a wider one repeats more of every neighbour in each tile.
 */
const DEFAULT_TILE_BUFFER = 5;
/** The outputs, one per run. */
const OUTPUTS = ['out', 'tiles', 'pmtiles', 'mvt'];
/** What reads as a negative number: the value of an option, not an option of its own. */
const NEGATIVE_NUMBER = /^-(?:\d|\.\d)/;
/** A decimal number; Number() alone would also take "", "0x1f" and "Infinity". */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export const HELP = `Usage: cairn <command> [options]

Commands:
  cluster INPUT [options]   cluster points, write clusters per zoom or a tile pyramid

Options:
  -h, --help                show help (cairn cluster --help for the command's options)
  -v, --version             show the version

Exit codes: 0 done, 1 bad input (or the run failed), 2 bad usage.`;

export const CLUSTER_HELP = `Usage: cairn cluster INPUT [options]

Clusters the points of INPUT (a file, or - for standard input) with supercluster's
hierarchical greedy clustering and writes the clusters and points of every zoom.

Input (format from the file name, else from the content):
  GeoJSON FeatureCollection, newline-delimited GeoJSON (one Point feature per line), or CSV
  with a header row naming the coordinate columns (lng, lon or longitude; lat or latitude).
  --format F              csv, ndjson or geojson, instead of guessing
  --lng-column NAME       CSV column holding longitudes
  --lat-column NAME       CSV column holding latitudes
  --properties A,B,...    input properties (CSV columns) copied onto output points
  --skip-invalid          drop bad points and report how many, instead of stopping at the first

Clustering (supercluster's options and defaults):
  --radius R              cluster radius in pixels of a tile extent wide (${DEFAULT_OPTIONS.radius})
  --extent E              tile extent the radius is measured in (${DEFAULT_OPTIONS.extent})
  --min-zoom Z            lowest zoom with clusters (${DEFAULT_OPTIONS.minZoom})
  --max-zoom Z            highest zoom with clusters (${DEFAULT_OPTIONS.maxZoom})
  --min-points N          fewest points that form a cluster (${DEFAULT_OPTIONS.minPoints})
  --aggregate [NAME=]OP:PROPERTY
                          a cluster property computed from a numeric point property, OP one
                          of ${OPERATIONS.join(', ')}; NAME defaults to OP_PROPERTY. Repeatable.

Output (one of --out, --tiles, --pmtiles, --mvt, or --zoom alone; --index beside any, or alone):
  --out DIR               DIR/z{z}.geojson for every zoom from --min-zoom to --max-zoom
  --tiles DIR             DIR/{z}/{x}/{y}.json, supercluster's getTile content; empty tiles
                          are not written
  --pmtiles FILE          a PMTiles archive of Mapbox Vector Tiles, every zoom from
                          --min-zoom to --max-zoom (gzipped tiles, equal tiles stored once)
  --mvt DIR               the same tiles as DIR/{z}/{x}/{y}.mvt and DIR/metadata.json; empty
                          tiles are not written
  --layer NAME            the vector tiles' layer (${DEFAULT_LAYER})
  --tile-extent E         the vector tiles' extent, a power of two (${DEFAULT_TILE_EXTENT})
  --tile-buffer B         the margin around each vector tile whose clusters and points it
                          also holds, in units of the extent (${DEFAULT_TILE_BUFFER}/256 of it: ${DEFAULT_TILE_BUFFER * DEFAULT_TILE_EXTENT / 256} of ${DEFAULT_TILE_EXTENT})
  --feature-ids           give features an id: clusters their cluster_id, points their
                          input position
  --no-cluster-id         leave the cluster_id property out of the vector tiles' clusters
                          (with --feature-ids it stays their feature id)
  --attribution TEXT      attribution in the vector tiles' metadata
  --zoom Z                only zoom Z; without an output option its GeoJSON goes to standard
                          output
  --index FILE            the built index saved to FILE, for ClusterIndex.from() to restore
                          without clustering again
  --precision D           decimals of longitudes and latitudes in GeoJSON (${DEFAULT_PRECISION})
  --force                 replace an existing output directory (or --index file)

  --progress              report progress on standard error (the default on a terminal)
  -q, --quiet             report nothing but errors

Output is written under a temporary name beside its target and renamed when complete: a run
that fails or is interrupted leaves no partial output.

Examples:
  cairn cluster places.geojson --out clusters/
  cairn cluster points.csv --properties name --aggregate sum:population --tiles tiles/
  cairn cluster places.geojson --max-zoom 14 --pmtiles places.pmtiles
  cat points.ndjson | cairn cluster - --zoom 5 > z5.geojson

Exit codes: 0 done, 1 bad input (or the run failed), 2 bad usage.`;

/**
 * @typedef {object} AggregateSpec
 * @property {string} name  the cluster property
 * @property {keyof typeof AGGREGATE_OPERATIONS} operation
 * @property {string} property  the point property it reads
 */

/** The options of `cairn cluster`, as Node's parseArgs takes them. */
const OPTIONS = Object.freeze({
  format: { type: 'string' },
  'lng-column': { type: 'string' },
  'lat-column': { type: 'string' },
  properties: { type: 'string' },
  'skip-invalid': { type: 'boolean' },
  radius: { type: 'string' },
  extent: { type: 'string' },
  'min-zoom': { type: 'string' },
  'max-zoom': { type: 'string' },
  'min-points': { type: 'string' },
  aggregate: { type: 'string', multiple: true },
  out: { type: 'string' },
  tiles: { type: 'string' },
  pmtiles: { type: 'string' },
  mvt: { type: 'string' },
  layer: { type: 'string' },
  'tile-extent': { type: 'string' },
  'tile-buffer': { type: 'string' },
  'feature-ids': { type: 'boolean' },
  'no-cluster-id': { type: 'boolean' },
  attribution: { type: 'string' },
  index: { type: 'string' },
  zoom: { type: 'string' },
  precision: { type: 'string' },
  force: { type: 'boolean' },
  progress: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
});

/**
 * A checked `cairn cluster` command line.
 * @typedef {object} ClusterArgs
 * @property {string} input  a path, or "-" for standard input
 * @property {import('./read/input.js').Format | null} format
 * @property {{lngColumn: string | null, latColumn: string | null}} csv
 * @property {string[]} properties  carried onto output points
 * @property {boolean} skipInvalid
 * @property {{radius: number, extent: number, minZoom: number, maxZoom: number, minPoints: number}} options
 * @property {AggregateSpec[]} aggregates
 * @property {string | null} out
 * @property {string | null} tiles
 * @property {string | null} pmtiles
 * @property {string | null} mvt
 * @property {{layer: string, extent: number, buffer: number, featureIds: boolean, clusterIdProperty: boolean, attribution: string | null}} vectorTiles
 *   the vector tiles' layer name, extent, buffer (units of the extent), whether features get
 *   ids, and attribution (--pmtiles, --mvt)
 * @property {string | null} index  where the saved index goes
 * @property {number | null} zoom
 * @property {number} precision
 * @property {boolean} force
 * @property {boolean | null} progress  true/false when asked, null to decide by the terminal
 */

/**
 * @typedef {{command: 'help', text: string} | {command: 'version'} | {command: 'cluster', args: ClusterArgs}} Command
 */

/**
 * Reads the command line (without `node` and the script).
 * @param {string[]} argv
 * @returns {Command}
 * @throws {UsageError}
 */
export function parseCommandLine(argv) {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError('missing command (try cairn --help)');
  if (first === '-h' || first === '--help' || first === 'help') return { command: 'help', text: HELP };
  if (first === '-v' || first === '--version') return { command: 'version' };
  if (first !== 'cluster') throw new UsageError(`unknown command ${JSON.stringify(first)} (try cairn --help)`);
  if (rest.includes('-h') || rest.includes('--help')) return { command: 'help', text: CLUSTER_HELP };
  return { command: 'cluster', args: parseCluster(rest) };
}

/**
 * @param {string[]} argv  the arguments after `cluster`
 * @returns {ClusterArgs}
 */
function parseCluster(argv) {
  /** @type {{values: Record<string, any>, positionals: string[]}} */
  let parsed;
  try {
    parsed = parseArgs({ args: negativeValuesJoined(argv), allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    // parseArgs explains at length how to pass values that start with '-'; the first sentence
    // says what is wrong.
    throw new UsageError(String(/** @type {Error} */ (error).message).split(/\.\s/)[0]);
  }
  const v = parsed.values;
  const [input, extra] = parsed.positionals;
  if (input === undefined) throw new UsageError('missing INPUT: a file, or - for standard input');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)} (one INPUT only)`);
  if (v.format !== undefined && !FORMATS.includes(v.format)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not ${JSON.stringify(v.format)}`);
  }
  const minZoom = numberOption(v['min-zoom'], '--min-zoom', DEFAULT_OPTIONS.minZoom, { integer: true, min: 0, max: MAX_ZOOM });
  const maxZoom = numberOption(v['max-zoom'], '--max-zoom', DEFAULT_OPTIONS.maxZoom, { integer: true, min: 0, max: MAX_ZOOM });
  if (minZoom > maxZoom) throw new UsageError(`--min-zoom (${minZoom}) must not be above --max-zoom (${maxZoom})`);
  const options = {
    radius: numberOption(v.radius, '--radius', DEFAULT_OPTIONS.radius, { above: 0 }),
    extent: numberOption(v.extent, '--extent', DEFAULT_OPTIONS.extent, { above: 0 }),
    minZoom,
    maxZoom,
    minPoints: numberOption(v['min-points'], '--min-points', DEFAULT_OPTIONS.minPoints, { integer: true, min: 1 }),
  };
  const zoom = v.zoom === undefined ? null : numberOption(v.zoom, '--zoom', 0, { integer: true, min: 0, max: MAX_ZOOM });
  // Below the lowest zoom clustered, the index answers with that zoom's clusters.
  if (zoom !== null && zoom < minZoom) throw new UsageError(`--zoom ${zoom} is below --min-zoom ${minZoom}, the lowest zoom clustered`);
  const outputs = OUTPUTS.filter((flag) => v[flag] !== undefined);
  if (outputs.length === 2) throw new UsageError(`give --${outputs[0]} or --${outputs[1]}, not both`);
  if (outputs.length > 2) throw new UsageError(`give one of ${outputs.map((f) => `--${f}`).join(', ')}, not several`);
  if (outputs.length === 0 && zoom === null && v.index === undefined) {
    throw new UsageError('nothing to write: give --out DIR, --tiles DIR, --pmtiles FILE, --mvt DIR, or --zoom Z for standard output (or --index FILE)');
  }
  const vectorTiles = v.pmtiles !== undefined || v.mvt !== undefined;
  for (const flag of ['layer', 'tile-extent', 'tile-buffer', 'feature-ids', 'no-cluster-id', 'attribution']) {
    if (v[flag] !== undefined && !vectorTiles) throw new UsageError(`--${flag} is for vector tiles: give it with --pmtiles or --mvt`);
  }
  const tileExtent = numberOption(v['tile-extent'], '--tile-extent', DEFAULT_TILE_EXTENT, { integer: true, min: MIN_TILE_EXTENT, max: MAX_TILE_EXTENT });
  if ((tileExtent & (tileExtent - 1)) !== 0) throw new UsageError(`--tile-extent must be a power of two, not ${JSON.stringify(v['tile-extent'])}`);
  if (v.layer !== undefined && v.layer.trim() === '') throw new UsageError('--layer needs a name');
  const tileBuffer = numberOption(v['tile-buffer'], '--tile-buffer', (DEFAULT_TILE_BUFFER * tileExtent) / 256, { min: 0, max: tileExtent });
  for (const flag of ['out', 'tiles', 'pmtiles', 'mvt', 'index', 'lng-column', 'lat-column']) {
    if (v[flag] === '') throw new UsageError(`--${flag} needs a value`);
  }
  if (v.progress && v.quiet) throw new UsageError('give --progress or --quiet, not both');
  return {
    input,
    format: v.format ?? null,
    csv: { lngColumn: v['lng-column'] ?? null, latColumn: v['lat-column'] ?? null },
    properties: propertyList(v.properties),
    skipInvalid: Boolean(v['skip-invalid']),
    options,
    aggregates: aggregateList(v.aggregate ?? []),
    out: v.out ?? null,
    tiles: v.tiles ?? null,
    pmtiles: v.pmtiles ?? null,
    mvt: v.mvt ?? null,
    vectorTiles: { layer: v.layer ?? DEFAULT_LAYER, extent: tileExtent, buffer: tileBuffer, featureIds: v['feature-ids'] === true, clusterIdProperty: v['no-cluster-id'] !== true, attribution: v.attribution ?? null },
    index: v.index ?? null,
    zoom,
    precision: numberOption(v.precision, '--precision', DEFAULT_PRECISION, { integer: true, min: 0, max: MAX_PRECISION }),
    force: Boolean(v.force),
    progress: v.progress ? true : v.quiet ? false : null,
  };
}

/**
 * `--zoom -1` as `--zoom=-1`: Node's parser takes a value that starts with '-' for an option
 * (and calls the value ambiguous), so a negative number would never reach its range check.
 * @param {string[]} argv
 * @returns {string[]}
 */
function negativeValuesJoined(argv) {
  const joined = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      joined.push(...argv.slice(i));
      break;
    }
    const option = arg.startsWith('--') ? OPTIONS[/** @type {keyof typeof OPTIONS} */ (arg.slice(2))] : undefined;
    if (option?.type === 'string' && i + 1 < argv.length && NEGATIVE_NUMBER.test(argv[i + 1])) {
      joined.push(`${arg}=${argv[++i]}`);
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

/**
 * A numeric option, checked.
 * @param {string | undefined} text
 * @param {string} flag
 * @param {number} fallback  when the option is absent
 * @param {{integer?: boolean, min?: number, max?: number, above?: number}} rule
 * @returns {number}
 */
function numberOption(text, flag, fallback, { integer = false, min = -Infinity, max = Infinity, above = -Infinity }) {
  if (text === undefined) return fallback;
  const value = DECIMAL.test(text.trim()) ? Number(text) : NaN;
  const range = above > -Infinity ? `above ${above}` : max < Infinity ? `from ${min} to ${max}` : `${min} or more`;
  const kind = integer ? 'an integer' : 'a number';
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max || value <= above) {
    throw new UsageError(`${flag} must be ${kind} ${range}, not ${JSON.stringify(text)}`);
  }
  return value;
}

/**
 * --properties a,b,c: names, in order, without repeats.
 * @param {string | undefined} text
 * @returns {string[]}
 */
function propertyList(text) {
  if (text === undefined) return [];
  const names = text.split(',').map((name) => name.trim());
  if (names.some((name) => name === '')) throw new UsageError(`--properties takes names separated by commas, not ${JSON.stringify(text)}`);
  return [...new Set(names)];
}

/**
 * --aggregate [NAME=]OP:PROPERTY, repeated.
 * @param {string[]} specs
 * @returns {AggregateSpec[]}
 */
function aggregateList(specs) {
  /** @type {AggregateSpec[]} */
  const list = [];
  for (const spec of specs) {
    const match = /^(?:([^=]+)=)?([a-z]+):(.+)$/.exec(spec);
    if (!match || !OPERATIONS.includes(match[2])) {
      throw new UsageError(`--aggregate ${JSON.stringify(spec)}: expected OP:PROPERTY or NAME=OP:PROPERTY, ` +
        `OP one of ${OPERATIONS.join(', ')}`);
    }
    const operation = /** @type {AggregateSpec['operation']} */ (match[2]);
    const property = match[3];
    const name = match[1] ?? `${operation}_${property}`;
    if (RESERVED.includes(name)) throw new UsageError(`--aggregate ${JSON.stringify(spec)}: ${name} is a property every cluster has; choose another NAME`);
    if (list.some((a) => a.name === name)) throw new UsageError(`--aggregate: two aggregates named ${name}`);
    list.push({ name, operation, property });
  }
  return list;
}
