// Cairn as a Leaflet layer: a drop-in for Leaflet.markercluster's `L.markerClusterGroup(options)`
// (its common options, methods and events), built on the page's own Leaflet (the global `L`, or
// the one passed in). It takes `L.Marker`s (position, icon, title, popup) and, for millions of
// points, coordinates in a typed array. The engine clusters, animates, spreads out, hit-tests and
// decides what a click does; this file maps Leaflet's camera and clicks into the engine (see
// hosted-map.js), Leaflet's markers into cluster items, and the engine's taps into Leaflet's
// events and popups.

import { HostedMap, clusterManagerOptions } from './hosted-map.js';
import { LeafletZoom } from './leaflet-zoom.js';
import { LeafletIcons } from './leaflet-icons.js';
import { leafletClusterLook } from './leaflet-cluster-look.js';
import { argumentError } from '../core/errors.js';

/** @typedef {import('../core/frame.js').CameraPosition} CameraPosition */
/** @typedef {import('../engine/cluster-manager.js').ClusterManager} ClusterManager */
/** @typedef {import('../engine/cluster-manager.js').ClusterManagerOptions} ClusterManagerOptions */
/** @typedef {import('../map/cluster-drawables.js').ClusterIconOptions} ClusterIconOptions */

/**
 * @typedef {object} MarkerClusterGroupOptions  Leaflet.markercluster's options that Cairn takes
 *   (those left out: the engine's defaults), and Cairn's own
 * @property {number} [maxClusterRadius]  how far apart points may be to join a cluster, in CSS pixels
 * @property {number} [disableClusteringAtZoom]  from this zoom every marker is drawn on its own
 * @property {boolean} [zoomToBoundsOnClick=true]  a cluster click zooms in to where the cluster splits
 * @property {boolean} [spiderfyOnMaxZoom=true]  a cluster that zooming cannot split spreads out on click
 * @property {boolean} [animate=true]  clusters split and merge with an animation
 * @property {(cluster: LeafletCluster) => any} [iconCreateFunction]  a cluster's `L.DivIcon` (its
 *   elements' size, colours and text are drawn) or `L.Icon` (its image)
 * @property {ClusterIconOptions['drawCluster']} [drawCluster]  Cairn's: draws a cluster on a canvas
 * @property {ClusterManagerOptions['algorithm']} [algorithm]  Cairn's clustering algorithm
 * @property {number} [minimumClusterSize]  Cairn's: smaller groups are drawn as their markers
 * @property {string} [pane='cairnPane']  the Leaflet pane of the canvas (made above the marker pane when missing)
 */

/** Leaflet.markercluster's options and Cairn's that the layer takes. */
const OPTIONS = Object.freeze(['maxClusterRadius', 'disableClusteringAtZoom', 'zoomToBoundsOnClick', 'spiderfyOnMaxZoom',
  'animate', 'iconCreateFunction', 'drawCluster', 'algorithm', 'minimumClusterSize', 'pane',
  // Leaflet.markercluster's options that change nothing here (the engine shows what they tune).
  'showCoverageOnHover', 'removeOutsideVisibleBounds', 'chunkedLoading', 'chunkInterval', 'chunkDelay',
  'spiderLegPolylineOptions', 'polygonOptions', 'singleMarkerMode', 'animateAddingMarkers', 'clusterPane']);

/** The pane made for the canvas, and its stacking: above Leaflet's markers, below its popups. */
const PANE = 'cairnPane';
const PANE_Z_INDEX = '650';

/**
 * @typedef {object} LeafletCluster  a cluster as Leaflet.markercluster's events and
 *   `iconCreateFunction` give it (the methods apps use)
 * @property {() => number} getChildCount
 * @property {() => any[]} getAllChildMarkers  its `L.Marker`s (points added as coordinates: `L.LatLng`s)
 * @property {() => any} getLatLng
 * @property {() => any} getBounds
 * @property {() => void} zoomToBounds
 */

/** @type {WeakMap<object, any>} the layer class made for each Leaflet */
const CLASSES = new WeakMap();

/**
 * A cluster layer for `L.map(...).addLayer`, as Leaflet.markercluster's factory makes one.
 * `await init()` must have finished before it is added to a map.
 * @param {MarkerClusterGroupOptions} [options]
 * @param {any} [leaflet]  Leaflet (default: the page's global `L`)
 * @returns {any}  an `L.Layer` with Leaflet.markercluster's methods
 */
export function markerClusterGroup(options, leaflet) {
  const L = leaflet ?? /** @type {any} */ (globalThis).L;
  if (!L || typeof L.Layer?.extend !== 'function') {
    throw argumentError('markerClusterGroup', 'Leaflet was not found: load it first (the global L) or pass it');
  }
  return new (leafletClusterLayer(L))(options);
}

/**
 * The layer class for a Leaflet (made once per Leaflet).
 * @param {any} L
 * @returns {any}
 */
export function leafletClusterLayer(L) {
  let Layer = CLASSES.get(L);
  if (Layer) return Layer;
  Layer = L.Layer.extend({
    /** @param {MarkerClusterGroupOptions} [options] */
    initialize(options) {
      this._cairn = new LeafletClusters(L, this, options);
    },
    onAdd(/** @type {any} */ map) { this._cairn.add(map); },
    onRemove() { this._cairn.remove(); },
    getEvents() { return this._cairn.events(); },
    addLayer(/** @type {any} */ layer) { this._cairn.addLayers([layer]); return this; },
    addLayers(/** @type {any[]} */ layers) { this._cairn.addLayers(layers); return this; },
    removeLayer(/** @type {any} */ layer) { this._cairn.removeLayers([layer]); return this; },
    removeLayers(/** @type {any[]} */ layers) { this._cairn.removeLayers(layers); return this; },
    clearLayers() { this._cairn.clear(); return this; },
    hasLayer(/** @type {any} */ layer) { return this._cairn.has(layer); },
    getLayers() { return this._cairn.layers(); },
    eachLayer(/** @type {(layer: any) => void} */ fn, /** @type {any} */ context) {
      for (const layer of this._cairn.layers()) fn.call(context, layer);
      return this;
    },
    /** Cairn's fast path: points as [lng, lat] pairs, without an object each. */
    addCoordinates(/** @type {Float64Array | number[]} */ lngLat) { return this._cairn.addCoordinates(lngLat); },
    refreshClusters(/** @type {any} */ layers) { this._cairn.refresh(layers); return this; },
    zoomToShowLayer(/** @type {any} */ layer, /** @type {() => void} */ callback) { this._cairn.zoomToShow(layer, callback); },
    getBounds() { return this._cairn.bounds(); },
  });
  // Leaflet's extend copies values, not getters.
  Object.defineProperty(Layer.prototype, 'cairnMap', {
    /** The CairnMap drawing the layer while it is on a map (its engine, frames and stats), else null. */
    get() { return this._cairn.cairnMap; },
  });
  CLASSES.set(L, Layer);
  return Layer;
}

/** What one layer holds and does; the L.Layer above forwards to it. */
class LeafletClusters {
  #L;
  /** @type {Record<string, any> | null} the event parents markers share: this layer (see #adopt) */
  #sharedParents = null;
  /** @type {any} the L.Layer */
  #layer;
  /** @type {MarkerClusterGroupOptions} */
  #options;
  /** @type {Map<any, number | null>} the markers, in order, with their item ids while on a map */
  #markers = new Map();
  /** @type {Float64Array[]} coordinates added */
  #coordinates = [];
  /** @type {{first: number, count: number}[]} their items' ids while on a map */
  #ranges = [];
  /** @type {any} the L.Map */
  #map = null;
  /** @type {HostedMap | null} */
  #hosted = null;
  /** @type {ClusterManager | null} */
  #manager = null;
  /** @type {LeafletIcons | null} */
  #icons = null;
  /** @type {LeafletZoom | null} */
  #zoom = null;
  /** @type {HTMLElement | null} */
  #container = null;
  /** markers added since the last clustering */
  #pending = new Set();
  /** @type {any[]} the markers by item id (ids are small whole numbers), while on a map */
  #byId = [];
  #clusterQueued = false;
  #zoomFrame = 0;

  /**
   * @param {any} L
   * @param {any} layer
   * @param {MarkerClusterGroupOptions} [options]
   */
  constructor(L, layer, options) {
    const o = options ?? {};
    if (typeof o !== 'object') throw argumentError('markerClusterGroup', 'options must be an object');
    for (const key of Object.keys(o)) {
      if (!OPTIONS.includes(key)) throw argumentError('markerClusterGroup', `${key} is not an option Cairn's layer takes`);
    }
    if (o.maxClusterRadius !== undefined && typeof o.maxClusterRadius !== 'number') {
      throw argumentError('markerClusterGroup', 'maxClusterRadius must be a number of pixels');
    }
    this.#L = L;
    this.#layer = layer;
    this.#options = o;
  }

  get cairnMap() { return this.#hosted?.map ?? null; }

  // ── on a map ─────────────────────────────────────────────────────────────────────────────────

  /** @param {any} map */
  add(map) {
    const L = this.#L;
    this.#map = map;
    const paneName = this.#options.pane ?? PANE;
    let pane = map.getPane(paneName);
    if (!pane) {
      pane = map.createPane(paneName);
      pane.style.zIndex = PANE_Z_INDEX;
      pane.style.pointerEvents = 'none';
    }
    const size = map.getSize();
    const container = L.DomUtil.create('div', 'cairn-leaflet-layer', pane);
    container.style.cssText = `position:absolute;left:0;top:0;width:${size.x}px;height:${size.y}px;pointer-events:none;`;
    this.#container = container;
    L.DomUtil.setPosition(container, map.containerPointToLayerPoint([0, 0]));
    const hosted = new HostedMap(container, {
      camera: this.#camera(),
      onEngineCamera: (camera) => this.#setView(camera),
      onAnimationEnd: () => this.#layer.fire('animationend'),
    });
    this.#hosted = hosted;
    this.#zoom = new LeafletZoom(map, L, pane);
    this.#limits();
    const cmap = hosted.map;
    this.#icons = new LeafletIcons(cmap);
    this.#manager = cmap.addClusterManager({ ...this.#managerOptions(), ...leafletClusterLook(L, this.#options) });
    cmap.on('clusterTap', ({ id, count }) => this.#clusterTapped(id, count));
    cmap.on('clusterItemTap', ({ id, item }) => this.#itemTapped(id, this.#byId[id], item.position));
    for (const marker of this.#markers.keys()) this.#pending.add(marker);
    this.#ranges = this.#coordinates.map((c) => /** @type {ClusterManager} */ (this.#manager).addCoordinates(c));
    this.#clusterNow();
    this.#follow();
  }

  remove() {
    cancelAnimationFrame(this.#zoomFrame);
    this.#zoom?.remove();
    this.#hosted?.destroy();
    this.#container?.remove();
    for (const marker of this.#markers.keys()) this.#markers.set(marker, null);
    this.#byId = [];
    this.#pending.clear();
    this.#ranges = [];
    this.#map = this.#hosted = this.#manager = this.#icons = this.#zoom = this.#container = null;
  }

  /** Leaflet's events the layer follows while on a map. */
  events() {
    return {
      move: () => this.#moved(),
      viewreset: () => this.#moved(),
      resize: () => this.#moved(),
      zoomanim: (/** @type {any} */ e) => this.#zoomAnimationStarted(e),
      zoomlevelschange: () => this.#limits(),
      click: (/** @type {any} */ e) => this.#hosted?.tap(e.containerPoint.x, e.containerPoint.y),
    };
  }

  // ── markers ──────────────────────────────────────────────────────────────────────────────────

  /** @param {any[]} layers */
  addLayers(layers) {
    for (const layer of flatten(this.#L, layers, 'addLayers')) {
      if (this.#markers.has(layer)) continue;
      this.#markers.set(layer, null);
      this.#adopt(layer);
      // Leaflet opens a marker's popup only while the marker is on the map itself; a marker of
      // this layer opens it where the engine draws it.
      layer.openPopup = (/** @type {any} */ latlng) => {
        if (layer._map) return Object.getPrototypeOf(layer).openPopup.call(layer, latlng);
        this.#openPopup(layer);
        return layer;
      };
      if (this.#manager) this.#pending.add(layer);
    }
    this.#queueClustering();
  }

  /** @param {any[]} layers */
  removeLayers(layers) {
    for (const layer of flatten(this.#L, layers, 'removeLayers')) {
      if (!this.#markers.has(layer)) continue;
      const id = this.#markers.get(layer);
      if (id !== null && id !== undefined) {
        this.#manager?.removeItem(id);
        this.#byId[id] = undefined;
      }
      this.#markers.delete(layer);
      this.#pending.delete(layer);
      this.#release(layer);
      delete layer.openPopup;
      if (this.#map?.hasLayer?.(layer.getPopup?.())) this.#map.closePopup(layer.getPopup());
    }
    this.#queueClustering();
  }

  clear() {
    for (const layer of this.#markers.keys()) {
      this.#release(layer);
      delete layer.openPopup;
    }
    this.#markers.clear();
    this.#byId = [];
    this.#coordinates = [];
    this.#ranges = [];
    this.#pending.clear();
    this.#manager?.clear();
    this.#hosted?.map.requestFrame();
  }

  /**
   * The layer becomes an event parent of a marker, so the marker's events reach the layer's
   * handlers with `e.layer` the marker (as a FeatureGroup's do). Leaflet's `addEventParent`
   * makes an object of parents per marker, the slowest part of adding a hundred thousand:
   * a marker without parents of its own gets one made on a prototype that every marker shares
   * (Leaflet reads parents with for…in, which walks it; a parent the marker gets later is its own).
   * @param {any} layer
   */
  #adopt(layer) {
    if (layer._eventParents === undefined && typeof layer.addEventParent === 'function') {
      this.#sharedParents ??= { [this.#L.stamp(this.#layer)]: this.#layer };
      layer._eventParents = Object.create(this.#sharedParents);
    } else {
      layer.addEventParent?.(this.#layer);
    }
  }

  /**
   * Undoes `#adopt`: the marker keeps its own parents only.
   * @param {any} layer
   */
  #release(layer) {
    const parents = layer._eventParents;
    if (parents && this.#sharedParents && Object.getPrototypeOf(parents) === this.#sharedParents) {
      const own = { ...parents };
      layer._eventParents = Object.keys(own).length > 0 ? own : undefined;
    } else {
      layer.removeEventParent?.(this.#layer);
    }
  }

  /** @param {any} layer */
  has(layer) { return this.#markers.has(layer); }

  layers() { return [...this.#markers.keys()]; }

  /**
   * @param {Float64Array | number[]} lngLat
   * @returns {number}  how many points were added
   */
  addCoordinates(lngLat) {
    const coords = lngLat instanceof Float64Array ? lngLat.slice() : Float64Array.from(lngLat);
    if (this.#manager) {
      this.#ranges.push(this.#manager.addCoordinates(coords));
      this.#queueClustering();
    }
    this.#coordinates.push(coords);
    return coords.length / 2;
  }

  /** The box around every marker and point, as an `L.LatLngBounds`. */
  bounds() {
    const b = this.#L.latLngBounds([]);
    for (const marker of this.#markers.keys()) b.extend(marker.getLatLng());
    for (const c of this.#coordinates) for (let i = 0; i < c.length; i += 2) b.extend([c[i + 1], c[i]]);
    return b;
  }

  /**
   * Markers whose position or icon changed are given to the engine again, and the clusters'
   * looks are drawn again (an `iconCreateFunction` may read the markers).
   * @param {any} [layers]
   */
  refresh(layers) {
    const manager = this.#manager;
    if (!manager) return;
    const which = layers === undefined ? [...this.#markers.keys()] : flatten(this.#L, [layers], 'refreshClusters');
    for (const marker of which) {
      const id = this.#markers.get(marker);
      if (id === null || id === undefined) continue;
      const was = manager.item(id);
      const now = this.#item(marker);
      if (was.icon !== now.icon || was.title !== now.title) {
        manager.removeItem(id);
        this.#byId[id] = undefined;
        this.#markers.set(marker, null);
        this.#pending.add(marker);
      } else if (was.position.latitude !== now.position.latitude || was.position.longitude !== now.position.longitude) {
        manager.moveItem(id, now.position);
      }
    }
    /** @type {import('../map/cairn-map.js').CairnMap} */ (this.cairnMap).setClusterIcons(manager,
      leafletClusterLook(this.#L, this.#options));
    this.#clusterNow();
  }

  /**
   * Zooms in until the marker is drawn on its own (spreading its cluster out at the deepest
   * zoom), then calls back.
   * @param {any} layer
   * @param {() => void} [callback]
   */
  zoomToShow(layer, callback) {
    const map = this.#map;
    if (!map || !this.#markers.has(layer)) return;
    this.#clusterNow();
    const at = layer.getLatLng();
    let tries = 0;
    const step = () => {
      if (this.#map !== map) return;
      if (this.#drawnAsMarker(layer)) {
        callback?.();
        return;
      }
      if (++tries > 64) return;
      if (map.getZoom() >= map.getMaxZoom()) {
        const p = map.latLngToContainerPoint(at);
        this.#hosted?.tap(p.x, p.y);
        requestAnimationFrame(() => requestAnimationFrame(step));
        return;
      }
      map.setView(at, Math.min(map.getMaxZoom(), Math.floor(map.getZoom()) + 1), { animate: false });
      requestAnimationFrame(step);
    };
    if (!map.getBounds().contains(at)) map.setView(at, map.getZoom(), { animate: false });
    step();
  }

  // ── camera ───────────────────────────────────────────────────────────────────────────────────

  /** Leaflet's camera as it is drawn now (mid zoom animation too). @returns {CameraPosition} */
  #camera() {
    const during = this.#zoom?.camera();
    if (during) return during;
    const c = this.#map.getCenter();
    return { latitude: c.lat, longitude: c.lng, zoom: this.#map.getZoom(), bearing: 0, tilt: 0 };
  }

  /** Leaflet moved (a drag, a zoom's end, a resize, the app): the canvas over the view, and a frame. */
  #moved() {
    const map = this.#map;
    if (!map || !this.#container) return;
    this.#L.DomUtil.setPosition(this.#container, map.containerPointToLayerPoint([0, 0]));
    // Leaflet ends its zoom animation (its classes gone) before the move that lands it.
    this.#zoom?.rest();
    this.#follow();
  }

  #follow() {
    const size = this.#map.getSize();
    this.#hosted?.follow(this.#camera(), size.x, size.y);
  }

  /** @param {any} e  Leaflet's zoomanim */
  #zoomAnimationStarted(e) {
    const zoom = this.#zoom;
    if (!zoom) return;
    zoom.start(e);
    cancelAnimationFrame(this.#zoomFrame);
    const tick = () => {
      if (!zoom.running || !this.#hosted) return;
      this.#follow();
      this.#zoomFrame = requestAnimationFrame(tick);
    };
    this.#zoomFrame = requestAnimationFrame(tick);
  }

  /**
   * Moves Leaflet to the engine's camera (a frame of one of its animations), at any zoom.
   * @param {CameraPosition} camera
   */
  #setView(camera) {
    const map = this.#map;
    if (!map) return;
    const snap = map.options.zoomSnap;
    map.options.zoomSnap = 0;
    try {
      map.setView([camera.latitude, camera.longitude], camera.zoom, { animate: false });
    } finally {
      map.options.zoomSnap = snap;
    }
  }

  /** The engine's zoom range is Leaflet's. */
  #limits() {
    const map = this.#map;
    if (!map || !this.#hosted) return;
    const limits = {};
    const min = map.getMinZoom(), max = map.getMaxZoom();
    if (Number.isFinite(min)) Object.assign(limits, { minZoom: min });
    if (Number.isFinite(max)) Object.assign(limits, { maxZoom: max });
    this.#hosted.map.setLimits(limits);
  }

  // ── clustering ───────────────────────────────────────────────────────────────────────────────

  /** @returns {ClusterManagerOptions} */
  #managerOptions() {
    const o = this.#options;
    return clusterManagerOptions({ algorithm: o.algorithm, radiusPixels: o.maxClusterRadius, animate: o.animate,
      minimumClusterSize: o.minimumClusterSize,
      // Leaflet's zooms are the engine's (256-pixel tiles).
      maxZoom: o.disableClusteringAtZoom === undefined ? undefined : o.disableClusteringAtZoom - 1 });
  }

  /**
   * @param {any} marker
   * @returns {import('../engine/cluster-manager.js').ClusterItemOptions}
   */
  #item(marker) {
    const p = marker.getLatLng();
    const title = marker.options?.title;
    return {
      position: { latitude: p.lat, longitude: p.lng },
      icon: /** @type {LeafletIcons} */ (this.#icons).number(marker.options?.icon),
      // A marker with a popup opens it; one with a title only, Cairn's info window.
      title: typeof title === 'string' && !marker.getPopup?.() ? title : '',
    };
  }

  /** Adds and clusters what changed in one step: many `addLayer` calls in a row cluster once. */
  #queueClustering() {
    if (this.#clusterQueued || !this.#manager) return;
    this.#clusterQueued = true;
    queueMicrotask(() => this.#clusterNow());
  }

  #clusterNow() {
    this.#clusterQueued = false;
    const manager = this.#manager;
    if (!manager) return;
    const batch = [...this.#pending];
    this.#pending.clear();
    // Markers with a title (for Cairn's info window) go in as items; the others, most, as
    // coordinates, one crossing per icon, without an object each.
    const items = batch.map((m) => this.#item(m));
    /** @type {Map<number, number[]>} */
    const byIcon = new Map();
    items.forEach((item, i) => {
      if (item.title) return;
      const icon = /** @type {number} */ (item.icon);
      let list = byIcon.get(icon);
      if (!list) byIcon.set(icon, (list = []));
      list.push(i);
    });
    const place = (/** @type {number} */ i, /** @type {number} */ id) => {
      this.#markers.set(batch[i], id);
      this.#byId[id] = batch[i];
    };
    for (const [icon, list] of byIcon) {
      const coords = new Float64Array(2 * list.length);
      list.forEach((i, k) => { coords[2 * k] = items[i].position.longitude; coords[2 * k + 1] = items[i].position.latitude; });
      const { first } = manager.addCoordinates(coords, { icon });
      list.forEach((i, k) => place(i, first + k));
    }
    const titled = items.flatMap((item, i) => (item.title ? [i] : []));
    if (titled.length > 0) {
      const ids = manager.addItems(titled.map((i) => items[i]));
      titled.forEach((i, k) => place(i, ids[k]));
    }
    manager.cluster();
    this.#hosted?.map.requestFrame();
  }

  // ── taps ─────────────────────────────────────────────────────────────────────────────────────

  /**
   * A cluster as Leaflet.markercluster gives it.
   * @param {number} id
   * @param {number} count
   * @returns {LeafletCluster}
   */
  #cluster(id, count) {
    const L = this.#L, manager = /** @type {ClusterManager} */ (this.#manager), map = this.#map;
    const bounds = () => {
      const b = manager.getClusterBounds(id);
      return L.latLngBounds([b.south, b.west], [b.north, b.east]);
    };
    return {
      getChildCount: () => count,
      getAllChildMarkers: () => manager.getLeaves(id, count).map((leaf) => {
        const item = manager.item(leaf);
        return this.#byId[leaf] ?? L.latLng(item.position.latitude, item.position.longitude);
      }),
      getLatLng: () => this.#drawnAt('cluster', id) ?? bounds().getCenter(),
      getBounds: bounds,
      zoomToBounds: () => map.fitBounds(bounds()),
    };
  }

  /**
   * @param {number} id
   * @param {number} count
   * @returns {boolean}  consumed: the engine's default (zoom in, or spread out) does not run
   */
  #clusterTapped(id, count) {
    const cluster = this.#cluster(id, count);
    const latlng = cluster.getLatLng();
    this.#layer.fire('clusterclick', { layer: cluster, latlng, count });
    const o = this.#options;
    if (o.zoomToBoundsOnClick === false) return true;
    const manager = /** @type {ClusterManager} */ (this.#manager);
    // Leaflet's deepest zoom is the engine's: a cluster that splits only beyond it is spread out.
    if (o.spiderfyOnMaxZoom === false && manager.getClusterExpansionZoom(id) > this.#map.getMaxZoom()) return true;
    return false;
  }

  /**
   * @param {number} id
   * @param {any} marker  the L.Marker, or undefined for a point added as coordinates
   * @param {{latitude: number, longitude: number}} position
   * @returns {boolean}  consumed
   */
  #itemTapped(id, marker, position) {
    const L = this.#L;
    const latlng = this.#drawnAt('clusterItem', id) ?? L.latLng(position.latitude, position.longitude);
    if (!marker) {
      this.#layer.fire('click', { latlng, index: this.#coordinateIndex(id) });
      return false;
    }
    marker.fire('click', { latlng }, true);
    return this.#openPopup(marker);
  }

  /**
   * Opens a marker's Leaflet popup over the marker where the engine draws it (spread out, it is
   * not at its position); the popup's anchor comes from the marker's icon, as on Leaflet's own
   * markers. False for a marker without one.
   * @param {any} marker
   */
  #openPopup(marker) {
    const popup = marker.getPopup?.();
    const id = this.#markers.get(marker);
    if (!popup || !this.#map) return false;
    const drawn = id === null || id === undefined ? null : this.#drawnAt('clusterItem', id);
    popup.setLatLng(drawn ?? marker.getLatLng());
    this.#map.openPopup(popup);
    return true;
  }

  /**
   * Where the last frame drew a cluster or an item, as an L.LatLng, or null.
   * @param {'cluster' | 'clusterItem'} kind
   * @param {number} id
   */
  #drawnAt(kind, id) {
    const frame = this.cairnMap?.lastFrame;
    const number = this.#manager?.number;
    const item = frame?.items.find((i) => i.kind === kind && i.id === id && i.manager === number);
    return item ? this.#map.containerPointToLatLng([item.x, item.y]) : null;
  }

  /** @param {any} marker */
  #drawnAsMarker(marker) {
    const id = this.#markers.get(marker);
    if (id === null || id === undefined) return false;
    return this.#drawnAt('clusterItem', id) !== null;
  }

  /**
   * The index of a point added as coordinates, counting every array added, in order.
   * @param {number} id
   */
  #coordinateIndex(id) {
    let before = 0;
    for (const r of this.#ranges) {
      if (id >= r.first && id < r.first + r.count) return before + id - r.first;
      before += r.count;
    }
    return -1;
  }
}

/**
 * The markers of what an app adds: markers, and the markers of layer groups.
 * @param {any} L
 * @param {any[]} layers
 * @param {string} call
 * @returns {any[]}
 */
function flatten(L, layers, call) {
  if (!Array.isArray(layers)) throw argumentError(call, 'layers must be an array');
  /** @type {any[]} */
  const out = [];
  const visit = (/** @type {any} */ layer) => {
    if (layer instanceof L.LayerGroup) {
      layer.eachLayer(visit);
    } else if (layer && typeof layer.getLatLng === 'function') {
      out.push(layer);
    } else {
      throw argumentError(call, 'takes L.Marker (anything with getLatLng) or layer groups of them');
    }
  };
  layers.forEach(visit);
  return out;
}
