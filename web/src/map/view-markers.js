// Custom view markers (feature M4): a marker whose look is an HTML element or a draw callback.
// Each is rasterised into its own canvas, registered as an icon of its size, and redrawn only
// while the marker's `tracksViewChanges` is true (Google's rule: set it false once the view is
// final, and the map stops re-rendering it). An element is rasterised through an SVG
// foreignObject image, so it should carry its styles inline; it is never placed in the page,
// so it takes no pointer events (taps go to the marker).

import { argumentError } from '../core/errors.js';
import { numbersArg } from '../core/arguments.js';

/** @typedef {import('./icon-table.js').IconTable} IconTable */
/** @typedef {import('../engine/map-icon.js').MapIcon} MapIcon */
/** @typedef {import('./marker.js').MapMarkerOptions} MapMarkerOptions */

/**
 * @typedef {object} View
 * @property {HTMLCanvasElement} canvas
 * @property {MapIcon} icon
 * @property {import('./icon-table.js').ViewContent} content
 * @property {boolean} tracks
 * @property {MutationObserver | null} observer
 * @property {boolean} dirty  an element changed and must be rasterised again
 * @property {number} width
 * @property {number} height
 */

export class ViewMarkers {
  /** @type {IconTable} */
  #icons;
  #pixelRatio;
  /** @type {(id: number, icon: MapIcon) => void} */
  #setIcon;
  /** @type {() => void} asks the map for a frame */
  #wake;
  /** @type {Map<number, View>} by marker id */
  #views = new Map();

  /**
   * @param {IconTable} icons
   * @param {number} pixelRatio
   * @param {(id: number, icon: MapIcon) => void} setIcon  gives the engine the marker's icon (its size)
   * @param {() => void} wake  asks the map for a frame (an element changed, or its image is ready)
   */
  constructor(icons, pixelRatio, setIcon, wake) {
    this.#icons = icons;
    this.#pixelRatio = pixelRatio;
    this.#setIcon = setIcon;
    this.#wake = wake;
  }

  /**
   * Makes the view of a marker that has one.
   * @param {number} id
   * @param {Pick<MapMarkerOptions, 'view' | 'viewSize' | 'tracksViewChanges'>} options
   */
  attach(id, options) {
    const content = /** @type {import('./icon-table.js').ViewContent} */ (options.view);
    const call = 'addMarker';
    let size;
    if (typeof content === 'function') {
      if (options.viewSize === undefined) throw argumentError(call, 'a view drawn by a callback needs viewSize {width, height}');
      size = numbersArg(options.viewSize, ['width', 'height'], 'viewSize', call);
    } else if (content instanceof HTMLElement) {
      size = measure(content);
    } else {
      throw argumentError(call, 'view must be an HTML element or a function (ctx, size) => void');
    }
    if (!(size.width > 0 && size.height > 0)) throw argumentError(call, 'the view has no size (is the element empty?)');
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(size.width * this.#pixelRatio);
    canvas.height = Math.ceil(size.height * this.#pixelRatio);
    // The marker stands on its own ground anchor, whatever the icon's.
    const icon = this.#icons.dynamicIcon(canvas, size.width, size.height);
    /** @type {View} */
    const view = { canvas, icon, content, tracks: options.tracksViewChanges ?? true, observer: null, dirty: true, ...size };
    if (content instanceof HTMLElement && view.tracks) {
      view.observer = new MutationObserver(() => {
        view.dirty = true;
        this.#wake();
      });
      view.observer.observe(content, { subtree: true, childList: true, attributes: true, characterData: true });
    }
    this.#views.set(id, view);
    this.#setIcon(id, icon);
    this.#draw(view, 0);
  }

  /**
   * Forgets a marker's view.
   * @param {number} id
   */
  detach(id) {
    const view = this.#views.get(id);
    if (!view) return;
    view.observer?.disconnect();
    this.#icons.release(view.icon);
    this.#views.delete(id);
  }

  clear() {
    for (const id of [...this.#views.keys()]) this.detach(id);
  }

  /**
   * The icon number a marker's view draws with, or undefined without a view.
   * @param {number} id
   * @returns {number | undefined}
   */
  iconOf(id) { return this.#views.get(id)?.icon.number; }

  /**
   * Whether a view drawn in `items` is redrawn every frame (the map then keeps frames coming;
   * one off screen does not keep the page busy).
   * @param {readonly {kind: string, id: number}[]} items  the frame's draw list
   * @returns {boolean}
   */
  tracking(items) {
    if (this.#views.size === 0) return false;
    for (const item of items) {
      if (item.kind !== 'marker') continue;
      const v = this.#views.get(item.id);
      if (v && v.tracks && typeof v.content === 'function') return true;
    }
    return false;
  }

  /**
   * Redraws the views that track changes: callbacks every frame, elements when they changed.
   * @param {number} time  seconds
   */
  redraw(time) {
    for (const v of this.#views.values()) {
      if (v.tracks && (typeof v.content === 'function' || v.dirty)) this.#draw(v, time);
    }
  }

  /**
   * @param {View} v
   * @param {number} time
   */
  #draw(v, time) {
    v.dirty = false;
    const ctx = /** @type {CanvasRenderingContext2D} */ (v.canvas.getContext('2d'));
    const r = this.#pixelRatio;
    if (typeof v.content === 'function') {
      ctx.setTransform(r, 0, 0, r, 0, 0);
      ctx.clearRect(0, 0, v.width, v.height);
      try {
        v.content(ctx, { width: v.width, height: v.height, time });
      } catch (error) {
        reportError(error);    // the app's drawing failed: the marker stays as drawn so far
        v.tracks = false;      // and is not asked again every frame
      }
      return;
    }
    const image = new Image();
    image.onload = () => {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, v.canvas.width, v.canvas.height);
      ctx.drawImage(image, 0, 0, v.canvas.width, v.canvas.height);
      this.#wake();
    };
    image.src = svgImage(v.content, v.width, v.height);
  }
}

/**
 * An element's size as laid out in the page, measured off screen.
 * @param {HTMLElement} el
 * @returns {{width: number, height: number}}
 */
function measure(el) {
  const host = document.createElement('div');
  host.style.cssText = 'position:absolute;left:-10000px;top:0;visibility:hidden;';
  const copy = /** @type {HTMLElement} */ (el.cloneNode(true));
  copy.style.display = 'inline-block';
  host.appendChild(copy);
  document.body.appendChild(host);
  const r = copy.getBoundingClientRect();
  host.remove();
  return { width: Math.ceil(r.width), height: Math.ceil(r.height) };
}

/**
 * A data URL of an SVG image showing the element (inline styles apply; the page's style sheets
 * do not reach inside an image).
 * @param {HTMLElement} el
 * @param {number} width
 * @param {number} height
 * @returns {string}
 */
function svgImage(el, width, height) {
  const copy = /** @type {HTMLElement} */ (el.cloneNode(true));
  copy.setAttribute('xmlns', 'http://www.w3.org/1999/xhtml');
  copy.style.display = 'inline-block';
  const xhtml = new XMLSerializer().serializeToString(copy);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<foreignObject width="100%" height="100%">${xhtml}</foreignObject></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
