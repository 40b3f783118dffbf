// Leaflet icons (`L.Icon`, `L.Icon.Default`) as the map's icons: each icon object (and each
// image URL) is registered once, at the size and anchor its options give, so the engine places,
// collides and hit-tests markers as Leaflet would draw them. The picture is drawn into a canvas
// of that size when its image arrives (the map draws it from then on). A `L.DivIcon` is laid out
// by the page and copied into a canvas of its laid-out size (leaflet-element-drawing.js), divIcons
// of the same HTML, class, size and anchor sharing one. An icon with neither an image and a size
// nor HTML is drawn as the engine's default pin.

import { DEFAULT_PIN } from '../engine/marker-records.js';
import { paintElement, pendingImages, withLaidOut } from './leaflet-element-drawing.js';

/** @typedef {import('../map/cairn-map.js').CairnMap} CairnMap */

export class LeafletIcons {
  /** @type {CairnMap} */
  #map;
  /** @type {WeakMap<object, number>} by L.Icon */
  #byIcon = new WeakMap();
  /** @type {Map<string, number>} by URL, size and anchor */
  #byKey = new Map();

  /** @param {CairnMap} map */
  constructor(map) {
    this.#map = map;
  }

  /**
   * The icon number for a marker's `L.Icon`.
   * @param {any} icon
   * @returns {number}
   */
  number(icon) {
    if (!icon || typeof icon !== 'object') return DEFAULT_PIN;
    let n = this.#byIcon.get(icon);
    if (n === undefined) {
      n = this.#register(icon);
      this.#byIcon.set(icon, n);
    }
    return n;
  }

  /**
   * @param {any} icon
   * @returns {number}
   */
  #register(icon) {
    const o = icon.options ?? {};
    if ('html' in o && typeof icon.createIcon === 'function') return this.#registerDiv(icon);
    const ratio = window.devicePixelRatio || 1;
    // L.Icon.Default finds its image's folder from the page's CSS (`_getIconUrl`).
    const url = typeof icon._getIconUrl === 'function' ? icon._getIconUrl(ratio > 1 ? 'iconRetina' : 'icon')
      ?? icon._getIconUrl('icon') : o.iconUrl;
    const size = pair(o.iconSize);
    if (typeof url !== 'string' || !url || !size) return DEFAULT_PIN;
    const [width, height] = size;
    const anchor = anchorOf(o, size);
    const key = JSON.stringify([url, width, height, anchor]);
    const known = this.#byKey.get(key);
    if (known !== undefined) return known;
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * ratio));
    canvas.height = Math.max(1, Math.round(height * ratio));
    const image = new Image();
    image.onload = () => {
      canvas.getContext('2d')?.drawImage(image, 0, 0, canvas.width, canvas.height);
      this.#map.requestFrame();
    };
    image.src = url;
    const n = this.#map.icon(canvas, { width, height, anchor: { x: anchor[0] / width, y: anchor[1] / height } }).number;
    this.#byKey.set(key, n);
    return n;
  }

  /**
   * A `L.DivIcon`: its element as the page lays it out (border box), anchored where Leaflet
   * anchors it (`anchorOf`), painted again once its images load.
   * @param {any} icon
   * @returns {number}
   */
  #registerDiv(icon) {
    const o = icon.options;
    const size = pair(o.iconSize);
    const html = typeof o.html === 'string' || o.html === false ? o.html : null;
    const key = html === null ? null : JSON.stringify(['div', html, o.className ?? '', size, pair(o.iconAnchor)]);
    const known = key === null ? undefined : this.#byKey.get(key);
    if (known !== undefined) return known;
    const ratio = window.devicePixelRatio || 1;
    const canvas = document.createElement('canvas');
    let again = true;
    /** Lays the element out and paints it; its border box, or null when it has no size. */
    const paint = () => {
      const el = /** @type {HTMLElement} */ (icon.createIcon());
      return withLaidOut(el, (box) => {
        if (!(box.width > 0 && box.height > 0)) return null;
        canvas.width = Math.max(1, Math.round(box.width * ratio));
        canvas.height = Math.max(1, Math.round(box.height * ratio));
        const ctx = canvas.getContext('2d');
        if (ctx) paintElement(ctx, el, ratio, -box.left, -box.top);
        const pending = pendingImages(el);
        if (pending.length > 0 && again) {
          again = false;
          Promise.all(pending.map((i) => i.decode().catch(() => {}))).then(() => { paint(); this.#map.requestFrame(); });
        }
        return { width: box.width, height: box.height };
      });
    };
    const box = paint();
    if (!box) return DEFAULT_PIN;
    const anchor = anchorOf(o, size);
    const n = this.#map.icon(canvas, { width: box.width, height: box.height,
      anchor: { x: anchor[0] / box.width, y: anchor[1] / box.height } }).number;
    if (key !== null) this.#byKey.set(key, n);
    return n;
  }
}

/**
 * Where Leaflet anchors an icon on its marker's point: `iconAnchor`; else the middle of
 * `iconSize`; without a size, its top left corner.
 * @param {any} o  the icon's options
 * @param {[number, number] | null} size
 * @returns {[number, number]}
 */
function anchorOf(o, size) {
  return pair(o.iconAnchor) ?? (size ? [size[0] / 2, size[1] / 2] : [0, 0]);
}

/**
 * Leaflet's point-like option (`[x, y]`, `L.point`, a number for both) as two numbers, or null.
 * @param {unknown} v
 * @returns {[number, number] | null}
 */
function pair(v) {
  if (typeof v === 'number') return Number.isFinite(v) && v > 0 ? [v, v] : null;
  if (Array.isArray(v)) return Number.isFinite(v[0]) && Number.isFinite(v[1]) ? [v[0], v[1]] : null;
  if (v && typeof v === 'object' && 'x' in v && 'y' in v) {
    const p = /** @type {{x: number, y: number}} */ (v);
    return Number.isFinite(p.x) && Number.isFinite(p.y) ? [p.x, p.y] : null;
  }
  return null;
}
