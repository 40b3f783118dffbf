// A CairnMap's cluster managers: each the engine's manager (see cluster-manager.js) with how
// its clusters look on this map. The map wraps some of a manager's methods so that what they
// change shows at once on a still map, and so that items take only this map's icons.

import { ClusterDrawables } from './cluster-drawables.js';
import { MapIcon } from '../engine/map-icon.js';
import { argumentError } from '../core/errors.js';
import { objectArg } from '../core/arguments.js';

/** @typedef {import('../engine/cluster-manager.js').ClusterManager} ClusterManager */
/** @typedef {import('../engine/cluster-manager.js').ClusterManagerOptions} ClusterManagerOptions */
/** @typedef {import('./cluster-drawables.js').ClusterIconOptions} ClusterIconOptions */
/** @typedef {import('./map-event-handlers.js').ClusterItemTap} ClusterItemTap */
/** @typedef {import('../engine/map-engine.js').MapEngine} MapEngine */
/** @typedef {import('./icon-table.js').IconTable} IconTable */
/** @typedef {import('../core/frame.js').DrawItem} DrawItem */

export class MapClusterManagers {
  /** @type {MapEngine} */
  #engine;
  /** @type {IconTable} */
  #icons;
  #pixelRatio;
  /** @type {() => void} asks the map for a frame */
  #wake;
  /** @type {Map<number, {manager: ClusterManager, icons: ClusterDrawables}>} by the manager's number */
  #managers = new Map();

  /**
   * @param {MapEngine} engine
   * @param {IconTable} icons
   * @param {number} pixelRatio
   * @param {() => void} wake
   */
  constructor(engine, icons, pixelRatio, wake) {
    this.#engine = engine;
    this.#icons = icons;
    this.#pixelRatio = pixelRatio;
    this.#wake = wake;
  }

  /**
   * The live manager an event's or a draw item's number names, or null.
   * @param {number} number
   * @returns {ClusterManager | null}
   */
  get(number) { return this.#managers.get(number)?.manager ?? null; }

  /**
   * Adds a manager, with its clusters' look.
   * @param {ClusterManagerOptions & ClusterIconOptions} [options]
   * @returns {ClusterManager}
   */
  add(options) {
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
   * Changes how a manager's clusters look (C3).
   * @param {ClusterManager} manager
   * @param {ClusterIconOptions} options
   */
  setIcons(manager, options) {
    const record = this.#managers.get(manager?.number);
    if (!record || record.manager !== manager) throw argumentError('setClusterIcons', 'manager must be one of this map\'s');
    record.icons = new ClusterDrawables(manager, objectArg(options, 'options', 'setClusterIcons'), this.#pixelRatio);
    this.#wake();
  }

  /** Destroys every manager. */
  clear() {
    for (const { manager } of [...this.#managers.values()]) manager.destroy();
    this.#managers.clear();
  }

  /**
   * What the app is given for a manager's item (as a `clusterItemTap` handler gets it), or null
   * for one no longer held (an item removed since it was clustered is still drawn, but has no
   * options left).
   * @param {number} number  the manager's
   * @param {number} id  the item's
   * @returns {ClusterItemTap | null}
   */
  item(number, id) {
    const manager = this.get(number);
    if (!manager || manager.itemIcon(id) === undefined) return null;
    return { id, item: manager.item(id), manager };
  }

  /**
   * What the renderer draws for a cluster or an item.
   * @param {DrawItem} item
   * @returns {import('./icon-table.js').Drawable | null}
   */
  drawable(item) {
    const r = this.#managers.get(item.manager);
    if (!r) return null;
    if (item.kind === 'cluster') return r.icons.drawable(item);
    const icon = r.manager.itemIcon(item.id);
    return icon === undefined ? null : this.#icons.drawable(icon);
  }
}
