// A CairnMap's cluster managers: each the engine's manager (see cluster-manager.js) with how
// its clusters look on this map. The map hooks into each (MapEngine.addClusterManager's host) so
// that what they change shows at once on a still map, items take only this map's icons, and
// the engine sizes cluster icons by this page's measure of their labels.

import { ClusterDrawables } from './cluster-drawables.js';
import { measureClusterLabels } from '../render/cluster-icon.js';
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
  /** @type {{advances: number[], height: number} | undefined} */
  #metrics;

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
    const manager = this.#engine.addClusterManager(rest, {
      // What shows at once on a still map draws a frame (clustering, a cleared manager, a
      // selected or removed item's window, new icon buckets, a destroyed manager).
      changed: this.#wake,
      // An item's map icon must be this map's (its number would name another icon here).
      checkIcon: (icon, call) => {
        if (icon instanceof MapIcon && !this.#icons.owns(icon)) {
          throw argumentError(call, 'icon must come from this map\'s icon(), loadIcon() or pinIcon()');
        }
      },
      labelMetrics: this.#labelMetrics(),
      removed: (m) => { this.#managers.delete(m.number); },
    });
    const icons = new ClusterDrawables(manager, { clusterImages, drawCluster }, this.#pixelRatio, this.#engine.clusterLabelFontSize);
    this.#managers.set(manager.number, { manager, icons });
    this.#wake();
    return manager;
  }

  /**
   * The page's measure of cluster labels in the font they are drawn with, at the engine's size:
   * the engine sizes icons from it (Google's diameter grows with the label's measured text).
   * Measured once per map.
   * @returns {{advances: number[], height: number}}
   */
  #labelMetrics() {
    this.#metrics ??= measureClusterLabels(this.#engine.clusterLabelFontSize);
    return this.#metrics;
  }

  /**
   * Changes how a manager's clusters look (C3).
   * @param {ClusterManager} manager
   * @param {ClusterIconOptions} options
   */
  setIcons(manager, options) {
    const record = this.#managers.get(manager?.number);
    if (!record || record.manager !== manager) throw argumentError('setClusterIcons', 'manager must be one of this map\'s');
    record.icons = new ClusterDrawables(manager, objectArg(options, 'options', 'setClusterIcons'), this.#pixelRatio,
      this.#engine.clusterLabelFontSize);
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
    if (!manager || !manager.holdsItem(id)) return null;
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
    return this.#icons.drawable(item.icon);
  }
}
