// A popover anchored to a marker (feature V2): an element of the app's, shown above the marker
// while open. Unlike info windows it is live page content (it takes its own pointer events);
// it closes on a tap elsewhere on the map when `autoClose` is on, and when it opens with
// `autoPan` on, the map pans just enough to show it whole.

/** @typedef {import('./marker.js').Marker} Marker */

/**
 * @typedef {object} PopoverLink  what a popover needs of its map
 * @property {() => HTMLElement} container
 * @property {(marker: Marker) => {x: number, y: number} | null} point  where the popover stands: the
 *   marker's info-window anchor as drawn; null while the marker is not drawn
 * @property {() => {width: number, height: number, padding: {top?: number, left?: number, bottom?: number, right?: number}}} viewport
 * @property {(dx: number, dy: number) => void} panBy  moves the view's centre by a screen offset
 * @property {(popover: Popover) => void} removed
 * @property {() => void} wake
 */

/** Gap between the marker's info-window anchor (the top of its icon) and the popover's bottom. */
const LIFT = 4;
/** Space kept between a panned-in popover and the view's edges. */
const MARGIN = 12;

export class Popover {
  /** @type {PopoverLink} */
  #link;
  /** @type {HTMLElement} */
  #element;
  #open = false;
  #pendingPan = false;
  /** @type {Marker} */
  marker;
  autoClose;
  autoPan;

  /**
   * Use `map.addPopover(marker, content, options)`.
   * @param {PopoverLink} link
   * @param {Marker} marker
   * @param {HTMLElement} content
   * @param {{open?: boolean, autoClose?: boolean, autoPan?: boolean}} [options]
   */
  constructor(link, marker, content, options) {
    this.#link = link;
    this.marker = marker;
    this.autoClose = options?.autoClose ?? true;
    this.autoPan = options?.autoPan ?? true;
    const el = document.createElement('div');
    el.dataset.cairnOverlay = '';
    el.style.cssText = 'position:absolute;left:0;top:0;display:none;z-index:2;';
    el.appendChild(content);
    link.container().appendChild(el);
    this.#element = el;
    if (options?.open) this.open();
  }

  /** Whether it is open. */
  get isOpen() { return this.#open; }

  /** The element holding the app's content. */
  get element() { return this.#element; }

  open() {
    this.#open = true;
    this.#element.style.display = 'block';
    this.#pendingPan = this.autoPan;
    this.#link.wake();
  }

  close() {
    this.#open = false;
    this.#element.style.display = 'none';
  }

  /** Takes it off the map. */
  remove() {
    this.close();
    this.#element.remove();
    this.#link.removed(this);
  }

  /** Follows the marker (called by the map every frame). */
  place() {
    if (!this.#open) return;
    const p = this.#link.point(this.marker);
    const el = this.#element;
    if (!p) {
      el.style.visibility = 'hidden';
      return;
    }
    const w = el.offsetWidth;
    const h = el.offsetHeight;
    const left = p.x - w / 2;
    const top = p.y - LIFT - h;
    el.style.visibility = 'visible';
    el.style.transform = `translate(${Math.round(left)}px, ${Math.round(top)}px)`;
    if (this.#pendingPan) {
      this.#pendingPan = false;
      const v = this.#link.viewport();
      const dx = shift(left, w, (v.padding.left ?? 0) + MARGIN, v.width - (v.padding.right ?? 0) - MARGIN);
      const dy = shift(top, h, (v.padding.top ?? 0) + MARGIN, v.height - (v.padding.bottom ?? 0) - MARGIN);
      if (dx !== 0 || dy !== 0) this.#link.panBy(dx, dy);
    }
  }
}

/**
 * How far the view must move so [start, start + size] fits in [low, high] (a box too big to
 * fit keeps its start in view).
 * @param {number} start
 * @param {number} size
 * @param {number} low
 * @param {number} high
 * @returns {number}
 */
export function shift(start, size, low, high) {
  if (start < low) return start - low;
  // Move it in, but never push its start out of view.
  if (start + size > high) return Math.min(start + size - high, start - low);
  return 0;
}
