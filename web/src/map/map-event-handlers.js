// The app's event handlers of a CairnMap, by event name. A handler that throws does not stop
// the map: its error is reported (`reportError`) and the other handlers still run.

import { argumentError } from '../core/errors.js';

/** @typedef {import('./marker.js').Marker} Marker */
/** @typedef {import('../core/frame.js').Frame} Frame */
/** @typedef {import('../core/frame.js').CameraPosition} CameraPosition */
/** @typedef {import('./indoor-building.js').IndoorBuilding} IndoorBuilding */
/** @typedef {import('../engine/cluster-manager.js').ClusterManager} ClusterManager */

/**
 * @typedef {object} ClusterTap  what a `clusterTap` handler is given
 * @property {number} id     the cluster, for the manager's queries (getLeaves, getClusterExpansionZoom, …)
 * @property {number} count  items in it
 * @property {ClusterManager} manager
 */

/**
 * @typedef {object} ClusterItemTap  what a `clusterItemTap` handler (and then a `markerTap` one) is given
 * @property {number} id
 * @property {import('../engine/cluster-manager.js').ClusterItem} item
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

export class MapEventHandlers {
  /** @type {{[K in keyof MapEvents]?: Set<MapEvents[K]>}} */
  #handlers = {};

  /**
   * Adds a handler; returns the function that removes it.
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

  /**
   * Calls the handlers of a tap; true when one consumed it (one that throws counts as not).
   * @param {'markerTap' | 'clusterTap' | 'clusterItemTap'} type
   * @param {any} arg
   * @returns {boolean}
   */
  emitTap(type, arg) {
    let consumed = false;
    this.#each(type, (h) => { if (h(arg) === true) consumed = true; });
    return consumed;
  }

  /**
   * Calls the handlers of an event.
   * @param {keyof MapEvents} type
   * @param {any} [arg]
   */
  emit(type, arg) { this.#each(type, (h) => h(arg)); }

  /**
   * @param {keyof MapEvents} type
   * @param {(handler: (arg: any) => unknown) => void} run
   */
  #each(type, run) {
    for (const h of this.#handlers[type] ?? []) {
      try {
        run(/** @type {any} */ (h));
      } catch (error) {
        reportError(error);
      }
    }
  }
}
