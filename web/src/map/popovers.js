// A map's popovers (feature V2): each anchored to a marker, placed every frame, closed by a tap
// elsewhere, and removed with their marker.

import { Popover } from './popover.js';

/** @typedef {import('./marker.js').Marker} Marker */
/** @typedef {import('./popover.js').PopoverLink} PopoverLink */
/** @typedef {Omit<PopoverLink, 'removed'>} PopoversLink  what a map's popovers need of it */

/** A map's popovers: they follow their markers each frame, and leave with them. */
export class Popovers {
  /** @type {Set<Popover>} */
  #set = new Set();
  /** @type {PopoverLink} */
  #link;

  /** @param {PopoversLink} link */
  constructor(link) {
    this.#link = { ...link, removed: (popover) => { this.#set.delete(popover); } };
  }

  /**
   * @param {Marker} marker
   * @param {HTMLElement} content
   * @param {{open?: boolean, autoClose?: boolean, autoPan?: boolean}} [options]
   * @returns {Popover}
   */
  add(marker, content, options) {
    const popover = new Popover(this.#link, marker, content, options);
    this.#set.add(popover);
    return popover;
  }

  /** Places the open ones (called by the map every frame). */
  place() {
    for (const p of this.#set) p.place();
  }

  /**
   * A tap anywhere but on a popover's own marker closes it when it closes by itself.
   * @param {Marker | null} tapped  the marker tapped, if one was
   */
  closeOnTap(tapped) {
    for (const p of this.#set) if (p.autoClose && p.marker !== tapped) p.close();
  }

  /**
   * Removes the popovers of a marker that left the map.
   * @param {number} id
   */
  removeOf(id) {
    for (const p of [...this.#set]) if (p.marker.id === id) p.remove();
  }

  /** Removes them all. */
  clear() {
    for (const p of [...this.#set]) p.remove();
  }
}
