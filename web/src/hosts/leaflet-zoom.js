// Leaflet's zoom animation, as a camera. Leaflet animates a zoom with a CSS transition of its
// layers' transforms (its `zoomanim` event gives only the end), so the camera between the start
// and the end is read where the browser has it: from an empty element of the layer's pane that
// is given the same transition as Leaflet's own layers. Its computed transform in an animation
// frame is the one the host's tiles and markers are drawn with in that frame.

/** @typedef {import('../core/frame.js').CameraPosition} CameraPosition */

/**
 * @typedef {object} LeafletLike  the few of Leaflet's members this reads
 * @property {{setTransform(el: HTMLElement, offset: any, scale?: number): void, addClass(el: HTMLElement, name: string): void}} DomUtil
 * @property {(x: number, y: number) => any} point
 */

export class LeafletZoom {
  /** @type {any} the L.Map */
  #map;
  /** @type {LeafletLike} */
  #L;
  /** @type {HTMLElement} */
  #probe;
  /** @type {{zoom: number, origin: {x: number, y: number}, centre: {x: number, y: number}, width: number, height: number} | null} */
  #start = null;

  /**
   * @param {any} map  the L.Map
   * @param {LeafletLike} L
   * @param {HTMLElement} pane  the layer's pane
   */
  constructor(map, L, pane) {
    this.#map = map;
    this.#L = L;
    this.#probe = document.createElement('div');
    this.#probe.style.cssText = 'position:absolute;left:0;top:0;width:1px;height:1px;pointer-events:none;';
    L.DomUtil.addClass(this.#probe, 'leaflet-zoom-animated');
    pane.appendChild(this.#probe);
    this.rest();
  }

  /** Whether a zoom animation runs. */
  get running() { return this.#start !== null; }

  /**
   * The probe at rest, untransformed over the view's top-left corner (outside an animation no
   * transition runs, so this is instant).
   */
  rest() {
    this.#start = null;
    this.#L.DomUtil.setTransform(this.#probe, this.#map.containerPointToLayerPoint([0, 0]), 1);
  }

  /**
   * Leaflet's `zoomanim`: the probe is sent where the view will be, on Leaflet's transition.
   * @param {{center: any, zoom: number}} e
   */
  start(e) {
    const map = this.#map;
    const size = map.getSize();
    const zoom = map.getZoom();
    const origin = map.containerPointToLayerPoint([0, 0]);
    const centre = map.project(map.getCenter(), zoom);
    this.#start = { zoom, origin: { x: origin.x, y: origin.y }, centre: { x: centre.x, y: centre.y }, width: size.x, height: size.y };
    // A point at view pixel q before the zoom is at s·q + t after it.
    const s = map.getZoomScale(e.zoom, zoom);
    const to = map.project(e.center, zoom);
    const tx = s * (centre.x - to.x - size.x / 2) + size.x / 2;
    const ty = s * (centre.y - to.y - size.y / 2) + size.y / 2;
    this.#L.DomUtil.setTransform(this.#probe, this.#L.point(origin.x + tx, origin.y + ty), s);
  }

  /**
   * The camera the host draws with now, mid-animation; null when none runs.
   * @returns {CameraPosition | null}
   */
  camera() {
    const st = this.#start;
    if (!st) return null;
    const m = new DOMMatrixReadOnly(getComputedStyle(this.#probe).transform);
    const s = m.a;
    if (!(s > 0)) return null;
    // The view's centre is the point q of the view before the zoom with s·q + t = centre.
    const qx = (st.width / 2 - (m.e - st.origin.x)) / s;
    const qy = (st.height / 2 - (m.f - st.origin.y)) / s;
    const c = this.#map.unproject(this.#L.point(st.centre.x + qx - st.width / 2, st.centre.y + qy - st.height / 2), st.zoom);
    return { latitude: c.lat, longitude: c.lng, zoom: st.zoom + Math.log2(s), bearing: 0, tilt: 0 };
  }

  /** Takes the probe away. */
  remove() { this.#probe.remove(); }
}
