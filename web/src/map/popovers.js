// A map's popovers (feature V2): each the engine's, shown where every frame places it, and
// taken away when the engine says it went with its marker.

import { Popover } from './popover.js';

/** @typedef {import('./marker.js').Marker} Marker */
/** @typedef {import('../core/frame.js').Frame} Frame */
/** @typedef {import('./popover.js').PopoverLink} PopoverLink */
/** @typedef {Omit<PopoverLink, 'removed'>} PopoversLink  what a map's popovers need of it */

export class Popovers {
  /** @type {Map<number, Popover>} by the engine's id */
  #byId = new Map();
  /** @type {PopoverLink} */
  #link;

  /** @param {PopoversLink} link */
  constructor(link) {
    this.#link = { ...link, removed: (popover) => { this.#byId.delete(popover.id); } };
  }

  /**
   * @param {Marker} marker
   * @param {HTMLElement} content
   * @param {{open?: boolean, autoClose?: boolean, autoPan?: boolean}} [options]
   * @returns {Popover}
   */
  add(marker, content, options) {
    const popover = new Popover(this.#link, marker, content, options);
    this.#byId.set(popover.id, popover);
    return popover;
  }

  /**
   * Puts each popover where the frame places it, after taking away those the engine removed.
   * @param {Frame} frame
   */
  place(frame) {
    for (const e of frame.events) {
      if (e.type === 'popoverRemoved') this.#byId.get(/** @type {{popover: number}} */ (e).popover)?.gone();
    }
    const placed = new Map(frame.popovers.map((p) => [p.popover, p]));
    for (const [id, popover] of this.#byId) popover.place(placed.get(id));
  }

  /** Removes them all. */
  clear() {
    for (const p of [...this.#byId.values()]) p.remove();
  }

  /** Takes their elements away without asking the engine (which is going). */
  detach() {
    for (const p of [...this.#byId.values()]) p.gone();
  }
}
