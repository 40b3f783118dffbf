// A marker on a CairnMap as the app holds it (feature M1): a handle whose properties read and
// write the marker in the engine, Google's way (`marker.title = 'Hi'` updates the map). The
// handle holds no state of its own beyond its id: what it reads is what the engine holds (its
// defaults for what the app left out), and what only the page holds (icons, views, pin styles).

/** @typedef {import('../core/frame.js').LatLng} LatLng */
/** @typedef {import('../core/frame.js').Point} Point */
/** @typedef {import('../engine/marker-records.js').AltitudeMode} AltitudeMode */
/** @typedef {import('../engine/marker-records.js').CollisionBehavior} CollisionBehavior */
/** @typedef {import('../engine/map-icon.js').MapIcon} MapIcon */
/** @typedef {import('./icon-table.js').PinStyle} PinStyle */
/** @typedef {import('./icon-table.js').ViewContent} ViewContent */

/**
 * @typedef {object} MarkerLink  what a handle reaches its map through
 * @property {(id: number) => MarkerState} options  the marker's options (throws once removed)
 * @property {(id: number, changes: Partial<MapMarkerOptions>) => void} update
 * @property {(id: number) => void} remove
 * @property {(id: number) => boolean} alive
 */

/**
 * @typedef {object} MapMarkerOptions  a marker as `map.addMarker` takes it (the M features, V1, V3, V4); each
 *   option left out takes the engine's default (Google's), which the handle's properties read back
 * @property {LatLng} position
 * @property {string} [title]
 * @property {string} [snippet]
 * @property {MapIcon | null} [icon]  from `map.icon`, `map.loadIcon` or `map.pinIcon`; null: the pin
 * @property {PinStyle | null} [pin]  the default pin's colours and glyph (V1), when there is no icon
 * @property {ViewContent | null} [view]  custom content (M4): an HTML element, or a draw callback with `viewSize`
 * @property {{width: number, height: number}} [viewSize]  the size of a draw-callback view, in CSS pixels
 * @property {boolean} [tracksViewChanges=true]  a view is redrawn while true (M4)
 * @property {Point} [groundAnchor]
 * @property {Point} [infoWindowAnchor]
 * @property {number} [rotation]
 * @property {boolean} [flat]
 * @property {number} [opacity]
 * @property {number} [zIndex]
 * @property {boolean} [visible]
 * @property {CollisionBehavior} [collisionBehavior]
 * @property {number} [collisionPriority]
 * @property {'none' | 'pop' | 'fadeIn'} [appearAnimation]  played once, when added
 * @property {number} [altitude]
 * @property {AltitudeMode} [altitudeMode]
 * @property {boolean} [tracksInfoWindowChanges]
 * @property {unknown} [userData]
 * @property {{building: number | import('./indoor-building.js').IndoorBuilding, level: number} | null} [indoorLevel]
 *   on a level of a building (`map.addIndoorBuilding(…)`, or its id; levels from the top): shown
 *   only while that level is (G4)
 */

/**
 * @typedef {Required<Omit<MapMarkerOptions, 'viewSize' | 'tracksViewChanges'>>
 *   & Pick<MapMarkerOptions, 'viewSize' | 'tracksViewChanges'>} MarkerState  every option of a marker: the
 *   engine's (its defaults for those the app left out) and the page's (null for no icon, pin style or view)
 */

export class Marker {
  /** @type {MarkerLink} */
  #link;
  /** @type {number} */
  #id;

  /**
   * Use `map.addMarker(options)`.
   * @param {MarkerLink} link
   * @param {number} id
   */
  constructor(link, id) {
    this.#link = link;
    this.#id = id;
  }

  /** The engine's id of the marker (the `marker` of events and draw items). */
  get id() { return this.#id; }
  /** Whether the marker is still on its map. */
  get onMap() { return this.#link.alive(this.#id); }
  /** Takes the marker off the map (Google's `marker.map = null`); the handle is dead afterwards. */
  remove() { this.#link.remove(this.#id); }
  /**
   * Changes several properties in one update.
   * @param {Partial<MapMarkerOptions>} changes
   */
  set(changes) { this.#link.update(this.#id, changes); }
  /** @returns {MarkerState} a copy of every option */
  get options() { return this.#link.options(this.#id); }

  /** @returns {LatLng} */
  get position() { return this.options.position; }
  set position(v) { this.set({ position: v }); }
  /** @returns {string} */
  get title() { return this.options.title; }
  set title(v) { this.set({ title: v }); }
  /** @returns {string} */
  get snippet() { return this.options.snippet; }
  set snippet(v) { this.set({ snippet: v }); }
  /** @returns {MapIcon | null} */
  get icon() { return this.options.icon; }
  set icon(v) { this.set({ icon: v }); }
  /** @returns {PinStyle | null} */
  get pin() { return this.options.pin; }
  set pin(v) { this.set({ pin: v }); }
  /** @returns {ViewContent | null} */
  get view() { return this.options.view; }
  set view(v) { this.set({ view: v }); }
  /** @returns {boolean} */
  get tracksViewChanges() { return this.options.tracksViewChanges ?? true; }
  set tracksViewChanges(v) { this.set({ tracksViewChanges: v }); }
  /** @returns {Point} */
  get groundAnchor() { return this.options.groundAnchor; }
  set groundAnchor(v) { this.set({ groundAnchor: v }); }
  /** @returns {Point} */
  get infoWindowAnchor() { return this.options.infoWindowAnchor; }
  set infoWindowAnchor(v) { this.set({ infoWindowAnchor: v }); }
  /** @returns {number} */
  get rotation() { return this.options.rotation; }
  set rotation(v) { this.set({ rotation: v }); }
  /** @returns {boolean} */
  get flat() { return this.options.flat; }
  set flat(v) { this.set({ flat: v }); }
  /** @returns {number} */
  get opacity() { return this.options.opacity; }
  set opacity(v) { this.set({ opacity: v }); }
  /** @returns {number} */
  get zIndex() { return this.options.zIndex; }
  set zIndex(v) { this.set({ zIndex: v }); }
  /** @returns {boolean} */
  get visible() { return this.options.visible; }
  set visible(v) { this.set({ visible: v }); }
  /** @returns {CollisionBehavior} */
  get collisionBehavior() { return this.options.collisionBehavior; }
  set collisionBehavior(v) { this.set({ collisionBehavior: v }); }
  /** @returns {number} */
  get collisionPriority() { return this.options.collisionPriority; }
  set collisionPriority(v) { this.set({ collisionPriority: v }); }
  /** @returns {number} */
  get altitude() { return this.options.altitude; }
  set altitude(v) { this.set({ altitude: v }); }
  /** @returns {AltitudeMode} */
  get altitudeMode() { return this.options.altitudeMode; }
  set altitudeMode(v) { this.set({ altitudeMode: v }); }
  /** @returns {boolean} */
  get tracksInfoWindowChanges() { return this.options.tracksInfoWindowChanges; }
  set tracksInfoWindowChanges(v) { this.set({ tracksInfoWindowChanges: v }); }
  /** @returns {unknown} */
  get userData() { return this.options.userData; }
  set userData(v) { this.set({ userData: v }); }
  /** @returns {{building: number | import('./indoor-building.js').IndoorBuilding, level: number} | null} as given */
  get indoorLevel() { return this.options.indoorLevel; }
  set indoorLevel(v) { this.set({ indoorLevel: v }); }
}
