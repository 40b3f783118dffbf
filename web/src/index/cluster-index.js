// supercluster's API over the engine's hierarchical cluster index.
//
// The engine owns every clustering decision; this class moves data across the boundary:
// coordinates in (in chunks through one wasm buffer), flat result records out (through one
// reusable scratch buffer), and GeoJSON objects built from those records on the JS side, with
// the clusters' properties from supercluster's `map` and `reduce` when the app gives them
// (cluster-reduce.js).

import { getModule } from '../core/wasm.js';
import { CairnError, STATUS_BY_CODE, STATUS_CODES, argumentError, describeValue, errorFromStatus, memoryError } from '../core/errors.js';
import { bboxArgs, clampInt32, integerArg, toNumber } from '../core/arguments.js';
import { aggregateValue, resolveAggregates } from '../core/aggregates.js';
import { resolveOptions } from './index-options.js';
import { clusterProperties } from './geojson.js';
import { movedFeature, scanPointFeatures } from './point-features.js';
import { ENGINE_HANDLE, engineMemory } from '../core/engine-memory.js';
import { IndexAggregates } from './index-aggregates.js';
import { ResultRecords } from './result-records.js';
import { ClusterReduce } from './cluster-reduce.js';
import { DEFAULT_LAYER, DEFAULT_TILE_EXTENT, encodeVectorTile } from './vector-tile.js';
import { decodeHostData, encodeHostData, restoreEngineIndex, saveEngineIndex } from './saved-index.js';

/** @typedef {import('./index-options.js').ClusterOptions} ClusterOptions */
/** @typedef {import('./geojson.js').PointFeature} PointFeature */
/** @typedef {import('./geojson.js').ClusterFeature} ClusterFeature */
/** @typedef {import('./geojson.js').TileFeature} TileFeature */

// Points per cairn_index_add call: big enough that crossings cost nothing, small enough that
// the staging buffer (16 bytes per point) stays at 1 MiB.
const CHUNK_POINTS = 65536;

/**
 * @typedef {object} Progress
 * @property {'add' | 'cluster'} phase  adding points, then clustering zoom by zoom
 * @property {number} done
 * @property {number} total
 */

/** @typedef {import('../core/engine-memory.js').Resources} Resources */
/**
 * One zoom's k-d tree as supercluster holds it (see `ClusterIndex.trees`).
 * @typedef {object} SuperclusterTree
 * @property {Uint32Array} ids  each item's position in the zoom's data, in layout order
 * @property {Float32Array} coords  their world positions, x and y interleaved
 * @property {number} numItems
 */

// Frees an index's engine memory on destroy(), or when an index is dropped without it.
const { release, registry } = engineMemory('cairn_index_destroy');

/**
 * A hierarchical cluster index with supercluster's API: `load` points once, then query
 * clusters for any bounding box and zoom. The clustering runs in WebAssembly; `await init()`
 * must have finished before an index is created.
 *
 * Results match supercluster's: the same clusters at every zoom, points returned as the
 * caller's own feature objects, ids and indices counting positions in the input array.
 */
export class ClusterIndex {
  /** @type {import('../core/wasm.js').CairnModule} */
  #mod;
  /** @type {Resources} */
  #res;
  #destroyed = false;
  /**
   * Engine point index → input index, only when load() skipped features without geometry.
   * @type {Int32Array | null}
   */
  #featureOf = null;
  /**
   * What to add to the engine's cluster ids to get the ids callers see. Like supercluster's,
   * they lie above every input index (skipped features without geometry count too), so a
   * cluster's id never equals a point's; the engine numbers them above the points it holds.
   * Set by load(), from the length of its input then.
   */
  #idShift = 0;
  /** @type {IndexAggregates} the aggregated properties (C9) */
  #aggregates;
  /** @type {ResultRecords} where queries write */
  #results;
  /** @type {ClusterReduce | null} supercluster's map and reduce, when given */
  #reducer = null;
  /** @type {Record<number, SuperclusterTree> | null} supercluster's trees as read so far (see `trees`) */
  #trees = null;
  /** @type {import('./cluster-reduce.js').ReduceSource} what the fold reads */
  #reduceSource = {
    children: (cluster, call) => {
      const fn = this.#res.fn;
      const total = this.#results.query((h, p, c) => fn.cairn_index_reduce_children(h, cluster, p, c), call);
      const v = this.#results.view(total);
      const stride = this.#mod.recordStride;
      return Array.from({ length: v.length / stride }, (_, i) => ({
        id: v[i * stride], count: v[i * stride + 1], lng: v[i * stride + 2], lat: v[i * stride + 3] }));
    },
    properties: (point, lng, lat) => this.#pointFeature(this.#featureOf ? this.#featureOf[point] : point, lng, lat).properties,
  };

  /**
   * @param {ClusterOptions | null} [options]
   * @throws {CairnError} (INVALID_STATE) if `init()` has not finished; (INVALID_OPTION) for an
   *   option of the wrong type or out of range; (INVALID_ARGUMENT) if `options` is neither an
   *   object nor null
   */
  constructor(options = {}) {
    this.#mod = getModule();
    /** The options in force, defaults filled in. */
    this.options = resolveOptions(options ?? {});   // null too, as supercluster takes it
    const aggregates = resolveAggregates(options?.aggregates);
    /**
     * The features given to `load` (supercluster keeps them under this name too); null for
     * data from `loadCoordinates`.
     * @type {PointFeature[] | null}
     */
    this.points = null;
    this.#res = { fn: this.#mod.fn, handle: 0, ptr: 0, capacity: 0 };
    /** @type {import('./result-records.js').ErrorOf} */
    const error = (...a) => this.#error(...a);
    this.#aggregates = new IndexAggregates(aggregates, this.#mod, this.#res, error);
    this.#results = new ResultRecords(this.#mod, this.#res, error);
    if (this.options.reduce) this.#reducer = new ClusterReduce(this.options.map, this.options.reduce);
    this.#res.handle = this.#createEngineIndex();
    if (registry) registry.register(this, this.#res, this);
  }

  /**
   * Loads GeoJSON Point features, replacing any data loaded before. Features whose geometry is
   * null or missing are skipped, but indices keep counting input positions, as in
   * supercluster. The array is kept (not copied): getClusters returns its objects.
   *
   * @param {PointFeature[]} features
   * @returns {this}
   * @throws {CairnError} (INVALID_ARGUMENT) if `features` is not an array
   * @throws {CairnError} naming the input index of the first feature that is not a Point or
   *   whose coordinates are not finite or whose latitude is beyond ±90; the index is then empty
   */
  load(features) {
    this.#checkAlive('load');
    this.#checkNotFolding('load');
    if (!Array.isArray(features)) throw argumentError('load', 'features must be an array of GeoJSON Point features');
    const n = features.length;
    // First: check shapes and learn which features are skipped, before touching the engine.
    const scan = scanPointFeatures(features);
    if ('problem' in scan) this.#rejectFeature(scan.index, scan.problem);
    const { kept, featureOf } = scan;

    let next = 0;
    this.#ingest(kept, (view, room) => {
      let written = 0;
      while (written < room && next < n) {
        const g = features[next++].geometry;
        if (!g) continue;
        const c = g.coordinates;
        view[2 * written] = toNumber(c[0]);
        view[2 * written + 1] = toNumber(c[1]);
        written++;
      }
      return written;
    }, true, featureOf, undefined, 'load');
    this.points = features;
    this.#featureOf = featureOf;
    this.#idShift = n - kept;
    this.#addAggregates((property) => {
      const values = new Float64Array(kept);
      for (let k = 0, i = 0; i < n; i++) {
        const f = features[i];
        if (!f.geometry) continue;
        values[k++] = aggregateValue(f.properties, property);
      }
      return values;
    }, 'load');
    return this;
  }

  /**
   * Loads points from longitude/latitude pairs, replacing any data loaded before: the fast
   * path, with no object per point. Point i is pairs 2i, 2i+1; features returned for it are
   * made on demand as `{type: 'Feature', properties: {index: i}, geometry}` from the engine's
   * positions: the index keeps no reference to the array, so it costs no memory after loading.
   *
   * @param {Float64Array | ArrayLike<number>} lngLat
   * @param {{onProgress?: (progress: Progress) => void, values?: Record<string, ArrayLike<number>>}} [options]
   *   `values`: for each point property an aggregate reads, one number per point (NaN for none)
   * @returns {this}
   * @throws {CairnError} (INVALID_ARGUMENT) if `lngLat` is not an array of even length
   * @throws {CairnError} naming the first bad point; the index is then empty
   */
  loadCoordinates(lngLat, options = {}) {
    const onProgress = options === null || typeof options !== 'object' ? undefined : options.onProgress;
    this.#checkAlive('loadCoordinates');
    this.#checkNotFolding('loadCoordinates');
    if (lngLat === null || typeof lngLat !== 'object' || typeof lngLat.length !== 'number' || lngLat.length % 2 !== 0) {
      throw argumentError('loadCoordinates', 'expected a Float64Array (or array) of lng, lat pairs');
    }
    if (onProgress !== undefined && typeof onProgress !== 'function') {
      throw argumentError('loadCoordinates', 'onProgress must be a function');
    }
    const n = lngLat.length / 2;
    let next = 0;
    const typed = lngLat instanceof Float64Array;
    this.#ingest(n, (view, room) => {
      const count = Math.min(room, n - next);
      if (typed) {
        view.set(lngLat.subarray(2 * next, 2 * (next + count)));
      } else {
        for (let k = 0, j = 2 * next; k < 2 * count; k++, j++) view[k] = toNumber(lngLat[j]);
      }
      next += count;
      return count;
    }, ArrayBuffer.isView(lngLat), null, onProgress, 'loadCoordinates');
    this.points = null;
    const given = options !== null && typeof options === 'object' ? options.values : undefined;
    this.#addAggregates((property) => {
      const values = given ? given[property] : undefined;
      if (!values || values.length !== n) {
        throw argumentError('loadCoordinates', `aggregate property ${property} needs options.values.${property} with one number per point`);
      }
      return values instanceof Float64Array ? values : Float64Array.from(values, toNumber);
    }, 'loadCoordinates');
    return this;
  }

  /**
   * Adds, removes and moves points without clustering again: the engine repairs only the
   * clusters a change reaches, zoom by zoom, and every query then answers exactly as a fresh
   * load of the points left, in their order, would. Point ids stay as they are: points added
   * take the next ids, a removed point's id is never used again. Cluster ids are numbered again
   * after every update (as supercluster numbers them, past the highest point id). Everything is
   * checked first: on an error nothing changes.
   *
   * For an index filled by `load`, `add` takes GeoJSON Point features, which are appended to
   * `index.points` (the array given to `load`); a moved point's entry there is replaced by a
   * copy of its feature at the new position, and a removed point's stays but is never returned.
   * For an index filled by `loadCoordinates`, `add` takes lng/lat pairs.
   *
   * @param {{add?: PointFeature[] | Float64Array | ArrayLike<number>, remove?: ArrayLike<number>,
   *   move?: ArrayLike<{id: number, coordinates: ArrayLike<number>}>}} changes
   * @returns {number} the id of the first point added (the number of points before)
   * @throws {CairnError} (UNKNOWN_POINT) for an id that names no point held; (INVALID_ARGUMENT)
   *   for an id given twice, a malformed argument or a feature that is not a Point;
   *   (NON_FINITE_COORDINATE, LATITUDE_OUT_OF_RANGE) naming the point; (INVALID_STATE) before a
   *   load, or for an index with minPoints above 2 or aggregates, which cannot be updated
   */
  update(changes) {
    const call = 'update';
    this.#checkAlive(call);
    this.#checkNotFolding(call);
    if (changes === null || typeof changes !== 'object') throw argumentError(call, 'expected { add, remove, move }');
    const { add = [], remove = [], move = [] } = changes;
    const fn = this.#res.fn;
    const features = this.points;
    const before = features ? features.length : fn.cairn_index_point_count(this.#res.handle);
    // The points to add as pairs, and (for features) the input index of each one kept.
    /** @type {Float64Array} */
    let pairs;
    /** @type {number[] | null} */
    let addedFeatureOf = null;
    if (features) {
      if (!Array.isArray(add)) throw argumentError(call, 'add must be an array of GeoJSON Point features (the index was filled by load)');
      const scan = scanPointFeatures(add);
      if ('problem' in scan) throw argumentError(call, `feature ${scan.index} of add ${scan.problem}`);
      pairs = new Float64Array(2 * scan.kept);
      addedFeatureOf = [];
      for (let i = 0, k = 0; i < add.length; i++) {
        const g = add[i].geometry;
        if (!g) continue;
        pairs[2 * k] = toNumber(g.coordinates[0]);
        pairs[2 * k + 1] = toNumber(g.coordinates[1]);
        addedFeatureOf.push(before + i);
        k++;
      }
    } else {
      if (add === null || typeof add !== 'object' || typeof add.length !== 'number' || add.length % 2 !== 0) {
        throw argumentError(call, 'add must be lng, lat pairs (the index was filled by loadCoordinates)');
      }
      pairs = add instanceof Float64Array ? add : Float64Array.from(/** @type {ArrayLike<unknown>} */ (add), (v) => toNumber(v));
    }
    if (remove === null || typeof remove !== 'object' || typeof remove.length !== 'number') throw argumentError(call, 'remove must be an array of point ids');
    if (move === null || typeof move !== 'object' || typeof move.length !== 'number') throw argumentError(call, 'move must be an array of { id, coordinates: [lng, lat] }');
    const removeIds = Int32Array.from(remove, (id) => this.#enginePoint(id, call));
    const moveIds = new Int32Array(move.length);
    const movePairs = new Float64Array(2 * move.length);
    for (let k = 0; k < move.length; k++) {
      const m = move[k];
      const c = m !== null && typeof m === 'object' ? m.coordinates : undefined;
      if (c === null || typeof c !== 'object' || typeof c.length !== 'number' || c.length < 2) {
        throw argumentError(call, `move ${k} must be { id, coordinates: [lng, lat] }`);
      }
      moveIds[k] = this.#enginePoint(m.id, call);
      movePairs[2 * k] = toNumber(c[0]);
      movePairs[2 * k + 1] = toNumber(c[1]);
    }

    /** @type {number[]} */
    const buffers = [];
    const place = (/** @type {Float64Array | Int32Array} */ data) => {
      if (data.length === 0) return 0;
      const ptr = fn.cairn_alloc(data.byteLength) >>> 0;
      if (!ptr) throw memoryError(call, 'out of WebAssembly memory');
      buffers.push(ptr);
      new (/** @type {any} */ (data.constructor))(this.#mod.memory.buffer, ptr, data.length).set(data);
      return ptr;
    };
    let first;
    try {
      const a = place(pairs), r = place(removeIds), mi = place(moveIds), mp = place(movePairs);
      first = fn.cairn_index_edit(this.#res.handle, a, pairs.length / 2, r, removeIds.length, mi, mp, moveIds.length);
    } finally {
      for (const ptr of buffers) fn.cairn_free(ptr);
    }
    if (first < 0) {
      const detail = fn.cairn_last_error_detail();
      const code = STATUS_CODES[-first]?.code;
      const enginePoints = fn.cairn_index_point_count(this.#res.handle);
      // A point's detail is its engine id: name it as the caller does.
      const named = (code === 'NON_FINITE_COORDINATE' || code === 'LATITUDE_OUT_OF_RANGE' || code === 'UNKNOWN_POINT')
        ? (detail >= enginePoints && addedFeatureOf ? addedFeatureOf[detail - enginePoints] : this.#inputIndex(detail)) : detail;
      throw this.#error(first, call, code === 'INVALID_STATE' ? 'update() takes a loaded index with minPoints 2 and no aggregates' : undefined, named);
    }
    this.#reducer?.clear();
    this.#trees = null;
    if (features && addedFeatureOf) {
      for (const f of /** @type {PointFeature[]} */ (add)) features.push(f);
      if (this.#featureOf || addedFeatureOf.length !== add.length) {
        const old = this.#featureOf ?? Int32Array.from({ length: first }, (_, i) => i);
        const next = new Int32Array(old.length + addedFeatureOf.length);
        next.set(old);
        next.set(addedFeatureOf, old.length);
        this.#featureOf = next;
      }
      for (let k = 0; k < move.length; k++) {
        const id = move[k].id;
        features[id] = movedFeature(features[id], movePairs[2 * k], movePairs[2 * k + 1]);
      }
      this.#idShift = features.length - fn.cairn_index_point_count(this.#res.handle);
      return before;
    }
    return first;
  }

  /**
   * The engine's id of a point id a caller gives (its input index); UNKNOWN_POINT for none.
   * @param {unknown} id
   * @param {string} call
   */
  #enginePoint(id, call) {
    const n = this.#res.fn.cairn_index_point_count(this.#res.handle);
    const unknown = () => errorFromStatus(STATUS_BY_CODE.UNKNOWN_POINT, typeof id === 'number' ? id : NaN, { call });
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) throw unknown();
    const of = this.#featureOf;
    if (!of) {
      if (id >= n) throw unknown();
      return id;
    }
    // featureOf is increasing: find the engine point of this input index.
    let lo = 0, hi = of.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (of[mid] < id) lo = mid + 1; else hi = mid;
    }
    if (lo === of.length || of[lo] !== id) throw unknown();
    return lo;
  }

  /**
   * The input index of an engine point.
   * @param {number} point
   */
  #inputIndex(point) { return this.#featureOf && point >= 0 && point < this.#featureOf.length ? this.#featureOf[point] : point; }

  /**
   * Clusters and points at a zoom inside a bounding box. A box whose west is east of its east
   * crosses the antimeridian; a box 360° wide or wider covers every longitude.
   *
   * @param {[number, number, number, number]} bbox  [westLng, southLat, eastLng, northLat]
   * @param {number} zoom  fractional zooms show the clustering of their integer part
   * @returns {Array<ClusterFeature | PointFeature>}
   */
  getClusters(bbox, zoom) {
    const [w, s, e, n] = bboxArgs(bbox, 'getClusters');
    const z = toNumber(zoom);
    const fn = this.#res.fn;
    const total = this.#results.query((h, p, c) => fn.cairn_index_clusters(h, w, s, e, n, z, p, c),
      'getClusters', 'bbox and zoom must be numbers');
    return this.#features(total, 'getClusters');
  }

  /**
   * The engine's handle of the loaded index (0 before `load` or once destroyed), for a cluster
   * manager's `useIndex`.
   * @returns {number}
   */
  get [ENGINE_HANDLE]() {
    return this.#destroyed ? 0 : this.#res.handle;
  }

  /**
   * Numbers per record that getClustersInto writes (read from the module, not fixed here).
   * @returns {number}
   */
  get recordStride() {
    return this.#mod.recordStride;
  }

  /**
   * getClusters into a caller's buffer, for rendering loops: records of `recordStride`
   * numbers, [id, point count, lng, lat]; a point has count 1 and its input index as id.
   *
   * @param {[number, number, number, number]} bbox
   * @param {number} zoom
   * @param {Float64Array} out
   * @returns {number} how many records there are in all; only as many as fit are written
   */
  getClustersInto(bbox, zoom, out) {
    if (!(out instanceof Float64Array)) throw argumentError('getClustersInto', 'out must be a Float64Array');
    const [w, s, e, n] = bboxArgs(bbox, 'getClustersInto');
    const z = toNumber(zoom);
    const fn = this.#res.fn;
    const stride = this.#mod.recordStride;
    const room = Math.floor(out.length / stride);
    const total = this.#results.query((h, p, c) => fn.cairn_index_clusters(h, w, s, e, n, z, p, c),
      'getClustersInto', 'bbox and zoom must be numbers', room);
    const written = Math.min(total, room, this.#results.capacity);
    if (written > 0) {
      out.set(this.#results.view(written));
      const featureOf = this.#featureOf;
      if (featureOf) {
        for (let k = 0; k < written * stride; k += stride) out[k] = out[k + 1] === 1 ? featureOf[out[k]] : this.#publicId(out[k]);
      }
    }
    return total;
  }

  /**
   * One aggregated property of clusters into a caller's buffer: the companion of
   * getClustersInto for records whose count is above 1. `out[k]` becomes the value of aggregate
   * `name` for cluster `clusterIds[k]` (NaN where no leaf has a value, for min, max and mean).
   *
   * @param {string} name  an aggregate declared in the `aggregates` option
   * @param {Float64Array} clusterIds
   * @param {Float64Array} out  at least as long as `clusterIds`
   * @returns {number} how many values were written (`clusterIds.length`)
   * @throws {CairnError} (INVALID_ARGUMENT) for an undeclared name or buffers of the wrong type or size
   * @throws {CairnError} (code UNKNOWN_CLUSTER) for an id this index did not produce, or
   *   (INVALID_STATE) when nothing is loaded
   */
  getAggregatesInto(name, clusterIds, out) {
    const call = 'getAggregatesInto';
    const a = this.#aggregates.indexOf(name);
    if (a < 0) throw argumentError(call, `no aggregate named ${describeValue(name)} in the options`);
    if (!(clusterIds instanceof Float64Array) || !(out instanceof Float64Array) || out.length < clusterIds.length) {
      throw argumentError(call, 'clusterIds and out must be Float64Arrays, out at least as long as clusterIds');
    }
    this.#checkAlive(call);
    if (!this.#aggregates.ready) throw this.#error(STATUS_BY_CODE.INVALID_STATE, call);
    if (clusterIds.length === 0) return 0;
    this.#aggregates.values(clusterIds, [a], call, (_, values) => out.set(values),
      { shift: this.#idShift, points: this.#featureOf?.length ?? 0 });
    return clusterIds.length;
  }

  /**
   * Where the index placed its points: the engine wraps longitudes into ±180° and clamps
   * latitudes to the map's edge (±85.0511°). `bounds` is [west, south, east, north] of the
   * points as placed (the world's for none); `moved` counts the points placed other than given.
   * @returns {{bounds: [number, number, number, number], moved: number}}
   */
  placement() {
    this.#checkAlive('placement');
    const fn = this.#res.fn;
    this.#results.query((h, p, c) => fn.cairn_index_placed_bounds(h, p, c), 'placement');
    const v = this.#results.view(1);
    /** @type {[number, number, number, number]} */
    const bounds = [v[0], v[1], v[2], v[3]];
    const moved = fn.cairn_index_placed_elsewhere(this.#res.handle);
    if (moved < 0) throw this.#error(moved, 'placement');
    return { bounds, moved };
  }

  /**
   * supercluster's k-d trees, for code written against its fields: `trees[z]`, for z from
   * `minZoom` to `maxZoom + 1`, is that zoom's tree as kdbush holds it: `ids`, each item's
   * position in the zoom's data, in the tree's layout order; `coords`, their float32 world
   * positions (x, y interleaved, 0…1); and `numItems`. A zoom's tree is read
   * from the engine when first asked for (laying it out if no query has) and kept until the
   * data changes.
   * @returns {Record<number, SuperclusterTree>}
   */
  get trees() {
    this.#checkAlive('trees');
    if (this.#trees) return this.#trees;
    /** @type {Record<number, SuperclusterTree>} */
    const trees = {};
    const { minZoom, maxZoom } = this.options;
    for (let z = minZoom; z <= maxZoom + 1; z++) {
      /** @type {SuperclusterTree | undefined} */
      let tree;
      Object.defineProperty(trees, z, { enumerable: true, get: () => (tree ??= this.#readTree(z)) });
    }
    return (this.#trees = Object.freeze(trees));
  }

  /**
   * @param {number} z
   * @returns {SuperclusterTree}
   */
  #readTree(z) {
    const fn = this.#res.fn;
    const call = 'trees';
    let total = fn.cairn_index_supercluster_tree(this.#res.handle, z, 0, 0);
    if (total < 0) throw this.#error(total, call);
    const ptr = total > 0 ? fn.cairn_alloc(total * 24) >>> 0 : 0;
    if (total > 0 && !ptr) throw memoryError(call, `out of WebAssembly memory for a tree of ${total} items`);
    try {
      if (total > 0) total = fn.cairn_index_supercluster_tree(this.#res.handle, z, ptr, total);
      if (total < 0) throw this.#error(total, call);
      const records = new Float64Array(this.#mod.memory.buffer, ptr, 3 * total);
      const ids = new Uint32Array(total);
      const coords = new Float32Array(2 * total);
      for (let k = 0; k < total; k++) {
        ids[k] = records[3 * k];
        coords[2 * k] = records[3 * k + 1];
        coords[2 * k + 1] = records[3 * k + 2];
      }
      return Object.freeze({ ids, coords, numItems: total });
    } finally {
      if (ptr) fn.cairn_free(ptr);
    }
  }

  /**
   * The clusters and points a cluster was formed from (one zoom closer in).
   * @param {number} clusterId
   * @returns {Array<ClusterFeature | PointFeature>}
   * @throws {CairnError} (code UNKNOWN_CLUSTER) for an id this index did not produce
   */
  getChildren(clusterId) {
    const id = toNumber(clusterId);
    const fn = this.#res.fn;
    const engineId = this.#engineId(id);
    const total = this.#results.query((h, p, c) => fn.cairn_index_children(h, engineId, p, c), 'getChildren', undefined, undefined, id);
    return this.#features(total, 'getChildren');
  }

  /**
   * The points inside a cluster, for pagination: `limit` of them (0 or undefined means 10,
   * Infinity means all) after skipping `offset`.
   * @param {number} clusterId
   * @param {number} [limit=10]
   * @param {number} [offset=0]
   * @returns {PointFeature[]}
   * @throws {CairnError} (code UNKNOWN_CLUSTER) for an id this index did not produce, or
   *   (INVALID_ARGUMENT) for a negative limit or offset
   */
  getLeaves(clusterId, limit, offset) {
    const id = toNumber(clusterId);
    const l = toNumber(limit || 10);
    let o = toNumber(offset || 0);
    // The engine wants a finite offset; past the end is past the end.
    if (o === Infinity) o = Number.MAX_SAFE_INTEGER;
    const fn = this.#res.fn;
    const engineId = this.#engineId(id);
    const total = this.#results.query((h, p, c) => fn.cairn_index_leaves(h, engineId, l, o, p, c),
      'getLeaves', 'limit and offset must be numbers ≥ 0', undefined, id);
    return /** @type {PointFeature[]} */ (this.#features(total, 'getLeaves'));
  }

  /**
   * The zoom at which a cluster splits into several children: where to zoom on a click.
   * @param {number} clusterId
   * @returns {number}
   * @throws {CairnError} (code UNKNOWN_CLUSTER) for an id this index did not produce
   */
  getClusterExpansionZoom(clusterId) {
    const id = toNumber(clusterId);
    const status = this.#res.fn.cairn_index_expansion_zoom(this.#res.handle, this.#engineId(id));
    if (status < 0) throw this.#error(status, 'getClusterExpansionZoom', undefined, id);
    return status;
  }

  /**
   * The features of vector tile z/x/y in tile coordinates (supercluster's format, ready for
   * geojson-vt style renderers), or null when the tile is empty. With `format: 'mvt'` the tile
   * encoded as a Mapbox Vector Tile (one layer of points, coordinates in units of `extent`,
   * 4096 unless given), or null when empty.
   * @param {number} z
   * @param {number} x
   * @param {number} y
   * @param {{format?: 'json' | 'mvt', extent?: number, buffer?: number, layer?: string}} [options]  the tile's
   *   extent (coordinates run 0…extent across the tile, the index's `extent` for JSON unless
   *   given), the margin around the tile whose features it holds, in the same units (0…extent;
   *   radius / extent of a tile unless given), and, for MVT, the layer's name ('clusters')
   * @returns {any} `{features: TileFeature[]}`, a `Uint8Array` for MVT, or null
   * @throws {CairnError} (INVALID_ARGUMENT) for non-integer coordinates
   * @throws {CairnError} (code INVALID_ARGUMENT) for a tile that does not exist, an extent that
   *   is not a positive integer, a buffer outside 0…extent, an empty layer name
   */
  getTile(z, x, y, options = {}) {
    const { format = 'json', layer = DEFAULT_LAYER } = options;
    if (format !== 'json' && format !== 'mvt') {
      throw argumentError('getTile', `format must be 'json' or 'mvt', not ${describeValue(format)}`);
    }
    const extent = options.extent ?? (format === 'mvt' ? DEFAULT_TILE_EXTENT : this.options.extent);
    const tile = this.#tileFeatures(z, x, y, extent, options.buffer);
    if (format === 'json') return tile;
    return tile === null ? null : encodeVectorTile(tile.features, { extent, layer });
  }

  /**
   * The tiles of zoom z worth asking `getTile` for with the same `extent` and `buffer`: every
   * tile that holds a feature, each once (and now and then a neighbour that turns out empty),
   * found from the items visible at that zoom, so that a whole zoom's tiles cost its items,
   * never 4^z queries. The order is by column then row, or PMTiles tile id order with
   * `order: 'pmtiles'`.
   * @param {number} z
   * @param {{extent?: number, buffer?: number, order?: 'columns' | 'pmtiles'}} [options]  as
   *   getTile takes them (the index's `extent` unless given)
   * @returns {Uint32Array} x, y pairs
   * @throws {CairnError} (code INVALID_ARGUMENT) for a zoom outside 0…30, an extent that is not
   *   above 0, a buffer outside 0…extent, an unknown order
   */
  getTileCover(z, options = {}) {
    const call = 'getTileCover';
    this.#checkAlive(call);
    const { order = 'columns' } = options;
    if (order !== 'columns' && order !== 'pmtiles') {
      throw argumentError(call, `order must be 'columns' or 'pmtiles', not ${describeValue(order)}`);
    }
    const zi = integerArg(z, 'z', call);
    const scale = toNumber(options.extent ?? this.options.extent);
    const margin = options.buffer === undefined ? -1 : toNumber(options.buffer) < 0 ? NaN : toNumber(options.buffer);
    const { fn, memory } = this.#mod;
    let capacity = 1 << 14;
    for (;;) {
      const ptr = fn.cairn_alloc(capacity * 8) >>> 0;
      if (!ptr) throw memoryError(call, `out of WebAssembly memory for ${capacity} tiles`);
      try {
        const total = fn.cairn_index_tile_cover(this.#res.handle, zi, scale, margin, order === 'pmtiles' ? 1 : 0, ptr, capacity);
        if (total < 0) {
          throw this.#error(total, call, 'z must be 0…30, the extent above 0 and the buffer 0…extent');
        }
        if (total <= capacity) return new Uint32Array(memory.buffer, ptr, 2 * total).slice();
        capacity = total;
      } finally {
        fn.cairn_free(ptr);
      }
    }
  }

  /**
   * getTile's features in units of `extent`.
   * @param {number} z
   * @param {number} x
   * @param {number} y
   * @param {number} extent
   * @param {number | undefined} buffer  in units of extent; the radius unless given
   * @returns {{features: TileFeature[]} | null}
   */
  #tileFeatures(z, x, y, extent, buffer) {
    const zi = integerArg(z, 'z', 'getTile');
    const xi = integerArg(x, 'x', 'getTile');
    const yi = integerArg(y, 'y', 'getTile');
    const scale = toNumber(extent);
    const fn = this.#res.fn;
    // The engine takes a negative buffer as "the radius"; a caller's negative one is an error.
    const margin = buffer === undefined ? -1 : toNumber(buffer) < 0 ? NaN : toNumber(buffer);
    const total = this.#results.query((h, p, c) => fn.cairn_index_tile_extent(h, zi, xi, yi, scale, margin, p, c),
      'getTile', 'z must be 0…30, x and y in 0…2^z - 1, the extent above 0, the buffer 0…extent');
    if (total === 0) return null;
    const v = this.#results.view(total);
    const stride = this.#mod.recordStride;
    const n = v.length / stride;
    const generateId = this.options.generateId;
    /** @type {TileFeature[]} */
    const features = new Array(n);
    /** @type {number[]} */
    const clusterIds = [];
    /** @type {Record<string, any>[]} */
    const clusterTags = [];
    /** @type {TileFeature[]} */
    const clusterFeatures = [];
    for (let i = 0, k = 0; i < n; i++, k += stride) {
      const id = v[k];
      const count = v[k + 1];
      /** @type {TileFeature} */
      let f;
      if (count > 1) {
        const tags = clusterProperties(this.#publicId(id), count);
        f = { type: 1, geometry: [[v[k + 2], v[k + 3]]], tags, id: this.#publicId(id) };
        clusterIds.push(id);
        clusterTags.push(tags);
        clusterFeatures.push(f);
      } else {
        const index = this.#featureOf ? this.#featureOf[id] : id;
        const feature = this.points ? this.points[index] : null;
        f = { type: 1, geometry: [[v[k + 2], v[k + 3]]], tags: feature ? feature.properties : { index } };
        const pointId = generateId ? index : feature ? feature.id : undefined;
        if (pointId !== undefined) f.id = pointId;
      }
      features[i] = f;
    }
    this.#completeClusters(clusterIds, clusterTags, clusterFeatures, 'tags', 'getTile');
    return { features };
  }

  /**
   * The built index saved to one ArrayBuffer (transferable: a worker can hand it to the page),
   * which `ClusterIndex.from` restores without clustering again: the same clusters, ids,
   * children, leaves, tiles, expansion zooms and aggregates. The options travel with it; the
   * `map` and `reduce` functions cannot, so `from` must be given them again. Point features
   * given to `load` are not saved either: give them to `from` to have them returned.
   * @returns {ArrayBuffer}
   * @throws {CairnError} (INVALID_STATE) after destroy()
   */
  save() {
    this.#checkAlive('save');
    const host = encodeHostData({ options: this.options, reduces: this.#reducer !== null,
      idShift: this.#idShift, featureOf: this.#featureOf });
    return saveEngineIndex(this.#mod, this.#res.handle, host, 'save');
  }

  /**
   * Restores an index that `save()` wrote, without clustering. A buffer that is truncated, of
   * another format version or altered is refused (INVALID_SAVED_INDEX, detail 0 truncated,
   * 1 not a saved index, 2 another version, 3 altered, 4 inconsistent); nothing is created.
   * @param {ArrayBuffer | ArrayBufferView} buffer
   * @param {{points?: PointFeature[] | null, map?: ClusterOptions['map'], reduce?: ClusterOptions['reduce']}} [given]
   *   `points`: the features given to `load`, to be returned as they were (otherwise points are
   *   made as `loadCoordinates` makes them); `map` and `reduce`: required when the saved index
   *   had them, as functions are not saved
   * @returns {ClusterIndex}
   * @throws {CairnError} (INVALID_SAVED_INDEX) for a buffer refused; (INVALID_ARGUMENT) when
   *   `buffer` is no buffer, `points` has another length than the saved data, or map/reduce are
   *   missing for an index saved with them
   */
  static from(buffer, given = {}) {
    const call = 'ClusterIndex.from';
    let bytes;
    if (buffer instanceof ArrayBuffer) bytes = new Uint8Array(buffer);
    else if (ArrayBuffer.isView(buffer)) bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    else throw argumentError(call, 'expected the ArrayBuffer that save() returned');
    const mod = getModule();
    const handle = restoreEngineIndex(mod, bytes, call);
    /** @type {ClusterIndex | null} */
    let index = null;
    try {
      const state = decodeHostData(bytes, call);
      const map = given?.map ?? null, reduce = given?.reduce ?? null;
      if (state.reduces && !reduce) {
        throw argumentError(call, 'this index was saved with map/reduce, which cannot be saved: give them to from() again');
      }
      index = new ClusterIndex({ ...state.options, map, reduce });
      mod.fn.cairn_index_destroy(index.#res.handle);
      index.#res.handle = handle;
      index.#featureOf = state.featureOf;
      index.#idShift = state.idShift;
      index.#aggregates.adopt();
      const points = given?.points ?? null;
      if (points !== null) {
        const loaded = state.featureOf ? state.featureOf.length + state.idShift : mod.fn.cairn_index_point_count(handle);
        if (!Array.isArray(points) || points.length !== loaded) {
          throw argumentError(call, `points must be the ${loaded} features the saved index was loaded from`);
        }
        index.points = points;
      }
      return index;
    } catch (error) {
      // The engine index is the new object's once it took it (its destroy frees it).
      if (index !== null && index.#res.handle === handle) index.destroy();
      else mod.fn.cairn_index_destroy(handle);
      throw error;
    }
  }

  /**
   * Frees the engine's memory for this index. The index cannot be used afterwards. Optional
   * (a finalizer frees forgotten indexes eventually) but prompt.
   */
  destroy() {
    if (this.#destroyed) return;
    this.#destroyed = true;
    if (registry) registry.unregister(this);
    release(this.#res);
    this.points = null;
    this.#featureOf = null;
    this.#idShift = 0;
    this.#reducer?.clear();
    this.#trees = null;
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────

  /**
   * Computes the aggregated properties of the loaded data in the engine; a failure leaves the
   * index empty.
   * @param {(property: string) => Float64Array} valuesFor  one number per engine point, NaN for none
   * @param {string} call
   */
  #addAggregates(valuesFor, call) {
    try {
      const featureOf = this.#featureOf;
      this.#aggregates.compute(valuesFor, call, (point) => (featureOf ? featureOf[point] : point));
    } catch (error) {
      this.#resetEmpty();
      throw error;
    }
  }

  /** @returns {number} a new engine index handle with this.options */
  #createEngineIndex() {
    const o = this.options;
    const handle = this.#res.fn.cairn_index_create(o.radius, o.extent, clampInt32(o.minZoom),
      clampInt32(o.maxZoom), clampInt32(o.minPoints));
    if (handle < 0) throw this.#error(handle, 'ClusterIndex');
    return handle;
  }

  /**
   * A load from inside the app's `map` or `reduce` would change the data under the fold.
   * @param {string} call
   */
  #checkNotFolding(call) {
    if (this.#reducer?.busy) throw this.#error(STATUS_BY_CODE.INVALID_STATE, call, 'map or reduce is running: load after the query');
  }

  /** @param {string} call */
  #checkAlive(call) {
    if (this.#destroyed) {
      throw new CairnError(`${call}: this ClusterIndex was destroyed`, { code: STATUS_CODES[1].code, status: -1 });
    }
  }

  /**
   * Replaces the engine index with a fresh one and fills it from `write`, then clusters every
   * zoom. On failure the index is left empty (and built, so queries return nothing) rather
   * than half loaded.
   *
   * @param {number} count  points that `write` will supply in all
   * @param {(view: Float64Array, room: number) => number} write  fills up to `room` pairs,
   *   returns how many
   * @param {boolean} countIsReal  whether `count` is backed by data that exists (an array of
   *   features, a typed array) rather than by a length that could be bogus (a sparse array)
   * @param {Int32Array | null} featureOf  engine index → input index, for error messages
   * @param {((p: Progress) => void) | undefined} onProgress
   * @param {string} call
   */
  #ingest(count, write, countIsReal, featureOf, onProgress, call) {
    const res = this.#res;
    const fn = res.fn;
    this.points = null;
    this.#featureOf = null;
    this.#idShift = 0;
    this.#reducer?.clear();
    this.#trees = null;
    // Destroy before creating: wasm memory never shrinks, so the old index's memory should be
    // free for the new one to reuse.
    fn.cairn_index_destroy(res.handle);
    res.handle = 0;
    res.handle = this.#createEngineIndex();
    let staging = 0;
    try {
      if (count > 0) {
        const room = Math.min(CHUNK_POINTS, count);
        staging = fn.cairn_alloc(room * 16) >>> 0;
        if (!staging) throw memoryError(call, 'out of WebAssembly memory');
        // Room for every point up front, so the engine's arrays never grow by copying.
        if (countIsReal) this.#reserve(count, call);
        let done = 0;
        for (;;) {
          // A fresh view each round: the add below may grow memory, detaching the old one.
          const view = new Float64Array(this.#mod.memory.buffer, staging, room * 2);
          const written = write(view, room);
          if (written === 0) break;
          const status = fn.cairn_index_add(res.handle, staging, written);
          if (status < 0) {
            const detail = fn.cairn_last_error_detail();
            // A bad point's detail is its engine index: name the feature it came from. Other
            // details (counts of points) stay as they are.
            const pointIndex = status === STATUS_BY_CODE.NON_FINITE_COORDINATE || status === STATUS_BY_CODE.LATITUDE_OUT_OF_RANGE;
            throw this.#error(status, call, undefined,
              pointIndex && featureOf && detail >= 0 && detail < featureOf.length ? featureOf[detail] : detail);
          }
          if (!countIsReal && done === 0 && count > written) {
            // Only now, with real data seen, reserve for the rest: a bogus huge length then
            // fails on its first chunk instead of asking the engine for gigabytes.
            this.#reserve(count - written, call);
          }
          done += written;
          if (onProgress) onProgress({ phase: 'add', done, total: count });
        }
      }
      this.#buildAll(onProgress, call);
    } catch (error) {
      this.#resetEmpty();
      throw error;
    } finally {
      if (staging) fn.cairn_free(staging);
    }
  }

  /**
   * Makes room in the engine for `count` more points; the engine refuses more than one index
   * can hold or than memory has left to build (TOO_MANY_POINTS, OUT_OF_MEMORY).
   * @param {number} count
   * @param {string} call
   */
  #reserve(count, call) {
    const status = this.#res.fn.cairn_index_reserve(this.#res.handle, clampInt32(count));
    if (status < 0) throw this.#error(status, call);
  }

  /**
   * @param {((p: Progress) => void) | undefined} onProgress
   * @param {string} call
   */
  #buildAll(onProgress, call) {
    const fn = this.#res.fn;
    let total = 0;
    for (let done = 1; ; done++) {
      const left = fn.cairn_index_build_step(this.#res.handle);
      if (left < 0) throw this.#error(left, call);
      if (total === 0) total = left + 1;
      if (onProgress) onProgress({ phase: 'cluster', done, total });
      if (left === 0) break;
    }
  }

  #resetEmpty() {
    const res = this.#res;
    this.points = null;
    this.#featureOf = null;
    this.#idShift = 0;
    this.#aggregates.reset();
    this.#reducer?.clear();
    this.#trees = null;
    if (res.handle) res.fn.cairn_index_destroy(res.handle);
    res.handle = 0;
    res.handle = this.#createEngineIndex();
    while (res.fn.cairn_index_build_step(res.handle) > 0) { /* no points: returns at once */ }
  }

  /**
   * @param {number} total
   * @param {string} call  the query, for errors
   * @returns {Array<ClusterFeature | PointFeature>}
   */
  #features(total, call) {
    const v = this.#results.view(total);
    const stride = this.#mod.recordStride;
    const n = v.length / stride;
    const out = new Array(n);
    /** @type {number[]} */
    const clusterIds = [];
    /** @type {Record<string, any>[]} */
    const clusterProps = [];
    /** @type {Record<string, any>[]} */
    const clusterFeatures = [];
    for (let i = 0, k = 0; i < n; i++, k += stride) {
      const id = v[k];
      const count = v[k + 1];
      if (count > 1) {
        const properties = clusterProperties(this.#publicId(id), count);
        out[i] = { type: 'Feature', id: this.#publicId(id), properties, geometry: { type: 'Point', coordinates: [v[k + 2], v[k + 3]] } };
        clusterIds.push(id);
        clusterProps.push(properties);
        clusterFeatures.push(out[i]);
      } else {
        out[i] = this.#pointFeature(this.#featureOf ? this.#featureOf[id] : id, v[k + 2], v[k + 3]);
      }
    }
    this.#completeClusters(clusterIds, clusterProps, clusterFeatures, 'properties', call);
    return out;
  }

  /**
   * Adds to the clusters a query returned what their records do not hold: the properties of
   * `map` and `reduce` (under the cluster's own fields, which win, as in supercluster) and the
   * aggregates. After the records are read: both call the engine, which may detach their view.
   * @param {number[]} ids  the clusters' engine ids
   * @param {Record<string, any>[]} properties  each cluster's properties (replaced when reduced)
   * @param {Record<string, any>[]} features  each cluster's feature, whose `key` holds them
   * @param {'properties' | 'tags'} key
   * @param {string} call  the query, for errors
   */
  #completeClusters(ids, properties, features, key, call) {
    const reducer = this.#reducer;
    if (reducer) {
      for (let k = 0; k < ids.length; k++) {
        properties[k] = { ...reducer.of(ids[k], this.#reduceSource, call), ...properties[k] };
        features[k][key] = properties[k];
      }
    }
    this.#aggregates.fill(ids, properties);
  }

  /**
   * A cluster id as callers see it (see `#idShift`).
   * @param {number} engineId
   */
  #publicId(engineId) { return engineId + this.#idShift; }

  /**
   * The engine's id of a cluster id a caller gives.
   * @param {number} id
   */
  #engineId(id) { return id - this.#idShift; }

  /**
   * @param {number} index  input index
   * @param {number} lng  the engine's position of the point
   * @param {number} lat
   * @returns {PointFeature}
   */
  #pointFeature(index, lng, lat) {
    if (this.points) return this.points[index];
    // Fast-path data: the index keeps no copy of the caller's coordinates; the engine's
    // position is the input's to about 1e-13°.
    return { type: 'Feature', properties: { index }, geometry: { type: 'Point', coordinates: [lng, lat] } };
  }

  /**
   * Throws for a feature load() cannot take, leaving the index empty as the engine does for a
   * bad point, so that a failed load never leaves part of its input behind.
   * @param {number} index
   * @param {string} problem
   * @returns {never}
   */
  #rejectFeature(index, problem) {
    this.#resetEmpty();
    throw new CairnError(`load: feature ${index} ${problem}`, { code: STATUS_CODES[2].code, status: -2, detail: index });
  }

  /**
   * @param {number} status
   * @param {string} call
   * @param {string} [hint]
   * @param {number} [detail]  overrides the engine's detail when the caller knows better
   */
  #error(status, call, hint, detail) {
    const code = STATUS_CODES[-status] ? STATUS_CODES[-status].code : '';
    if (code === 'INVALID_HANDLE' && this.#destroyed) hint = 'destroy() was called';
    if (code === 'INVALID_STATE' && !hint) hint = 'nothing is loaded yet: call load() or loadCoordinates() first';
    const d = detail !== undefined ? detail : this.#res.fn.cairn_last_error_detail();
    return errorFromStatus(status, d, { call, hint });
  }
}
