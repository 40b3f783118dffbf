// The JavaScript API fuzzed: ClusterIndex, MapEngine, its markers, indoor buildings and cluster
// managers, in random call sequences with plausible and garbage arguments (wrong types, NaN,
// edges, ids that are stale, made up or another object's), on live and destroyed objects. It
// fails on a trap, on any error that is not a CairnError with a code, and on a frame or a
// clustering that takes longer than the hang guard. Sizes stay moderate (`maxItems` items per
// manager, markers per map, 5× points per index), so that a hang means the engine's work, not
// the data's size.

import { performance } from 'node:perf_hooks';

import { init, ClusterIndex, MapEngine, CairnError } from '../../src/index.js';
import { CLUSTER_ALGORITHMS } from '../../src/engine/cluster-manager.js';
import { ALTITUDE_MODES, APPEAR_ANIMATIONS, COLLISION_BEHAVIORS } from '../../src/engine/marker-records.js';
import { EDGE_NUMBERS, Fuzz, HANG_MS, MAX_ITEMS, show, sizeFlag, timed } from './fuzz-random.js';

/** Values of the wrong type for any parameter. */
const WRONG = Object.freeze(['12', 'abc', '', null, undefined, true, false, {}, [], [3], 10n, { valueOf: () => 4 },
  Symbol('s'), () => 1, new Float64Array(2), NaN]);

/** Most live objects of a kind at once: enough to mix them up, few enough to stay fast. */
const MOST_LIVE = 6;

/**
 * @typedef {object} MapState  a map and what the run knows of it
 * @property {MapEngine} map
 * @property {number} time
 * @property {number[]} markers
 * @property {number[]} icons
 * @property {number[]} buildings
 * @property {Array<{manager: any, items: number[], clusters: number[]}>} managers  live and destroyed
 */

/**
 * Fuzzes the API of the module `init()` loads. Returns the steps made and the most items a
 * frame drew.
 * @param {import('./abi-fuzz.js').FuzzRun} run
 * @returns {Promise<{steps: number, drawn: number, errors: number}>}
 * @throws {import('./fuzz-random.js').FuzzFailure}
 */
export async function fuzzApi({ seed, steps = Infinity, until, maxItems = MAX_ITEMS, hangMs = HANG_MS }) {
  await init();
  const world = new ApiWorld(new Fuzz('api', seed, sizeFlag(maxItems, hangMs), hangMs), maxItems);
  try {
    for (world.fuzz.step = 0; world.fuzz.step < steps && performance.now() < until; world.fuzz.step++) world.act();
  } finally {
    world.destroyAll();
  }
  return { steps: world.fuzz.step, drawn: world.drawn, errors: world.errors, codes: world.codes };
}

/** The objects of a run, and the actions on them. */
class ApiWorld {
  /** @type {ClusterIndex[]} live and destroyed */ indexes = [];
  /** @type {Map<ClusterIndex, number[]>} cluster ids seen per index */ clusterIds = new Map();
  /** @type {MapState[]} live and destroyed */ maps = [];
  drawn = 0;
  /** CairnErrors the run was given (as it should be, for garbage). */
  errors = 0;
  /** @type {Map<string, number>} how often each call failed with each code */
  codes = new Map();

  /**
   * @param {Fuzz} fuzz
   * @param {number} maxItems
   */
  constructor(fuzz, maxItems) {
    this.fuzz = fuzz;
    this.maxItems = maxItems;
  }

  /** The chance that an argument of this action is odd: most actions are plausible, some adversarial. */
  odd = 0.01;

  /** An argument: mostly `ordinary()`, sometimes a number at an edge or a value of the wrong type. */
  arg(ordinary, odd = this.odd) {
    const f = this.fuzz;
    if (!f.chance(odd)) return ordinary();
    return f.chance(0.5) ? f.pick(EDGE_NUMBERS) : f.pick(WRONG);
  }

  /**
   * Runs `call`, which must return, or throw a CairnError with a code.
   * @param {string} label
   * @param {() => unknown} call
   */
  survive(label, call) {
    this.fuzz.note(label);
    try {
      return timed(this.fuzz, label, call);
    } catch (error) {
      if (/** @type {any} */ (error)?.name === 'FuzzFailure') throw error;
      if (error instanceof CairnError && typeof error.code === 'string' && error.code !== '') {
        this.errors++;
        const key = `${label.split('(')[0]} ${error.code}`;
        this.codes.set(key, (this.codes.get(key) ?? 0) + 1);
        return undefined;
      }
      const e = /** @type {any} */ (error);
      const kind = error instanceof WebAssembly.RuntimeError ? 'trapped the module' : `threw ${e?.name}`;
      if (process.env.FUZZ_STACK) console.error(e?.stack);
      throw this.fuzz.fail(`${label} ${kind}: ${e?.message ?? String(error)}`, error);
    }
  }

  /** One action, on an index, a map, a manager or their markers. */
  act() {
    const f = this.fuzz;
    this.odd = f.chance(0.2) ? 0.1 : 0;
    const r = f.random();
    if (r < 0.2) this.indexAction();
    else if (r < 0.45) this.mapAction();
    else if (r < 0.6) this.markerAction();
    else this.managerAction();
  }

  /** A live map, made when there is none; sometimes a destroyed one. */
  someMap() {
    const f = this.fuzz;
    const live = this.maps.filter((m) => m.map !== null && !m.gone);
    if (live.length === 0 || (live.length < MOST_LIVE && f.chance(0.02))) return this.newMap() ?? this.maps[0];
    if (f.chance(0.03) && this.maps.length > live.length) return f.pick(this.maps.filter((m) => m.gone));
    return f.pick(live);
  }

  /** @returns {MapState | undefined} */
  newMap() {
    const f = this.fuzz;
    const odd = f.chance(0.1) ? 0.3 : 0;
    const options = {
      camera: { latitude: this.arg(() => f.between(-80, 80), odd), longitude: this.arg(() => f.between(-180, 180), odd),
        zoom: this.arg(() => f.between(0, 18), odd), bearing: this.arg(() => f.between(0, 360), odd), tilt: this.arg(() => f.between(0, 60), odd) },
      width: this.arg(() => 200 + f.int(1200), odd), height: this.arg(() => 200 + f.int(900), odd),
    };
    const map = /** @type {MapEngine | undefined} */ (this.survive(`new MapEngine(${show(options)})`, () => new MapEngine(options)));
    if (!map) return undefined;
    /** @type {MapState} */
    const state = { map, time: 0, markers: [], icons: [], buildings: [], managers: [], gone: false };
    this.maps.push(state);
    return state;
  }

  /** A position mostly valid: piled on a few places, in blobs, or anywhere. */
  position(odd = this.odd) {
    const f = this.fuzz;
    const spot = f.pick([[48.85, 2.35], [0, 179.99], [-33.9, 151.2], [40.7, -74]]);
    const spread = f.pick([0, 1e-7, 0.01, 1, 90]);
    return {
      latitude: this.arg(() => Math.max(-85, Math.min(85, spot[0] + f.between(-spread, spread))), odd),
      longitude: this.arg(() => spot[1] + f.between(-spread, spread) * 2, odd),
    };
  }

  /** An id: one known mostly, else one close to it, or garbage. @param {number[]} known */
  id(known) {
    const f = this.fuzz;
    if (known.length > 0 && f.chance(0.85)) return f.pick(known) + (f.chance(0.95) ? 0 : f.pick([1, -1, 0.5]));
    return this.arg(() => f.int(100), 0.5);
  }

  indexAction() {
    const f = this.fuzz;
    const live = this.indexes.filter((i) => !this.gone(i));
    if (live.length === 0 || (live.length < MOST_LIVE && f.chance(0.1))) {
      const odd = f.chance(0.2) ? 0.3 : 0;
      const options = {
        radius: this.arg(() => f.pick([20, 40, 60, 80]), odd), maxZoom: this.arg(() => 8 + f.int(10), odd),
        minPoints: this.arg(() => 2 + f.int(3), odd), ...(f.chance(0.2) ? { aggregates: { total: ['sum', 'v'] } } : {}),
      };
      const index = this.survive(`new ClusterIndex(${show(options)})`, () => new ClusterIndex(options));
      if (index) this.indexes.push(/** @type {ClusterIndex} */ (index));
      return;
    }
    const index = f.chance(0.95) ? f.pick(live) : f.pick(this.indexes);
    const ids = this.clusterIds.get(index) ?? [];
    const bbox = () => this.arg(() => (f.chance(0.7) ? [-180, -90, 180, 90] : [f.between(-190, 190), f.between(-90, 90), f.between(-190, 190), f.between(-90, 90)]));
    const zoom = () => this.arg(() => f.int(20) + (f.chance(0.2) ? 0.5 : 0));
    const action = f.int(10);
    if (action === 8) {
      // Edits: ids known and made up, points piled on a spot or anywhere, features or pairs as
      // the index was filled (and sometimes the other kind).
      const held = index.points ? index.points.length : this.maxItems;
      const pointId = () => this.arg(() => f.int(held + 2));
      const where = () => (({ latitude, longitude }) => [longitude, latitude])(this.position(f.chance(0.3) ? 0 : 0.001));
      const n = f.int(8);
      const add = (index.points !== null) !== f.chance(0.1)
        ? Array.from({ length: n }, () => ({ type: 'Feature', properties: { v: 1 }, geometry: { type: 'Point', coordinates: where() } }))
        : Float64Array.from(Array.from({ length: n }, where).flat(), (v) => (typeof v === 'number' ? v : NaN));
      const changes = this.arg(() => ({
        add, remove: Array.from({ length: f.int(6) }, pointId),
        move: Array.from({ length: f.int(6) }, () => ({ id: pointId(), coordinates: this.arg(where, 0.05) })),
      }), 0.05);
      this.survive(`update(${show(changes)})`, () => index.update(changes));
      return;
    }
    if (action === 0) {
      const n = f.int(5 * this.maxItems);
      const features = Array.from({ length: n }, (_, i) => ({ type: 'Feature', properties: { v: i % 7 },
        geometry: { type: 'Point', coordinates: (({ latitude, longitude }) => [longitude, latitude])(this.position(0.001)) } }));
      this.survive(`load(${n} features)`, () => index.load(features));
    } else if (action === 1) {
      const n = f.int(5 * this.maxItems);
      const coords = new Float64Array(2 * n);
      for (let i = 0; i < n; i++) {
        const p = this.position(0);
        coords[2 * i] = f.chance(0.0005) ? f.pick(EDGE_NUMBERS) : /** @type {number} */ (p.longitude);
        coords[2 * i + 1] = /** @type {number} */ (p.latitude);
      }
      this.survive(`loadCoordinates(${n} points)`, () => index.loadCoordinates(coords));
    } else if (action === 2) {
      const [b, z] = [bbox(), zoom()];
      const found = /** @type {any[] | undefined} */ (this.survive(`getClusters(${show(b)}, ${show(z)})`, () => index.getClusters(b, z)));
      if (Array.isArray(found)) {
        const clusters = found.filter((c) => c.properties?.cluster).map((c) => c.id);
        this.clusterIds.set(index, [...ids, ...clusters].slice(-500));
      }
    } else if (action === 3) {
      const out = f.pick([new Float64Array(0), new Float64Array(40), new Float64Array(4096), [], null]);
      this.survive('getClustersInto', () => index.getClustersInto(bbox(), zoom(), out));
    } else if (action === 4) {
      const id = this.id(ids);
      this.survive(`getChildren(${show(id)})`, () => index.getChildren(id));
    } else if (action === 5) {
      const [id, limit, offset] = [this.id(ids), this.arg(() => f.pick([1, 10, Infinity])), this.arg(() => f.int(20))];
      this.survive(`getLeaves(${show(id)}, ${show(limit)}, ${show(offset)})`, () => index.getLeaves(id, limit, offset));
    } else if (action === 6) {
      const id = this.id(ids);
      this.survive(`getClusterExpansionZoom(${show(id)})`, () => index.getClusterExpansionZoom(id));
    } else if (action === 7) {
      const z = this.arg(() => f.int(12));
      const side = 2 ** (typeof z === 'number' && z >= 0 && z <= 12 ? Math.floor(z) : 0);
      const [x, y] = [this.arg(() => f.int(side + 1)), this.arg(() => f.int(side + 1))];
      this.survive(`getTile(${show(z)}, ${show(x)}, ${show(y)})`, () => index.getTile(z, x, y));
    } else if (f.chance(0.5)) {
      this.survive('destroy index', () => index.destroy());
      this.destroyed.add(index);
    }
  }

  /** Indexes destroyed by the run. */
  destroyed = new Set();

  /** @param {ClusterIndex} index */
  gone(index) { return this.destroyed.has(index); }

  mapAction() {
    const f = this.fuzz;
    const state = this.someMap();
    if (!state) return;
    const { map } = state;
    const px = (n) => this.arg(() => f.between(-20, n));
    const stamp = () => this.arg(() => (state.time += f.between(0, 0.05)), 0.02);
    const pointer = () => this.arg(() => f.int(3), 0.02);
    const actions = [
      () => this.survive('pointerDown', () => map.pointerDown(pointer(), this.arg(() => f.pick(['mouse', 'touch', 'pen'])), px(1200), px(900),
        this.arg(() => f.pick([0, 0, 2])), this.arg(() => 0), stamp())),
      () => this.survive('pointerMove', () => map.pointerMove(pointer(), px(1200), px(900), stamp())),
      () => this.survive('pointerUp', () => map.pointerUp(pointer(), px(1200), px(900), stamp())),
      () => this.survive('pointerCancel', () => map.pointerCancel(pointer(), stamp())),
      () => this.survive('wheel', () => map.wheel(px(1200), px(900), this.arg(() => f.between(-300, 300)), this.arg(() => f.between(-300, 300)),
        this.arg(() => f.int(3)), this.arg(() => 0), stamp())),
      () => this.survive('key', () => map.key(this.arg(() => f.pick(['panLeft', 'panUp', 'panRight', 'panDown', 'zoomIn', 'zoomOut'])),
        this.arg(() => f.int(16)), stamp())),
      () => this.frame(state),
      () => this.frame(state),
      () => this.frame(state),
      () => {
        const spot = f.chance(0.5) ? this.position(0) : { latitude: this.arg(() => f.between(-85, 85)), longitude: this.arg(() => f.between(-180, 180)) };
        const camera = { ...spot, zoom: this.arg(() => f.pick([0, 1, 2, 5, 10, 15, 20])) };
        this.survive(`moveCamera(${show(camera)})`, () => map.moveCamera(camera));
      },
      () => this.survive('animateCamera', () => map.animateCamera({ zoom: this.arg(() => f.between(0, 20)), bearing: this.arg(() => f.between(0, 360)) },
        { duration: this.arg(() => f.pick([0, 0.2, 1])), easing: this.arg(() => f.pick(['linear', 'easeOut'])) })),
      () => this.survive('showBounds', () => map.showBounds({ west: this.arg(() => f.between(-180, 0)), south: this.arg(() => f.between(-80, 0)),
        east: this.arg(() => f.between(0, 180)), north: this.arg(() => f.between(0, 80)) }, { padding: this.arg(() => f.int(50)) })),
      () => this.survive('zoomBy', () => map.zoomBy(this.arg(() => f.between(-3, 3)), f.chance(0.5) ? { x: px(800), y: px(600) } : undefined)),
      () => this.survive('stopAnimation', () => map.stopAnimation()),
      () => this.survive('setMyLocation', () => map.setMyLocation(f.chance(0.2) ? null : { ...this.position(), accuracy: this.arg(() => f.int(100)) })),
      () => this.survive('setSettings', () => map.setSettings({ scrollGestures: this.arg(() => f.chance(0.8)), compassButton: this.arg(() => f.chance(0.5)) })),
      () => this.survive('setViewport', () => map.setViewport(this.arg(() => 100 + f.int(1500)), this.arg(() => 100 + f.int(1000)), { top: this.arg(() => f.int(40)) })),
      () => this.survive('setLimits', () => map.setLimits({ minZoom: this.arg(() => f.int(5)), maxZoom: this.arg(() => 15 + f.int(8)) })),
      () => this.survive('screenPoint', () => map.screenPoint(this.arg(() => f.between(-85, 85)), this.arg(() => f.between(-180, 180)))),
      () => this.survive('coordinate', () => map.coordinate(px(1200), px(900))),
      () => this.survive('setInfoWindowSize', () => map.setInfoWindowSize(this.arg(() => f.int(300)), this.arg(() => f.int(200)))),
      () => this.survive('answerTap', () => map.answerTap(this.arg(() => f.chance(0.5)))),
      () => {
        const corners = 3 + f.int(4);
        const { latitude, longitude } = this.position(0);
        const footprint = Array.from({ length: corners }, (_, i) => ({
          latitude: this.arg(() => Number(latitude) + 0.001 * Math.sin(i), 0.02), longitude: this.arg(() => Number(longitude) + 0.001 * Math.cos(i), 0.02) }));
        const id = this.survive('addIndoorBuilding', () => map.addIndoorBuilding({ footprint, levels: this.arg(() => 1 + f.int(5)) }));
        if (typeof id === 'number') state.buildings.push(id);
      },
      () => this.survive('removeIndoorBuilding', () => map.removeIndoorBuilding(this.id(state.buildings))),
      () => this.survive('activateIndoorLevel', () => map.activateIndoorLevel(this.id(state.buildings), this.arg(() => f.int(4)))),
      () => {
        if (f.chance(0.3)) {
          this.survive('destroy map', () => map.destroy());
          state.gone = true;
        }
      },
    ];
    f.pick(actions)();
  }

  /**
   * A frame, against the hang guard; keeps what it drew.
   * @param {MapState} state
   */
  frame(state) {
    const f = this.fuzz;
    const time = f.chance(0.98) ? (state.time += f.between(0, 0.1)) : f.pick([NaN, -1, Infinity, state.time - 1]);
    let frame;
    try {
      frame = /** @type {any} */ (this.survive(`frame(${show(time)})`, () => state.map.frame(time)));
    } catch (error) {
      // A hang says what the map held: its camera, and each manager's algorithm and items.
      if (error instanceof Error && error.name === 'FuzzFailure') error.message += `\n  the map: ${this.describe(state)}`;
      throw error;
    }
    if (!frame) return;
    this.drawn = Math.max(this.drawn, frame.items.length);
    // The clusters of the latest frame (a clustering since makes older ones stale), and a few older.
    const drawn = new Map();
    for (const item of frame.items) {
      if (item.kind === 'marker') continue;
      const m = state.managers.find((m) => !m.gone && m.manager.number === item.manager);
      if (!m) continue;
      if (item.kind === 'cluster') drawn.set(m, [...(drawn.get(m) ?? []), item.id]);
      else m.items.push(item.id);
    }
    for (const [m, clusters] of drawn) m.clusters = [...m.clusters.slice(-20), ...clusters.slice(-300)];
    for (const m of state.managers) if (m.items.length > 2000) m.items.splice(0, m.items.length - 2000);
  }

  /**
   * A map's camera and contents, for a failure.
   * @param {MapState} state
   */
  describe(state) {
    const c = state.map.camera;
    const managers = state.managers.filter((m) => !m.gone)
      .map((m) => `${m.algorithm} with ${m.manager.itemCount} items`).join(', ');
    return `camera zoom ${c.zoom.toFixed(2)} at ${c.latitude.toFixed(3)}, ${c.longitude.toFixed(3)}, tilt ${c.tilt.toFixed(0)}; ` +
      `${state.markers.length} markers; managers: ${managers || 'none'}`;
  }

  markerAction() {
    const f = this.fuzz;
    const state = this.someMap();
    if (!state) return;
    const { map } = state;
    const options = () => {
      const o = { position: this.position() };
      if (f.chance(0.3)) o.icon = this.arg(() => (state.icons.length > 0 ? f.pick(state.icons) : -1));
      if (f.chance(0.2)) o.rotation = this.arg(() => f.between(0, 360));
      if (f.chance(0.2)) o.opacity = this.arg(() => f.random());
      if (f.chance(0.2)) o.zIndex = this.arg(() => f.int(5));
      if (f.chance(0.2)) o.flat = this.arg(() => f.chance(0.5));
      if (f.chance(0.2)) o.collisionBehavior = this.arg(() => f.pick(Object.keys(COLLISION_BEHAVIORS)));
      if (f.chance(0.1)) o.altitudeMode = this.arg(() => f.pick(Object.keys(ALTITUDE_MODES)));
      if (f.chance(0.1)) o.appearAnimation = this.arg(() => f.pick(Object.keys(APPEAR_ANIMATIONS)));
      if (f.chance(0.1)) o.title = this.arg(() => 'a title');
      if (f.chance(0.05) && (state.buildings.length > 0 || this.odd > 0)) o.indoorLevel = { building: this.id(state.buildings), level: this.arg(() => f.int(3)) };
      if (this.odd > 0 && f.chance(0.02)) o[f.pick(['size', 'colour', 'pin'])] = 1;
      return o;
    };
    const action = f.int(10);
    if (action === 0) {
      const icon = { width: this.arg(() => 1 + f.int(64)), height: this.arg(() => 1 + f.int(64)) };
      const n = this.survive(`registerIcon(${show(icon)})`, () => map.registerIcon(icon));
      if (typeof n === 'number') state.icons.push(n);
    } else if (action <= 2) {
      if (state.markers.length >= this.maxItems) return;
      const n = 1 + f.int(Math.min(200, this.maxItems - state.markers.length));
      const batch = Array.from({ length: n }, options);
      const ids = this.survive(`addMarkers(${n})`, () => map.addMarkers(batch));
      if (Array.isArray(ids)) state.markers.push(...ids);
    } else if (action === 3) {
      const id = this.id(state.markers);
      this.survive(`updateMarker(${show(id)})`, () => map.updateMarker(id, options()));
    } else if (action === 4) {
      const id = this.id(state.markers);
      this.survive(`removeMarker(${show(id)})`, () => map.removeMarker(id));
      state.markers = state.markers.filter((m) => m !== id);
    } else if (action === 5) {
      if (f.chance(0.2)) {
        this.survive('clearMarkers', () => map.clearMarkers());
        state.markers = [];
      }
    } else if (action === 6) {
      const id = f.chance(0.2) ? null : this.id(state.markers);
      this.survive(`selectMarker(${show(id)})`, () => map.selectMarker(id));
    } else if (action === 7) {
      const id = this.id(state.markers);
      this.survive(`marker(${show(id)})`, () => map.marker(id));
      this.survive(`markerAnchor(${show(id)})`, () => map.markerAnchor(id));
    } else {
      this.survive('selection', () => map.selection);
      this.frame(state);
    }
  }

  managerAction() {
    const f = this.fuzz;
    const state = this.someMap();
    if (!state) return;
    const live = state.managers.filter((m) => !m.gone);
    if (live.length === 0 || (live.length < MOST_LIVE && f.chance(0.05))) {
      const odd = f.chance(0.2) ? 0.3 : 0;
      const options = { algorithm: this.arg(() => f.pick(Object.keys(CLUSTER_ALGORITHMS)), odd) };
      if (f.chance(0.3)) options.minimumClusterSize = this.arg(() => 1 + f.int(5), odd);
      if (f.chance(0.3)) options.maximumClusterZoom = this.arg(() => f.int(22), odd);
      if (f.chance(0.3)) options.radius = this.arg(() => f.pick([20, 40, 80]), odd);
      if (f.chance(0.2)) options.animatesClusters = this.arg(() => f.chance(0.5), odd);
      if (f.chance(0.1)) options.flatItems = this.arg(() => f.chance(0.5), odd);
      if (f.chance(0.2)) options.aggregates = { total: ['sum', 'v'] };
      if (f.chance(0.1)) options.buckets = this.arg(() => [5, 10, 100], odd);
      const manager = this.survive(`addClusterManager(${show(options)})`, () => state.map.addClusterManager(options));
      if (manager) state.managers.push({ manager, algorithm: options.algorithm ?? 'hierarchical', items: [], clusters: [], count: 0, gone: false });
      return;
    }
    const m = f.chance(0.97) || state.managers.length === live.length ? f.pick(live) : f.pick(state.managers.filter((x) => x.gone));
    const { manager } = m;
    const action = f.int(14);
    // Queries of clusters take ids from a frame drawn now (screen-space clusters change with the camera).
    if (action >= 7 && action <= 9 && f.chance(0.5)) this.frame(state);
    const room = this.maxItems - m.count;
    if (action <= 1 && room > 0) {
      const n = 1 + f.int(Math.min(room, f.chance(0.2) ? room : 200));
      const items = Array.from({ length: n }, () => ({ position: this.position(0.001), ...(f.chance(0.2) ? { userData: { v: f.int(9) } } : {}) }));
      const ids = this.survive(`addItems(${n})`, () => manager.addItems(items));
      if (Array.isArray(ids)) {
        m.items.push(...ids.slice(0, 200));
        m.count += n;
      }
    } else if (action === 2 && room > 0) {
      const n = 1 + f.int(room);
      const coords = new Float64Array(2 * n);
      const spread = f.pick([0, 1e-6, 0.05, 5, 170]);
      const [lng, lat] = [f.between(-180, 180), f.between(-60, 60)];
      for (let i = 0; i < n; i++) {
        coords[2 * i] = lng + f.between(-spread, spread);
        coords[2 * i + 1] = lat + f.between(-spread, spread) / 3;
      }
      if (f.chance(0.02)) coords[f.int(coords.length)] = f.pick([NaN, Infinity, 91]);
      const added = /** @type {any} */ (this.survive(`addCoordinates(${n}, spread ${spread})`, () => manager.addCoordinates(coords)));
      if (added) {
        m.count += n;
        m.items.push(...Array.from({ length: Math.min(n, 100) }, (_, i) => added.first + i));
      }
    } else if (action <= 4) {
      this.survive('cluster()', () => manager.cluster());
      this.frame(state);
    } else if (action === 5) {
      const id = this.id(m.items);
      this.survive(`removeItem(${show(id)})`, () => manager.removeItem(id));
    } else if (action === 6) {
      const id = this.id(m.items);
      this.survive(`moveItem(${show(id)})`, () => manager.moveItem(id, this.position()));
    } else if (action === 7) {
      const id = this.id(m.clusters);
      const [limit, offset] = [this.arg(() => f.pick([1, 10, Infinity])), this.arg(() => f.int(10))];
      this.survive(`getLeaves(${show(id)}, ${show(limit)}, ${show(offset)})`, () => manager.getLeaves(id, limit, offset));
    } else if (action === 8) {
      const id = this.id(m.clusters);
      this.survive(`getChildren(${show(id)})`, () => manager.getChildren(id));
      this.survive(`getClusterExpansionZoom(${show(id)})`, () => manager.getClusterExpansionZoom(id));
    } else if (action === 9) {
      const id = this.id(m.clusters);
      this.survive(`getClusterBounds(${show(id)})`, () => manager.getClusterBounds(id));
      this.survive(`aggregatesOf(${show(id)})`, () => manager.aggregatesOf(id));
    } else if (action === 10) {
      const id = this.id(m.items);
      this.survive(`item(${show(id)})`, () => manager.item(id));
      this.survive(`selectItem(${show(id)})`, () => manager.selectItem(id));
    } else if (action === 11) {
      this.survive('setBuckets', () => manager.setBuckets(this.arg(() => [10, 50, 100].slice(0, 1 + f.int(3))), f.chance(0.5) ? undefined : this.arg(() => ['#f00'])));
      this.survive('animatesClusters', () => { manager.animatesClusters = this.arg(() => f.chance(0.5)); });
      this.survive('flatItems', () => { manager.flatItems = this.arg(() => f.chance(0.5)); });
    } else if (action === 12 && f.chance(0.3) && this.indexes.length > 0) {
      // Any index, live or destroyed, loaded or not, or no index at all.
      const index = f.chance(0.9) ? f.pick(this.indexes) : this.arg(() => null, 1);
      const taken = this.survive('useIndex', () => manager.useIndex(/** @type {any} */ (index)));
      if (taken) {
        m.count = taken.count;
        m.items = Array.from({ length: Math.min(taken.count, 64) }, (_, k) => taken.first + k);
      }
    } else if (action === 12) {
      if (f.chance(0.2)) {
        this.survive('clear items', () => manager.clear());
        m.count = 0;
        m.items = [];
      }
    } else if (f.chance(0.3)) {
      this.survive('destroy manager', () => manager.destroy());
      m.gone = true;
    }
  }

  /** Frees everything the run made (a failed run too), so that the next run starts clean. */
  destroyAll() {
    for (const index of this.indexes) index.destroy();
    for (const state of this.maps) state.map.destroy();
  }
}
