// The images markers are drawn with, by the engine's icon number (features M2, M3, V1). The engine
// knows an icon's size, insets and default anchor (for placement, collisions and taps); this
// table keeps the picture for each number, so the renderer can ask "what do I draw for icon
// n" once per drawn item. One decoded image per source (M3): loading the same URL twice, or
// asking for the same pin style twice, gives the same icon.

import { pinImage, pinSize } from '../render/pin.js';
import { MapIcon } from '../engine/map-icon.js';
import { argumentError, bindingError } from '../core/errors.js';
import { numberArg, numbersArg, objectArg, sidesArg, stringArg } from '../core/arguments.js';

/**
 * @typedef {object} PinStyle  the default pin's look (feature V1)
 * @property {string} [background]  fill colour (Google's red by default)
 * @property {string} [borderColor]
 * @property {string | CanvasImageSource | null} [glyph]  text, an image, or null for the round dot
 * @property {string} [glyphColor]
 * @property {number} [scale=1]
 */

/**
 * @typedef {HTMLElement | ((ctx: CanvasRenderingContext2D, size: {width: number, height: number, time: number}) => void)} ViewContent
 *   a custom view marker's content (feature M4)
 */

/**
 * @typedef {object} Drawable  what the renderer draws for an item
 * @property {CanvasImageSource} image
 * @property {number} width   CSS pixels
 * @property {number} height
 * @property {number} anchorX  0…1 of the image: the point placed on the item's position
 * @property {number} anchorY
 */

/**
 * @typedef {object} IconEntry
 * @property {CanvasImageSource} image
 * @property {number} width
 * @property {number} height
 * @property {{top: number, left: number, bottom: number, right: number}} insets
 * @property {{x: number, y: number}} anchor  default ground anchor, in 0…1 of the inset box
 */

/**
 * @typedef {object} IconOptions
 * @property {number} [width]   CSS pixels (default: the image's own size divided by `scale`)
 * @property {number} [height]
 * @property {number} [scale=1]  image pixels per CSS pixel (2 for an "@2x" image)
 * @property {{x: number, y: number}} [anchor={x: 0.5, y: 1}]  where cluster items drawn with it stand; a marker
 *   stands on its own `groundAnchor` (Google's rule), whatever its icon
 * @property {{top?: number, left?: number, bottom?: number, right?: number}} [insets]  transparent padding (M3)
 */

export class IconTable {
  /** @type {(icon: {width: number, height: number, insets?: object, anchor?: {x: number, y: number}}) => number} */
  #register;
  #pixelRatio;
  /** @type {Map<number, IconEntry>} */
  #entries = new Map();
  /** @type {Map<string, MapIcon>} */
  #pins = new Map();
  /** @type {Map<string, Promise<CanvasImageSource>>} decoded images by URL */
  #images = new Map();
  /** @type {IconEntry} */
  #defaultPin;
  /** @type {Drawable} one object handed out per call, refilled: the renderer reads it at once */
  #scratch = { image: /** @type {CanvasImageSource} */ (/** @type {unknown} */ (null)), width: 0, height: 0, anchorX: 0, anchorY: 0 };

  /**
   * @param {(icon: {width: number, height: number, insets?: object, anchor?: {x: number, y: number}}) => number} register
   *   the engine's `registerIcon`
   * @param {number} pixelRatio  device pixels per CSS pixel, for the pins drawn here
   */
  constructor(register, pixelRatio) {
    this.#register = register;
    this.#pixelRatio = pixelRatio;
    this.#defaultPin = this.#pinEntry({});
  }

  /**
   * Registers a ready image (a canvas, an ImageBitmap, a loaded <img>).
   * @param {CanvasImageSource} image
   * @param {IconOptions} [options]
   * @returns {MapIcon}
   */
  icon(image, options) {
    const call = 'icon';
    const o = objectArg(options, 'options', call);
    const size = imageSize(image);
    if (!size) throw argumentError(call, 'image must be a loaded image, a canvas or an ImageBitmap');
    const scale = o.scale === undefined ? 1 : numberArg(o.scale, 'scale', call);
    const width = o.width === undefined ? size.width / scale : numberArg(o.width, 'width', call);
    const height = o.height === undefined ? size.height / scale : numberArg(o.height, 'height', call);
    const anchor = o.anchor === undefined ? { x: 0.5, y: 1 } : numbersArg(o.anchor, ['x', 'y'], 'anchor', call);
    const [top, left, bottom, right] = sidesArg(o.insets, 'insets', call);
    const insets = { top, left, bottom, right };
    const number = this.#register({ width, height, insets, anchor });
    this.#entries.set(number, { image, width, height, insets, anchor });
    return new MapIcon(number, width, height);
  }

  /**
   * Loads an image from a URL (decoded once per URL, however many icons use it) and registers it.
   * @param {string} url
   * @param {IconOptions} [options]
   * @returns {Promise<MapIcon>}
   */
  async loadIcon(url, options) {
    const u = stringArg(url, 'url', 'loadIcon');
    let image = this.#images.get(u);
    if (!image) {
      image = decode(u);
      this.#images.set(u, image);
      image.catch(() => this.#images.delete(u));   // a failed load may be retried
    }
    return this.icon(await image, options);
  }

  /**
   * The default pin in other colours or with a glyph (feature V1); one icon per distinct style.
   * @param {PinStyle} [style]
   * @returns {MapIcon}
   */
  pinIcon(style) {
    const s = objectArg(style, 'style', 'pinIcon');
    const key = pinKey(s);
    let icon = this.#pins.get(key);
    if (!icon) {
      const entry = this.#pinEntry(s);
      const number = this.#register({ width: entry.width, height: entry.height, anchor: entry.anchor });
      this.#entries.set(number, entry);
      icon = new MapIcon(number, entry.width, entry.height);
      this.#pins.set(key, icon);
    }
    return icon;
  }

  /**
   * Registers an icon whose picture changes (a custom view, M4): `setImage` replaces it.
   * @param {CanvasImageSource} image
   * @param {number} width
   * @param {number} height
   * @param {{x: number, y: number}} anchor
   * @returns {MapIcon}
   */
  dynamicIcon(image, width, height, anchor) {
    const number = this.#register({ width, height, anchor });
    this.#entries.set(number, { image, width, height, insets: { top: 0, left: 0, bottom: 0, right: 0 }, anchor });
    return new MapIcon(number, width, height);
  }

  /**
   * @param {MapIcon} icon
   * @param {CanvasImageSource} image
   */
  setImage(icon, image) {
    const entry = this.#entries.get(icon.number);
    if (entry) entry.image = image;
  }

  /**
   * Forgets a dynamic icon's picture (a view marker's, once the marker or its view is gone), so
   * its canvas can be freed. The engine keeps the icon's size under its number (a few bytes);
   * nothing draws with it any more.
   * @param {MapIcon} icon
   */
  release(icon) {
    this.#entries.delete(icon.number);
  }

  /**
   * Whether `icon` was made by this table.
   * @param {unknown} icon
   * @returns {boolean}
   */
  owns(icon) { return icon instanceof MapIcon && this.#entries.has(icon.number); }

  /**
   * What to draw for icon `number` (-1: the default pin), with the ground anchor `anchor`
   * (in 0…1 of the icon's inset box; the icon's own default when null). The object returned is
   * reused by the next call.
   * @param {number} number
   * @param {{x: number, y: number} | null} anchor
   * @returns {Drawable | null}
   */
  drawable(number, anchor) {
    const e = number === -1 ? this.#defaultPin : this.#entries.get(number);
    if (!e) return null;
    const a = anchor ?? e.anchor;
    const d = this.#scratch;
    const i = e.insets;
    d.image = e.image;
    d.width = e.width;
    d.height = e.height;
    // The anchor is in the box without the transparent padding (M3); the renderer wants it in
    // the whole image.
    d.anchorX = (i.left + a.x * (e.width - i.left - i.right)) / e.width;
    d.anchorY = (i.top + a.y * (e.height - i.top - i.bottom)) / e.height;
    return d;
  }

  /**
   * @param {PinStyle} style
   * @returns {IconEntry}
   */
  #pinEntry(style) {
    const size = pinSize(style);
    return { image: pinImage(style, this.#pixelRatio), ...size, insets: { top: 0, left: 0, bottom: 0, right: 0 }, anchor: { x: 0.5, y: 1 } };
  }
}

/**
 * The pixel size of an image source, or null when it has none yet.
 * @param {CanvasImageSource} image
 * @returns {{width: number, height: number} | null}
 */
function imageSize(image) {
  const any = /** @type {{naturalWidth?: number, naturalHeight?: number, width?: unknown, height?: unknown}} */ (image);
  const width = any.naturalWidth || (typeof any.width === 'number' ? any.width : 0);
  const height = any.naturalHeight || (typeof any.height === 'number' ? any.height : 0);
  return width > 0 && height > 0 ? { width, height } : null;
}

/**
 * Fetches and decodes an image.
 * @param {string} url
 * @returns {Promise<CanvasImageSource>}
 */
async function decode(url) {
  const img = new Image();
  img.crossOrigin = 'anonymous';
  img.src = url;
  try {
    await img.decode();
  } catch (error) {
    throw bindingError('IMAGE_LOAD_FAILED', `loadIcon: could not load or decode the image at ${url}`, error);
  }
  return img;
}

/**
 * A cache key for a pin style (images as glyphs are keyed by identity).
 * @param {PinStyle} s
 * @returns {string}
 */
function pinKey(s) {
  const glyph = s.glyph === undefined || s.glyph === null || typeof s.glyph === 'string' ? s.glyph : `image#${imageId(s.glyph)}`;
  return JSON.stringify([s.background, s.borderColor, glyph, s.glyphColor, s.scale]);
}

/** @type {WeakMap<object, number>} */
const imageIds = new WeakMap();
let nextImageId = 1;

/**
 * @param {object} image
 * @returns {number}
 */
function imageId(image) {
  let id = imageIds.get(image);
  if (id === undefined) imageIds.set(image, (id = nextImageId++));
  return id;
}
