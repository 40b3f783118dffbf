// The buildings with floors of one CairnMap (feature G4): their handles and the levels' names,
// over the engine's buildings (which hold the level shown).

import { IndoorBuilding } from './indoor-building.js';
import { argumentError } from '../core/errors.js';
import { objectArg, stringArg } from '../core/arguments.js';

/** @typedef {import('./indoor-building.js').IndoorRecord} IndoorRecord */
/** @typedef {import('./indoor-building.js').IndoorLink} IndoorLink */

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
    active: (id) => this.#engine.indoorLevel(id),
    activate: (id, level) => {
      this.#engine.activateIndoorLevel(id, level);
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
    this.#byId.set(id, { handle, record: { levels } });
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
   * The engine showed another level (its handle reads the level from the engine).
   * @param {number} id
   * @param {number} level
   * @returns {IndoorBuilding | null}  the building's handle, if it is on the map
   */
  shown(id, level) {
    return this.#byId.get(id)?.handle ?? null;
  }
}
