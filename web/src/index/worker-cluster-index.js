// ClusterIndex on a thread of its own: the same methods, each returning a promise, with the
// clustering in a Web Worker (in a browser) or a worker_threads Worker (in Node), so that the
// page keeps answering input while a million points cluster.
//
// This one file is both sides. The page imports WorkerClusterIndex, which starts a thread
// running this same module; there `serveThread` finds itself in the thread it was started for
// and answers the calls with a ClusterIndex, which checks every argument as it does on the
// page. Coordinates and values in typed arrays are transferred (the caller's buffers are
// handed over, not copied); GeoJSON features are sent once, and points come back as the
// caller's own feature objects: the thread names them by input index.

import { getModule, init, isInitialized } from '../core/wasm.js';
import { Thread, serveThread } from '../core/thread.js';
import { CairnError, STATUS_BY_CODE, errorFromStatus, optionError } from '../core/errors.js';
import { ClusterIndex } from './cluster-index.js';
import { movedFeature } from './point-features.js';
import { toNumber } from '../core/arguments.js';

/** @typedef {import('./index-options.js').ClusterOptions} ClusterOptions */
/** @typedef {import('./geojson.js').PointFeature} PointFeature */
/** @typedef {import('./geojson.js').ClusterFeature} ClusterFeature */
/** @typedef {import('./geojson.js').TileFeature} TileFeature */
/** @typedef {import('./cluster-index.js').Progress} Progress */

/** The name of the index's thread: how this module knows it runs there. */
const THREAD_NAME = 'cairn-cluster-index';

/**
 * A query's answer from the thread: its features with the caller's own objects left out, and
 * where they go: `from[2k]` is a position in `items`, `from[2k + 1]` the input index of the
 * feature (of `load` number `load`) whose object, or whose properties for a tile, belongs there.
 * @typedef {object} Answer
 * @property {any[]} items
 * @property {number[]} from
 * @property {number} load
 */

// An index dropped without destroy() still ends its thread, when it is collected.
const registry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((/** @type {Thread} */ thread) => { thread.end(destroyedError); })
  : null;

/** @param {string} call */
function destroyedError(call) {
  return errorFromStatus(STATUS_BY_CODE.INVALID_HANDLE, 0, { call, hint: 'destroy() was called' });
}

/**
 * A ClusterIndex whose clustering runs on a worker thread: the same methods, each returning a
 * promise of what ClusterIndex's returns, and the same results. Calls run in the order they
 * are made, so a query made right after `load` (without awaiting it) answers on the new data.
 *
 * Needs no `init()` on the page: the thread loads the module itself (the page's compiled
 * module when `init()` has finished there, the package's `dist/cairn.wasm` otherwise).
 * Options `map` and `reduce` are functions of the page and cannot run in the thread: they are
 * refused with INVALID_OPTION (aggregates compute in the engine and work here).
 */
export class WorkerClusterIndex {
  /** @type {Thread | null} null when the options were refused before any thread started */
  #thread = null;
  #destroyed = false;
  /** @type {CairnError | null} */
  #refused = null;
  /** Loads sent so far: the number of the next one. */
  #loads = 0;
  /**
   * The features of each load that the thread may still answer from, by load number.
   * @type {Map<number, PointFeature[]>}
   */
  #features = new Map();

  /**
   * @param {ClusterOptions | null} [options]  as ClusterIndex takes them, checked in the thread
   *   (its errors reject `ready` and every call)
   */
  constructor(options = {}) {
    /**
     * The options in force, defaults filled in, once `ready` has resolved (null until then).
     * @type {Required<ClusterOptions> | null}
     */
    this.options = null;
    /**
     * The features of the last `load` that succeeded (the caller's array); null before, and
     * after `loadCoordinates`.
     * @type {PointFeature[] | null}
     */
    this.points = null;
    const functions = options !== null && typeof options === 'object' &&
      ['map', 'reduce'].find((name) => typeof (/** @type {any} */ (options))[name] === 'function');
    if (functions) {
      this.#refused = optionError('WorkerClusterIndex', functions,
        `option ${functions} is a function of the page and cannot run in the worker (aggregates can)`);
      /** Resolves when the thread's index exists; rejects with the error that refused the options. */
      this.ready = Promise.reject(this.#refused);
    } else {
      this.#thread = new Thread(new URL('./worker-cluster-index.js', import.meta.url), THREAD_NAME);
      const wasm = isInitialized() ? getModule().module : undefined;
      this.ready = this.#thread.call('create', [options, wasm]).then((resolved) => { this.options = resolved; });
      if (registry) registry.register(this, this.#thread, this);
    }
    // Nobody need await `ready`: a refusal reaches every call too, and is no unhandled rejection.
    this.ready.catch(() => {});
  }

  /**
   * Loads GeoJSON Point features, as ClusterIndex#load does. The features are sent to the
   * thread once (a structured clone, made now, on this thread); the results' points are the
   * caller's own objects from this array.
   * @param {PointFeature[]} features
   * @returns {Promise<this>}
   */
  async load(features) {
    const load = ++this.#loads;
    this.#features.set(load, features);
    try {
      await this.#call('load', [features, load]);
    } catch (error) {
      this.#features.delete(load);
      throw error;
    }
    for (const earlier of this.#features.keys()) if (earlier < load) this.#features.delete(earlier);
    this.points = features;
    return this;
  }

  /**
   * Loads longitude/latitude pairs, as ClusterIndex#loadCoordinates does. A typed array's
   * buffer is transferred to the thread, as are those of `values`: the caller's arrays are
   * left empty (detached), whether or not the load succeeds. Other arrays are copied.
   * @param {Float64Array | ArrayLike<number>} lngLat
   * @param {{onProgress?: (progress: Progress) => void, values?: Record<string, ArrayLike<number>>}} [options]
   *   `onProgress` is called on this thread as the thread reports
   * @returns {Promise<this>}
   */
  async loadCoordinates(lngLat, options = {}) {
    const load = ++this.#loads;
    /** @type {Set<ArrayBuffer>} */
    const transfer = new Set();
    const hand = (/** @type {any} */ array) => {
      if (ArrayBuffer.isView(array) && array.buffer instanceof ArrayBuffer) transfer.add(array.buffer);
    };
    hand(lngLat);
    let sent = options;
    let onProgress;
    if (options !== null && typeof options === 'object') {
      const values = options.values;
      if (values !== null && typeof values === 'object') for (const name of Object.keys(values)) hand(values[name]);
      // A function cannot cross: the thread reports, and this side calls it. Anything else
      // goes as it is, for the thread's ClusterIndex to judge.
      if (typeof options.onProgress === 'function') {
        onProgress = options.onProgress;
        sent = { ...options, onProgress: undefined };
      }
    }
    await this.#call('loadCoordinates', [lngLat, sent, load, onProgress !== undefined], [...transfer], onProgress);
    this.#features.clear();
    this.points = null;
    return this;
  }

  /**
   * Adds, removes and moves points, as ClusterIndex#update does, on the thread. For features,
   * `points` here changes as the thread's does: added features appended (the caller's own
   * objects), a moved point's entry replaced by a copy at its new position.
   * @param {Parameters<ClusterIndex['update']>[0]} changes
   * @returns {Promise<number>} the id of the first point added
   */
  async update(changes) {
    const first = await this.#call('update', [changes]);
    const points = this.points;
    if (points) {
      for (const f of /** @type {PointFeature[]} */ (changes.add ?? [])) points.push(f);
      for (const m of Array.from(changes.move ?? [])) {
        points[m.id] = movedFeature(points[m.id], toNumber(m.coordinates[0]), toNumber(m.coordinates[1]));
      }
    }
    return first;
  }

  /**
   * @param {[number, number, number, number]} bbox
   * @param {number} zoom
   * @returns {Promise<Array<ClusterFeature | PointFeature>>}
   */
  async getClusters(bbox, zoom) {
    return this.#placed(await this.#call('getClusters', [bbox, zoom]), false);
  }

  /**
   * @param {number} clusterId
   * @returns {Promise<Array<ClusterFeature | PointFeature>>}
   */
  async getChildren(clusterId) {
    return this.#placed(await this.#call('getChildren', [clusterId]), false);
  }

  /**
   * @param {number} clusterId
   * @param {number} [limit=10]
   * @param {number} [offset=0]
   * @returns {Promise<PointFeature[]>}
   */
  async getLeaves(clusterId, limit, offset) {
    return this.#placed(await this.#call('getLeaves', [clusterId, limit, offset]), false);
  }

  /**
   * @param {number} clusterId
   * @returns {Promise<number>}
   */
  getClusterExpansionZoom(clusterId) {
    return this.#call('getClusterExpansionZoom', [clusterId]);
  }

  /**
   * @param {number} z
   * @param {number} x
   * @param {number} y
   * @returns {Promise<{features: TileFeature[]} | null>}
   */
  async getTile(z, x, y) {
    const answer = await this.#call('getTile', [z, x, y]);
    return answer === null ? null : { features: this.#placed(answer, true) };
  }

  /**
   * As ClusterIndex#getClustersInto: the records are written into the caller's `out` when
   * the promise resolves.
   * @param {[number, number, number, number]} bbox
   * @param {number} zoom
   * @param {Float64Array} out
   * @returns {Promise<number>}
   */
  async getClustersInto(bbox, zoom, out) {
    const { total, written } = await this.#call('getClustersInto', [bbox, zoom, out instanceof Float64Array ? out.slice() : out]);
    out.set(written);
    return total;
  }

  /**
   * As ClusterIndex#getAggregatesInto: the values are written into the caller's `out` when
   * the promise resolves.
   * @param {string} name
   * @param {Float64Array} clusterIds
   * @param {Float64Array} out
   * @returns {Promise<number>}
   */
  async getAggregatesInto(name, clusterIds, out) {
    const { total, written } = await this.#call('getAggregatesInto', [name, clusterIds, out instanceof Float64Array ? out.slice() : out]);
    out.set(written);
    return total;
  }

  /**
   * The index saved, as ClusterIndex#save does: made on the thread and transferred (not
   * copied) to this one, for `ClusterIndex.from` here, a file or another worker.
   * @returns {Promise<ArrayBuffer>}
   */
  async save() {
    return this.#call('save', []);
  }

  /**
   * Ends the thread and its engine memory. Calls still running reject, as do any made later,
   * with INVALID_HANDLE.
   * @returns {Promise<void>} resolves once the thread has stopped
   */
  destroy() {
    this.#destroyed = true;
    this.points = null;
    this.#features.clear();
    if (!this.#thread) return Promise.resolve();
    if (registry) registry.unregister(this);
    return this.#thread.end(destroyedError);
  }

  /**
   * @param {string} method
   * @param {any[]} args
   * @param {Transferable[]} [transfer]
   * @param {(progress: any) => void} [onProgress]
   */
  #call(method, args, transfer, onProgress) {
    if (this.#destroyed) return Promise.reject(destroyedError(method));
    if (!this.#thread) return Promise.reject(this.#refused);
    return this.#thread.call(method, args, transfer, onProgress);
  }

  /**
   * The answer's items with the caller's own objects put in.
   * @param {Answer} answer
   * @param {boolean} tile  whether the objects are the features' properties (a tile's tags)
   */
  #placed({ items, from, load }, tile) {
    const features = this.#features.get(load);
    if (!features) return items;
    for (let k = 0; k < from.length; k += 2) {
      const feature = features[from[k + 1]];
      if (tile) items[from[k]].tags = feature.properties; else items[from[k]] = feature;
    }
    return items;
  }
}

// ── the thread's side ────────────────────────────────────────────────────────────────────────

/** @type {ClusterIndex | null} */
let index = null;
/** @type {unknown} why the index could not be made */
let refusal = null;
/** The data the index holds: the number of its load, and the features given (null for coordinates). */
let data = { load: 0, points: /** @type {PointFeature[] | null} */ (null) };
/** @type {{features: Map<object, number>, properties: Map<object, number>} | null} input indices, by object */
let inputIndex = null;

/**
 * Input indices of the features' objects and of their properties, made once a query needs them.
 * @param {PointFeature[]} points
 */
function inputIndexOf(points) {
  if (!inputIndex) {
    inputIndex = { features: new Map(), properties: new Map() };
    for (let i = 0; i < points.length; i++) {
      const f = points[i];
      if (!f || typeof f !== 'object') continue;
      inputIndex.features.set(f, i);
      // Features that share one properties object share it in the caller's array too (a
      // structured clone keeps shared references): any of them names the right object.
      if (f.properties !== null && typeof f.properties === 'object' && !inputIndex.properties.has(f.properties)) {
        inputIndex.properties.set(f.properties, i);
      }
    }
  }
  return inputIndex;
}

/**
 * A query's items as the thread sends them: the features' own objects (or properties) left
 * out, named by input index instead.
 * @param {any[]} items
 * @param {boolean} tile
 * @returns {{result: Answer}}
 */
function answer(items, tile) {
  /** @type {number[]} */
  const from = [];
  const points = data.points;
  if (points) {
    const known = inputIndexOf(points);
    for (let k = 0; k < items.length; k++) {
      const i = tile ? known.properties.get(items[k].tags) : known.features.get(items[k]);
      if (i === undefined) continue;
      from.push(k, i);
      if (tile) items[k].tags = null; else items[k] = null;
    }
  }
  return { result: { items, from, load: data.load } };
}

/**
 * Runs a load; afterwards `data` says what the index holds (a refused argument keeps the old
 * data, a bad point leaves the index empty).
 * @param {() => void} run
 * @param {number} load
 */
function loading(run, load) {
  const before = /** @type {ClusterIndex} */ (index).points;
  try {
    run();
  } catch (error) {
    if (/** @type {ClusterIndex} */ (index).points !== before) data = { load: 0, points: null };
    throw error;
  } finally {
    inputIndex = null;
  }
  data = { load, points: /** @type {ClusterIndex} */ (index).points };
  return { result: null };
}

/**
 * @param {string} method
 * @param {any[]} args
 * @param {(report: any) => void} progress
 */
async function serve(method, args, progress) {
  if (method === 'create') {
    try {
      await init(args[1]);
      index = new ClusterIndex(args[0]);
    } catch (error) {
      refusal = error;
      throw error;
    }
    return { result: index.options };
  }
  if (!index) throw refusal;
  const ix = index;
  switch (method) {
    case 'load': return loading(() => ix.load(args[0]), args[1]);
    case 'loadCoordinates': {
      const [lngLat, options, load, reports] = args;
      return loading(() => ix.loadCoordinates(lngLat, reports ? { ...options, onProgress: progress } : options), load);
    }
    case 'update': return { result: ix.update(args[0]) };
    case 'getClusters': return answer(ix.getClusters(args[0], args[1]), false);
    case 'getChildren': return answer(ix.getChildren(args[0]), false);
    case 'getLeaves': return answer(ix.getLeaves(args[0], args[1], args[2]), false);
    case 'getClusterExpansionZoom': return { result: ix.getClusterExpansionZoom(args[0]) };
    case 'getTile': {
      const tile = ix.getTile(args[0], args[1], args[2]);
      return tile === null ? { result: null } : answer(tile.features, true);
    }
    case 'getClustersInto': {
      const [bbox, zoom, out] = args;
      const total = ix.getClustersInto(bbox, zoom, out);
      return { result: { total, written: out }, transfer: [out.buffer] };
    }
    case 'getAggregatesInto': {
      const [name, clusterIds, out] = args;
      const total = ix.getAggregatesInto(name, clusterIds, out);
      return { result: { total, written: out }, transfer: [out.buffer] };
    }
    case 'save': {
      const saved = ix.save();
      return { result: saved, transfer: [saved] };
    }
    default: throw new CairnError(`${method}: not a method of WorkerClusterIndex`, { code: 'INVALID_ARGUMENT', status: STATUS_BY_CODE.INVALID_ARGUMENT });
  }
}

serveThread(THREAD_NAME, serve);
