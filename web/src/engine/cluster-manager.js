// Cluster managers on a map (features C1–C7, C10): a set of items the engine clusters for
// the screen with one of its algorithms. The engine decides everything a manager does (which
// clusters exist at the camera's zoom, when they follow a zoom change, what a tap does, which
// bucket a cluster falls in); this file checks what callers pass, moves it across in one call
// per method, and keeps what the engine does not hold: the items' titles, snippets and user
// data, and the bucket list and colours the host draws cluster icons with.

import { STATUS_BY_CODE, STATUS_CODES, argumentError, describeValue, errorFromStatus, refusedInBatch } from '../core/errors.js';
import { booleanArg, int32Arg, nameArg, numberArg, numbersArg, objectArg } from '../core/arguments.js';
import { ItemTable } from './item-table.js';
import { coordinateValues, itemIconArg, itemStride, resolveItem, writeCoordinates, writeItems } from './cluster-item-records.js';
import { bucketArgs, bucketsInForce, clusterDefaults } from './cluster-buckets.js';
import { nextTask } from '../core/next-task.js';
import { resolveAggregates } from '../core/aggregates.js';
import { ENGINE_HANDLE } from '../core/engine-memory.js';


/** @typedef {import('../core/frame.js').LatLng} LatLng */
/** @typedef {import('../core/frame.js').DrawItem} DrawItem */
/** @typedef {import('../core/errors.js').CairnError} CairnError */
/** @typedef {import('./cluster-buckets.js').ClusterIcon} ClusterIcon */
/** @typedef {import('./map-icon.js').MapIcon} MapIcon */

/** The clustering algorithms (feature C2), as the engine numbers them. */
export const CLUSTER_ALGORITHMS = Object.freeze({ hierarchical: 0, distance: 1, grid: 2, none: 3 });

/**
 * @typedef {object} ClusterManagerOptions
 * @property {keyof typeof CLUSTER_ALGORITHMS} [algorithm='hierarchical']
 * @property {number} [minimumClusterSize=4]  smaller groups are drawn as their items (Google's default)
 * @property {number} [maximumClusterZoom=20]  above this camera zoom every item is drawn on its own
 * @property {number} [radius=40]  the hierarchical algorithm's radius, in supercluster's units (of `extent`, 512:
 *   40 is 20 CSS pixels on the map's 256-pixel tiles); the other algorithms use Google's 100 points
 * @property {number} [extent=512]  the hierarchical algorithm's tile extent the radius is measured in (supercluster's)
 * @property {number} [minZoom=0]   the hierarchical algorithm's lowest zoom clustered (below it, that zoom's clusters)
 * @property {number} [maxZoom=16]  its highest: above it every item shows on its own
 * @property {number} [minPoints=2]  its fewest items to a cluster
 * @property {boolean} [animatesClusters=true]  changes of clustering fly items out of and into clusters (0.5 s)
 * @property {boolean} [flatItems=false]  items lie flat on the map under tilt and turn with it (clusters face
 *   the screen either way); by default they stand facing the screen, as markers do
 * @property {number[]} [buckets]  icon buckets, as for `setBuckets` (default Google's: 10, 50, 100, 200, 1000)
 * @property {string[]} [colors]  their colours, as for `setBuckets`
 * @property {Record<string, [string, string]>} [aggregates]  aggregated properties of clusters (feature C9), as
 *   `{name: [operation, property]}` with operation sum, min, max, count or mean over the numbers
 *   the items' `userData` hold under `property` (see `aggregatesOf`; anything but a number, and
 *   NaN, counts as none; an infinite number is refused with NON_FINITE_VALUE, as `ClusterIndex` does)
 */

/**
 * @typedef {object} ClusterItemOptions  an item as the caller describes it
 * @property {LatLng} position
 * @property {number | MapIcon} [icon=-1]  a number from `map.registerIcon` (-1 the default pin), or on a
 *   CairnMap an icon from `map.icon`, `loadIcon` or `pinIcon` (an item's options then give its number)
 * @property {string} [title='']  kept on the JS side
 * @property {string} [snippet='']  kept on the JS side
 * @property {unknown} [userData]  any value of the app's, kept on the JS side
 */

/** @typedef {Omit<Required<ClusterItemOptions>, 'icon'> & {icon: number}} ClusterItem  an item's options, every one resolved (a map icon as its number) */

/**
 * @typedef {object} MapLink  what a manager needs of its map (MapEngine makes it)
 * @property {Record<string, Function>} fn  the module's exports
 * @property {(call: string) => number} enter  checks the map is alive and pushes its collected input; returns its handle
 * @property {(doubles: number) => Float64Array} buffer  the map's buffer, made at least `doubles` long (a fresh view)
 * @property {() => boolean} alive  whether the map has not been destroyed
 * @property {(manager: ClusterManager) => void} removed  tells the map the manager is gone
 * @property {() => void} [changed]  called when what the manager draws may have changed without a
 *   change of the camera (clustering, clearing, selecting or removing an item, new buckets, destroy)
 * @property {(icon: unknown, call: string) => void} [checkIcon]  throws for an item icon the host will not draw
 * @property {{advances: ArrayLike<number>, height: number}} [labelMetrics]  the host's measure of cluster
 *   labels in the bold font of the engine's label size: the advance of each of "0123456789+" and the
 *   line's height (the engine's own estimate without it)
 */

/**
 * @typedef {object} ClusterHost  what the host drawing a map adds to its managers
 * @property {() => void} [changed]  see MapLink
 * @property {(icon: unknown, call: string) => void} [checkIcon]  see MapLink
 * @property {{advances: ArrayLike<number>, height: number}} [labelMetrics]  see MapLink
 * @property {(manager: ClusterManager) => void} [removed]  told when a manager is destroyed
 */

/** The options a manager takes. */
const MANAGER_OPTIONS = Object.freeze(['algorithm', 'minimumClusterSize', 'maximumClusterZoom', 'animatesClusters', 'flatItems', 'buckets',
  'colors', 'radius', 'extent', 'minZoom', 'maxZoom', 'minPoints', 'aggregates']);

/**
 * The items of one cluster manager on a map, made by `map.addClusterManager(options)`.
 *
 * Adding, removing and moving items change nothing on screen until `cluster()` (Google's rule);
 * `clear()` empties the drawing at once. The map's frames then carry the manager's clusters
 * (`kind` 'cluster', `icon` the bucket index, see `iconFor`) and items (`kind` 'clusterItem'),
 * with `manager` equal to `number`; taps on them arrive as `clusterTapped {manager, cluster,
 * count}` and `clusterItemTapped {manager, item}` and are answered with `map.answerTap`.
 */
export class ClusterManager {
  /** @type {MapLink} */
  #link;
  /** @type {number} */
  #number;
  #destroyed = false;
  /** every item's options, by id */
  #items = new ItemTable();
  #animates = true;
  /** whether items lie flat: false until set, as a new manager in the engine starts */
  #flat = false;
  /** @type {import('../core/aggregates.js').Aggregate[]} the aggregated properties (C9), in the engine's order */
  #aggregates = [];

  /**
   * Use `map.addClusterManager(options)`.
   * @param {MapLink} link
   * @param {ClusterManagerOptions} [options]
   * @throws {CairnError} INVALID_ARGUMENT for an unknown option, a wrong type, a minimumClusterSize
   *   below 1 or a maximumClusterZoom that is not finite; INVALID_BUCKETS as for `setBuckets`
   */
  constructor(link, options) {
    const call = 'addClusterManager';
    const o = objectArg(options, 'options', call);
    for (const key of Object.keys(o)) {
      if (!MANAGER_OPTIONS.includes(key)) throw argumentError(call, `${key} is not a cluster manager option`);
    }
    // Options left out take the engine's defaults.
    const d = clusterDefaults(link.fn, link.buffer);
    const algorithm = o.algorithm === undefined ? d.algorithm : nameArg(CLUSTER_ALGORITHMS, o.algorithm, 'algorithm', call);
    const minimumClusterSize = o.minimumClusterSize === undefined ? d.minimumClusterSize : int32Arg(o.minimumClusterSize, 'minimumClusterSize', call);
    const maximumClusterZoom = o.maximumClusterZoom === undefined ? d.maximumClusterZoom : numberArg(o.maximumClusterZoom, 'maximumClusterZoom', call);
    const radius = o.radius === undefined ? d.radius : numberArg(o.radius, 'radius', call);
    const animates = o.animatesClusters === undefined ? d.animatesClusters : booleanArg(o.animatesClusters, 'animatesClusters', call);
    const flat = o.flatItems === undefined ? undefined : booleanArg(o.flatItems, 'flatItems', call);
    const icons = o.buckets === undefined && o.colors === undefined ? null : bucketArgs(o.buckets ?? d.buckets, o.colors, call);
    this.#aggregates = resolveAggregates(o.aggregates, call);
    this.#link = link;
    const h = link.enter(call);
    const status = link.fn.cairn_map_add_cluster_manager(h, algorithm, minimumClusterSize, maximumClusterZoom, radius);
    this.#number = this.#check(status, call, status === STATUS_BY_CODE.INVALID_ARGUMENT
      ? 'minimumClusterSize must be at least 1, maximumClusterZoom finite, radius above 0 and at most 4096' : undefined);
    try {
      this.#animates = d.animatesClusters;
      if (animates !== d.animatesClusters) this.#setAnimates(animates, call);
      if (flat !== undefined) this.#setFlat(flat, call);
      if (link.labelMetrics) this.#setLabelMetrics(link.labelMetrics, call);
      if (o.extent !== undefined || o.minZoom !== undefined || o.maxZoom !== undefined || o.minPoints !== undefined) {
        // NaN: the engine's default (supercluster's) for an option not given.
        const option = (/** @type {string} */ name) => (o[name] === undefined ? NaN : numberArg(o[name], name, call));
        this.#check(link.fn.cairn_map_set_cluster_hierarchy(h, this.#number, option('extent'), option('minZoom'),
          option('maxZoom'), option('minPoints')), call);
      }
      if (icons) this.#setBuckets(icons, call);
      if (this.#aggregates.length > 0) {
        const ops = link.buffer(this.#aggregates.length);
        this.#aggregates.forEach((a, i) => { ops[i] = a.operation; });
        this.#check(link.fn.cairn_map_set_cluster_aggregates(h, this.#number, ops.byteOffset, ops.length), call);
      }
    } catch (error) {
      link.fn.cairn_map_remove_cluster_manager(h, this.#number);
      throw error;
    }
  }

  /** The manager's number in the map: the `manager` of its draw items and events. */
  get number() { return this.#number; }

  /** Items in the manager (0 once destroyed). */
  get itemCount() { return this.#items.size; }

  /**
   * The icon buckets in force (a copy).
   * @returns {number[]}
   */
  get buckets() { return this.#inForce('buckets').buckets; }

  /**
   * Their colours, '#rrggbb' (a copy).
   * @returns {string[]}
   */
  get colors() { return this.#inForce('colors').colors; }

  /**
   * Whether changes of clustering are animated (feature C5): zooming in, what a cluster splits into
   * flies out of it; zooming out, what merges flies into its cluster and fades (0.5 s).
   * @returns {boolean}
   */
  get animatesClusters() { return this.#animates; }

  /** @param {boolean} on */
  set animatesClusters(on) {
    const call = 'animatesClusters';
    this.#setAnimates(booleanArg(on, call, call), call);
  }

  /**
   * Whether items lie flat on the map under tilt and turn with it (clusters face the screen
   * either way); false: they stand facing the screen, as markers do.
   * @returns {boolean}
   */
  get flatItems() { return this.#flat; }

  /** @param {boolean} on */
  set flatItems(on) {
    const call = 'flatItems';
    this.#setFlat(booleanArg(on, call, call), call);
    this.#link.changed?.();
  }

  // ── items (drawn as they are at the next `cluster()`) ─────────────────────────────────────────

  /**
   * Adds an item; returns its id.
   * @param {ClusterItemOptions} options
   * @returns {number}
   * @throws {CairnError} INVALID_ARGUMENT for an unknown option or a wrong type; NON_FINITE_COORDINATE
   *   or LATITUDE_OUT_OF_RANGE for the position; INVALID_MARKER (detail 3) for an icon below -1 or
   *   one not registered
   */
  addItem(options) {
    const call = 'addItem';
    this.#link.checkIcon?.(/** @type {any} */ (options)?.icon, call);
    return this.#add([resolveItem(options, '', call)], call, false)[0];
  }

  /**
   * Adds items in one crossing, all or none; returns their ids in order (consecutive numbers).
   * @param {ClusterItemOptions[]} items
   * @returns {number[]}
   * @throws {CairnError} INVALID_ARGUMENT naming `items[i]` and the option; NON_FINITE_COORDINATE,
   *   LATITUDE_OUT_OF_RANGE or NON_FINITE_VALUE (an aggregated value; detail: the position);
   *   INVALID_MARKER_IN_BATCH (detail: the position) for an icon below -1
   */
  addItems(items) {
    const call = 'addItems';
    if (!Array.isArray(items)) throw argumentError(call, 'items must be an array');
    for (const item of items) this.#link.checkIcon?.(item?.icon, call);
    return this.#add(Array.from(items, (item, i) => resolveItem(item, `items[${i}]`, call)), call, true);
  }

  /**
   * Adds items from coordinates, all or none, without an object per item: the fast path for
   * large data. Their ids are `first` … `first + count − 1`; they have no title, snippet or
   * user data, and `icon` for all. For the `aggregates` option, `values` gives each property an
   * aggregate reads one number per item (NaN or a property left out: none; an infinite one is
   * refused with NON_FINITE_VALUE).
   * @param {Float64Array | number[]} lngLat  [lng, lat] per item
   * @param {{icon?: number | MapIcon, values?: Record<string, Float64Array | number[]>}} [options]
   * @returns {{first: number, count: number}}
   * @throws {CairnError} INVALID_ARGUMENT for an odd length; NON_FINITE_COORDINATE,
   *   LATITUDE_OUT_OF_RANGE or NON_FINITE_VALUE (detail: the item's position); INVALID_MARKER for a bad icon
   */
  addCoordinates(lngLat, options) {
    const call = 'addCoordinates';
    const o = objectArg(options, 'options', call);
    this.#link.checkIcon?.(o.icon, call);
    const icon = o.icon === undefined ? -1 : itemIconArg(o.icon, 'icon', call);
    if (!(lngLat instanceof Float64Array || Array.isArray(lngLat)) || lngLat.length % 2 !== 0) {
      throw argumentError(call, 'lngLat must be a Float64Array (or array) of [lng, lat] pairs');
    }
    const coords = lngLat instanceof Float64Array ? lngLat : Float64Array.from(lngLat, (v, i) => numberArg(v, `lngLat[${i}]`, call));
    const count = coords.length / 2;
    if (count === 0) return { first: 0, count: 0 };
    const values = coordinateValues(o.values, this.#aggregates, count, call);
    const h = this.#enter(call);
    // One crossing for all of them (all or none).
    const pairs = this.#link.buffer((2 + values.length) * count);
    writeCoordinates(pairs, coords, values);
    const first = this.#link.fn.cairn_map_add_cluster_coordinates(h, this.#number, pairs.byteOffset, count, icon);
    if (first < 0) this.#check(first, call);
    this.#items.addRange(first, coords);
    return { first, count };
  }

  /**
   * Shows a built `ClusterIndex`'s clustering as this manager's, without clustering again: the
   * items become the index's points, in their order (ids `first` … `first + count - 1`), with
   * the default pin and no title, snippet or user data, and the index's options (radius,
   * extent, zooms, minPoints) become the manager's. The items held before are removed. For a
   * hierarchical manager without aggregates. The index is only read: it keeps answering its
   * own queries, and may be destroyed afterwards. An index built in a worker or shipped as a
   * file comes as its saved buffer: `manager.useIndex(ClusterIndex.from(buffer))`.
   * @param {{readonly [ENGINE_HANDLE]: number}} index  a loaded ClusterIndex
   * @returns {{first: number, count: number}}
   * @throws {CairnError} INVALID_ARGUMENT for anything but a loaded ClusterIndex; INVALID_STATE for a
   *   manager of another algorithm or with aggregates (nothing changes)
   */
  useIndex(index) {
    const call = 'useIndex';
    const handle = index !== null && typeof index === 'object' ? index[ENGINE_HANDLE] : undefined;
    if (typeof handle !== 'number' || handle === 0) throw argumentError(call, `expected a loaded ClusterIndex, got ${describeValue(index)}`);
    const h = this.#enter(call);
    const count = this.#check(this.#link.fn.cairn_index_point_count(handle), call, 'the index is not loaded');
    const out = this.#link.buffer(Math.max(1, 2 * count));
    const first = this.#link.fn.cairn_map_set_cluster_index(h, this.#number, handle, out.byteOffset, out.length);
    if (first < 0) {
      this.#check(first, call, first === STATUS_BY_CODE.INVALID_STATE
        ? 'a manager takes a built index when it is hierarchical and has no aggregates' : undefined);
    }
    this.#items.clear();
    // The module may have grown while it took the index: read the positions through a fresh view.
    if (count > 0) this.#items.addRange(first, this.#link.buffer(2 * count));
    this.#link.changed?.();
    return { first, count };
  }

  /**
   * Removes an item; its id is never valid again.
   * @param {number} id
   */
  removeItem(id) {
    const call = 'removeItem';
    this.#known(id, call);
    this.#check(this.#link.fn.cairn_map_remove_cluster_item(this.#enter(call), this.#number, id), call);
    this.#items.delete(id);
    this.#link.changed?.();
  }

  /**
   * Moves an item.
   * @param {number} id
   * @param {LatLng} position
   * @throws {CairnError} UNKNOWN_MARKER; INVALID_ARGUMENT for a position that is not finite or a
   *   latitude beyond ±90 (the item stays where it was)
   */
  moveItem(id, position) {
    const call = 'moveItem';
    const item = this.#known(id, call);
    const p = numbersArg(position, ['latitude', 'longitude'], 'position', call);
    this.#check(this.#link.fn.cairn_map_move_cluster_item(this.#enter(call), this.#number, id, p.latitude, p.longitude), call,
      'the position must be finite, with a latitude within ±90');
    this.#items.set(id, { ...item, position: p });
  }

  /** Removes every item; the drawing empties at once. No id given so far stays valid. */
  clear() {
    const call = 'clear';
    this.#check(this.#link.fn.cairn_map_clear_cluster_items(this.#enter(call), this.#number), call);
    this.#items.clear();
    this.#link.changed?.();
  }

  /** Clusters the items as they are now; from the next frame the drawing shows them. */
  cluster() {
    const call = 'cluster';
    this.#check(this.#link.fn.cairn_map_cluster(this.#enter(call), this.#number), call);
    this.#link.changed?.();
  }

  /**
   * `cluster()` a step at a time (one zoom of the hierarchical index per step, the largest a few
   * hundred milliseconds for a million items), yielding between steps so a page stays
   * responsive and can show progress. Frames show the previous clustering until the last step.
   * A `cluster()`, `clear()` or `destroy()` meanwhile ends it early (the promise still resolves).
   * @param {{onProgress?: (progress: {done: number, total: number}) => void, yield?: () => Promise<void>}} [options]
   *   yield: how to let the page run between steps (default: the next task, through a message
   *   channel: timers nested this deep wait at least 4 ms each in browsers)
   * @returns {Promise<void>}
   */
  async clusterAsync(options) {
    const call = 'clusterAsync';
    const o = objectArg(options, 'options', call);
    const onProgress = /** @type {((p: {done: number, total: number}) => void) | undefined} */ (o.onProgress);
    const pause = /** @type {() => Promise<void>} */ (o.yield ?? nextTask);
    let left = this.#check(this.#link.fn.cairn_map_cluster_begin(this.#enter(call), this.#number), call);
    const total = left + 1;
    onProgress?.({ done: total - left, total });
    while (left > 0) {
      await pause();
      if (this.#destroyed || !this.#link.alive()) return;
      left = this.#check(this.#link.fn.cairn_map_cluster_step(this.#enter(call), this.#number), call);
      onProgress?.({ done: total - left, total });
    }
    this.#link.changed?.();
  }

  /**
   * An item's options (a copy), with its title, snippet and userData: what a `clusterItemTapped`
   * event's `item` stands for.
   * @param {number} id
   * @returns {ClusterItem}
   * @throws {CairnError} (UNKNOWN_MARKER) for an id removed, cleared or never given
   */
  item(id) {
    const call = 'item';
    const item = this.#known(id, call);
    // The icon is the engine's to hold.
    const out = this.#link.buffer(2);
    this.#check(this.#link.fn.cairn_map_cluster_item(this.#enter(call), this.#number, id, out.byteOffset), call);
    return { ...item, icon: this.#link.buffer(1)[0], position: { ...item.position } };
  }

  /**
   * Selects an item as a tap no handler consumes does (C7, M11): the open info window closes,
   * and the item's opens when it has a title or snippet, or when the host may draw its own
   * (`map.setCustomInfoWindows`); the map's host then shows it. Selecting the open one reopens it.
   * @param {number} id
   * @throws {CairnError} UNKNOWN_MARKER for an id the manager does not hold
   */
  selectItem(id) {
    const call = 'selectItem';
    this.#known(id, call);
    this.#check(this.#link.fn.cairn_map_select_cluster_item(this.#enter(call), this.#number, id), call);
    this.#link.changed?.();
  }

  /**
   * Whether the manager holds an item (without copying it). A renderer draws an item by its
   * draw record's `icon`, the engine's.
   * @param {number} id
   * @returns {boolean}
   */
  holdsItem(id) { return this.#items.get(id) !== undefined; }

  // ── icons (feature C3) ───────────────────────────────────────────────────────────────────────

  /**
   * Custom icon buckets: thresholds whole, above 0 and strictly increasing, with a colour each
   * ('#rrggbb'; by default Google's, buckets past the fifth keeping the last). Clusters take them
   * from the next frame.
   * @param {number[]} buckets
   * @param {string[]} [colors]
   * @throws {CairnError} INVALID_BUCKETS saying why (detail: 1 empty, 2 not positive, 3 not
   *   increasing, 4 a colour count that differs); INVALID_ARGUMENT for a wrong type or more than
   *   1000 buckets. The buckets in force stay.
   */
  setBuckets(buckets, colors) {
    const call = 'setBuckets';
    this.#setBuckets(bucketArgs(buckets, colors, call), call);
    this.#link.changed?.();
  }

  /**
   * How to draw a cluster of this manager from a frame: the label, colour and diameter its draw
   * record carries (the engine's, as it hit-tests the icon; the draw item's `clusterIcon`).
   * @param {Pick<DrawItem, 'clusterIcon'> & Partial<DrawItem>} item  a draw item of kind 'cluster'
   * @returns {ClusterIcon}
   * @throws {CairnError} (INVALID_ARGUMENT) for an item that is not one of this manager's clusters
   */
  iconFor(item) {
    const call = 'iconFor';
    const i = objectArg(item, 'item', call);
    if (i.kind !== undefined && i.kind !== 'cluster') throw argumentError(call, `item is a ${describeValue(i.kind)}, not a cluster`);
    if (i.manager !== undefined && i.manager !== this.#number) {
      throw argumentError(call, `item belongs to cluster manager ${describeValue(i.manager)}, not ${this.#number}`);
    }
    const icon = i.clusterIcon;
    if (icon === null || typeof icon !== 'object') throw argumentError(call, 'item.clusterIcon must be a cluster draw item\'s');
    return { ...icon };
  }

  /**
   * Removes the manager and everything it draws; it cannot be used afterwards (INVALID_HANDLE).
   * Does nothing a second time, or once the map is destroyed.
   */
  destroy() {
    if (this.#destroyed) return;
    if (this.#link.alive()) {
      const call = 'destroy';
      this.#check(this.#link.fn.cairn_map_remove_cluster_manager(this.#link.enter(call), this.#number), call);
    }
    this.#destroyed = true;
    this.#items.clear();
    this.#link.removed(this);
    this.#link.changed?.();
  }

  // ── internals ────────────────────────────────────────────────────────────────────────────────

  /**
   * Checks the manager and its map are alive.
   * @param {string} call
   */
  #alive(call) {
    if (this.#destroyed || !this.#link.alive()) {
      const hint = this.#destroyed ? 'the cluster manager was destroyed' : 'its map was destroyed';
      throw errorFromStatus(STATUS_BY_CODE.INVALID_HANDLE, this.#number, { call, hint });
    }
  }

  /**
   * Checks the manager is alive and pushes the map's collected input; returns the map's handle.
   * @param {string} call
   * @returns {number}
   */
  #enter(call) {
    this.#alive(call);
    return this.#link.enter(call);
  }

  /**
   * The options of an item the manager holds. Ids reach the engine only once found here, so an
   * id this manager never gave (or took back) never does.
   * @param {unknown} id
   * @param {string} call
   * @returns {import('./item-table.js').HeldItem}
   */
  #known(id, call) {
    this.#alive(call);
    const item = this.#items.get(numberArg(id, 'id', call));
    if (!item) throw errorFromStatus(STATUS_BY_CODE.UNKNOWN_MARKER, /** @type {number} */ (id), { call, hint: 'not an item of this cluster manager' });
    return item;
  }

  /**
   * Adds resolved items, all or none, in one call; returns their ids.
   * @param {ClusterItem[]} items
   * @param {string} call
   * @param {boolean} batch  whether errors name the position in the batch
   * @returns {number[]}
   */
  #add(items, call, batch) {
    const h = this.#enter(call);
    const n = items.length;
    if (n === 0) return [];
    const records = this.#link.buffer(n * itemStride(this.#aggregates));
    writeItems(records, items, this.#aggregates);
    const fn = this.#link.fn;
    const first = fn.cairn_map_add_cluster_items(h, this.#number, records.byteOffset, n);
    if (first < 0) {
      if (STATUS_CODES[-first]?.code === 'INVALID_MARKER_IN_BATCH') throw refusedInBatch(fn.cairn_last_error_detail(), call, batch);
      this.#check(first, call);
    }
    const ids = new Array(n);
    for (let i = 0; i < n; i++) {
      ids[i] = first + i;
      const { icon, ...held } = items[i];
      this.#items.set(first + i, held);
    }
    return ids;
  }

  /**
   * Sends checked buckets and colours to the engine, which validates them and holds them.
   * @param {{buckets: number[], colors: string[] | undefined}} icons  colours left out: the engine's
   * @param {string} call
   */
  #setBuckets({ buckets, colors }, call) {
    if (colors && colors.length !== buckets.length) {
      // The ABI takes one count for both lists, so the engine cannot see this one.
      throw errorFromStatus(STATUS_BY_CODE.INVALID_BUCKETS, 4, { call, hint: `${colors.length} colours for ${buckets.length} buckets` });
    }
    const h = this.#enter(call);
    const n = buckets.length;
    const buffer = this.#link.buffer(2 * n);
    buffer.set(buckets);
    if (colors) buffer.set(colors.map((c) => parseInt(c.slice(1), 16)), n);
    const status = this.#link.fn.cairn_map_set_cluster_buckets(h, this.#number, buffer.byteOffset, colors ? buffer.byteOffset + 8 * n : 0, n);
    this.#check(status, call, status === STATUS_BY_CODE.INVALID_ARGUMENT ? 'at most 1000 buckets' : undefined);
  }

  /**
   * The buckets and colours in force, from the engine.
   * @param {string} call
   * @returns {{buckets: number[], colors: string[]}}
   */
  #inForce(call) {
    const h = this.#enter(call);
    return bucketsInForce((out, capacity) => this.#check(this.#link.fn.cairn_map_cluster_buckets(h, this.#number, out, capacity), call),
      this.#link.buffer);
  }

  /**
   * Gives the engine the host's measure of label text, which icon diameters grow with.
   * @param {{advances: ArrayLike<number>, height: number}} metrics
   * @param {string} call
   */
  #setLabelMetrics(metrics, call) {
    const { advances, height } = objectArg(metrics, 'labelMetrics', call);
    const widths = Array.from(/** @type {ArrayLike<number>} */ (advances ?? []), (v, i) => numberArg(v, `labelMetrics.advances[${i}]`, call));
    const buffer = this.#link.buffer(Math.max(1, widths.length));
    buffer.set(widths);
    this.#check(this.#link.fn.cairn_map_set_cluster_label_metrics(this.#enter(call), this.#number, buffer.byteOffset, widths.length,
      numberArg(height, 'labelMetrics.height', call)), call, 'labelMetrics gives the advance of each of "0123456789+" and a height, finite and at least 0');
  }

  /**
   * @param {boolean} on
   * @param {string} call
   */
  #setFlat(on, call) {
    this.#check(this.#link.fn.cairn_map_set_cluster_items_flat(this.#enter(call), this.#number, on ? 1 : 0), call);
    this.#flat = on;
  }

  /**
   * @param {boolean} on
   * @param {string} call
   */
  #setAnimates(on, call) {
    this.#check(this.#link.fn.cairn_map_set_cluster_animation(this.#enter(call), this.#number, on ? 1 : 0), call);
    this.#animates = on;
  }

  /**
   * The ids of a cluster's items (feature C8), `offset` skipped, at most `limit`, as
   * supercluster's `getLeaves` pages them. `cluster` is a draw item's id or a `clusterTapped`
   * event's; a screen-space cluster's id stops being valid when the manager re-clusters.
   * @param {number} cluster
   * @param {number} [limit=10]
   * @param {number} [offset=0]
   * @returns {number[]}
   */
  getLeaves(cluster, limit = 10, offset = 0) {
    const call = 'getLeaves';
    const n = int32Arg(limit, 'limit', call);
    const skip = int32Arg(offset, 'offset', call);
    const h = this.#enter(call);
    const out = this.#link.buffer(Math.max(1, Math.min(n, 1 << 20)));
    const count = this.#check(this.#link.fn.cairn_map_cluster_leaves(h, this.#number, numberArg(cluster, 'cluster', call),
      Math.min(n, 1 << 20), skip, out.byteOffset, out.length), call);
    // Read through a fresh view: the module's memory may have grown during the call.
    return Array.from(this.#link.buffer(out.length).subarray(0, count));
  }

  /**
   * A cluster's aggregated properties (C9), by the names of the `aggregates` option: each over
   * the numbers its items' `userData` hold under the property (items added with
   * `addCoordinates`: its `values`); NaN where no item has one (0 for `sum` and `count`).
   * @param {number} cluster
   * @returns {Record<string, number>}
   */
  aggregatesOf(cluster) {
    const call = 'aggregatesOf';
    const id = numberArg(cluster, 'cluster', call);
    if (this.#aggregates.length === 0) return {};
    const h = this.#enter(call);
    const out = this.#link.buffer(this.#aggregates.length);
    this.#check(this.#link.fn.cairn_map_cluster_aggregates(h, this.#number, id, out.byteOffset), call);
    return Object.fromEntries(this.#aggregates.map((a, c) => [a.name, out[c]]));
  }

  /** Whether the manager declared aggregated properties. */
  get hasAggregates() { return this.#aggregates.length > 0; }

  /**
   * What a cluster was formed from (feature C8): for the hierarchical algorithm, the clusters and
   * items of the zoom above the one it first appears at (supercluster's `getChildren`); a
   * screen-space cluster is formed from its items. Clusters' ids work with the other queries;
   * items' ids with `item()`.
   * @param {number} cluster
   * @returns {{cluster: boolean, id: number, count: number, position: LatLng}[]}
   */
  getChildren(cluster) {
    const call = 'getChildren';
    const id = numberArg(cluster, 'cluster', call);
    let room = 64;
    for (;;) {
      const h = this.#enter(call);
      const out = this.#link.buffer(5 * room);
      const n = this.#check(this.#link.fn.cairn_map_cluster_children(h, this.#number, id, out.byteOffset, out.length), call);
      if (n <= room) {
        return Array.from({ length: n }, (_, i) => ({ cluster: out[5 * i] === 1, id: out[5 * i + 1], count: out[5 * i + 2],
          position: { latitude: out[5 * i + 4], longitude: out[5 * i + 3] } }));
      }
      room = n;
    }
  }

  /**
   * The zoom at which a cluster splits (features C7, C8).
   * @param {number} cluster
   * @returns {number}
   */
  getClusterExpansionZoom(cluster) {
    const call = 'getClusterExpansionZoom';
    return this.#check(this.#link.fn.cairn_map_cluster_expansion_zoom(this.#enter(call), this.#number,
      numberArg(cluster, 'cluster', call)), call);
  }

  /**
   * The box around a cluster's items (feature C8).
   * @param {number} cluster
   * @returns {{west: number, south: number, east: number, north: number}}
   */
  getClusterBounds(cluster) {
    const call = 'getClusterBounds';
    const h = this.#enter(call);
    const out = this.#link.buffer(4);
    this.#check(this.#link.fn.cairn_map_cluster_bounds(h, this.#number, numberArg(cluster, 'cluster', call), out.byteOffset), call);
    const [west, south, east, north] = this.#link.buffer(4);
    return { west, south, east, north };
  }

  /**
   * The status, or throws it as a CairnError when negative.
   * @param {number} status
   * @param {string} call
   * @param {string} [hint]  the engine's rule, for the message
   * @returns {number}
   */
  #check(status, call, hint) {
    if (status < 0) throw errorFromStatus(status, this.#link.fn.cairn_last_error_detail(), { call, hint });
    return status;
  }
}
