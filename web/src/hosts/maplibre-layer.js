// Cairn as a MapLibre GL JS layer: a custom layer (`map.addLayer(layer)`) whose render hook,
// called in the frame MapLibre draws, gives MapLibre's camera (centre, zoom, bearing, pitch,
// padding) to the engine and draws the engine's frame on a 2D canvas over MapLibre's. The
// engine clusters, animates, places markers under tilt, hit-tests and decides what a click
// does; this file maps MapLibre's camera and clicks into it (see hosted-map.js), and its taps
// into the layer's events and MapLibre's popups.

import { HostedMap, clusterManagerOptions } from './hosted-map.js';
import { argumentError } from '../core/errors.js';
import { DEFAULT_PIN } from '../engine/marker-records.js';

/** @typedef {import('../core/frame.js').CameraPosition} CameraPosition */
/** @typedef {import('../engine/cluster-manager.js').ClusterManager} ClusterManager */
/** @typedef {import('../engine/cluster-manager.js').ClusterManagerOptions} ClusterManagerOptions */
/** @typedef {import('../map/cluster-drawables.js').ClusterIconOptions} ClusterIconOptions */

/** MapLibre's tiles are 512 pixels where the engine's are 256: its zoom is the engine's less one. */
const ZOOM_OFFSET = 1;

/**
 * @typedef {object} MapLibreClusterLayerOptions  those left out: the engine's defaults
 * @property {string} [id='cairn']  the layer's id in the style
 * @property {number} [radius]  how far apart points may be to join a cluster, in CSS pixels
 * @property {number} [maxZoom]  the deepest zoom (MapLibre's) that clusters; beyond it every point shows
 * @property {ClusterManagerOptions['algorithm']} [algorithm]
 * @property {number} [minimumClusterSize]
 * @property {boolean} [animate=true]  clusters split and merge with an animation
 * @property {boolean} [flat=false]  points lie flat on the map under pitch and turn with its bearing (as
 *   MapLibre's `pitchAlignment: 'map'` and `rotationAlignment: 'map'`); by default they stand facing the
 *   screen (clusters always do)
 * @property {ClusterIconOptions['drawCluster']} [drawCluster]  draws a cluster on a canvas
 * @property {(point: {properties: any, lngLat: [number, number]}) => string | HTMLElement | null} [popup]
 *   a clicked point's MapLibre popup content (null: none); without it, a point with a `title`
 *   property opens Cairn's info window
 * @property {{image: CanvasImageSource, anchor?: {x: number, y: number}} & import('../map/icon-table.js').IconOptions} [icon]
 *   the points' icon: a ready image (a loaded <img>, a canvas) and where it stands on the point
 *   (in 0…1 of it; default: the engine's); without it, the engine's default pin
 * @property {string} [titleProperty='title']  the property shown as the point's title in Cairn's info window
 * @property {any} [maplibregl]  MapLibre (default: the page's global `maplibregl`)
 */

const OPTIONS = Object.freeze(['id', 'radius', 'maxZoom', 'algorithm', 'minimumClusterSize', 'animate', 'flat', 'drawCluster',
  'popup', 'titleProperty', 'icon', 'maplibregl']);

/**
 * @typedef {{type: 'click', properties: any, lngLat: [number, number], index: number}
 *   | {type: 'clusterclick', count: number, lngLat: [number, number], expansionZoom: number, cluster: number}
 *   | {type: 'animationend'}} MapLibreClusterEvent
 */

export class MapLibreClusterLayer {
  /** @type {string} */
  id;
  type = /** @type {const} */ ('custom');
  renderingMode = /** @type {const} */ ('2d');
  /** @type {MapLibreClusterLayerOptions} */
  #options;
  /** @type {any} the maplibregl.Map */
  #map = null;
  /** @type {HostedMap | null} */
  #hosted = null;
  /** @type {ClusterManager | null} */
  #manager = null;
  /** @type {HTMLElement | null} */
  #container = null;
  /** @type {{lngLat: Float64Array, properties: any[] | null}[]} what was added, in order */
  #data = [];
  /** @type {{first: number, count: number, before: number}[]} the items' ids of each addition, while on a map */
  #ranges = [];
  /** @type {Map<string, Set<(e: any) => boolean | void>>} */
  #listeners = new Map();
  /** @type {import('../engine/map-icon.js').MapIcon | null} the points' icon on the map, or null for the default pin */
  #icon = null;
  /** @type {any} the open popup */
  #popup = null;
  /** @type {(e: any) => void} */
  #onClick = (e) => this.#hosted?.tap(e.point.x, e.point.y);
  /** @type {() => void} */
  #onLimits = () => this.#limits();

  /**
   * A layer for `map.addLayer(layer)`. `await init()` must have finished before it is added.
   * @param {MapLibreClusterLayerOptions} [options]
   */
  constructor(options) {
    const o = options ?? {};
    if (typeof o !== 'object') throw argumentError('MapLibreClusterLayer', 'options must be an object');
    for (const key of Object.keys(o)) {
      if (!OPTIONS.includes(key)) throw argumentError('MapLibreClusterLayer', `${key} is not an option of the layer`);
    }
    this.#options = o;
    this.id = o.id ?? 'cairn';
  }

  /** The CairnMap drawing the layer while it is on a map (its engine, frames and stats), else null. */
  get cairnMap() { return this.#hosted?.map ?? null; }

  // ── data ─────────────────────────────────────────────────────────────────────────────────────

  /**
   * Adds points as [lng, lat] pairs, the fast path (no object per point). Returns how many.
   * @param {Float64Array | number[]} lngLat
   * @returns {number}
   */
  addCoordinates(lngLat) {
    const coords = lngLat instanceof Float64Array ? lngLat.slice() : Float64Array.from(lngLat);
    if (coords.length % 2 !== 0) throw argumentError('addCoordinates', 'lngLat must hold [lng, lat] pairs');
    this.#push({ lngLat: coords, properties: null });
    return coords.length / 2;
  }

  /**
   * Adds a GeoJSON FeatureCollection's points (their properties are what a click gives).
   * @param {{type: 'FeatureCollection', features: {geometry: {type: string, coordinates: number[]}, properties?: any}[]}} geojson
   * @returns {number}  points added
   */
  addGeoJSON(geojson) {
    if (!geojson || !Array.isArray(geojson.features)) throw argumentError('addGeoJSON', 'give a GeoJSON FeatureCollection');
    const points = geojson.features.filter((f) => f?.geometry?.type === 'Point');
    const coords = new Float64Array(2 * points.length);
    points.forEach((f, i) => { coords[2 * i] = f.geometry.coordinates[0]; coords[2 * i + 1] = f.geometry.coordinates[1]; });
    this.#push({ lngLat: coords, properties: points.map((f) => f.properties ?? {}) });
    return points.length;
  }

  /** Removes every point. */
  clear() {
    this.#data = [];
    this.#ranges = [];
    this.#manager?.clear();
    this.cairnMap?.requestFrame();
  }

  /**
   * Adds a handler for 'click' (a point), 'clusterclick' or 'animationend'; returns its remover.
   * A 'clusterclick' handler that returns true keeps the engine from zooming in.
   * @param {'click' | 'clusterclick' | 'animationend'} type
   * @param {(e: MapLibreClusterEvent) => boolean | void} handler
   */
  on(type, handler) {
    const set = this.#listeners.get(type) ?? new Set();
    this.#listeners.set(type, set);
    set.add(handler);
    return () => set.delete(handler);
  }

  // ── MapLibre's custom layer interface ────────────────────────────────────────────────────────

  /** @param {any} map */
  onAdd(map) {
    this.#map = map;
    const container = document.createElement('div');
    const canvas = map.getCanvas();
    container.style.cssText = `position:absolute;left:0;top:0;width:${canvas.clientWidth}px;height:${canvas.clientHeight}px;pointer-events:none;`;
    map.getCanvasContainer().appendChild(container);
    this.#container = container;
    this.#hosted = new HostedMap(container, {
      camera: this.#camera(),
      onEngineCamera: (c) => map.jumpTo({ center: [c.longitude, c.latitude], zoom: c.zoom - ZOOM_OFFSET, bearing: c.bearing, pitch: c.tilt }),
      // While the engine leads, MapLibre draws each camera it is given in its next frame, and
      // the layer's frame with it.
      repaint: () => this.#map?.triggerRepaint(),
      onAnimationEnd: () => this.#emit('animationend', {}),
    });
    this.#limits();
    const cmap = this.#hosted.map;
    const o = this.#options;
    this.#manager = cmap.addClusterManager({ ...this.#managerOptions(), ...(o.drawCluster ? { drawCluster: o.drawCluster } : {}) });
    if (o.icon) {
      const { image, ...iconOptions } = o.icon;
      this.#icon = cmap.icon(image, iconOptions);
    }
    cmap.on('clusterTap', ({ id, count }) => this.#clusterTapped(id, count));
    cmap.on('clusterItemTap', ({ id, item }) => this.#itemTapped(id, item));
    const data = this.#data;
    this.#data = [];
    for (const d of data) this.#push(d);
    map.on('click', this.#onClick);
    map.on('resize', this.#onLimits);
  }

  onRemove() {
    this.#map?.off('click', this.#onClick);
    this.#map?.off('resize', this.#onLimits);
    this.#popup?.remove();
    this.#hosted?.destroy();
    this.#container?.remove();
    this.#ranges = [];
    this.#map = this.#hosted = this.#manager = this.#container = null;
  }

  /** MapLibre draws a frame: the engine's camera is MapLibre's, and Cairn's frame is drawn with it. */
  render() {
    const map = this.#map;
    if (!map || !this.#hosted) return;
    const canvas = map.getCanvas();
    this.#hosted.follow(this.#camera(), canvas.clientWidth, canvas.clientHeight);
  }

  // ── internals ────────────────────────────────────────────────────────────────────────────────

  /** @returns {CameraPosition} */
  #camera() {
    const map = this.#map;
    const c = map.getCenter();
    return { latitude: c.lat, longitude: c.lng, zoom: map.getZoom() + ZOOM_OFFSET, bearing: map.getBearing(), tilt: map.getPitch() };
  }

  /** The engine's camera range is MapLibre's; its padding too. */
  #limits() {
    const map = this.#map;
    if (!map || !this.#hosted) return;
    // MapLibre zooms out below the engine's zoom 0 (a world smaller than a tile): there the
    // engine's range holds.
    const min = map.getMinZoom() + ZOOM_OFFSET;
    this.#hosted.map.setLimits({ ...(min >= 0 ? { minZoom: min } : {}), maxZoom: map.getMaxZoom() + ZOOM_OFFSET,
      maxTilt: map.getMaxPitch() });
    this.#hosted.map.padding = map.getPadding();
  }

  /** @returns {ClusterManagerOptions} */
  #managerOptions() {
    const o = this.#options;
    return clusterManagerOptions({ algorithm: o.algorithm, radiusPixels: o.radius, animate: o.animate, flat: o.flat,
      minimumClusterSize: o.minimumClusterSize, maxZoom: o.maxZoom === undefined ? undefined : o.maxZoom + ZOOM_OFFSET });
  }

  /** @param {{lngLat: Float64Array, properties: any[] | null}} d */
  #push(d) {
    const before = this.#data.reduce((n, x) => n + x.lngLat.length / 2, 0);
    this.#data.push(d);
    const manager = this.#manager;
    if (!manager) return;
    const title = this.#options.titleProperty ?? 'title';
    if (d.properties) {
      const props = d.properties;
      const items = props.map((p, i) => ({ position: { latitude: d.lngLat[2 * i + 1], longitude: d.lngLat[2 * i] },
        icon: this.#iconNumber, title: typeof p?.[title] === 'string' && !this.#options.popup ? p[title] : '', userData: p }));
      const ids = manager.addItems(items);
      this.#ranges.push({ first: ids[0] ?? 0, count: ids.length, before });
    } else {
      this.#ranges.push({ ...manager.addCoordinates(d.lngLat, { icon: this.#iconNumber }), before });
    }
    manager.cluster();
    this.cairnMap?.requestFrame();
  }

  /**
   * @param {string} type
   * @param {any} event
   * @returns {boolean}  whether a handler returned true
   */
  #emit(type, event) {
    let consumed = false;
    for (const fn of this.#listeners.get(type) ?? []) {
      try {
        if (fn({ type, ...event }) === true) consumed = true;
      } catch (error) {
        reportError(error);
      }
    }
    return consumed;
  }

  /**
   * Where the last frame drew a cluster or an item, as [lng, lat], or null.
   * @param {'cluster' | 'clusterItem'} kind
   * @param {number} id
   * @returns {[number, number] | null}
   */
  #drawnAt(kind, id) {
    const item = this.#drawn(kind, id);
    if (!item) return null;
    const ll = this.#map.unproject([item.x, item.y]);
    return [ll.lng, ll.lat];
  }

  /**
   * The last frame's draw item of a cluster or an item, or undefined.
   * @param {'cluster' | 'clusterItem'} kind
   * @param {number} id
   */
  #drawn(kind, id) {
    return this.cairnMap?.lastFrame?.items.find((i) => i.kind === kind && i.id === id && i.manager === this.#manager?.number);
  }

  /** The points' icon number (the default pin's without an icon). */
  get #iconNumber() { return this.#icon ? this.#icon.number : DEFAULT_PIN; }

  /**
   * @param {number} id
   * @param {number} count
   */
  #clusterTapped(id, count) {
    const manager = /** @type {ClusterManager} */ (this.#manager);
    return this.#emit('clusterclick', { cluster: id, count, lngLat: this.#drawnAt('cluster', id),
      expansionZoom: manager.getClusterExpansionZoom(id) - ZOOM_OFFSET });
  }

  /**
   * @param {number} id
   * @param {import('../engine/cluster-manager.js').ClusterItem} item
   */
  #itemTapped(id, item) {
    const lngLat = this.#drawnAt('clusterItem', id) ?? [item.position.longitude, item.position.latitude];
    const index = this.#index(id);
    this.#emit('click', { properties: item.userData ?? null, lngLat, index });
    const content = this.#options.popup?.({ properties: item.userData ?? null, lngLat });
    if (!content) return false;
    const maplibregl = this.#options.maplibregl ?? /** @type {any} */ (globalThis).maplibregl;
    this.#popup?.remove();
    // Over the point's icon, where the engine stands it on the point.
    const drawn = this.#drawn('clusterItem', id);
    const height = this.#icon ? this.#icon.height : /** @type {HostedMap} */ (this.#hosted).map.engine.pinSize.height;
    const offset = [0, -height * (drawn ? drawn.anchorY : 1)];
    this.#popup = new maplibregl.Popup({ offset }).setLngLat(lngLat);
    if (typeof content === 'string') this.#popup.setHTML(content); else this.#popup.setDOMContent(content);
    this.#popup.addTo(this.#map);
    return true;
  }

  /**
   * A point's index among all added, in order.
   * @param {number} id
   */
  #index(id) {
    for (const r of this.#ranges) if (id >= r.first && id < r.first + r.count) return r.before + id - r.first;
    return -1;
  }
}
