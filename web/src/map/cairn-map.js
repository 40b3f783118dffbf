// CairnMap: the map a web page shows, in the spirit of Google's Maps SDK. It puts a canvas in
// the app's element, forwards the element's input to the engine, asks the engine for a frame
// when the engine says it wants one (`frame.nextFrameIn`) or the page changed something, runs
// the app's event handlers (which may consume taps) and draws the frame. Every decision about
// the map (gestures, camera, clusters, collisions, draw order, taps, info windows, popovers,
// when anything animates) is the engine's; this class holds what only the page can: the
// canvas, images, text, DOM overlays and the app's callbacks.

import { MapEngine } from '../engine/map-engine.js';
import { forwardInput } from './dom-input.js';
import { IconTable } from './icon-table.js';
import { InfoWindowView } from './info-window-view.js';
import { ViewMarkers } from './view-markers.js';
import { MarkerTable } from './marker-table.js';
import { MapClusterManagers } from './map-cluster-managers.js';
import { MapEventHandlers } from './map-event-handlers.js';
import { FrameEvents } from './frame-events.js';
import { Popovers } from './popovers.js';
import { IndoorBuildings } from './indoor-buildings.js';
import { Renderer } from '../render/renderer.js';
import { OfflineTileSource, RasterTileSource } from '../render/basemap/tile-source.js';
import { argumentError } from '../core/errors.js';
import { objectArg } from '../core/arguments.js';
import { FrameStats } from './frame-stats.js';

/** @typedef {import('../core/frame.js').Frame} Frame */
/** @typedef {import('../engine/map-icon.js').MapIcon} MapIcon */
/** @typedef {import('../core/frame.js').CameraPosition} CameraPosition */
/** @typedef {import('../core/frame.js').LatLng} LatLng */
/** @typedef {import('./indoor-building.js').IndoorLevel} IndoorLevel */
/** @typedef {import('../engine/ui-settings.js').UISettings} UISettings */
/** @typedef {import('./marker.js').Marker} Marker */
/** @typedef {import('./marker.js').MapMarkerOptions} MapMarkerOptions */
/** @typedef {import('./indoor-building.js').IndoorBuilding} IndoorBuilding */
/** @typedef {import('./popover.js').Popover} Popover */
/** @typedef {import('./map-event-handlers.js').MapEvents} MapEvents */
/** @typedef {import('./map-event-handlers.js').ClusterItemTap} ClusterItemTap */
/** @typedef {import('../engine/cluster-manager.js').ClusterManager} ClusterManager */
/** @typedef {import('../engine/cluster-manager.js').ClusterManagerOptions} ClusterManagerOptions */
/** @typedef {import('./cluster-drawables.js').ClusterIconOptions} ClusterIconOptions */
/** @typedef {import('./icon-table.js').IconOptions} IconOptions */
/** @typedef {import('./icon-table.js').PinStyle} PinStyle */
/** @typedef {import('../render/basemap/tile-source.js').TileSource} TileSource */

/**
 * @typedef {{url: string, attribution?: string, subdomains?: string[], maxZoom?: number}
 *   | {offline: true, land?: number[][][]} | TileSource} BasemapOptions
 *   raster tiles from a URL template ('https://…/{z}/{x}/{y}.png'), the built-in offline
 *   background (a graticule, and land when outlines are given), or a tile source of your own
 */

/**
 * @typedef {object} CairnMapOptions
 * @property {{latitude: number, longitude: number, zoom: number, bearing?: number, tilt?: number}} camera
 * @property {UISettings} [settings]  gestures and controls (those left out: the engine's defaults, Google's)
 * @property {BasemapOptions} [basemap]  default: offline
 * @property {{top?: number, left?: number, bottom?: number, right?: number}} [padding]
 * @property {{minZoom?: number, maxZoom?: number, maxTilt?: number}} [limits]
 * @property {boolean} [hosted]  another map owns the basemap, the camera and the input (Cairn as a
 *   layer of Leaflet or MapLibre, see hosts/): the canvas is transparent and takes no pointer
 *   events, the engine's gestures and controls are off, and the layer drives the map with
 *   `moveCamera`, `tap` and `renderFrame`
 */

/** The settings of a hosted map: the host map has its own gestures and controls. */
const HOSTED_SETTINGS = Object.freeze({ scrollGestures: false, zoomGestures: false, tiltGestures: false,
  rotateGestures: false, compassButton: false, myLocationButton: false, indoorPicker: false });

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
  /** @type {MarkerTable} */
  #markers;
  /** @type {MapClusterManagers} */
  #clusters;
  /** @type {Popovers} */
  #popovers;
  /** @type {IndoorBuildings} the map's buildings with floors */
  #buildings;
  #handlers = new MapEventHandlers();
  /** @type {FrameEvents} */
  #events;
  /** @type {() => void} */
  #stopInput;
  /** @type {ResizeObserver | null} */
  #resizeObserver = null;
  /** the animation frame asked for, or 0 */
  #raf = 0;
  /** @type {ReturnType<typeof setTimeout> | null} the timer for a frame the engine wants later, and when it fires (ms) */
  #timer = null;
  #timerAt = Infinity;
  #destroyed = false;
  #pixelRatio = 1;
  /** @type {Frame | null} */
  #frame = null;
  /** @type {FrameStats} */
  stats = new FrameStats();
  /** @type {import('../render/renderer.js').RenderHost} */
  #host;

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
    this.#hosted = o.hosted === true;
    if (this.#hosted) this.#canvas.style.pointerEvents = 'none';
    container.appendChild(this.#canvas);
    const { width, height } = this.#size();
    const wake = () => this.#wake();
    this.#engine = new MapEngine({ camera: o.camera, width, height });
    this.#buildings = new IndoorBuildings(this.#engine, wake);
    if (this.#hosted) this.#engine.setSettings(HOSTED_SETTINGS);
    else if (o.settings) this.#engine.setSettings(o.settings);
    if (o.padding) this.#engine.setViewport(width, height, o.padding);
    this.#padding = o.padding ?? {};
    this.#pixelRatio = window.devicePixelRatio || 1;
    this.#icons = new IconTable((icon) => this.#engine.registerIcon(icon), this.#pixelRatio, this.#engine.pinSize);
    this.#views = new ViewMarkers(this.#icons, this.#pixelRatio, (id, icon) => this.#engine.updateMarker(id, { icon: icon.number }), wake);
    this.#popovers = new Popovers({ engine: this.#engine, container: () => this.#container, wake });
    this.#markers = new MarkerTable(this.#engine, this.#icons, this.#views, this.#buildings, { wake });
    this.#clusters = new MapClusterManagers(this.#engine, this.#icons, this.#pixelRatio, wake);
    this.#tiles = this.#hosted ? null : this.#basemap(o.basemap);
    this.#renderer = new Renderer(this.#canvas, { basemap: this.#tiles, onNeedsRedraw: wake });
    this.#limits = { ...objectArg(o.limits, 'limits', 'CairnMap') };
    this.#engine.setLimits({ ...this.#limits, maxTileZoom: this.#tiles?.maxZoom });
    this.#renderer.resize(width, height, this.#pixelRatio);
    // The default window is measured by the layout the renderer draws, so the engine places and
    // hit-tests exactly what is drawn.
    this.#infoWindow = new InfoWindowView(container, (w, h) => { this.#engine.setInfoWindowSize(w, h); this.#wake(); },
      (title, snippet) => this.#renderer.layoutInfoWindow(title, snippet));
    this.#events = new FrameEvents({ engine: this.#engine, markers: this.#markers, clusters: this.#clusters,
      handlers: this.#handlers, infoWindow: this.#infoWindow, buildings: this.#buildings,
      locate: () => this.#locate(), wake });
    this.#host = {
      drawable: (item) => (item.kind === 'marker' ? this.#icons.drawable(item.icon) : this.#clusters.drawable(item)),
      infoWindowContent: () => this.#infoWindow.text(),
      levelName: (building, level) => this.#buildings.levelName(building, level),
    };
    this.#stopInput = this.#hosted ? () => {} : forwardInput(container, this.#engine, wake);
    if (typeof ResizeObserver === 'function') {
      this.#resizeObserver = new ResizeObserver(() => this.#resize());
      this.#resizeObserver.observe(container);
    }
    this.#wake();
  }

  /** @type {{top?: number, left?: number, bottom?: number, right?: number}} */
  #padding;
  /** @type {((frame: Frame) => boolean) | null} see holdDraws */
  #holds = null;
  /** @type {Frame | null} a frame built and not drawn yet (see holdDraws) */
  #held = null;
  /** @type {TileSource | null} none on a hosted map */
  #tiles;
  #hosted = false;
  /** @type {{minZoom?: number, maxZoom?: number, maxTilt?: number}} */
  #limits;

  // ── camera (features G5, G7) ───────────────────────────────────────────────────────────────

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
   * @param {{duration?: number, easing?: 'linear' | 'easeInOut' | 'easeOut'}} [options]  seconds; either left out
   *   takes the engine's default
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
   * Camera limits; those left out take the engine's defaults (Google's), which `engine.limits` reads back.
   * @param {{minZoom?: number, maxZoom?: number, maxTilt?: number}} limits
   */
  setLimits(limits) {
    const l = { ...objectArg(limits, 'limits', 'setLimits') };
    this.#engine.setLimits({ ...l, maxTileZoom: this.#tiles?.maxZoom });
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

  // ── settings and basemap (features G1–G4) ──────────────────────────────────────────────────

  /**
   * The UI settings, every one filled in; assigning some changes those at once (G1). Typed as
   * the settings an assignment takes, as a property has one type for reading and writing.
   * @returns {UISettings}
   */
  get settings() { return this.#engine.settings; }
  /** @param {UISettings} changes */
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
    if (this.#hosted) throw argumentError('setBasemap', 'a hosted map shows its host\'s basemap');
    const tiles = this.#basemap(basemap);
    this.#tiles = tiles;
    this.#renderer.basemap = tiles;
    // Tiles beyond the source's zoom are drawn from its deepest level, stretched.
    this.#engine.setLimits({ ...this.#limits, maxTileZoom: tiles.maxZoom });
    this.#wake();
  }

  // ── markers (the M, I and V features) ──────────────────────────────────────────────────────

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
  addMarkers(list) { return this.#markers.add(list); }

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
    return owner && 'marker' in owner ? this.#markers.handle(owner.marker) : null;
  }
  set selectedMarker(marker) {
    if (marker !== null && !this.#markers.holds(marker)) {
      throw argumentError('selectedMarker', 'must be a marker on this map, or null');
    }
    this.#select(marker === null ? null : () => this.#engine.selectMarker(marker.id));
  }

  /**
   * The cluster item whose info window is open (C7: a tap no handler consumes selects it, as a
   * marker's does), as a `clusterItemTap` handler gets it (the same object while its window
   * stays open), or null; assigning `{manager, id}` of an item a manager on this map holds, or
   * null, opens or closes it at once. An item without title or snippet opens none; with info
   * window hooks set, one reads as selected until the next frame shows the hooks give it nothing.
   * @returns {ClusterItemTap | null}
   */
  get selectedClusterItem() {
    const owner = this.#engine.selection;
    return !owner || 'marker' in owner ? null : this.#events.selectedItem(owner);
  }
  set selectedClusterItem(item) {
    const manager = item !== null && typeof item === 'object' && item.manager ? this.#clusters.get(item.manager.number) : null;
    const held = manager !== null && manager === item?.manager && manager.holdsItem(item.id);
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
   * While hooks are set, a window opens for markers and items without title or snippet too, and
   * closes again when the hooks give nothing for it.
   * Elements are positioned by the map; they do not take pointer events (taps are info window taps).
   * @param {{window?: import('./info-window-view.js').InfoWindowHook | null, contents?: import('./info-window-view.js').InfoWindowHook | null}} hooks
   */
  setInfoWindowHooks(hooks) {
    const h = objectArg(hooks, 'hooks', 'setInfoWindowHooks');
    this.#infoWindow.hooks = { window: h.window ?? null, contents: h.contents ?? null };
    this.#engine.setCustomInfoWindows(Boolean(h.window || h.contents));
  }

  /**
   * A popover anchored to a marker (V2): an element of the app's shown above the marker, where
   * its info window would stand. The engine closes it on a tap elsewhere (`autoClose`), pans the
   * map to show it whole when it opens (`autoPan`, as for an info window), and removes it with
   * its marker.
   * @param {Marker} marker
   * @param {HTMLElement} content
   * @param {{open?: boolean, autoClose?: boolean, autoPan?: boolean}} [options]  defaults false, true, true
   * @returns {Popover}
   */
  addPopover(marker, content, options) {
    if (!this.#markers.holds(marker)) throw argumentError('addPopover', 'marker must be on this map');
    const popover = this.#popovers.add(marker, content, options);
    this.#wake();
    return popover;
  }

  /** Removes every marker, cluster manager, info window and popover (M1). */
  clear() {
    this.#popovers.clear();
    this.#markers.clear();
    this.#infoWindow.close();
    this.#clusters.clear();
    this.#wake();
  }

  // ── buildings with floors (feature G4) ─────────────────────────────────────────────────────

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

  // ── cluster managers (the C features) ──────────────────────────────────────────────────────

  /**
   * Adds a cluster manager: items clustered for the screen with one of the engine's algorithms.
   * Add items (`addItems`, or `addCoordinates` for large data), then call `cluster()`.
   * @param {ClusterManagerOptions & ClusterIconOptions} [options]
   * @returns {ClusterManager}
   */
  addClusterManager(options) { return this.#clusters.add(options); }

  /**
   * Changes how a manager's clusters look (C3): per-bucket images under the label, or a callback.
   * @param {ClusterManager} manager
   * @param {ClusterIconOptions} options
   */
  setClusterIcons(manager, options) { this.#clusters.setIcons(manager, options); }

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
  on(type, handler) { return this.#handlers.on(type, handler); }

  // ── frames ─────────────────────────────────────────────────────────────────────────────────

  /** The last frame the map drew (the engine's plain object), or null before the first. */
  get lastFrame() { return this.#frame; }

  /** The canvas the map draws on. */
  get canvas() { return this.#canvas; }

  /** The engine under the map, for what this class does not wrap. */
  get engine() { return this.#engine; }

  /**
   * Asks for a frame soon: the map draws only while the engine says something changes, and
   * after any call of this class; a change made on `engine` directly needs this.
   */
  requestFrame() { this.#wake(); }

  /**
   * Builds and draws a frame now, in this task, instead of at the next animation frame: a host
   * map's layer calls it from the host's own move events, so its markers move in the frame the
   * host draws.
   */
  renderFrame() {
    if (this.#destroyed) return;
    if (this.#raf) cancelAnimationFrame(this.#raf);
    this.#tick();
  }

  /**
   * For a host map's layer whose host draws a camera it is given in its own next frame
   * (MapLibre): while `hold(frame)` answers true, a frame is built and its events run, but the
   * canvas keeps what it shows until `drawHeld()`, called from the host's drawing, draws that
   * frame in the same frame as the host's. Null: every frame is drawn at once.
   * @param {((frame: Frame) => boolean) | null} hold
   */
  holdDraws(hold) {
    this.#holds = hold;
    if (!hold) this.drawHeld();
  }

  /** Draws the frame `holdDraws` held back, if any, now. */
  drawHeld() {
    const frame = this.#held;
    this.#held = null;
    if (frame && !this.#destroyed) this.#renderer.draw(frame, this.#host);
  }

  /**
   * A tap at a point of the view (CSS pixels), as a press and release there: on a hosted map,
   * whose host saw the click. The engine hit-tests it and reports it in the next frame.
   * @param {number} x
   * @param {number} y
   */
  tap(x, y) {
    const t = performance.now() / 1000;
    this.#engine.pointerDown(1, 'mouse', x, y, 0, 0, t);
    this.#engine.pointerUp(1, x, y, t);
    this.#wake();
  }

  /**
   * Frees the engine's memory and takes the canvas and overlays away.
   */
  destroy() {
    if (this.#destroyed) return;
    this.#destroyed = true;
    if (this.#raf) cancelAnimationFrame(this.#raf);
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#stopInput();
    this.#resizeObserver?.disconnect();
    this.#popovers.detach();
    this.#views.clear();
    this.#infoWindow.close();
    this.#engine.destroy();
    this.#canvas.remove();
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────

  /** Asks for a frame as soon as possible: the page or the app changed something. */
  #wake() { this.#schedule(0); }

  /**
   * Asks for a frame in `seconds`: 0 at the next animation frame, a positive time by a timer
   * (the engine waits for one of its own), Infinity never (until input or a call). An earlier
   * request stands.
   * @param {number} seconds
   */
  #schedule(seconds) {
    if (this.#destroyed || this.#raf || !(seconds < Infinity)) return;
    if (seconds <= 0) {
      this.#raf = requestAnimationFrame(() => this.#tick());
      return;
    }
    const at = performance.now() + seconds * 1000;
    if (this.#timer !== null && this.#timerAt <= at) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#timerAt = Infinity;
      this.#wake();
    }, Math.ceil(seconds * 1000));
  }

  #tick() {
    this.#raf = 0;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = Infinity;
    if (this.#destroyed) return;
    const t0 = performance.now();
    this.#views.redraw(t0 / 1000);
    const frame = this.#engine.frame(t0 / 1000);
    const t1 = performance.now();
    this.#frame = frame;
    this.#events.dispatch(frame);
    this.#infoWindow.place(frame);
    this.#popovers.place(frame);
    if (this.#holds?.(frame)) {
      this.#held = frame;
    } else {
      this.#held = null;
      this.#renderer.draw(frame, this.#host);
    }
    const t2 = performance.now();
    this.stats.add(t1 - t0, t2 - t1);
    this.#handlers.emit('frame', { frame, engineMs: t1 - t0, drawMs: t2 - t1 });
    // When the engine wants the next frame; a view marker that tracks changes of its content
    // is redrawn every frame (the page's own reason).
    this.#schedule(this.#views.tracking(frame.items) ? 0 : frame.nextFrameIn);
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
