// A CairnMap's markers: each one's handle and what only the page holds of it (its icon as a
// MapIcon, its view, its pin style, its building's handle). Everything else a marker is, the
// engine holds (and the engine's layer its text and user data); this table turns the app's
// options into the engine's and reads the engine's back into the app's.

import { Marker } from './marker.js';
import { IndoorBuilding } from './indoor-building.js';
import { argumentError } from '../core/errors.js';
import { booleanArg, objectArg } from '../core/arguments.js';
import { DEFAULT_PIN } from '../engine/marker-records.js';

/** @typedef {import('./marker.js').MapMarkerOptions} MapMarkerOptions */
/** @typedef {import('../engine/marker-records.js').MarkerOptions} EngineMarkerOptions */
/** @typedef {import('../engine/map-engine.js').MapEngine} MapEngine */
/** @typedef {import('./icon-table.js').IconTable} IconTable */
/** @typedef {import('./icon-table.js').PinStyle} PinStyle */
/** @typedef {import('./view-markers.js').ViewMarkers} ViewMarkers */
/** @typedef {import('./indoor-buildings.js').IndoorBuildings} IndoorBuildings */

/**
 * @typedef {Pick<MapMarkerOptions, 'icon' | 'pin' | 'view' | 'viewSize' | 'tracksViewChanges'>
 *   & {building?: IndoorBuilding | null}} PageOptions  what only the page holds of a marker: the
 *   options as the app gave them, and the building handle its level was given with
 */

/** The options only the page holds. */
const PAGE_OPTIONS = Object.freeze(['icon', 'pin', 'view', 'viewSize', 'tracksViewChanges']);

export class MarkerTable {
  /** @type {MapEngine} */
  #engine;
  /** @type {IconTable} */
  #icons;
  /** @type {ViewMarkers} */
  #views;
  /** @type {IndoorBuildings} the map's buildings, whose handles markers' levels may name */
  #buildings;
  /** @type {() => void} asks the map for a frame */
  #wake;
  /** @type {Map<number, {page: PageOptions, handle: Marker}>} */
  #markers = new Map();

  /**
   * @param {MapEngine} engine
   * @param {IconTable} icons
   * @param {ViewMarkers} views
   * @param {IndoorBuildings} buildings
   * @param {{wake: () => void}} hooks
   */
  constructor(engine, icons, views, buildings, { wake }) {
    this.#engine = engine;
    this.#icons = icons;
    this.#views = views;
    this.#buildings = buildings;
    this.#wake = wake;
  }

  /** Markers on the map. */
  get size() { return this.#markers.size; }

  /**
   * A marker's handle, or null for one the map does not hold.
   * @param {number} id
   * @returns {Marker | null}
   */
  handle(id) { return this.#markers.get(id)?.handle ?? null; }

  /**
   * Whether `marker` is a handle of a marker on this map (ids are per map: another map's
   * marker may have the same one).
   * @param {unknown} marker
   * @returns {marker is Marker}
   */
  holds(marker) { return marker instanceof Marker && this.#markers.get(marker.id)?.handle === marker; }

  /**
   * A marker's position, or null for one the map does not hold.
   * @param {number} id
   * @returns {import('../core/frame.js').LatLng | null}
   */
  position(id) { return this.#markers.has(id) ? this.#engine.marker(id).position : null; }

  /**
   * Adds markers in one step, all or none.
   * @param {unknown} list
   * @returns {Marker[]}
   */
  add(list) {
    if (!Array.isArray(list)) throw argumentError('addMarkers', 'markers must be an array');
    const resolved = list.map((o, i) => this.#resolve(objectArg(o, list.length === 1 ? 'options' : `markers[${i}]`, 'addMarker'), {}, null));
    // Each marker's options as the app gave them (MapEngine checks them, a position included).
    const engine = resolved.map((r) => /** @type {EngineMarkerOptions} */ (r.engine));
    const ids = list.length === 1 ? [this.#engine.addMarker(engine[0])] : this.#engine.addMarkers(engine);
    const handles = ids.map((id, i) => {
      const handle = new Marker(this.#link, id);
      this.#markers.set(id, { page: resolved[i].page, handle });
      if (resolved[i].page.view) this.#views.attach(id, resolved[i].page);
      return handle;
    });
    this.#wake();
    return handles;
  }

  /** Removes every marker (the engine closes a marker's window). */
  clear() {
    for (const id of this.#markers.keys()) this.#views.detach(id);
    this.#engine.clearMarkers();
    this.#markers.clear();
  }

  /** @type {import('./marker.js').MarkerLink} */
  #link = {
    options: (id) => {
      const page = this.#entry(id).page;
      // The engine's options, fresh objects each time, with the page's in place of the engine's icon number.
      const { icon, customInfoWindow, ...engine } = this.#engine.marker(id);
      /** @type {import('./marker.js').MarkerState} */
      const options = { ...engine, icon: page.icon ?? null, pin: page.pin ?? null, view: page.view ?? null };
      if (page.viewSize) options.viewSize = { ...page.viewSize };
      if (page.tracksViewChanges !== undefined) options.tracksViewChanges = page.tracksViewChanges;
      // A level given with the building's handle reads back with it.
      if (engine.indoorLevel && page.building && page.building.id === engine.indoorLevel.building) {
        options.indoorLevel = { ...engine.indoorLevel, building: page.building };
      }
      return options;
    },
    update: (id, changes) => {
      const m = this.#entry(id);
      const c = objectArg(changes, 'changes', 'marker');
      // A view is made again only when it changed (each is its own icon, rasterised anew).
      const viewChanged = c.view !== undefined || c.viewSize !== undefined || c.tracksViewChanges !== undefined;
      const next = this.#resolve(c, m.page, { id, viewChanged });
      this.#engine.updateMarker(id, next.engine);
      m.page = next.page;
      if (viewChanged) {
        this.#views.detach(id);
        if (next.page.view) this.#views.attach(id, next.page);
      }
      this.#wake();
    },
    remove: (id) => {
      if (!this.#markers.has(id)) return;
      this.#engine.removeMarker(id);
      this.#views.detach(id);
      this.#markers.delete(id);
      this.#wake();
    },
    alive: (id) => this.#markers.has(id),
  };

  /**
   * @param {number} id
   * @returns {{page: PageOptions, handle: Marker}}
   */
  #entry(id) {
    const m = this.#markers.get(id);
    if (!m) throw argumentError('marker', 'the marker was removed from its map');
    return m;
  }

  /**
   * A marker's options given (undefined ones are not) split into what the page keeps (over
   * `base`, what it kept) and what the engine is given.
   * @param {Record<string, unknown>} given
   * @param {PageOptions} base
   * @param {{id: number, viewChanged: boolean} | null} change  the marker changed and whether its view
   *   changed (and so its icon); null for one added
   * @returns {{page: PageOptions, engine: Partial<EngineMarkerOptions>}}
   */
  #resolve(given, base, change) {
    const call = 'addMarker';
    /** @type {Record<string, unknown>} */
    const page = { ...base };
    /** @type {Record<string, unknown>} */
    const engine = {};
    for (const [key, value] of Object.entries(given)) {
      if (value !== undefined) (PAGE_OPTIONS.includes(key) ? page : engine)[key] = value;
    }
    if (given.icon !== undefined && given.icon !== null && !this.#icons.owns(given.icon)) {
      throw argumentError(call, 'icon must come from this map\'s icon(), loadIcon() or pinIcon(), or be null');
    }
    if (given.pin !== undefined && given.pin !== null) page.icon = this.#icons.pinIcon(/** @type {PinStyle} */ (given.pin));
    // The pin's style taken away, and no icon given: back to the default pin.
    if (given.pin === null && given.icon === undefined && base.pin) page.icon = null;
    if (given.tracksViewChanges !== undefined) booleanArg(given.tracksViewChanges, 'tracksViewChanges', call);
    // The engine's icon, when it changes: the view's while it stays, else the page's icon (the
    // default pin for none); a new view's own icon follows once it is made.
    const viewIcon = change && !change.viewChanged ? this.#views.iconOf(change.id) : undefined;
    if (given.icon !== undefined || given.pin !== undefined || change?.viewChanged) {
      engine.icon = viewIcon ?? /** @type {import('../engine/map-icon.js').MapIcon | null | undefined} */ (page.icon)?.number ?? DEFAULT_PIN;
    }
    // A building may be given as its handle (G4). Ids are per map: another map's building may
    // have the id of one of this map's. (A building removed from this map keeps its id, which
    // the engine refuses.)
    const level = /** @type {any} */ (engine.indoorLevel);
    if (level !== undefined) page.building = null;
    if (level && level.building instanceof IndoorBuilding) {
      const held = this.#buildings.handle(level.building.id);
      if (held && held !== level.building) throw argumentError(call, 'indoorLevel.building must be a building of this map');
      engine.indoorLevel = { ...level, building: level.building.id };
      page.building = level.building;
    }
    return { page: /** @type {PageOptions} */ (page), engine: /** @type {Partial<EngineMarkerOptions>} */ (engine) };
  }
}
