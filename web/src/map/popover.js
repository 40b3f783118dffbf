// A popover anchored to a marker (feature V2): an element of the app's, shown above the marker
// while open. Unlike info windows it is live page content (it takes its own pointer events).
// The engine holds it and decides everything about it: where it stands (where the marker's
// info window would), when it pans the map to show it whole (`autoPan`), when a tap closes it
// (`autoClose`), and that it goes with its marker. This handle creates its element, measures it
// for the engine and puts it where each frame says.

/** @typedef {import('./marker.js').Marker} Marker */
/** @typedef {import('../core/frame.js').PopoverPlacement} PopoverPlacement */

/**
 * @typedef {object} PopoverLink  what a popover needs of its map
 * @property {import('../engine/map-engine.js').MapEngine} engine
 * @property {() => HTMLElement} container
 * @property {(popover: Popover) => void} removed
 * @property {() => void} wake
 */

export class Popover {
  /** @type {PopoverLink} */
  #link;
  /** @type {HTMLElement} */
  #element;
  /** @type {number} the engine's id */
  #id;
  /** the size last told to the engine */
  #width = -1;
  #height = -1;
  #removed = false;
  /** @type {Marker} */
  marker;

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
    const { open, ...settings } = options ?? {};
    this.#id = link.engine.addPopover(marker.id, settings);
    const el = document.createElement('div');
    el.dataset.cairnOverlay = '';
    el.style.cssText = 'position:absolute;left:0;top:0;display:none;z-index:2;';
    el.appendChild(content);
    link.container().appendChild(el);
    this.#element = el;
    if (open) this.open();
  }

  /** The engine's id of the popover (the `popover` of frame records and events). */
  get id() { return this.#id; }

  /** Whether it is open (as the engine holds it: a tap elsewhere may have closed it). */
  get isOpen() { return this.#settings()?.open ?? false; }

  /** Whether a tap elsewhere on the map closes it. */
  get autoClose() { return this.#settings()?.autoClose ?? false; }
  set autoClose(on) { this.#update({ autoClose: on }); }

  /** Whether opening it pans the map to show it whole. */
  get autoPan() { return this.#settings()?.autoPan ?? false; }
  set autoPan(on) { this.#update({ autoPan: on }); }

  /** The element holding the app's content. */
  get element() { return this.#element; }

  /** Opens it (an open one stays as it is). */
  open() {
    const settings = this.#settings();
    if (!settings) return;
    if (!settings.open) {
      // Laid out but not seen until a frame places it: the engine needs its size to place it.
      this.#element.style.display = 'block';
      this.#element.style.visibility = 'hidden';
      this.#measure();
    }
    this.#update({ open: true });
  }

  close() { this.#update({ open: false }); }

  /** Takes it off the map. */
  remove() {
    if (this.#settings()) this.#link.engine.removePopover(this.#id);
    this.gone();
  }

  /** The engine took it away (with its marker), or the app did: its element goes. */
  gone() {
    if (this.#removed) return;
    this.#removed = true;
    this.#element.remove();
    this.#link.removed(this);
  }

  /**
   * Shows it where the frame places it, hidden while it is closed or its marker is not drawn,
   * and tells the engine its size when that changed (its content is the app's, and may).
   * @param {PopoverPlacement | undefined} placement  this frame's, none while it is closed
   */
  place(placement) {
    const el = this.#element;
    if (!placement) {
      el.style.display = 'none';
      return;
    }
    el.style.display = 'block';
    el.style.visibility = placement.shown ? 'visible' : 'hidden';
    el.style.transform = `translate(${Math.round(placement.x)}px, ${Math.round(placement.y)}px)`;
    this.#measure();
  }

  /** Tells the engine the element's size when it changed, and asks for a frame to show it. */
  #measure() {
    const w = this.#element.offsetWidth;
    const h = this.#element.offsetHeight;
    if (w === this.#width && h === this.#height) return;
    this.#width = w;
    this.#height = h;
    this.#link.engine.setPopoverSize(this.#id, w, h);
    this.#link.wake();
  }

  /** @returns {{open: boolean, autoClose: boolean, autoPan: boolean} | null} */
  #settings() {
    return this.#removed ? null : this.#link.engine.popover(this.#id);
  }

  /**
   * Changes settings in the engine; a popover gone (removed, or with its marker) takes none.
   * @param {{open?: boolean, autoClose?: boolean, autoPan?: boolean}} settings
   */
  #update(settings) {
    if (!this.#settings()) return;
    this.#link.engine.updatePopover(this.#id, settings);
    this.#link.wake();
  }
}
