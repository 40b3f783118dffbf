// The images markers are drawn with, by the engine's icon number (features M2, M3, V1). The engine
// knows an icon's size, insets and default anchor (for placement, collisions and taps, and the
// point of the image each drawn item stands on); this table keeps the picture for each number,
// so the renderer can ask "what do I draw for icon n" once per drawn item. One decoded image
// per source (M3): loading the same URL twice, or asking for the same pin style twice, gives
// the same icon.

import { pinImage, pinSize } from '../render/pin.js';
import { MapIcon } from '../engine/map-icon.js';
import { DEFAULT_PIN } from '../engine/marker-records.js';
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

/** @typedef {import('../render/renderer.js').Drawable} Drawable  what the renderer draws for an item */

/** @typedef {Drawable} IconEntry  an icon's picture and its size in CSS pixels */

/**
 * @typedef {object} IconOptions
 * @property {number} [width]   CSS pixels (default: the image's own size divided by `scale`)
 * @property {number} [height]
 * @property {number} [scale=1]  image pixels per CSS pixel (2 for an "@2x" image)
 * @property {{x: number, y: number}} [anchor]  where cluster items drawn with it stand (left out: the engine's
 *   default); a marker stands on its own `groundAnchor` (Google's rule), whatever its icon
 * @property {{top?: number, left?: number, bottom?: number, right?: number}} [insets]  transparent padding (M3)
 */

export class IconTable {
  /** @type {(icon: {width: number, height: number, insets?: object, anchor?: {x: number, y: number}}) => number} */
  #register;
  #pixelRatio;
  /** @type {import('../render/pin.js').PinBox} the engine's size of the default pin */
  #pinBox;
  /** @type {Map<number, IconEntry>} */
  #entries = new Map();
  /** @type {Map<string, MapIcon>} */
  #pins = new Map();
  /** @type {Map<string, Promise<CanvasImageSource>>} decoded images by URL */
  #images = new Map();
  /** @type {IconEntry} */
  #defaultPin;

  /**
   * @param {(icon: {width: number, height: number, insets?: object, anchor?: {x: number, y: number}}) => number} register
   *   the engine's `registerIcon`
   * @param {number} pixelRatio  device pixels per CSS pixel, for the pins drawn here
   * @param {{width: number, height: number}} pinBox  the engine's size of the default pin (`MapEngine.pinSize`)
   */
  constructor(register, pixelRatio, pinBox) {
    this.#register = register;
    this.#pixelRatio = pixelRatio;
    this.#pinBox = pinBox;
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
    const anchor = o.anchor === undefined ? undefined : numbersArg(o.anchor, ['x', 'y'], 'anchor', call);
    const [top, left, bottom, right] = sidesArg(o.insets, 'insets', call);
    const number = this.#register({ width, height, insets: { top, left, bottom, right }, anchor });
    this.#entries.set(number, { image, width, height });
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
      const number = this.#register({ width: entry.width, height: entry.height });
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
   * @returns {MapIcon}
   */
  dynamicIcon(image, width, height) {
    const number = this.#register({ width, height });
    this.#entries.set(number, { image, width, height });
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
   * What to draw for icon `number` (DEFAULT_PIN: the default pin); the engine's draw item says
   * which point of it stands on the item's position.
   * @param {number} number
   * @returns {Drawable | null}
   */
  drawable(number) {
    return (number === DEFAULT_PIN ? this.#defaultPin : this.#entries.get(number)) ?? null;
  }

  /**
   * @param {PinStyle} style
   * @returns {IconEntry}
   */
  #pinEntry(style) {
    return { image: pinImage(style, this.#pinBox, this.#pixelRatio), ...pinSize(style, this.#pinBox) };
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
