// A CairnMap's markers: each one's options as the app gave them (icons as MapIcon objects, a
// view, a pin style, a building's handle) and its handle, beside the engine's copy of what the
// engine needs. It turns the app's options into the engine's, and back into what is drawn.

import { Marker } from './marker.js';
import { IndoorBuilding } from './indoor-building.js';
import { argumentError } from '../core/errors.js';
import { booleanArg, objectArg } from '../core/arguments.js';

/** @typedef {import('./marker.js').MapMarkerOptions} MapMarkerOptions */
/** @typedef {import('../engine/marker-records.js').MarkerOptions} EngineMarkerOptions */
/** @typedef {import('../engine/map-engine.js').MapEngine} MapEngine */
/** @typedef {import('./icon-table.js').IconTable} IconTable */
/** @typedef {import('./icon-table.js').PinStyle} PinStyle */
/** @typedef {import('./view-markers.js').ViewMarkers} ViewMarkers */
/** @typedef {import('./indoor-buildings.js').IndoorBuildings} IndoorBuildings */

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
  /** @type {Map<number, {options: MapMarkerOptions, handle: Marker}>} */
  #markers = new Map();
  /** the anchor of the marker being drawn, reused */
  #anchor = { x: 0.5, y: 1 };

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
   * A marker's position as the app gave it, or null for one the map does not hold.
   * @param {number} id
   * @returns {import('../core/frame.js').LatLng | null}
   */
  position(id) { return this.#markers.get(id)?.options.position ?? null; }

  /**
   * Adds markers in one step, all or none.
   * @param {unknown} list
   * @returns {Marker[]}
   */
  add(list) {
    if (!Array.isArray(list)) throw argumentError('addMarkers', 'markers must be an array');
    const resolved = list.map((o, i) => this.#resolve(objectArg(o, list.length === 1 ? 'options' : `markers[${i}]`, 'addMarker'), {}));
    const ids = list.length === 1 ? [this.#engine.addMarker(resolved[0].engine)] : this.#engine.addMarkers(resolved.map((r) => r.engine));
    const handles = ids.map((id, i) => {
      const handle = new Marker(this.#link, id);
      this.#markers.set(id, { options: resolved[i].options, handle });
      if (resolved[i].options.view) this.#views.attach(id, resolved[i].options);
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

  /**
   * What the renderer draws for a marker.
   * @param {number} id
   * @returns {import('./icon-table.js').Drawable | null}
   */
  drawable(id) {
    const m = this.#markers.get(id);
    if (!m) return null;
    const o = m.options;
    const a = this.#anchor;
    a.x = o.groundAnchor?.x ?? 0.5;
    a.y = o.groundAnchor?.y ?? 1;
    return this.#icons.drawable(this.#views.iconOf(id) ?? o.icon?.number ?? -1, a);
  }

  /** @type {import('./marker.js').MarkerLink} */
  #link = {
    options: (id) => {
      const o = this.#entry(id).options;
      // Copies of the nested points too: changing what a getter returned must not move the marker.
      return { ...o, position: { ...o.position },
        ...(o.groundAnchor && { groundAnchor: { ...o.groundAnchor } }),
        ...(o.infoWindowAnchor && { infoWindowAnchor: { ...o.infoWindowAnchor } }),
        ...(o.indoorLevel && { indoorLevel: { ...o.indoorLevel } }) };
    },
    update: (id, changes) => {
      const m = this.#entry(id);
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
      this.#wake();
    },
    alive: (id) => this.#markers.has(id),
  };

  /**
   * @param {number} id
   * @returns {{options: MapMarkerOptions, handle: Marker}}
   */
  #entry(id) {
    const m = this.#markers.get(id);
    if (!m) throw argumentError('marker', 'the marker was removed from its map');
    return m;
  }

  /**
   * A marker's options split into what the map keeps and what the engine takes.
   * @param {Record<string, unknown>} given
   * @param {Partial<MapMarkerOptions>} base
   * @param {number} [id]  the marker, when its view (and so its icon) stays
   * @returns {{options: MapMarkerOptions, engine: EngineMarkerOptions}}
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
    const e = /** @type {EngineMarkerOptions} */ ({ ...engine, icon: viewIcon ?? icon?.number ?? -1 });
    // A building may be given as its handle (G4). Ids are per map: another map's building may
    // have the id of one of this map's. (A building removed from this map keeps its id, which
    // the engine refuses.)
    const level = /** @type {any} */ (engine.indoorLevel);
    if (level && level.building instanceof IndoorBuilding) {
      const held = this.#buildings.handle(level.building.id);
      if (held && held !== level.building) throw argumentError(call, 'indoorLevel.building must be a building of this map');
      e.indoorLevel = { ...level, building: level.building.id };
    }
    return { options, engine: e };
  }
}
