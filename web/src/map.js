// CairnMap: the map a web page shows, in the spirit of Google's Maps SDK. It puts a canvas in
// the app's element, forwards the element's input to the engine, asks the engine for a frame
// whenever something may have changed, runs the app's event handlers (which may consume taps)
// and draws the frame. Every decision about the map (gestures, camera, clusters, collisions,
// draw order, taps, info windows) is the engine's; this class holds what only the page can:
// the canvas, images, text, DOM overlays and the app's callbacks.

import { MapEngine } from './map-engine.js';
import { forwardInput } from './map-dom-input.js';
import { IconTable, MapIcon } from './map-icons.js';
import { InfoWindowView } from './map-info-window.js';
import { Marker } from './marker.js';
import { ViewMarkers } from './map-views.js';
import { ClusterDrawables } from './map-cluster-icons.js';
import { Popover } from './map-popover.js';
import { IndoorBuilding, IndoorBuildings } from './map-indoor.js';
import { Renderer } from './render/renderer.js';
import { OfflineTileSource, RasterTileSource } from './render/tiles.js';
import { argumentError } from './errors.js';
import { booleanArg, objectArg, stringArg } from './map-input.js';
import { FrameStats } from './map-frame-stats.js';

/** @typedef {import('./map-frame.js').Frame} Frame */
/** @typedef {import('./map-frame.js').DrawItem} DrawItem */
/** @typedef {import('./map-frame.js').CameraPosition} CameraPosition */
/** @typedef {import('./map-frame.js').LatLng} LatLng */
/** @typedef {import('./map-indoor.js').IndoorLevel} IndoorLevel */
/** @typedef {import('./map-input.js').UISettings} UISettings */
/** @typedef {import('./marker.js').MapMarkerOptions} MapMarkerOptions */
/** @typedef {import('./cluster-manager.js').ClusterManager} ClusterManager */
/** @typedef {import('./cluster-manager.js').ClusterManagerOptions} ClusterManagerOptions */
/** @typedef {import('./map-cluster-icons.js').ClusterIconOptions} ClusterIconOptions */
/** @typedef {import('./map-icons.js').IconOptions} IconOptions */
/** @typedef {import('./map-icons.js').PinStyle} PinStyle */
/** @typedef {import('./render/tiles.js').TileSource} TileSource */

/**
 * @typedef {{url: string, attribution?: string, subdomains?: string[], maxZoom?: number}
 *   | {offline: true, land?: number[][][]} | TileSource} BasemapOptions
 *   raster tiles from a URL template ('https://…/{z}/{x}/{y}.png'), the built-in offline
 *   background (a graticule, and land when outlines are given), or a tile source of your own
 */

/**
 * @typedef {object} CairnMapOptions
 * @property {{latitude: number, longitude: number, zoom: number, bearing?: number, tilt?: number}} camera
 * @property {UISettings} [settings]  gestures and controls (Google's defaults: gestures on, buttons off)
 * @property {BasemapOptions} [basemap]  default: offline
 * @property {{top?: number, left?: number, bottom?: number, right?: number}} [padding]
 * @property {{minZoom?: number, maxZoom?: number, maxTilt?: number}} [limits]
 */

/**
 * @typedef {object} ClusterTap  what a `clusterTap` handler is given
 * @property {number} id     the cluster, for the manager's queries (getLeaves, getClusterExpansionZoom, …)
 * @property {number} count  items in it
 * @property {ClusterManager} manager
 */

/**
 * @typedef {object} ClusterItemTap  what a `clusterItemTap` handler (and then a `markerTap` one) is given
 * @property {number} id
 * @property {import('./cluster-items.js').ClusterItem} item
 * @property {ClusterManager} manager
 */

/**
 * @typedef {object} MapEvents  handler signatures by event name; a tap handler returning true consumes the tap
 * @property {(marker: Marker | ClusterItemTap) => boolean | void} markerTap
 * @property {(cluster: ClusterTap) => boolean | void} clusterTap
 * @property {(item: ClusterItemTap) => boolean | void} clusterItemTap
 * @property {(marker: Marker | ClusterItemTap) => void} infoWindowOpen  a marker's window, or a cluster item's (C7)
 * @property {(marker: Marker | ClusterItemTap) => void} infoWindowTap
 * @property {(marker: Marker | ClusterItemTap) => void} infoWindowLongPress
 * @property {(marker: Marker | ClusterItemTap) => void} infoWindowClose
 * @property {(event: {cause: string}) => void} cameraWillMove
 * @property {(camera: CameraPosition) => void} cameraChange
 * @property {(camera: CameraPosition) => void} cameraIdle
 * @property {(place: {latitude: number, longitude: number, x: number, y: number}) => void} tap
 * @property {(place: {latitude: number, longitude: number, x: number, y: number}) => void} longPress
 * @property {() => void} compassTap
 * @property {() => void} myLocationButtonTap
 * @property {(building: IndoorBuilding | null) => void} indoorBuildingFocus  a building with floors became prominent, or none is (G4)
 * @property {(event: {building: IndoorBuilding, level: number}) => void} indoorLevelActivate  a building shows another level
 * @property {(stats: {frame: Frame, engineMs: number, drawMs: number}) => void} frame
 */

/** How long frames keep coming after the last change: appear, fade and cluster animations (0.5 s) after a re-cluster delay (0.2 s). */
const SETTLE_SECONDS = 1.2;

export class CairnMap {
  /** @type {HTMLElement} */
  #container;
  /** @type {HTMLCanvasElement} */
  #canvas;
  /** @type {MapEngine} */
  #engine;
  /** @type {Renderer} */
  #renderer;
  /** @type {IconTable} */
  #icons;
  /** @type {InfoWindowView} */
  #infoWindow;
  /** @type {ViewMarkers} */
  #views;
  /** @type {Map<number, {options: MapMarkerOptions, handle: Marker}>} */
  #markers = new Map();
  /** @type {Map<number, {manager: ClusterManager, icons: ClusterDrawables}>} */
  #managers = new Map();
  /** @type {Set<Popover>} */
  #popovers = new Set();
  /** @type {{[K in keyof MapEvents]?: Set<MapEvents[K]>}} */
  #handlers = {};
  /** @type {() => void} */
  #stopInput;
  /** @type {ResizeObserver | null} */
  #resizeObserver = null;
  #raf = 0;
  #settleUntil = 0;
  #destroyed = false;
  #pixelRatio = 1;
  /** @type {Frame | null} */
  #frame = null;
  /** @type {FrameStats} */
  stats = new FrameStats();
  /** @type {import('./render/renderer.js').RenderHost} */
  #host;
  /** the anchor of the marker being drawn, reused */
  #anchor = { x: 0.5, y: 1 };

  /**
   * Makes a map filling `container` (which should have a size; the map follows its size).
   * `await init()` must have finished.
   * @param {HTMLElement} container
   * @param {CairnMapOptions} options
   */
  constructor(container, options) {
    if (!(container instanceof HTMLElement)) throw argumentError('CairnMap', 'container must be an HTML element');
    const o = objectArg(options, 'options', 'CairnMap');
    this.#container = container;
    if (getComputedStyle(container).position === 'static') container.style.position = 'relative';
    container.style.overflow = 'hidden';
    this.#canvas = document.createElement('canvas');
    this.#canvas.style.cssText = 'position:absolute;left:0;top:0;width:100%;height:100%;display:block;';
    container.appendChild(this.#canvas);
    const { width, height } = this.#size();
    this.#engine = new MapEngine({ camera: o.camera, width, height });
    this.#buildings = new IndoorBuildings(this.#engine, () => this.#wake());
    if (o.settings) this.#engine.setSettings(o.settings);
    if (o.padding) this.#engine.setViewport(width, height, o.padding);
    this.#padding = o.padding ?? {};
    this.#pixelRatio = window.devicePixelRatio || 1;
    this.#icons = new IconTable((icon) => this.#engine.registerIcon(icon), this.#pixelRatio);
    this.#views = new ViewMarkers(this.#icons, this.#pixelRatio, (id, icon) => this.#engine.updateMarker(id, { icon: icon.number }),
      () => this.#wake());
    this.#tiles = this.#basemap(o.basemap);
    this.#renderer = new Renderer(this.#canvas, { basemap: this.#tiles, onNeedsRedraw: () => this.#wake() });
    this.#limits = { ...objectArg(o.limits, 'limits', 'CairnMap') };
    this.#engine.setLimits({ ...this.#limits, maxTileZoom: this.#tiles.maxZoom });
    this.#renderer.resize(width, height, this.#pixelRatio);
    // The default window is measured by the layout the renderer draws, so the engine places and
    // hit-tests exactly what is drawn.
    this.#infoWindow = new InfoWindowView(container, (w, h) => this.#engine.setInfoWindowSize(w, h),
      (title, snippet) => this.#renderer.layoutInfoWindow(title, snippet));
    this.#host = {
      drawable: (item) => this.#drawable(item),
      infoWindowContent: () => this.#infoWindow.text(),
      levelName: (building, level) => this.#buildings.levelName(building, level),
    };
    this.#stopInput = forwardInput(container, this.#engine, () => this.#wake());
    if (typeof ResizeObserver === 'function') {
      this.#resizeObserver = new ResizeObserver(() => this.#resize());
      this.#resizeObserver.observe(container);
    }
    this.#wake();
  }

  /** @type {{top?: number, left?: number, bottom?: number, right?: number}} */
  #padding;
  /** @type {TileSource} */
  #tiles;
  /** @type {{minZoom?: number, maxZoom?: number, maxTilt?: number}} */
  #limits;

  // ── camera (SPEC G5, G7) ───────────────────────────────────────────────────────────────────

  /** The camera of the last frame drawn. @returns {CameraPosition} */
  get camera() { return this.#engine.camera; }

  /**
   * Moves the camera at once; fields not given stay.
   * @param {Partial<CameraPosition>} camera
   */
  moveCamera(camera) { this.#engine.moveCamera(camera); this.#wake(); }

  /**
   * Animates the camera; fields not given stay.
   * @param {Partial<CameraPosition>} camera
   * @param {{duration?: number, easing?: 'linear' | 'easeInOut' | 'easeOut'}} [options]  seconds (default 0.5)
   */
  animateCamera(camera, options) { this.#engine.animateCamera(camera, options); this.#wake(); }

  /**
   * Shows a box, north up and flat, `padding` pixels inside the view's padding.
   * @param {{west: number, south: number, east: number, north: number}} bounds
   * @param {{padding?: number, duration?: number}} [options]
   */
  fitBounds(bounds, options) { this.#engine.showBounds(bounds, options); this.#wake(); }

  /**
   * Zooms by `amount`, about the screen point (x, y) when given.
   * @param {number} amount
   * @param {{x?: number, y?: number, duration?: number}} [options]
   */
  zoomBy(amount, options) { this.#engine.zoomBy(amount, options); this.#wake(); }

  /** The view's padding: moves the camera's centre and the controls in from the edges (G5). */
  get padding() { return { ...this.#padding }; }
  set padding(padding) {
    const { width, height } = this.#size();
    this.#engine.setViewport(width, height, padding);
    this.#padding = { ...padding };
    this.#wake();
  }

  /**
   * Camera limits.
   * @param {{minZoom?: number, maxZoom?: number, maxTilt?: number}} limits
   */
  setLimits(limits) {
    const l = { ...objectArg(limits, 'limits', 'setLimits') };
    this.#engine.setLimits({ ...l, maxTileZoom: this.#tiles.maxZoom });
    this.#limits = l;
    this.#wake();
  }

  /** The visible region and bounds of the last frame, or null before the first. */
  get visibleRegion() { return this.#frame ? { ...this.#frame.visibleRegion, bounds: { ...this.#frame.bounds } } : null; }

  /**
   * Where a place is on screen (CSS pixels in the map's element), or null behind the camera.
   * @param {LatLng} position
   * @returns {{x: number, y: number} | null}
   */
  pointForCoordinate(position) { return this.#engine.screenPoint(position.latitude, position.longitude); }

  /**
   * The place under a screen point, or null above the horizon.
   * @param {{x: number, y: number}} point
   * @returns {LatLng | null}
   */
  coordinateForPoint(point) { return this.#engine.coordinate(point.x, point.y); }

  // ── settings and basemap (SPEC G1–G4) ──────────────────────────────────────────────────────

  /** The UI settings; assigning some changes those at once (G1). @returns {Required<UISettings>} */
  get settings() { return this.#engine.settings; }
  set settings(changes) {
    this.#engine.setSettings({ ...this.#engine.settings, ...objectArg(changes, 'settings', 'settings') });
    this.#wake();
  }

  /**
   * The user's location for the dot (and the my-location button's target), or null.
   * With the button on and no location given, tapping it asks the browser's geolocation.
   * @param {{latitude: number, longitude: number, accuracy?: number} | null} location
   */
  setMyLocation(location) { this.#engine.setMyLocation(location); this.#wake(); }

  /**
   * Changes the basemap.
   * @param {BasemapOptions} basemap
   */
  setBasemap(basemap) {
    this.#tiles = this.#basemap(basemap);
    this.#renderer.basemap = this.#tiles;
    // Tiles beyond the source's zoom are drawn from its deepest level, stretched.
    this.#engine.setLimits({ ...this.#limits, maxTileZoom: this.#tiles.maxZoom });
    this.#wake();
  }

  // ── markers (SPEC M, I, V) ─────────────────────────────────────────────────────────────────

  /**
   * Registers a ready image as an icon (M3); pass it as markers' `icon`.
   * @param {CanvasImageSource} image
   * @param {IconOptions} [options]
   * @returns {MapIcon}
   */
  icon(image, options) { return this.#icons.icon(image, options); }

  /**
   * Loads an image (once per URL) and registers it as an icon.
   * @param {string} url
   * @param {IconOptions} [options]
   * @returns {Promise<MapIcon>}
   */
  loadIcon(url, options) { return this.#icons.loadIcon(url, options); }

  /**
   * The default pin in other colours or with a glyph (V1).
   * @param {PinStyle} [style]
   * @returns {MapIcon}
   */
  pinIcon(style) { return this.#icons.pinIcon(style); }

  /**
   * Adds a marker (M1); its handle's properties change it.
   * @param {MapMarkerOptions} options
   * @returns {Marker}
   */
  addMarker(options) { return this.addMarkers([options])[0]; }

  /**
   * Adds markers in one step, all or none.
   * @param {MapMarkerOptions[]} list
   * @returns {Marker[]}
   */
  addMarkers(list) {
    if (!Array.isArray(list)) throw argumentError('addMarkers', 'markers must be an array');
    const resolved = list.map((o, i) => this.#resolve(objectArg(o, list.length === 1 ? 'options' : `markers[${i}]`, 'addMarker'), {}));
    const ids = list.length === 1 ? [this.#engine.addMarker(resolved[0].engine)] : this.#engine.addMarkers(resolved.map((r) => r.engine));
    const handles = ids.map((id, i) => {
      const handle = new Marker(this.#markerLink, id);
      this.#markers.set(id, { options: resolved[i].options, handle });
      if (resolved[i].options.view) this.#views.attach(id, resolved[i].options);
      return handle;
    });
    this.#wake();
    return handles;
  }

  /** @type {import('./marker.js').MarkerLink} */
  #markerLink = {
    options: (id) => {
      const m = this.#markers.get(id);
      if (!m) throw argumentError('marker', 'the marker was removed from its map');
      // Copies of the nested points too: changing what a getter returned must not move the marker.
      const o = m.options;
      return { ...o, position: { ...o.position },
        ...(o.groundAnchor && { groundAnchor: { ...o.groundAnchor } }),
        ...(o.infoWindowAnchor && { infoWindowAnchor: { ...o.infoWindowAnchor } }),
        ...(o.indoorLevel && { indoorLevel: { ...o.indoorLevel } }) };
    },
    update: (id, changes) => {
      const m = this.#markers.get(id);
      if (!m) throw argumentError('marker', 'the marker was removed from its map');
      const c = objectArg(changes, 'changes', 'marker');
      // A view is made again only when it changed (each is its own icon, rasterised anew).
      const viewChanged = c.view !== undefined || c.viewSize !== undefined || c.tracksViewChanges !== undefined;
      const next = this.#resolve(c, m.options, viewChanged ? undefined : id);
      this.#engine.updateMarker(id, next.engine);
      m.options = next.options;
      if (viewChanged) {
        this.#views.detach(id);
        if (next.options.view) this.#views.attach(id, next.options);
      }
      this.#wake();
    },
    remove: (id) => {
      if (!this.#markers.has(id)) return;
      this.#engine.removeMarker(id);
      this.#views.detach(id);
      this.#markers.delete(id);
      for (const p of this.#popovers) if (p.marker.id === id) p.remove();
      this.#wake();
    },
    alive: (id) => this.#markers.has(id),
  };

  /** Markers on the map. */
  get markerCount() { return this.#markers.size; }

  /**
   * The marker whose info window is open, or null (none, or a cluster item's: see
   * `selectedClusterItem`); assigning a marker or null opens or closes it (I4), at once. With
   * info window hooks set, a marker without text reads as selected until the next frame shows
   * the hooks give it nothing.
   * @returns {Marker | null}
   */
  get selectedMarker() {
    const owner = this.#engine.selection;
    return owner && 'marker' in owner ? this.#markers.get(owner.marker)?.handle ?? null : null;
  }
  set selectedMarker(marker) {
    if (marker !== null && !(marker instanceof Marker && this.#markers.has(marker.id))) {
      throw argumentError('selectedMarker', 'must be a marker on this map, or null');
    }
    this.#select(marker === null ? null : () => this.#engine.selectMarker(marker.id));
  }

  /**
   * The cluster item whose info window is open (C7: a tap no handler consumes selects it, as a
   * marker's does), as a `clusterItemTap` handler gets it (the same object while its window
   * stays open), or null; assigning `{manager, id}` of an item a manager on this map holds, or
   * null, opens or closes it at once. An item without title or snippet (and nothing from the
   * hooks) reads as selected until the next frame shows it has nothing to show.
   * @returns {ClusterItemTap | null}
   */
  get selectedClusterItem() {
    const owner = this.#engine.selection;
    if (!owner || 'marker' in owner) return null;
    if (this.#shown?.key === ownerKey(owner)) return /** @type {ClusterItemTap} */ (this.#shown.owner);
    return /** @type {ClusterItemTap | null} */ (this.#windowOwner(owner));
  }
  set selectedClusterItem(item) {
    const r = item !== null && typeof item === 'object' && item.manager ? this.#managers.get(item.manager.number) : undefined;
    const held = r !== undefined && r.manager === item?.manager && r.manager.itemIcon(item.id) !== undefined;
    if (item !== null && !held) {
      throw argumentError('selectedClusterItem', 'must be {manager, id} of an item a cluster manager on this map holds, or null');
    }
    this.#select(item === null ? null : () => item.manager.selectItem(item.id));
  }

  /**
   * Selects with `select`, or closes the open window (null), and draws.
   * @param {(() => void) | null} select
   */
  #select(select) {
    if (select) {
      select();
    } else {
      this.#engine.selectMarker(null);
      this.#infoWindow.close();
    }
    this.#wake();
  }

  /**
   * The app's own info windows (I7): `window(marker)` returns a whole window element, or null to
   * fall back to `contents(marker)` (an element inside the default frame), or null for the default.
   * Both are asked for cluster items' windows too, given the item as a `clusterItemTap` handler is.
   * Elements are positioned by the map; they do not take pointer events (taps are info window taps).
   * @param {{window?: import('./map-info-window.js').InfoWindowHook | null, contents?: import('./map-info-window.js').InfoWindowHook | null}} hooks
   */
  setInfoWindowHooks(hooks) {
    const h = objectArg(hooks, 'hooks', 'setInfoWindowHooks');
    this.#infoWindow.hooks = { window: h.window ?? null, contents: h.contents ?? null };
    // Without title or snippet a window opens only for markers flagged as custom (I2).
    const custom = Boolean(h.window || h.contents);
    for (const id of this.#markers.keys()) this.#engine.updateMarker(id, { customInfoWindow: custom });
    this.#customWindows = custom;
  }

  #customWindows = false;
  /** @type {string | null} the owner (`ownerKey`) of a window closed at once, having nothing to show */
  #unopened = null;
  /** @type {{key: string, owner: Marker | ClusterItemTap} | null} the window the app was told opened,
   *  and what it was given: its close and taps give the same, even once the owner is gone */
  #shown = null;

  /**
   * A popover anchored to a marker (V2): an element of the app's shown above the marker.
   * @param {Marker} marker
   * @param {HTMLElement} content
   * @param {{open?: boolean, autoClose?: boolean, autoPan?: boolean}} [options]  defaults false, true, true
   * @returns {Popover}
   */
  addPopover(marker, content, options) {
    if (!(marker instanceof Marker) || !this.#markers.has(marker.id)) throw argumentError('addPopover', 'marker must be on this map');
    const popover = new Popover(this.#popoverLink, marker, content, options);
    this.#popovers.add(popover);
    this.#wake();
    return popover;
  }

  /** @type {import('./map-popover.js').PopoverLink} */
  #popoverLink = {
    container: () => this.#container,
    // The marker's info-window anchor as drawn (the engine's, where a window's tail goes). Off
    // screen, its ground point (so an auto-pan can bring it in); none while it is in view but
    // not drawn (hidden by a collision, invisible).
    point: (marker) => {
      const m = this.#markers.get(marker.id);
      if (!m) return null;
      const anchor = this.#engine.markerAnchor(marker.id);
      if (anchor) return anchor;
      const { width, height } = this.#size();
      const s = this.#engine.screenPoint(m.options.position.latitude, m.options.position.longitude);
      return s && (s.x < 0 || s.y < 0 || s.x > width || s.y > height) ? s : null;
    },
    viewport: () => ({ ...this.#size(), padding: this.#padding }),
    panBy: (dx, dy) => {
      const { width, height } = this.#size();
      const p = this.#padding;
      const cx = ((p.left ?? 0) + width - (p.right ?? 0)) / 2;
      const cy = ((p.top ?? 0) + height - (p.bottom ?? 0)) / 2;
      const to = this.#engine.coordinate(cx + dx, cy + dy);
      if (to) this.animateCamera(to, { duration: 0.3 });
    },
    removed: (popover) => { this.#popovers.delete(popover); },
    wake: () => this.#wake(),
  };

  /** Removes every marker, cluster manager, info window and popover (M1). */
  clear() {
    for (const p of [...this.#popovers]) p.remove();
    for (const id of this.#markers.keys()) this.#views.detach(id);
    this.#engine.clearMarkers();
    this.#markers.clear();
    this.#infoWindow.close();
    for (const { manager } of [...this.#managers.values()]) manager.destroy();
    this.#managers.clear();
    this.#wake();
  }

  // ── buildings with floors (SPEC G4) ────────────────────────────────────────────────────────

  /**
   * Adds a building with floors. From zoom 16, while the camera looks inside its footprint, it
   * is prominent: the floor picker (setting `indoorPicker`, on by default) offers its levels at
   * the bottom right, and markers placed on one of its levels (`indoorLevel: { building: id,
   * level }`) show only while that level is shown.
   * @param {{footprint: LatLng[], levels: Partial<IndoorLevel>[], defaultLevel?: number}} options  the
   *   footprint's corners in order; the levels from the top, each `{name, shortName}` (the name
   *   defaults to the level's index, the short name to the name); the one shown first (default 0)
   * @returns {IndoorBuilding}
   */
  addIndoorBuilding(options) { return this.#buildings.add(options); }

  /** @type {IndoorBuildings} the map's buildings with floors */
  #buildings;

  // ── cluster managers (SPEC C) ──────────────────────────────────────────────────────────────

  /**
   * Adds a cluster manager: items clustered for the screen with one of the engine's algorithms.
   * Add items (`addItems`, or `addCoordinates` for large data), then call `cluster()`.
   * @param {ClusterManagerOptions & ClusterIconOptions} [options]
   * @returns {ClusterManager}
   */
  addClusterManager(options) {
    const { clusterImages, drawCluster, ...rest } = objectArg(options, 'options', 'addClusterManager');
    const manager = this.#engine.addClusterManager(rest);
    const icons = new ClusterDrawables(manager, { clusterImages, drawCluster }, this.#pixelRatio);
    this.#managers.set(manager.number, { manager, icons });
    /**
     * Replaces a method of the manager by `wrap`, which is given the original and the arguments.
     * @param {string} name
     * @param {(original: (...args: any[]) => any, args: any[]) => any} wrap
     */
    const around = (name, wrap) => {
      const m = /** @type {any} */ (manager);
      const original = m[name].bind(manager);
      m[name] = (/** @type {any[]} */ ...args) => wrap(original, args);
    };
    around('destroy', (destroy) => {
      destroy();
      this.#managers.delete(manager.number);
      this.#wake();
    });
    // What shows at once on a still map draws a frame (clustering, a cleared manager, a
    // selected or removed item's window, new icon buckets).
    for (const name of ['cluster', 'clear', 'selectItem', 'removeItem', 'setBuckets']) {
      around(name, (call, args) => {
        const result = call(...args);
        this.#wake();
        return result;
      });
    }
    around('clusterAsync', async (clusterAsync, args) => {
      await clusterAsync(...args);
      this.#wake();
    });
    // An item's map icon must be this map's (its number would name another icon here).
    const foreign = (/** @type {any} */ o) => o !== null && typeof o === 'object' && o.icon instanceof MapIcon && !this.#icons.owns(o.icon);
    for (const name of ['addItem', 'addItems', 'addCoordinates']) {
      around(name, (add, args) => {
        const given = name === 'addItems' ? (Array.isArray(args[0]) ? args[0] : []) : [name === 'addItem' ? args[0] : args[1]];
        if (given.some(foreign)) throw argumentError(name, 'icon must come from this map\'s icon(), loadIcon() or pinIcon()');
        return add(...args);
      });
    }
    this.#wake();
    return manager;
  }

  /**
   * Changes how a manager's clusters look (C3): per-bucket images under the label, or a callback.
   * @param {ClusterManager} manager
   * @param {ClusterIconOptions} options
   */
  setClusterIcons(manager, options) {
    const record = this.#managers.get(manager.number);
    if (!record || record.manager !== manager) throw argumentError('setClusterIcons', 'manager must be one of this map\'s');
    record.icons = new ClusterDrawables(manager, objectArg(options, 'options', 'setClusterIcons'), this.#pixelRatio);
    this.#wake();
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────

  /**
   * Adds an event handler; returns the function that removes it. Tap handlers (markerTap,
   * clusterTap, clusterItemTap) return true to consume the tap: the default (select and centre,
   * zoom to the expansion zoom) then does not run.
   * @template {keyof MapEvents} K
   * @param {K} type
   * @param {MapEvents[K]} handler
   * @returns {() => void}
   */
  on(type, handler) {
    if (typeof handler !== 'function') throw argumentError('on', 'handler must be a function');
    const set = /** @type {Set<MapEvents[K]>} */ (this.#handlers[type] ??= /** @type {any} */ (new Set()));
    set.add(handler);
    return () => { set.delete(handler); };
  }

  // ── frames ─────────────────────────────────────────────────────────────────────────────────

  /** The last frame the map drew (the engine's plain object), or null before the first. */
  get lastFrame() { return this.#frame; }

  /** The canvas the map draws on. */
  get canvas() { return this.#canvas; }

  /** The engine under the map, for what this class does not wrap. */
  get engine() { return this.#engine; }

  /**
   * Asks for a frame soon (the map draws only while something changes).
   */
  requestFrame() { this.#wake(); }

  /**
   * Frees the engine's memory and takes the canvas and overlays away.
   */
  destroy() {
    if (this.#destroyed) return;
    this.#destroyed = true;
    if (this.#raf) cancelAnimationFrame(this.#raf);
    this.#stopInput();
    this.#resizeObserver?.disconnect();
    for (const p of [...this.#popovers]) p.remove();
    this.#views.clear();
    this.#infoWindow.close();
    this.#engine.destroy();
    this.#canvas.remove();
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────

  /** Schedules a frame, and keeps frames coming for a while for animations the engine runs. */
  #wake() {
    if (this.#destroyed) return;
    this.#settleUntil = performance.now() + SETTLE_SECONDS * 1000;
    if (!this.#raf) this.#raf = requestAnimationFrame(() => this.#tick());
  }

  #tick() {
    this.#raf = 0;
    if (this.#destroyed) return;
    const t0 = performance.now();
    this.#views.redraw(t0 / 1000);
    const frame = this.#engine.frame(t0 / 1000);
    const t1 = performance.now();
    this.#frame = frame;
    this.#dispatch(frame);
    this.#infoWindow.place(frame);
    for (const p of this.#popovers) p.place();
    this.#renderer.draw(frame, this.#host);
    const t2 = performance.now();
    this.stats.add(t1 - t0, t2 - t1);
    this.#emit('frame', { frame, engineMs: t1 - t0, drawMs: t2 - t1 });
    if (frame.moving || frame.animating || this.#views.tracking(frame.items) || performance.now() < this.#settleUntil) {
      this.#raf = requestAnimationFrame(() => this.#tick());
    }
  }

  /**
   * Runs the app's handlers for the frame's events, and answers taps.
   * @param {Frame} frame
   */
  #dispatch(frame) {
    for (const e of frame.events) {
      const ev = /** @type {any} */ (e);
      switch (e.type) {
        case 'markerTapped': {
          const m = this.#markers.get(ev.marker);
          this.#closePopovers(m?.handle ?? null);
          this.#engine.answerTap(m ? this.#emitTap('markerTap', m.handle) : false);
          break;
        }
        case 'clusterTapped': {
          const r = this.#managers.get(ev.manager);
          this.#closePopovers(null);
          const consumed = r ? this.#emitTap('clusterTap', { id: ev.cluster, count: ev.count, manager: r.manager }) : false;
          this.#engine.answerTap(consumed);
          break;
        }
        case 'clusterItemTapped': {
          // An item removed since the last cluster() is still drawn (Google's rule) and can be
          // tapped: it has no options any more, so only the default runs (which finds no item).
          const tap = /** @type {ClusterItemTap | null} */ (this.#windowOwner({ manager: ev.manager, item: ev.item }));
          this.#closePopovers(null);
          // C7: the item's handler, then the map's marker handler, then the default.
          this.#engine.answerTap(tap ? this.#emitTap('clusterItemTap', tap) || this.#emitTap('markerTap', tap) : false);
          break;
        }
        case 'infoWindowOpened': {
          const owner = this.#windowOwner(ev);
          if (owner && this.#infoWindow.open(owner)) {
            this.#shown = { key: ownerKey(ev), owner };
            this.#emit('infoWindowOpen', owner);
          } else {
            // Every marker may have a custom window while hooks are set, and every cluster item
            // (the engine knows neither what the hooks answer nor an item's text); one with
            // nothing to show is no window. (Unless another was selected since, whose window
            // must stay.)
            this.#unopened = ownerKey(ev);
            const selected = this.#engine.selection;
            if (selected && ownerKey(selected) === this.#unopened) this.#engine.selectMarker(null);
          }
          break;
        }
        case 'infoWindowContentChanged': {
          // The text went and the hooks give nothing: the window closes (and says so).
          const owner = this.#windowOwner(ev);
          if (owner && !this.#infoWindow.open(owner)) this.#engine.selectMarker(null);
          break;
        }
        case 'infoWindowClosed': {
          this.#infoWindow.close();
          if (ownerKey(ev) === this.#unopened) {
            this.#unopened = null;
            break;
          }
          this.#emitForWindow('infoWindowClose', ev);
          this.#shown = null;
          break;
        }
        case 'infoWindowTapped':
          this.#closePopovers('marker' in ev ? this.#markers.get(ev.marker)?.handle ?? null : null);
          this.#emitForWindow('infoWindowTap', ev);
          break;
        case 'infoWindowLongPressed': this.#emitForWindow('infoWindowLongPress', ev); break;
        case 'cameraWillMove': this.#emit('cameraWillMove', { cause: ev.cause }); break;
        case 'cameraChanged': this.#emit('cameraChange', frame.camera); break;
        case 'cameraIdle': this.#emit('cameraIdle', frame.camera); break;
        case 'tap':
          this.#closePopovers(null);
          this.#emit('tap', { latitude: ev.latitude, longitude: ev.longitude, x: ev.x, y: ev.y });
          break;
        case 'longPress': this.#emit('longPress', { latitude: ev.latitude, longitude: ev.longitude, x: ev.x, y: ev.y }); break;
        case 'compassTapped': this.#emit('compassTap'); break;
        case 'myLocationButtonTapped': this.#emit('myLocationButtonTap'); break;
        case 'indoorBuildingFocused': this.#emit('indoorBuildingFocus', this.#buildings.handle(ev.building)); break;
        case 'indoorLevelActivated': {
          const building = this.#buildings.shown(ev.building, ev.level);
          if (building) this.#emit('indoorLevelActivate', { building, level: ev.level });
          break;
        }
        case 'locationRequested': this.#locate(); break;
        default: break;
      }
    }
  }

  /**
   * V2: a tap anywhere but on a popover's own marker closes it when it closes by itself.
   * @param {Marker | null} tapped  the marker tapped, if one was
   */
  #closePopovers(tapped) {
    for (const p of this.#popovers) if (p.autoClose && p.marker !== tapped) p.close();
  }

  /**
   * What the app is given for an info window's owner: the marker, or the cluster item as a
   * `clusterItemTap` handler gets it; null for one the map no longer holds (an item removed
   * since it was clustered is still drawn, but has no options left).
   * @param {import('./map-frame.js').WindowOwner} owner
   * @returns {Marker | ClusterItemTap | null}
   */
  #windowOwner(owner) {
    if ('marker' in owner) return this.#markers.get(owner.marker)?.handle ?? null;
    const r = this.#managers.get(owner.manager);
    if (!r || r.manager.itemIcon(owner.item) === undefined) return null;
    return { id: owner.item, item: r.manager.item(owner.item), manager: r.manager };
  }

  /**
   * Tells the app about the window it was told opened, with what it was given then.
   * @param {'infoWindowTap' | 'infoWindowLongPress' | 'infoWindowClose'} type
   * @param {import('./map-frame.js').WindowOwner} ev
   */
  #emitForWindow(type, ev) {
    if (this.#shown?.key === ownerKey(ev)) this.#emit(type, this.#shown.owner);
  }

  /**
   * Calls the handlers of a tap; true when one consumed it. A handler that throws does not stop
   * the map: the error is reported and the tap counts as not consumed by it.
   * @param {'markerTap' | 'clusterTap' | 'clusterItemTap'} type
   * @param {any} arg
   * @returns {boolean}
   */
  #emitTap(type, arg) {
    let consumed = false;
    for (const h of this.#handlers[type] ?? []) {
      try {
        if (/** @type {any} */ (h)(arg) === true) consumed = true;
      } catch (error) {
        reportError(error);
      }
    }
    return consumed;
  }

  /**
   * @param {keyof MapEvents} type
   * @param {any} [arg]
   */
  #emit(type, arg) {
    for (const h of this.#handlers[type] ?? []) {
      try {
        /** @type {any} */ (h)(arg);
      } catch (error) {
        reportError(error);
      }
    }
  }

  /** The my-location button asked where the user is: ask the browser (G3). */
  #locate() {
    if (!('geolocation' in navigator)) return;
    navigator.geolocation.getCurrentPosition(
      (p) => this.setMyLocation({ latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: p.coords.accuracy }),
      () => {},
      { enableHighAccuracy: false, timeout: 10_000 },
    );
  }

  /**
   * What the renderer draws for an item.
   * @param {DrawItem} item
   * @returns {import('./map-icons.js').Drawable | null}
   */
  #drawable(item) {
    if (item.kind === 'marker') {
      const m = this.#markers.get(item.id);
      if (!m) return null;
      const o = m.options;
      const a = this.#anchor;
      a.x = o.groundAnchor?.x ?? 0.5;
      a.y = o.groundAnchor?.y ?? 1;
      return this.#icons.drawable(this.#views.iconOf(item.id) ?? o.icon?.number ?? -1, a);
    }
    const r = this.#managers.get(item.manager);
    if (!r) return null;
    if (item.kind === 'cluster') return r.icons.drawable(item);
    const icon = r.manager.itemIcon(item.id);
    return icon === undefined ? null : this.#icons.drawable(icon, null);
  }

  /**
   * A marker's options split into what the map keeps and what the engine takes.
   * @param {Record<string, unknown>} given
   * @param {Partial<MapMarkerOptions>} base
   * @param {number} [id]  the marker, when its view (and so its icon) stays
   * @returns {{options: MapMarkerOptions, engine: import('./map-markers.js').MarkerOptions}}
   */
  #resolve(given, base, id) {
    const call = 'addMarker';
    const options = /** @type {MapMarkerOptions} */ ({ ...base, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) });
    if (given.icon !== undefined && given.icon !== null && !this.#icons.owns(given.icon)) {
      throw argumentError(call, 'icon must come from this map\'s icon(), loadIcon() or pinIcon(), or be null');
    }
    if (given.pin !== undefined && given.pin !== null) options.icon = this.#icons.pinIcon(/** @type {PinStyle} */ (given.pin));
    // The pin's style taken away, and no icon given: back to the default pin.
    if (given.pin === null && given.icon === undefined && base.pin) options.icon = null;
    if (given.tracksViewChanges !== undefined) booleanArg(given.tracksViewChanges, 'tracksViewChanges', call);
    const { icon, pin, view, viewSize, tracksViewChanges, ...engine } = options;
    const viewIcon = id === undefined ? undefined : this.#views.iconOf(id);
    const e = /** @type {import('./map-markers.js').MarkerOptions} */ ({ ...engine, icon: viewIcon ?? icon?.number ?? -1 });
    // A building may be given as its handle (G4).
    const level = /** @type {any} */ (engine.indoorLevel);
    if (level && level.building instanceof IndoorBuilding) e.indoorLevel = { ...level, building: level.building.id };
    if (this.#customWindows) e.customInfoWindow = true;
    return { options, engine: e };
  }

  /**
   * @param {BasemapOptions | undefined} b
   * @returns {TileSource}
   */
  #basemap(b) {
    const onLoad = () => this.#wake();
    if (b === undefined) return new OfflineTileSource({ onLoad });
    const o = objectArg(b, 'basemap', 'basemap');
    if (typeof o.get === 'function' && typeof o.request === 'function') return /** @type {TileSource} */ (b);
    if (o.offline === true) return new OfflineTileSource({ land: /** @type {number[][][] | undefined} */ (o.land), onLoad });
    if (typeof o.url === 'string') {
      return new RasterTileSource({ url: o.url, attribution: /** @type {string} */ (o.attribution ?? ''),
        subdomains: /** @type {string[] | undefined} */ (o.subdomains), maxZoom: /** @type {number | undefined} */ (o.maxZoom), onLoad });
    }
    throw argumentError('basemap', 'give {url, attribution}, {offline: true, land?}, or a tile source');
  }

  /** The container's size in CSS pixels (at least 1 × 1). */
  #size() {
    return { width: Math.max(1, this.#container.clientWidth), height: Math.max(1, this.#container.clientHeight) };
  }

  #resize() {
    if (this.#destroyed) return;
    const { width, height } = this.#size();
    this.#pixelRatio = window.devicePixelRatio || 1;
    this.#engine.setViewport(width, height, this.#padding);
    this.#renderer.resize(width, height, this.#pixelRatio);
    this.#wake();
  }
}

/**
 * One string per info window owner, to tell owners apart.
 * @param {import('./map-frame.js').WindowOwner} owner
 * @returns {string}
 */
function ownerKey(owner) {
  return 'marker' in owner ? `marker ${owner.marker}` : `item ${owner.manager} ${owner.item}`;
}
