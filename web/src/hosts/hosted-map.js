// A CairnMap inside another map library's map (Leaflet, MapLibre): the host owns the basemap,
// the camera and the input; Cairn draws its markers and clusters on a transparent canvas over
// the host's drawing. The camera goes both ways, one way at a time:
//   - the host leads while the user drags, zooms or the app moves it: each host move is given
//     to the engine (`follow`) and a frame is drawn in the same task, so the markers move in
//     the frame the host draws;
//   - the engine leads while one of its own animations runs (the default of a tap: zooming
//     into a cluster, centring a marker; panning an info window into view): each frame's
//     camera is given to the host (`onEngineCamera`), whose resulting move events are not
//     given back; a host that draws that camera in its next frame (`repaint`) gets the
//     frame drawn then, with its own.
// A click the host saw is given to the engine as a tap (`tap`): the engine hit-tests it.

import { CairnMap } from '../map/cairn-map.js';

/** @typedef {import('../core/frame.js').CameraPosition} CameraPosition */
/** @typedef {import('../core/frame.js').Frame} Frame */

/**
 * @typedef {object} HostedMapOptions
 * @property {CameraPosition} camera  the host's camera when the layer is added
 * @property {(camera: CameraPosition) => void} onEngineCamera  moves the host to the engine's camera
 *   (an engine animation's frame)
 * @property {(frame: Frame) => void} [onFrame]  after each frame is drawn
 * @property {() => void} [onAnimationEnd]  clusters have finished splitting or merging (items flying)
 * @property {() => void} [repaint]  for a host that draws a camera it is given in its own next frame
 *   (MapLibre): asks it for that frame. While the engine leads, each frame is then drawn when the
 *   host draws its camera (in `follow`), not a frame ahead of it.
 */

/** The hierarchical algorithm's radius is in units of a 512 extent over a 256-pixel tile. */
const RADIUS_UNITS_PER_PIXEL = 2;

/**
 * A cluster manager's options from a host layer's: the radius in CSS pixels, and the deepest
 * zoom that clusters in the engine's zoom; those left out stay out (the engine's defaults).
 * @param {{algorithm?: import('../engine/cluster-manager.js').ClusterManagerOptions['algorithm'], radiusPixels?: number,
 *   maxZoom?: number, minimumClusterSize?: number, animate?: boolean, flat?: boolean}} o
 * @returns {import('../engine/cluster-manager.js').ClusterManagerOptions}
 */
export function clusterManagerOptions(o) {
  /** @type {import('../engine/cluster-manager.js').ClusterManagerOptions} */
  const m = {};
  if (o.algorithm !== undefined) m.algorithm = o.algorithm;
  if (o.radiusPixels !== undefined) m.radius = o.radiusPixels * RADIUS_UNITS_PER_PIXEL;
  if (o.maxZoom !== undefined) m.maxZoom = o.maxZoom;
  if (o.minimumClusterSize !== undefined) m.minimumClusterSize = o.minimumClusterSize;
  if (o.animate !== undefined) m.animatesClusters = o.animate;
  if (o.flat !== undefined) m.flatItems = o.flat;
  return m;
}

export class HostedMap {
  /** @type {CairnMap} */
  #map;
  /** @type {HTMLElement} */
  #container;
  /** @type {HostedMapOptions} */
  #options;
  /** the host is being moved to the engine's camera: its move events are ours */
  #leading = false;
  /** @type {CameraPosition | null} the camera last given to the host, while the engine leads */
  #pushed = null;
  /** a frame is being built for the host's own drawing (`follow`): it is drawn at once */
  #following = false;
  /** the last frame's engine animation ran */
  #animating = false;
  /** the last frame had items flying into or out of clusters */
  #itemsFlying = false;
  #width = 0;
  #height = 0;

  /**
   * @param {HTMLElement} container  an element the size of the host's view, over its drawing
   * @param {HostedMapOptions} options
   */
  constructor(container, options) {
    this.#container = container;
    this.#options = options;
    this.#width = container.clientWidth;
    this.#height = container.clientHeight;
    this.#map = new CairnMap(container, { camera: options.camera, hosted: true });
    this.#map.on('frame', ({ frame }) => this.#afterFrame(frame));
    const repaint = options.repaint;
    if (repaint) {
      // A frame the engine leads is drawn when the host draws its camera; one the host's own
      // drawing asked for (follow) is drawn at once.
      this.#map.holdDraws((frame) => {
        if (this.#following || !(frame.animating || this.#animating)) return false;
        repaint();
        return true;
      });
    }
  }

  /** The CairnMap drawing the layer. */
  get map() { return this.#map; }

  /** Whether the host is being moved to the engine's camera (its move events are the layer's own). */
  get leading() { return this.#leading; }

  /**
   * The host's camera and view size now: given to the engine, and a frame drawn in this task.
   * @param {CameraPosition} camera
   * @param {number} width   CSS pixels
   * @param {number} height
   */
  follow(camera, width, height) {
    if (this.#leading) return;
    // A host that draws later than it is moved (MapLibre) reports the engine's camera back:
    // the frame of that camera, held until now, is drawn with the host's.
    if (this.#pushed && sameCamera(camera, this.#pushed)) {
      this.#map.drawHeld();
      return;
    }
    this.#pushed = null;
    this.#resize(width, height);
    // A host drawing again where the engine already is (a repaint, no move) must not move it:
    // a move would cancel what a tap answered in the last frame is about to start (zooming
    // into a cluster).
    if (!sameCamera(camera, this.#map.camera)) this.#map.moveCamera(camera);
    this.#following = true;
    try {
      this.#map.renderFrame();
    } finally {
      this.#following = false;
    }
  }

  /**
   * A click the host saw, at a point of its view (CSS pixels).
   * @param {number} x
   * @param {number} y
   */
  tap(x, y) { this.#map.tap(x, y); }

  /** Frees the engine's memory and takes the canvas away. */
  destroy() { this.#map.destroy(); }

  /**
   * @param {number} width
   * @param {number} height
   */
  #resize(width, height) {
    if (width === this.#width && height === this.#height) return;
    this.#width = width;
    this.#height = height;
    this.#container.style.width = `${width}px`;
    // The map follows its element's size (it observes it) before the browser paints.
    this.#container.style.height = `${height}px`;
  }

  /** @param {Frame} frame */
  #afterFrame(frame) {
    // The engine's animation leads, and its last frame too (where it stops).
    const lead = frame.animating || this.#animating;
    this.#animating = frame.animating;
    if (lead) {
      this.#leading = true;
      this.#pushed = frame.camera;
      try {
        this.#options.onEngineCamera(frame.camera);
      } finally {
        this.#leading = false;
      }
    }
    this.#options.onFrame?.(frame);
    let flying = false;
    for (const item of frame.items) if (item.progress < 1) { flying = true; break; }
    if (this.#itemsFlying && !flying) this.#options.onAnimationEnd?.();
    this.#itemsFlying = flying;
  }
}

/**
 * Whether a host's camera is one it was given (as it reads it back: to a few digits).
 * @param {CameraPosition} a
 * @param {CameraPosition} b
 */
function sameCamera(a, b) {
  const near = (/** @type {number} */ x, /** @type {number} */ y) => Math.abs(x - y) <= 1e-7 * Math.max(1, Math.abs(x));
  return near(a.latitude, b.latitude) && near(a.longitude, b.longitude) && near(a.zoom, b.zoom)
    && near(a.bearing, b.bearing) && near(a.tilt, b.tilt);
}
