// The info window of a map as the page shows it (features I1, I5, I7, I9). The engine decides when
// a window opens, closes, where its tail points and how it is panned into view; this file
// decides what is in it: the default window (title and snippet, drawn on the canvas by the
// renderer as text, never HTML), or the app's own element (`markerInfoWindow`), or the app's
// contents inside the default frame (`markerInfoContents`), shown as positioned DOM. Either way
// the engine is told the window's size, so it can place it, pan it into view and hit-test it.

/** @typedef {import('../core/frame.js').Frame} Frame */
/** @typedef {import('./marker.js').Marker} Marker */
/** @typedef {import('./map-event-handlers.js').ClusterItemTap} ClusterItemTap */

/**
 * @typedef {(marker: Marker | ClusterItemTap) => HTMLElement | null} InfoWindowHook  the app's
 *   element for a marker's window, or for a cluster item's (given as a `clusterItemTap` handler is)
 */

/**
 * @typedef {object} InfoWindowHooks  the app's custom windows (feature I7): each returns an element, or null for the next choice
 * @property {InfoWindowHook | null} window    a whole window
 * @property {InfoWindowHook | null} contents  contents inside the default frame
 */

/** Height of the default frame's tail below a custom contents box (the default window's own). */
const TAIL = 8;

export class InfoWindowView {
  /** @type {HTMLElement} */
  #container;
  /** @type {(width: number, height: number) => void} */
  #setSize;
  /** @type {{title: string, snippet: string} | null} the default window's text, as of its opening */
  #text = null;
  /** @type {HTMLElement | null} the custom window shown */
  #element = null;
  /** @type {InfoWindowHooks} */
  hooks = { window: null, contents: null };
  /** @type {(title: string, snippet: string) => {width: number, height: number}} */
  #measure;

  /**
   * @param {HTMLElement} container  the map's element (custom windows become its children)
   * @param {(width: number, height: number) => void} setSize  the engine's `setInfoWindowSize`
   * @param {(title: string, snippet: string) => {width: number, height: number}} measure  the
   *   default window's size: the renderer's layout, the one it draws (and caches)
   */
  constructor(container, setSize, measure) {
    this.#container = container;
    this.#setSize = setSize;
    this.#measure = measure;
  }

  /**
   * The window opened on a marker or a cluster item, or a marker's text changed while it tracks
   * changes: build its content.
   * @param {Marker | ClusterItemTap} marker
   * @returns {boolean} false when there is nothing to show: the hooks gave no element and the
   *   marker or item has neither title nor snippet (I2: then no window opens)
   */
  open(marker) {
    this.close();
    const custom = ask(this.hooks.window, marker);
    const contents = custom ? null : ask(this.hooks.contents, marker);
    if (custom || contents) {
      const el = custom ?? frame(/** @type {HTMLElement} */ (contents));
      el.dataset.cairnInfoWindow = '';
      // Taps on it go to the map, which reports them as info window taps (I8), as Google's
      // custom windows (rendered images) do.
      el.style.position = 'absolute';
      el.style.pointerEvents = 'none';
      el.style.left = '0';
      el.style.top = '0';
      el.style.visibility = 'hidden';
      this.#container.appendChild(el);
      this.#element = el;
      this.#setSize(el.offsetWidth, el.offsetHeight);
      return true;
    }
    const { title, snippet } = 'item' in marker ? marker.item : marker;
    if (!title && !snippet) return false;
    this.#text = { title, snippet };
    const size = this.#measure(this.#text.title, this.#text.snippet);
    this.#setSize(size.width, size.height);
    return true;
  }

  /** The window closed. */
  close() {
    this.#element?.remove();
    this.#element = null;
    this.#text = null;
  }

  /** Whether a custom element is shown (the renderer then draws no default window). */
  get custom() { return this.#element !== null; }

  /**
   * The default window's text, for the renderer, or null when a custom element is shown.
   * @returns {{title: string, snippet: string} | null}
   */
  text() { return this.#text; }

  /**
   * Places the custom element where the engine put the window this frame.
   * @param {Frame} f
   */
  place(f) {
    const el = this.#element;
    if (!el) return;
    const w = f.infoWindow;
    if (!w) {
      el.style.visibility = 'hidden';
      return;
    }
    el.style.visibility = 'visible';
    el.style.transform = `translate(${Math.round(w.left)}px, ${Math.round(w.top)}px)`;
  }
}

/**
 * The app's element for a marker or item, or null: a hook that throws is reported and counts as
 * none, so the default window shows and the map goes on.
 * @param {InfoWindowHook | null} hook
 * @param {Marker | ClusterItemTap} marker
 * @returns {HTMLElement | null}
 */
function ask(hook, marker) {
  if (!hook) return null;
  try {
    const el = hook(marker);
    return el instanceof HTMLElement ? el : null;
  } catch (error) {
    reportError(error);
    return null;
  }
}

/**
 * App contents in the default window's frame: a white bubble with the tail.
 * @param {HTMLElement} contents
 * @returns {HTMLElement}
 */
function frame(contents) {
  const bubble = document.createElement('div');
  bubble.style.cssText = 'background:#fff;border-radius:8px;padding:12px;box-shadow:0 2px 7px rgba(0,0,0,.3);' +
    'font:13px sans-serif;color:#202124;max-width:264px;box-sizing:border-box;';
  bubble.appendChild(contents);
  const tail = document.createElement('div');
  tail.style.cssText = `width:0;height:0;margin:0 auto;border-left:${TAIL}px solid transparent;` +
    `border-right:${TAIL}px solid transparent;border-top:${TAIL}px solid #fff;`;
  const outer = document.createElement('div');
  outer.style.cssText = 'width:max-content;';
  outer.append(bubble, tail);
  return outer;
}
