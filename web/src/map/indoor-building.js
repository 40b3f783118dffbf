// A building with floors on a CairnMap (feature G4): a handle the app keeps. The map keeps the
// levels' names (the engine knows only how many there are); the engine holds the level shown,
// decides when the building is prominent, places the picker and hides the markers of the
// levels not shown.

/**
 * @typedef {object} IndoorLevel
 * @property {string} name       the level's full name ("Level 2")
 * @property {string} shortName  what its picker button shows ("2")
 */

/**
 * @typedef {object} IndoorRecord  what the map keeps of a building
 * @property {IndoorLevel[]} levels  from the top
 */

/**
 * @typedef {object} IndoorLink  what a building reaches its map through
 * @property {(id: number) => IndoorRecord | undefined} record  undefined once removed
 * @property {(id: number) => number} active  the level shown, as the engine holds it
 * @property {(id: number, level: number) => void} activate
 * @property {(id: number) => void} remove
 */

export class IndoorBuilding {
  /** @type {IndoorLink} */
  #link;

  /**
   * @param {IndoorLink} link
   * @param {number} id
   */
  constructor(link, id) {
    this.#link = link;
    /** The engine's id, for markers' `indoorLevel: { building: id, level }`. */
    this.id = id;
  }

  /** @returns {IndoorLevel[]} the levels from the top (a copy; empty once removed) */
  get levels() { return (this.#link.record(this.id)?.levels ?? []).map((l) => ({ ...l })); }

  /** The level shown (its index from the top); assigning shows another, as the picker does. */
  get activeLevel() { return this.onMap ? this.#link.active(this.id) : -1; }
  set activeLevel(level) { this.#link.activate(this.id, level); }

  /** Whether the building is still on its map. */
  get onMap() { return this.#link.record(this.id) !== undefined; }

  /** Takes the building off its map: its markers are drawn again whatever their level. */
  remove() {
    if (this.onMap) this.#link.remove(this.id);
  }
}
