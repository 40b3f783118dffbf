// The C ABI fuzzed: every export of cairn.wasm, in a module instance of its own, called in
// random sequences with random and adversarial arguments: live, destroyed and made-up handles,
// ids and manager numbers; NaN, infinities and integers at every edge; buffers that are live,
// freed, misaligned, too short, or not buffers at all, filled with plausible or garbage records.
// It fails on a trap (or any other exception out of the module), on a status the module does
// not define, and on a call that takes longer than the hang guard.

import { readFile } from 'node:fs/promises';

import { BINDINGS } from '../../src/core/wasm.js';
import { readFrame, readLayout } from '../../src/engine/read-frame.js';
import { EDGE_INTS, Fuzz, HANG_MS, MAX_ITEMS, show, sizeFlag, timed } from './fuzz-random.js';

/**
 * What each parameter of each export means, for choosing its values. Every export in BINDINGS
 * has an entry (a test checks), so a new export is fuzzed from its first day.
 *   index, map: a handle; manager: a manager number of a map; clusterId, mapClusterId, markerId,
 *   itemId, building, popover, icon: an id; ptr:<content>: a buffer, filled as named; count:<stride>: a count of
 *   records of that many doubles in the buffer before it; out: a buffer written to; number,
 *   lat, lng, zoom, px, padding, side, inset, time, duration, unit: doubles (wholeZoom and
 *   minPoints whole, or NaN); zoomInt, int, enum, bits, size: integers.
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const ABI_ROLES = Object.freeze({
  cairn_abi_version: [],
  cairn_record_stride: [],
  cairn_status_count: [],
  cairn_buffer_limit: [],
  cairn_last_error_detail: [],
  cairn_alloc: ['size'],
  cairn_free: ['ptr:none'],
  cairn_index_create: ['radius', 'radius', 'zoomInt', 'zoomInt', 'int'],
  cairn_index_destroy: ['index'],
  cairn_index_reserve: ['index', 'reserve'],
  cairn_index_add: ['index', 'ptr:lngLat', 'count:2'],
  cairn_index_add_weighted: ['index', 'ptr:weighted', 'count:3'],
  cairn_index_world_items: ['index', 'zoom', 'out', 'count:4'],
  cairn_index_build_step: ['index'],
  cairn_index_point_count: ['index'],
  cairn_index_cluster_count: ['index'],
  cairn_index_clusters: ['index', 'lng', 'lat', 'lng', 'lat', 'zoom', 'out', 'count:4'],
  cairn_index_children: ['index', 'clusterId', 'out', 'count:4'],
  cairn_index_leaves: ['index', 'clusterId', 'number', 'number', 'out', 'count:4'],
  cairn_index_expansion_zoom: ['index', 'clusterId'],
  cairn_index_supercluster_tree: ['index', 'zoom', 'out', 'count:3'],
  cairn_index_tile: ['index', 'zoomInt', 'int', 'int', 'out', 'count:4'],
  cairn_index_aggregate_add: ['index', 'enum', 'ptr:values', 'count:1'],
  cairn_index_aggregate_values: ['index', 'enum', 'ptr:clusterIds', 'count:1', 'out'],
  cairn_index_reduce_children: ['index', 'clusterId', 'out', 'count:4'],
  cairn_index_parents: ['index', 'out', 'count:2'],
  cairn_index_placed_bounds: ['index', 'out', 'count:4'],
  cairn_index_placed_elsewhere: ['index'],
  cairn_index_edit: ['index', 'ptr:lngLat', 'count:2', 'ptr:pointIds', 'count:1', 'ptr:pointIds', 'ptr:lngLat', 'count:2'],
  cairn_map_create: ['lat', 'lng', 'zoom', 'number', 'number', 'px', 'px'],
  cairn_map_destroy: ['map'],
  cairn_map_layout: ['enum'],
  cairn_map_set_viewport: ['map', 'px', 'px', 'padding', 'padding', 'padding', 'padding'],
  cairn_map_set_limits: ['map', 'zoom', 'zoom', 'number', 'zoomInt'],
  cairn_map_set_settings: ['map', 'bits', 'bits'],
  cairn_map_push_events: ['map', 'ptr:input', 'count:9'],
  cairn_map_frame: ['map', 'time', 'out', 'count:1'],
  cairn_map_move_camera: ['map', 'lat', 'lng', 'zoom', 'number', 'number'],
  cairn_map_animate_camera: ['map', 'lat', 'lng', 'zoom', 'number', 'number', 'duration', 'enum'],
  cairn_map_show_bounds: ['map', 'lng', 'lat', 'lng', 'lat', 'px', 'duration'],
  cairn_map_zoom_by: ['map', 'number', 'px', 'px', 'duration'],
  cairn_map_stop_animation: ['map'],
  cairn_map_set_my_location: ['map', 'lat', 'lng', 'number'],
  cairn_map_screen_point: ['map', 'lat', 'lng', 'number', 'enum', 'out'],
  cairn_map_coordinate: ['map', 'px', 'px', 'out'],
  cairn_map_register_icon: ['map', 'side', 'side', 'inset', 'inset', 'inset', 'inset', 'unit', 'unit'],
  cairn_map_add_markers: ['map', 'ptr:markers', 'count:marker', 'out'],
  cairn_map_update_marker: ['map', 'markerId', 'ptr:markers'],
  cairn_map_remove_marker: ['map', 'markerId'],
  cairn_map_clear_markers: ['map'],
  cairn_map_select_marker: ['map', 'markerId'],
  cairn_map_select_cluster_item: ['map', 'manager', 'itemId'],
  cairn_map_marker_anchor: ['map', 'markerId', 'out'],
  cairn_map_selection: ['map', 'out'],
  cairn_map_add_indoor_building: ['map', 'ptr:lngLat', 'count:2', 'int', 'int'],
  cairn_map_remove_indoor_building: ['map', 'building'],
  cairn_map_activate_indoor_level: ['map', 'building', 'int'],
  cairn_map_set_info_window_size: ['map', 'px', 'px'],
  cairn_map_answer_tap: ['map', 'enum'],
  cairn_map_add_cluster_manager: ['map', 'enum', 'int', 'zoom', 'radius'],
  cairn_map_remove_cluster_manager: ['map', 'manager'],
  cairn_map_set_cluster_buckets: ['map', 'manager', 'ptr:buckets', 'ptr:colors', 'count:1'],
  cairn_map_add_cluster_items: ['map', 'manager', 'ptr:items', 'count:item'],
  cairn_map_add_cluster_coordinates: ['map', 'manager', 'ptr:lngLat', 'count:2', 'icon'],
  cairn_map_remove_cluster_item: ['map', 'manager', 'itemId'],
  cairn_map_move_cluster_item: ['map', 'manager', 'itemId', 'lat', 'lng'],
  cairn_map_clear_cluster_items: ['map', 'manager'],
  cairn_map_cluster: ['map', 'manager'],
  cairn_map_cluster_begin: ['map', 'manager'],
  cairn_map_cluster_step: ['map', 'manager'],
  cairn_map_set_cluster_animation: ['map', 'manager', 'enum'],
  cairn_map_set_cluster_items_flat: ['map', 'manager', 'enum'],
  cairn_map_set_cluster_index: ['map', 'manager', 'index', 'out', 'count:2'],
  cairn_map_cluster_leaves: ['map', 'manager', 'mapClusterId', 'int', 'int', 'out', 'count:1'],
  cairn_map_set_cluster_hierarchy: ['map', 'manager', 'radius', 'wholeZoom', 'wholeZoom', 'minPoints'],
  cairn_map_set_cluster_aggregates: ['map', 'manager', 'ptr:ops', 'count:1'],
  cairn_map_cluster_aggregates: ['map', 'manager', 'mapClusterId', 'out'],
  cairn_map_cluster_children: ['map', 'manager', 'mapClusterId', 'out', 'count:1'],
  cairn_map_cluster_expansion_zoom: ['map', 'manager', 'mapClusterId'],
  cairn_map_cluster_bounds: ['map', 'manager', 'mapClusterId', 'out'],
  cairn_map_settings: ['map'],
  cairn_map_limits: ['map', 'out'],
  cairn_map_camera: ['map', 'out'],
  cairn_map_takes_key: ['enum', 'bits'],
  cairn_map_pin_size: ['out'],
  cairn_mercator_x: ['lng'],
  cairn_mercator_y: ['lat'],
  cairn_mercator_latitude: ['number'],
  cairn_mercator_max_latitude: [],
  cairn_map_marker: ['map', 'markerId', 'out'],
  cairn_map_indoor_level: ['map', 'building'],
  cairn_map_set_custom_info_windows: ['map', 'enum'],
  cairn_map_add_popover: ['map', 'markerId', 'bits', 'bits'],
  cairn_map_set_popover: ['map', 'popover', 'bits', 'bits'],
  cairn_map_popover_state: ['map', 'popover'],
  cairn_map_set_popover_size: ['map', 'popover', 'px', 'px'],
  cairn_map_remove_popover: ['map', 'popover'],
  cairn_map_set_cluster_label_metrics: ['map', 'manager', 'ptr:values', 'count:1', 'px'],
  cairn_cluster_defaults: ['out', 'count:1'],
  cairn_index_saved_size: ['index', 'int'],
  cairn_index_save: ['index', 'ptr:values', 'size', 'out', 'size'],
  cairn_index_restore: ['ptr:values', 'size'],
  cairn_map_cluster_buckets: ['map', 'manager', 'out', 'count:1'],
  cairn_mvt_encode: ['ptr:none', 'count:1', 'out', 'count:1'],
  cairn_mvt_encode_clusters: ['size', 'ptr:none', 'count:1', 'enum', 'ptr:values', 'ptr:none', 'count:4', 'out', 'out', 'count:1'],
  cairn_index_tile_extent: ['index', 'zoomInt', 'int', 'int', 'radius', 'radius', 'out', 'count:4'],
  cairn_index_tiles_extent: ['index', 'zoomInt', 'ptr:none', 'count:1', 'radius', 'radius', 'out', 'out', 'count:4'],
  cairn_index_tile_cover: ['index', 'zoomInt', 'radius', 'radius', 'enum', 'out', 'count:1'],
  cairn_tiles_hilbert_sort: ['zoomInt', 'ptr:none', 'count:1'],
  cairn_pmtiles_create: [],
  cairn_pmtiles_destroy: ['archive'],
  cairn_pmtiles_add: ['archive', 'zoomInt', 'int', 'int', 'ptr:none', 'count:1'],
  cairn_pmtiles_add_tiles: ['archive', 'zoomInt', 'ptr:none', 'ptr:none', 'ptr:none', 'count:1', 'out'],
  cairn_pmtiles_entry_count: ['archive'],
  cairn_pmtiles_leaf: ['archive', 'int', 'int', 'out', 'count:1'],
  cairn_pmtiles_root: ['archive', 'int', 'ptr:values', 'count:1', 'out', 'count:1'],
  cairn_pmtiles_header: ['archive', 'ptr:values', 'out', 'count:1'],
  cairn_map_cluster_item: ['map', 'manager', 'itemId', 'out'],
});

/** Exports whose result is no status: constants, a detail, a pointer. */
const NOT_A_STATUS = new Set(['cairn_abi_version', 'cairn_record_stride', 'cairn_status_count', 'cairn_buffer_limit',
  'cairn_last_error_detail', 'cairn_alloc', 'cairn_mercator_x', 'cairn_mercator_y', 'cairn_mercator_latitude', 'cairn_mercator_max_latitude']);

/** Sizes of the buffers a run keeps, in bytes: from one double to a frame of thousands of items. */
const BUFFER_BYTES = [8, 64, 1024, 16_384, 65_536, 524_288];

/** @type {Promise<WebAssembly.Module> | null} */
let compiled = null;

/** cairn.wasm, compiled once per process. */
export function abiModule() {
  compiled ??= readFile(new URL('../../dist/cairn.wasm', import.meta.url)).then((bytes) => WebAssembly.compile(bytes));
  return compiled;
}

/**
 * A fresh instance of the module: state no other run shares (a trap may leave an instance broken).
 * @returns {Promise<Record<string, any>>}  its exports, initialised
 */
export async function freshInstance() {
  const instance = await WebAssembly.instantiate(await abiModule(), {});
  const x = /** @type {Record<string, any>} */ (instance.exports);
  x._initialize();
  return x;
}

/**
 * @typedef {object} FuzzRun
 * @property {number} seed
 * @property {number} [steps]  most calls (default: until `until`)
 * @property {number} [minSteps]  fewest calls, however long they take (default 0): a loaded
 *   machine's short run would otherwise reach too little state
 * @property {number} until  performance.now() past which the run stops
 * @property {number} [maxItems]  most items per manager, markers per map and points per index (×5)
 * @property {number} [hangMs]  the hang guard, in milliseconds
 */

/**
 * Fuzzes the ABI of a fresh instance. Returns how often each export was called, how often it
 * succeeded, and the most items a frame drew (markers, clusters and cluster items).
 * @param {FuzzRun} run
 * @returns {Promise<{steps: number, calls: Record<string, number>, succeeded: Record<string, number>, drawn: number}>}
 * @throws {import('./fuzz-random.js').FuzzFailure}
 */
export async function fuzzAbi({ seed, steps = Infinity, minSteps = 0, until, maxItems = MAX_ITEMS, hangMs = HANG_MS }) {
  const x = await freshInstance();
  const fuzz = new Fuzz('abi', seed, sizeFlag(maxItems, hangMs), hangMs);
  const world = new AbiWorld(x, fuzz, maxItems);
  const names = Object.keys(ABI_ROLES);
  /** @type {Record<string, number>} */
  const calls = Object.fromEntries(names.map((name) => [name, 0]));
  /** @type {Record<string, number>} */
  const succeeded = { ...calls };
  for (fuzz.step = 0; fuzz.step < steps && (fuzz.step < minSteps || performance.now() < until); fuzz.step++) {
    // Now and then a coherent story (an index built and queried, a manager clustered and
    // drawn), so that random calls find rich state; half the calls go where state lives (maps,
    // managers, frames), the rest to any export.
    // The first calls go to every export once, in the table's order, so that a short run (a
    // loaded machine) still calls each; random choices follow.
    const first = fuzz.step < names.length;
    if (!first && fuzz.chance(0.01)) {
      world.scenario();
      continue;
    }
    const name = first ? names[fuzz.step] : fuzz.chance(0.5) ? fuzz.pick(BUSY) : fuzz.pick(names);
    if (world.call(name)) succeeded[name]++;
    calls[name]++;
  }
  world.checkSound();
  return { steps: fuzz.step, calls, succeeded, drawn: world.drawn };
}

/** Exports a run calls more often: those that make state, and frames that draw it. */
const BUSY = ['cairn_map_frame', 'cairn_map_frame', 'cairn_map_push_events', 'cairn_map_add_cluster_coordinates',
  'cairn_map_add_cluster_items', 'cairn_map_cluster', 'cairn_map_cluster_step', 'cairn_map_add_markers',
  'cairn_map_add_cluster_manager', 'cairn_map_create', 'cairn_index_create', 'cairn_index_add',
  'cairn_index_build_step', 'cairn_index_clusters', 'cairn_map_move_camera', 'cairn_map_cluster_children',
  'cairn_map_cluster_leaves', 'cairn_map_remove_cluster_item', 'cairn_map_move_cluster_item', 'cairn_map_zoom_by'];

/** Most ids a run remembers of one kind and owner. */
const REMEMBERED = 2000;

/** The handles, ids and buffers a run has seen, live and gone, and how it calls an export. */
class AbiWorld {
  /** @type {number[]} */ indexes = [];
  /** @type {number[]} */ staleIndexes = [];
  /** @type {number[]} */ archives = [];
  /** @type {number[]} */ staleArchives = [];
  /** @type {number[]} */ maps = [];
  /** @type {number[]} */ staleMaps = [];
  /** @type {Array<{map: number, number: number, items: number, stride: number}>} */ managers = [];
  /** @type {number[]} */ staleManagers = [];
  /** @type {Map<string, number[]>} ids by kind and owner: 'cluster:<index>', 'marker:<map>', 'item:<map>:<manager>', … */
  ids = new Map();
  /** @type {Map<number, number>} markers per map */ markerCounts = new Map();
  /** @type {Map<number, number>} points added per index */ points = new Map();
  /** @type {Array<{ptr: number, bytes: number}>} */ buffers = [];
  /** @type {number[]} */ freed = [];
  time = 0;
  /** The most items a frame drew. */
  drawn = 0;
  /** What the arguments so far of the call being made name: its index, map, manager, last buffer. */
  /** @type {{index: number, map: number, manager: number, buffer: {ptr: number, bytes: number} | null,
   *   fills: Array<{at: number, buffer: {ptr: number, bytes: number}, content: string}>}} */
  context = { index: 0, map: 0, manager: -1, buffer: null, fills: [] };
  /** The chance that a number of this call is at an edge: most calls are plausible, some adversarial. */
  edge = 0.01;

  /**
   * @param {Record<string, any>} x  the instance's exports
   * @param {Fuzz} fuzz
   * @param {number} maxItems
   */
  constructor(x, fuzz, maxItems) {
    this.x = x;
    this.fuzz = fuzz;
    this.maxItems = maxItems;
    this.statusCount = x.cairn_status_count();
    this.layout = readLayout((which) => x.cairn_map_layout(which));
    for (const bytes of BUFFER_BYTES) this.allocate(bytes);
  }

  /** @param {number} bytes */
  allocate(bytes) {
    const ptr = this.x.cairn_alloc(bytes) >>> 0;
    if (ptr === 0) throw this.fuzz.fail(`cairn_alloc(${bytes}) failed`);
    this.buffers.push({ ptr, bytes });
  }

  /** @param {string} key */
  recall(key) { return this.ids.get(key) ?? []; }

  /**
   * @param {string} key
   * @param {number[]} values
   */
  remember(key, values) {
    const list = this.ids.get(key) ?? [];
    for (const v of values) if (Number.isFinite(v)) list.push(v);
    if (list.length > REMEMBERED) list.splice(0, list.length - REMEMBERED);
    this.ids.set(key, list);
  }

  /** The manager the call names, if it is live on the call's map. */
  manager() {
    const { map, manager } = this.context;
    return this.managers.find((m) => m.map === map && m.number === manager) ?? null;
  }

  /**
   * Calls an export with arguments for its roles; keeps what it made.
   * @param {string} name
   * @returns {boolean} whether it succeeded
   */
  call(name) {
    this.context = { index: 0, map: 0, manager: -1, buffer: null, fills: [] };
    this.edge = this.fuzz.chance(0.2) ? 0.3 : 0.01;
    const roles = ABI_ROLES[name];
    /** @type {number[]} */
    const args = roles.map((role) => this.argument(name, role));
    this.limit(name, args);
    // Buffers are filled as far as the count after them reads.
    for (const { at, buffer, content } of this.context.fills) {
      const next = roles.findIndex((role, i) => i > at && role.startsWith('count:'));
      const doubles = next < 0 ? this.layout.markerStride : args[next] * this.stride(roles[next].slice(6));
      this.fill(buffer, content, name, doubles);
    }
    return this.invoke(name, args);
  }

  /**
   * Calls an export with these arguments; keeps what it made.
   * @param {string} name
   * @param {number[]} args
   * @returns {boolean} whether it succeeded
   */
  invoke(name, args) {
    const fuzz = this.fuzz;
    fuzz.note(`${name}(${args.map(show).join(', ')})`);
    let result;
    try {
      result = timed(fuzz, name, () => this.x[name](...args));
    } catch (error) {
      if (/** @type {any} */ (error)?.name === 'FuzzFailure') throw error;
      const kind = error instanceof WebAssembly.RuntimeError ? 'trapped' : 'threw';
      throw fuzz.fail(`${name} ${kind}: ${error}`, error);
    }
    if (!NOT_A_STATUS.has(name) && result < 0 && !(Number.isInteger(result) && result >= -this.statusCount)) {
      throw fuzz.fail(`${name} returned ${result}, which is no status the module defines (1…${this.statusCount})`);
    }
    this.keep(name, args, result);
    return result >= 0;
  }

  /**
   * A value for one parameter.
   * @param {string} name  the export
   * @param {string} role
   * @returns {number}
   */
  argument(name, role) {
    const f = this.fuzz;
    const c = this.context;
    const number = (ordinary) => f.number(ordinary, this.edge);
    const [kind, detail] = role.split(':');
    switch (kind) {
      case 'index': return (c.index = this.handle(this.indexes, this.staleIndexes));
      case 'archive': return this.handle(this.archives, this.staleArchives);
      case 'map': return (c.map = this.handle(this.maps, this.staleMaps));
      case 'manager': {
        const own = this.managers.filter((m) => m.map === c.map).map((m) => m.number);
        c.manager = own.length > 0 && f.chance(0.85) ? f.pick(own) : this.handle(this.managers.map((m) => m.number), this.staleManagers);
        return c.manager;
      }
      case 'clusterId': return this.id(`cluster:${c.index}`, 'cluster:');
      case 'mapClusterId': return this.id(`mapCluster:${c.map}:${c.manager}`, 'mapCluster:');
      case 'markerId': return this.id(`marker:${c.map}`, 'marker:');
      case 'itemId': return this.id(`item:${c.map}:${c.manager}`, 'item:');
      case 'building': return this.id(`building:${c.map}`, 'building:');
      case 'popover': return this.id(`popover:${c.map}`, 'popover:');
      case 'icon': return f.chance(0.7) ? -1 : this.id(`icon:${c.map}`, 'icon:');
      case 'ptr': {
        const pointer = this.pointer();
        if (detail !== 'none' && c.buffer) c.fills.push({ at: ABI_ROLES[name].indexOf(role), buffer: c.buffer, content: detail });
        return pointer;
      }
      case 'out': return this.pointer();
      case 'count': return this.count(detail);
      case 'size': return f.chance(0.7) ? f.pick(BUFFER_BYTES) + f.int(9) : f.pick([0, -1, 1, 7, 2 ** 30 + 1, 2 ** 31 - 1, -(2 ** 31)]);
      case 'reserve': return f.chance(0.8) ? f.int(this.maxItems * 5) : f.pick([-1, 2 ** 24 + 1, 2 ** 31 - 1, -(2 ** 31)]);
      case 'radius': return number(() => f.pick([1, 20, 40, 60, 80, 256, 512, 4096, 4097, 0.001]));
      case 'zoomInt': return f.chance(this.edge) ? f.pick(EDGE_INTS) : f.int(24);
      case 'zoom': return number(() => f.between(0, 22));
      case 'int': return f.chance(this.edge) ? f.pick(EDGE_INTS) : f.int(6);
      case 'enum': return f.chance(this.edge) ? f.pick(EDGE_INTS) : f.int(6);
      case 'bits': return f.chance(this.edge) ? f.pick(EDGE_INTS) : f.int(128);
      case 'lat': return number(() => f.between(-85, 85));
      case 'lng': return number(() => f.between(-180, 180));
      case 'px': return number(() => f.between(0, 1200));
      case 'padding': return number(() => f.between(0, 100));
      case 'side': return number(() => 1 + f.int(128));
      case 'inset': return number(() => f.int(8));
      case 'wholeZoom': return number(() => (f.chance(0.2) ? NaN : f.int(23)));
      case 'minPoints': return number(() => (f.chance(0.2) ? NaN : 1 + f.int(5)));
      case 'unit': return number(() => f.random());
      case 'duration': return number(() => f.pick([0, 0.1, 0.5, 2]));
      case 'time': return f.chance(1 - this.edge) ? (this.time += f.between(0, 0.2)) : f.pick([NaN, Infinity, -1, 0, 1e300, this.time - 1]);
      default: return number(() => f.between(-100, 100));
    }
  }

  /**
   * A handle: a live one mostly, else one destroyed, else made up.
   * @param {number[]} live
   * @param {number[]} stale
   */
  handle(live, stale) {
    const f = this.fuzz;
    if (live.length > 0 && f.chance(0.85)) return f.pick(live);
    if (stale.length > 0 && f.chance(0.5)) return f.pick(stale);
    return f.chance(0.5) ? f.int(8) : f.pick(EDGE_INTS);
  }

  /**
   * An id (a double): one of the call's owner mostly, else another owner's, an edge, a fraction
   * or a neighbour of one.
   * @param {string} key  the owner's ids
   * @param {string} kind  the prefix of every owner's of that kind
   */
  id(key, kind) {
    const f = this.fuzz;
    let seen = this.recall(key);
    if (seen.length === 0 || f.chance(0.1)) {
      const others = [...this.ids.keys()].filter((k) => k.startsWith(kind));
      seen = others.length > 0 ? this.recall(f.pick(others)) : [];
    }
    if (seen.length > 0 && f.chance(0.85)) return f.pick(seen) + (f.chance(0.95) ? 0 : f.pick([1, -1, 0.5, 2 ** 21, 2 ** 32]));
    return f.number(() => f.int(64), 0.5);
  }

  /** A pointer: a live buffer mostly (sometimes inside or past its start), else freed, made up or null. */
  pointer() {
    const f = this.fuzz;
    const r = f.random();
    if (r < 0.9 || this.edge < 0.1) {
      const buffer = f.pick(this.buffers);
      this.context.buffer = buffer;
      if (f.chance(1 - this.edge)) return buffer.ptr;
      return buffer.ptr + f.pick([1, 4, 8, 16, buffer.bytes - 8, buffer.bytes, buffer.bytes + 8]);
    }
    if (r < 0.95 && this.freed.length > 0) return f.pick(this.freed);
    return f.pick([0, 8, 1024, 65_536, 2 ** 24, 2 ** 31 - 8, -8, -(2 ** 31), this.x.memory.buffer.byteLength - 8]);
  }

  /** Doubles per record of a kind: a number, or 'marker' and 'item' (the manager's). @param {string} stride */
  stride(stride) {
    if (stride === 'marker') return this.layout.markerStride;
    if (stride === 'item') return this.manager()?.stride ?? 3;
    return Number(stride);
  }

  /**
   * A count of records for the buffer just named: some that fit mostly, else all that fit, one
   * more, a few, or an edge.
   * @param {string} stride  doubles per record, or 'marker' and 'item'
   */
  count(stride) {
    const f = this.fuzz;
    const buffer = this.context.buffer;
    const fits = buffer ? Math.floor(buffer.bytes / (8 * this.stride(stride))) : 0;
    if (f.chance(this.edge)) return f.pick([...EDGE_INTS, fits + 1]);
    const r = f.random();
    if (r < 0.7) return Math.min(fits, 1 + f.int(Math.max(1, Math.min(fits, 400))));
    if (r < 0.9) return fits;
    return f.int(8);
  }

  /**
   * Fills a buffer with records an export reads: plausible, and in adversarial calls with some
   * garbage among them (a batch with one bad record is refused whole).
   * @param {{ptr: number, bytes: number}} buffer
   * @param {string} content
   * @param {string} name  the export
   * @param {number} doubles  how many the call reads
   */
  fill(buffer, content, name, doubles) {
    const f = this.fuzz;
    const v = new Float64Array(this.x.memory.buffer, buffer.ptr, buffer.bytes / 8);
    const n = Math.min(v.length, Number.isFinite(doubles) && doubles > 0 ? doubles : 0, 65_536);
    const dirty = this.edge > 0.1 ? 0.02 : 0;
    const odd = () => f.number(() => f.between(-1e3, 1e3), 1);
    // Items piled on one point, or in a blob, or over the whole world.
    const spread = f.pick([0, 1e-9, 0.01, 1, 50, 180]);
    const [lng0, lat0] = [f.between(-180, 180), f.between(-80, 80)];
    const lat = () => Math.max(-85, Math.min(85, lat0 + f.between(-spread, spread) / 2));
    const lng = () => lng0 + f.between(-spread, spread);
    const itemStride = this.stride('item');
    const c = this.context;
    if (content === 'pointIds') {
      // 32-bit point ids, two to a double: held ones mostly, some never added, some negative.
      const ids = new Int32Array(this.x.memory.buffer, buffer.ptr, 2 * n);
      for (let i = 0; i < ids.length; i++) ids[i] = f.chance(0.9) ? f.int(64) : f.pick(EDGE_INTS) | 0;
      return;
    }
    for (let i = 0; i < n; i++) {
      if (dirty > 0 && f.chance(dirty)) {
        v[i] = odd();
        continue;
      }
      switch (content) {
        case 'lngLat': v[i] = i % 2 === 0 ? lng() : lat(); break;
        case 'weighted': v[i] = i % 3 === 2 ? 1 + f.int(1000) : f.between(0, 1); break;
        case 'items': {
          const k = i % itemStride;
          v[i] = k === 0 ? lat() : k === 1 ? lng() : k === 2 ? (f.chance(0.97) ? -1 : this.id(`icon:${c.map}`, 'icon:')) : f.between(0, 100);
          break;
        }
        case 'input': this.inputField(v, i); break;
        case 'markers': this.markerField(v, i); break;
        case 'buckets': v[i] = (i + 1) * 10; break;
        case 'colors': v[i] = f.int(0x1000000); break;
        case 'ops': v[i] = f.int(5); break;
        case 'clusterIds': v[i] = this.id(`cluster:${c.index}`, 'cluster:'); break;
        case 'values': v[i] = f.between(-1e6, 1e6); break;
        default: throw this.fuzz.fail(`no content "${content}" for ${name}`);
      }
    }
  }

  /**
   * Field i of input records [type, time, id, x, y, a, b, c, modifiers].
   * @param {Float64Array} v
   * @param {number} i
   */
  inputField(v, i) {
    const f = this.fuzz;
    const k = i % this.layout.inputStride;
    const type = k === 0 ? f.pick([1, 2, 2, 2, 3, 4, 5, 6]) : v[i - k];
    const values = [
      () => type, () => this.time + f.between(-0.01, 0.05), () => (type === 6 ? 1 + f.int(6) : f.int(3)),
      () => f.between(-50, 1300), () => f.between(-50, 1000), () => (type === 5 ? f.between(-300, 300) : f.int(3)),
      () => (type === 5 ? f.between(-300, 300) : f.int(3)), () => f.int(3), () => f.int(16)];
    v[i] = (values[k] ?? (() => 0))();
  }

  /**
   * Field i of marker records (see _MarkerRecords.Field in the module's source, in order).
   * @param {Float64Array} v
   * @param {number} i
   */
  markerField(v, i) {
    const f = this.fuzz;
    const k = i % this.layout.markerStride;
    const c = this.context;
    const values = [
      () => f.between(-85, 85), () => f.between(-180, 180), () => f.int(3), () => f.between(0, 100),
      () => (f.chance(0.8) ? -1 : this.id(`icon:${c.map}`, 'icon:')),
      () => f.random(), () => f.random(), () => f.random(), () => f.random(), () => f.between(0, 360),
      () => f.int(128), () => f.random(), () => f.int(10), () => f.int(3), () => f.int(5), () => f.int(3), () => f.int(1000),
      () => (f.chance(0.2) ? this.id(`building:${c.map}`, 'building:') : 0), () => f.int(3)];
    v[i] = (values[k] ?? (() => 0))();
  }

  /**
   * Keeps the run's sizes moderate: items per manager, markers per map and points per index
   * stay under the limit (what would exceed it is cut to fit), so that frames time the engine's
   * work, not data sizes.
   * @param {string} name
   * @param {number[]} args
   */
  limit(name, args) {
    const cut = (at, room) => {
      if (args[at] > room && args[at] <= 2 ** 24) args[at] = Math.max(0, room);
    };
    if (name === 'cairn_map_add_cluster_items' || name === 'cairn_map_add_cluster_coordinates') {
      cut(3, this.maxItems - (this.manager()?.items ?? 0));
    } else if (name === 'cairn_map_add_markers') {
      cut(2, this.maxItems - (this.markerCounts.get(args[0]) ?? 0));
    } else if (name === 'cairn_index_add') {
      cut(2, 5 * this.maxItems - (this.points.get(args[0]) ?? 0));
    }
  }

  /**
   * Keeps what a call made (handles, ids, buffers) and forgets what it took away.
   * @param {string} name
   * @param {number[]} args
   * @param {number} result
   */
  keep(name, args, result) {
    const x = this.x;
    const c = this.context;
    /** Field `at` of up to `n` records of `stride` doubles in a live buffer. */
    const records = (ptr, n, stride, at) => {
      const b = this.buffers.find((b) => b.ptr === ptr);
      const v = b ? new Float64Array(x.memory.buffer, ptr, Math.min(n * stride, b.bytes / 8)) : new Float64Array(0);
      const ids = [];
      for (let k = at; k < v.length; k += stride) ids.push(v[k]);
      return ids;
    };
    if (result < 0 && name !== 'cairn_alloc') return;
    switch (name) {
      case 'cairn_alloc': {
        const ptr = result >>> 0;
        if (ptr !== 0) this.buffers.push({ ptr, bytes: args[0] });
        break;
      }
      case 'cairn_free': {
        const i = this.buffers.findIndex((b) => b.ptr === args[0]);
        this.freed.push(...this.buffers.splice(i, 1).map((b) => b.ptr));
        if (this.buffers.length < 3) this.allocate(this.fuzz.pick(BUFFER_BYTES));
        break;
      }
      case 'cairn_index_create': case 'cairn_index_restore': this.indexes.push(result); break;
      case 'cairn_index_destroy': move(this.indexes, this.staleIndexes, args[0]); break;
      case 'cairn_index_add': this.points.set(args[0], result); break;
      case 'cairn_pmtiles_create': this.archives.push(result); break;
      case 'cairn_pmtiles_destroy': move(this.archives, this.staleArchives, args[0]); break;
      case 'cairn_index_clusters': case 'cairn_index_children': case 'cairn_index_leaves': case 'cairn_index_tile': case 'cairn_index_tile_extent':
      case 'cairn_index_reduce_children':
        this.remember(`cluster:${c.index}`, records(args[args.length - 2], Math.min(result, args[args.length - 1]), 4, 0));
        break;
      case 'cairn_map_create': this.maps.push(result); break;
      case 'cairn_map_destroy':
        move(this.maps, this.staleMaps, args[0]);
        for (const m of this.managers.filter((m) => m.map === args[0])) this.staleManagers.push(m.number);
        this.managers = this.managers.filter((m) => m.map !== args[0]);
        this.markerCounts.delete(args[0]);
        break;
      case 'cairn_map_register_icon': this.remember(`icon:${c.map}`, [result]); break;
      case 'cairn_map_add_cluster_manager': this.managers.push({ map: args[0], number: result, items: 0, stride: 3 }); break;
      case 'cairn_map_remove_cluster_manager':
        this.managers = this.managers.filter((m) => !(m.map === args[0] && m.number === args[1]));
        this.staleManagers.push(args[1]);
        break;
      case 'cairn_map_set_cluster_aggregates': {
        const m = this.manager();
        if (m) m.stride = 3 + args[3];
        break;
      }
      case 'cairn_map_add_cluster_items': case 'cairn_map_add_cluster_coordinates': {
        const m = this.manager();
        if (m) m.items += args[3];
        this.remember(`item:${c.map}:${c.manager}`, Array.from({ length: Math.min(args[3], 64) }, (_, i) => result + i));
        break;
      }
      case 'cairn_map_clear_cluster_items': {
        const m = this.manager();
        if (m) m.items = 0;
        break;
      }
      case 'cairn_map_add_markers':
        this.markerCounts.set(args[0], (this.markerCounts.get(args[0]) ?? 0) + result);
        this.remember(`marker:${c.map}`, records(args[3], result, 1, 0));
        break;
      case 'cairn_map_clear_markers': this.markerCounts.set(args[0], 0); break;
      case 'cairn_map_add_indoor_building': this.remember(`building:${c.map}`, [result]); break;
      case 'cairn_map_add_popover': this.remember(`popover:${c.map}`, [result]); break;
      case 'cairn_map_cluster_children':
        this.remember(`mapCluster:${c.map}:${c.manager}`, records(args[3], Math.min(result, Math.floor(args[4] / 5)), 5, 1));
        break;
      case 'cairn_map_cluster_leaves': this.remember(`item:${c.map}:${c.manager}`, records(args[5], result, 1, 0)); break;
      case 'cairn_map_frame': if (result > 0 && result <= args[3]) this.readFrame(args[0], args[2], result); break;
      default: break;
    }
  }

  /**
   * Takes the cluster, item and marker ids out of a frame written to a live buffer.
   * @param {number} map
   * @param {number} ptr
   * @param {number} doubles
   */
  readFrame(map, ptr, doubles) {
    const b = this.buffers.find((b) => b.ptr === ptr);
    if (!b || doubles > b.bytes / 8) return;
    const frame = readFrame(new Float64Array(this.x.memory.buffer, ptr, doubles), this.layout);
    this.drawn = Math.max(this.drawn, frame.items.length);
    for (const item of frame.items.slice(0, 300)) {
      if (item.kind === 'cluster') this.remember(`mapCluster:${map}:${item.manager}`, [item.id]);
      else if (item.kind === 'clusterItem') this.remember(`item:${map}:${item.manager}`, [item.id]);
      else this.remember(`marker:${map}`, [item.id]);
    }
  }

  /** A live buffer of at least `bytes`, made when there is none. @param {number} bytes */
  room(bytes) {
    const buffer = this.buffers.find((b) => b.bytes >= bytes);
    if (buffer) return buffer;
    this.allocate(bytes);
    return this.buffers[this.buffers.length - 1];
  }

  /** Points for a scenario: piled on one point, in a blob, or over the world; lng, lat pairs. @param {number} n */
  scatter(n) {
    const buffer = this.room(16 * n);
    this.context = { index: 0, map: 0, manager: -1, buffer, fills: [] };
    this.edge = 0;
    this.fill(buffer, 'lngLat', 'a scenario', 2 * n);
    return buffer.ptr;
  }

  /** A run of calls that make and use state as a host would, through the same checks as every call. */
  scenario() {
    const f = this.fuzz;
    const out = this.room(65_536).ptr;
    if (f.chance(0.4)) {
      // An index: points, maybe an aggregate, every zoom built, then queried.
      if (!this.invoke('cairn_index_create', [f.pick([20, 40, 80]), 512, f.int(3), 10 + f.int(8), 2])) return;
      const h = this.indexes[this.indexes.length - 1];
      this.context.index = h;
      const n = 1 + f.int(5 * this.maxItems);
      this.invoke('cairn_index_add', [h, this.scatter(n), n]);
      if (f.chance(0.3)) {
        const values = this.room(8 * n);
        new Float64Array(this.x.memory.buffer, values.ptr, n).fill(f.int(100));
        this.invoke('cairn_index_aggregate_add', [h, f.int(5), values.ptr, n]);
      }
      for (let z = 0; z < 40 && this.x.cairn_index_build_step(h) > 0; z++) { /* a zoom a call */ }
      this.context.index = h;
      this.invoke('cairn_index_clusters', [h, -180, -90, 180, 90, f.int(12), out, 2048]);
      return;
    }
    // A map with a cluster manager: items clustered, drawn at a few zooms.
    if (!this.invoke('cairn_map_create', [f.between(-60, 60), f.between(-180, 180), f.int(8), 0, 0, 400 + f.int(800), 300 + f.int(600)])) return;
    const map = this.maps[this.maps.length - 1];
    this.context.map = map;
    if (!this.invoke('cairn_map_add_cluster_manager', [map, f.int(4), 2 + f.int(4), 20, 40])) return;
    const manager = this.managers[this.managers.length - 1];
    this.context.manager = manager.number;
    const n = 1 + f.int(this.maxItems);
    this.invoke('cairn_map_add_cluster_coordinates', [map, manager.number, this.scatter(n), n, -1]);
    this.context = { ...this.context, map, manager: manager.number };
    this.invoke('cairn_map_cluster', [map, manager.number]);
    for (let k = 0; k < 4; k++) {
      this.invoke('cairn_map_move_camera', [map, NaN, NaN, f.int(21), NaN, NaN]);
      this.invoke('cairn_map_frame', [map, (this.time += 0.3), out, 65_536 / 8]);
    }
  }

  /** After the run: the module still clusters as it should. */
  checkSound() {
    const x = this.x;
    const fuzz = this.fuzz;
    fuzz.note('the soundness check after the run');
    const h = x.cairn_index_create(40, 512, 0, 16, 2);
    const ptr = x.cairn_alloc(48) >>> 0;
    const out = x.cairn_alloc(4 * 8 * 8) >>> 0;
    if (h <= 0 || ptr === 0 || out === 0) throw fuzz.fail(`after the run, an index or a buffer could not be made (${h}, ${ptr}, ${out})`);
    new Float64Array(x.memory.buffer, ptr, 6).set([10, 10, 10.0001, 10.0001, -100, 40]);
    const added = x.cairn_index_add(h, ptr, 3);
    while (x.cairn_index_build_step(h) > 0) { /* clusters one zoom a call */ }
    const atZero = x.cairn_index_clusters(h, -180, -90, 180, 90, 0, out, 8);
    const atTop = x.cairn_index_clusters(h, -180, -90, 180, 90, 17, out, 8);
    if (added !== 3 || atZero !== 2 || atTop !== 3) {
      throw fuzz.fail(`after the run, 3 points gave ${added} added, ${atZero} records at zoom 0 and ${atTop} at zoom 17 (2 and 3 expected)`);
    }
    x.cairn_index_destroy(h);
    x.cairn_free(ptr);
    x.cairn_free(out);
  }
}

/**
 * Moves a value from one list to another.
 * @param {number[]} from
 * @param {number[]} to
 * @param {number} value
 */
function move(from, to, value) {
  const i = from.indexOf(value);
  if (i >= 0) from.splice(i, 1);
  to.push(value);
}

/** The exports the role table covers that the bindings do not, and the reverse (both empty when they agree). */
export function roleGaps() {
  const roles = new Set(Object.keys(ABI_ROLES));
  const bound = new Set(Object.keys(BINDINGS));
  return {
    unbound: [...roles].filter((name) => !bound.has(name)),
    unfuzzed: [...bound].filter((name) => !roles.has(name)),
    arity: [...roles].filter((name) => bound.has(name) && BINDINGS[name].params.length !== ABI_ROLES[name].length),
  };
}
