// Turns the engine's events of a frame into the app's (see map-event-handlers.js): runs the tap
// handlers and answers the engine whether they consumed the tap, opens and closes the page's
// info window as the engine selects, and keeps what the app was told a window opened with, so
// its taps and its close give the same even once the owner is gone. (Popovers read the frame
// themselves, see popovers.js: the engine has already closed those a tap closes.)

/** @typedef {import('../core/frame.js').Frame} Frame */
/** @typedef {import('../core/frame.js').WindowOwner} WindowOwner */
/** @typedef {import('./marker.js').Marker} Marker */
/** @typedef {import('./map-event-handlers.js').ClusterItemTap} ClusterItemTap */

/**
 * @typedef {object} FrameEventsLink  what the events reach of the map
 * @property {import('../engine/map-engine.js').MapEngine} engine
 * @property {import('./marker-table.js').MarkerTable} markers
 * @property {import('./map-cluster-managers.js').MapClusterManagers} clusters
 * @property {import('./map-event-handlers.js').MapEventHandlers} handlers
 * @property {import('./info-window-view.js').InfoWindowView} infoWindow
 * @property {import('./indoor-buildings.js').IndoorBuildings} buildings
 * @property {() => void} locate  asks the browser where the user is
 * @property {() => void} wake  asks for a frame: an answer or a close given to the engine changes the map
 */

export class FrameEvents {
  /** @type {FrameEventsLink} */
  #map;
  /** @type {string | null} the owner (`ownerKey`) of a window closed at once: the hooks gave nothing for an
   *  owner without text (the engine opens such windows only while hooks are set) */
  #unopened = null;
  /** @type {{key: string, owner: Marker | ClusterItemTap} | null} the window the app was told opened,
   *  and what it was given: its close and taps give the same, even once the owner is gone */
  #shown = null;

  /** @param {FrameEventsLink} map */
  constructor(map) {
    this.#map = map;
  }

  /**
   * A selected cluster item as the app sees it: what it was given when the item's window
   * opened (the same object while the window stays open), or else as a `clusterItemTap`
   * handler gets it; null for one the map no longer holds.
   * @param {{manager: number, item: number}} owner
   * @returns {ClusterItemTap | null}
   */
  selectedItem(owner) {
    if (this.#shown?.key === ownerKey(owner)) return /** @type {ClusterItemTap} */ (this.#shown.owner);
    return this.#map.clusters.item(owner.manager, owner.item);
  }

  /**
   * What the app is given for an info window's owner: the marker, or the cluster item as a
   * `clusterItemTap` handler gets it; null for one the map no longer holds (an item removed
   * since it was clustered is still drawn, but has no options left).
   * @param {WindowOwner} owner
   * @returns {Marker | ClusterItemTap | null}
   */
  #windowOwner(owner) {
    if ('marker' in owner) return this.#map.markers.handle(owner.marker);
    return this.#map.clusters.item(owner.manager, owner.item);
  }

  /**
   * Runs the app's handlers for the frame's events, and answers taps.
   * @param {Frame} frame
   */
  dispatch(frame) {
    const { markers, clusters, handlers, infoWindow, buildings } = this.#map;
    for (const e of frame.events) {
      const ev = /** @type {any} */ (e);
      switch (e.type) {
        case 'markerTapped': {
          const marker = markers.handle(ev.marker);
          this.#answer(marker ? handlers.emitTap('markerTap', marker) : false);
          break;
        }
        case 'clusterTapped': {
          const manager = clusters.get(ev.manager);
          this.#answer(manager ? handlers.emitTap('clusterTap', { id: ev.cluster, count: ev.count, manager }) : false);
          break;
        }
        case 'clusterItemTapped': {
          // An item removed since the last cluster() is still drawn (Google's rule) and can be
          // tapped: it has no options any more, so only the default runs (which finds no item).
          const tap = clusters.item(ev.manager, ev.item);
          // C7: the item's handler, then the map's marker handler, then the default.
          this.#answer(tap ? handlers.emitTap('clusterItemTap', tap) || handlers.emitTap('markerTap', tap) : false);
          break;
        }
        case 'infoWindowOpened': this.#opened(ev); break;
        case 'infoWindowContentChanged': {
          // New text to show (the engine closes one whose text went, unless hooks are set); the
          // hooks give nothing for an owner without text: the window closes (and says so).
          const owner = this.#windowOwner(ev);
          if (owner && !infoWindow.open(owner)) this.#close();
          break;
        }
        case 'infoWindowClosed': this.#closed(ev); break;
        case 'infoWindowTapped': this.#emitForWindow('infoWindowTap', ev); break;
        case 'infoWindowLongPressed': this.#emitForWindow('infoWindowLongPress', ev); break;
        case 'cameraWillMove': handlers.emit('cameraWillMove', { cause: ev.cause }); break;
        case 'cameraChanged': handlers.emit('cameraChange', frame.camera); break;
        case 'cameraIdle': handlers.emit('cameraIdle', frame.camera); break;
        case 'tap': handlers.emit('tap', { latitude: ev.latitude, longitude: ev.longitude, x: ev.x, y: ev.y }); break;
        case 'longPress': handlers.emit('longPress', { latitude: ev.latitude, longitude: ev.longitude, x: ev.x, y: ev.y }); break;
        case 'compassTapped': handlers.emit('compassTap'); break;
        case 'myLocationButtonTapped': handlers.emit('myLocationButtonTap'); break;
        case 'indoorBuildingFocused': handlers.emit('indoorBuildingFocus', buildings.handle(ev.building)); break;
        case 'indoorLevelActivated': {
          const building = buildings.shown(ev.building, ev.level);
          if (building) handlers.emit('indoorLevelActivate', { building, level: ev.level });
          break;
        }
        case 'locationRequested': this.#map.locate(); break;
        default: break;
      }
    }
  }

  /**
   * The answer to a tap: unless consumed, the engine's default runs from the next frame.
   * @param {boolean} consumed
   */
  #answer(consumed) {
    this.#map.engine.answerTap(consumed);
    this.#map.wake();
  }

  /** Closes the open window in the engine, which reports it in the next frame. */
  #close() {
    this.#map.engine.selectMarker(null);
    this.#map.wake();
  }

  /** @param {WindowOwner} ev */
  #opened(ev) {
    const { engine, infoWindow, handlers } = this.#map;
    const owner = this.#windowOwner(ev);
    if (owner && infoWindow.open(owner)) {
      this.#shown = { key: ownerKey(ev), owner };
      handlers.emit('infoWindowOpen', owner);
      return;
    }
    // While hooks are set the engine opens a window for every marker and item, not knowing what
    // the hooks answer; one they give nothing for, without text, is no window. (Unless another
    // was selected since, whose window must stay.)
    this.#unopened = ownerKey(ev);
    const selected = engine.selection;
    if (selected && ownerKey(selected) === this.#unopened) this.#close();
  }

  /** @param {WindowOwner} ev */
  #closed(ev) {
    this.#map.infoWindow.close();
    if (ownerKey(ev) === this.#unopened) {
      this.#unopened = null;
      return;
    }
    this.#emitForWindow('infoWindowClose', ev);
    this.#shown = null;
  }

  /**
   * Tells the app about the window it was told opened, with what it was given then.
   * @param {'infoWindowTap' | 'infoWindowLongPress' | 'infoWindowClose'} type
   * @param {WindowOwner} ev
   */
  #emitForWindow(type, ev) {
    if (this.#shown?.key === ownerKey(ev)) this.#map.handlers.emit(type, this.#shown.owner);
  }
}

/**
 * One string per info window owner, to tell owners apart.
 * @param {WindowOwner} owner
 * @returns {string}
 */
function ownerKey(owner) {
  return 'marker' in owner ? `marker ${owner.marker}` : `item ${owner.manager} ${owner.item}`;
}
