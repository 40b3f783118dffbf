// A building with floors on a CairnMap (SPEC G4): a handle the app keeps. The map keeps the
// levels' names (the engine knows only how many there are) and the level shown; the engine
// decides when the building is prominent, places the picker and hides the markers of the
// levels not shown.

import { argumentError } from '../core/errors.js';
import { objectArg, stringArg } from '../core/arguments.js';

/**
 * @typedef {object} IndoorLevel
 * @property {string} name       the level's full name ("Level 2")
 * @property {string} shortName  what its picker button shows ("2")
 */

/**
 * @typedef {object} IndoorRecord  what the map keeps of a building
 * @property {IndoorLevel[]} levels  from the top
 * @property {number} active  the level shown
 */

/**
 * @typedef {object} IndoorLink  what a building reaches its map through
 * @property {(id: number) => IndoorRecord | undefined} record  undefined once removed
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
  get activeLevel() { return this.#link.record(this.id)?.active ?? -1; }
  set activeLevel(level) { this.#link.activate(this.id, level); }

  /** Whether the building is still on its map. */
  get onMap() { return this.#link.record(this.id) !== undefined; }

  /** Takes the building off its map: its markers are drawn again whatever their level. */
  remove() {
    if (this.onMap) this.#link.remove(this.id);
  }
}

/**
 * The buildings of one CairnMap: their handles and what the map keeps of each (the levels'
 * names, the level shown), over the engine's buildings.
 */
export class IndoorBuildings {
  /** @type {import('../engine/map-engine.js').MapEngine} */
  #engine;
  /** @type {() => void} */
  #wake;
  /** @type {Map<number, {handle: IndoorBuilding, record: IndoorRecord}>} */
  #byId = new Map();

  /**
   * @param {import('../engine/map-engine.js').MapEngine} engine
   * @param {() => void} wake  asks the map for a frame
   */
  constructor(engine, wake) {
    this.#engine = engine;
    this.#wake = wake;
  }

  /** @type {IndoorLink} */
  #link = {
    record: (id) => this.#byId.get(id)?.record,
    activate: (id, level) => {
      this.#engine.activateIndoorLevel(id, level);
      /** @type {{record: IndoorRecord}} */ (this.#byId.get(id)).record.active = level;
      this.#wake();
    },
    remove: (id) => {
      this.#engine.removeIndoorBuilding(id);
      this.#byId.delete(id);
      this.#wake();
    },
  };

  /**
   * See `CairnMap.addIndoorBuilding`.
   * @param {unknown} options
   * @returns {IndoorBuilding}
   */
  add(options) {
    const call = 'addIndoorBuilding';
    const o = objectArg(options, 'options', call);
    if (!Array.isArray(o.levels)) throw argumentError(call, 'options.levels must be an array of {name?, shortName?}');
    const levels = o.levels.map((l, i) => {
      const level = objectArg(l, `options.levels[${i}]`, call);
      const name = level.name === undefined ? String(i) : stringArg(level.name, `options.levels[${i}].name`, call);
      const shortName = level.shortName === undefined ? name : stringArg(level.shortName, `options.levels[${i}].shortName`, call);
      return { name, shortName };
    });
    const defaultLevel = /** @type {number | undefined} */ (o.defaultLevel);
    const id = this.#engine.addIndoorBuilding({ footprint: /** @type {any} */ (o.footprint), levels: levels.length, defaultLevel });
    const handle = new IndoorBuilding(this.#link, id);
    this.#byId.set(id, { handle, record: { levels, active: defaultLevel ?? 0 } });
    this.#wake();
    return handle;
  }

  /**
   * A level's short name, for the picker's button.
   * @param {number} building
   * @param {number} level
   * @returns {string}
   */
  levelName(building, level) { return this.#byId.get(building)?.record.levels[level]?.shortName ?? String(level); }

  /**
   * The handle of a building on the map, or null.
   * @param {number | null} id
   * @returns {IndoorBuilding | null}
   */
  handle(id) { return id === null ? null : this.#byId.get(id)?.handle ?? null; }

  /**
   * The engine showed another level: the handle reads it from now on.
   * @param {number} id
   * @param {number} level
   * @returns {IndoorBuilding | null}  the building's handle, if it is on the map
   */
  shown(id, level) {
    const b = this.#byId.get(id);
    if (!b) return null;
    b.record.active = level;
    return b.handle;
  }
}
