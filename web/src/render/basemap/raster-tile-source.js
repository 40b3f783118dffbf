// Basemap tiles from a z/x/y raster tile server (OpenStreetMap-style URLs). Images are kept in
// an LRU, at most a fixed number of requests run at once, the nearest of the current view are
// fetched first (see tile-queue.js), and a tile that failed is not asked for again until a
// while has passed, so a missing tile costs one request and not sixty a second.

import { argumentError } from '../../core/errors.js';
import { LRU, cacheCapacity } from '../lru.js';
import { TileQueue } from './tile-queue.js';
import { tileKey } from './tile-pyramid.js';

/**
 * @typedef {object} RasterTileOptions
 * @property {string} url  a template: {z}, {x}, {y}; {-y} counts rows from the south (TMS);
 *   {s} a subdomain; {r} '@2x' on high-density screens when `retina`, else ''
 * @property {string} [attribution='']  shown at the bottom right; the tile server's terms usually require it
 * @property {number} [maxZoom=19]  the deepest zoom the server has; deeper views enlarge its tiles
 * @property {string | string[]} [subdomains='abc']  what {s} takes, one per tile, the same for the same tile
 * @property {boolean} [retina]  whether {r} asks for double-resolution tiles (default: devicePixelRatio > 1)
 * @property {(() => void) | null} [onLoad]  called when a tile has arrived (the renderer sets it to ask for a redraw)
 * @property {number} [cacheSize=512]  tiles kept
 * @property {number} [maxRequests=16]  requests running at once
 * @property {number} [retryAfter=30000]  milliseconds before a failed tile is asked for again
 * @property {() => number} [now=Date.now]  the clock retryAfter is measured on, in milliseconds
 * @property {(url: string) => Promise<CanvasImageSource>} [load]  fetches and decodes one tile
 *   (default: an <img> with crossOrigin 'anonymous')
 */

/**
 * The URL of a tile.
 * @param {string} template  see RasterTileOptions.url
 * @param {number} z
 * @param {number} x  the wrapped column
 * @param {number} y
 * @param {{subdomains?: string | string[], retina?: boolean}} [options]
 * @returns {string}
 */
export function tileUrl(template, z, x, y, options = {}) {
  const subdomains = options.subdomains ?? 'abc';
  const n = subdomains.length;
  // The same tile always goes to the same subdomain, so the browser's cache finds it again;
  // neighbours go to different ones.
  const s = n > 0 ? subdomains[(((x + y) % n) + n) % n] : '';
  return template.replace(/\{(z|x|y|-y|s|r)\}/g, (_, name) => {
    switch (name) {
      case 'z': return String(z);
      case 'x': return String(x);
      case 'y': return String(y);
      case '-y': return String(2 ** z - 1 - y);
      case 's': return s;
      default: return options.retina ? '@2x' : '';
    }
  });
}

/**
 * Loads an image the way a tile server expects: cross-origin without credentials (so the
 * canvas stays readable), decoded before it is handed over so drawing it never stalls a frame.
 * @param {string} url
 * @returns {Promise<CanvasImageSource>}
 */
function loadImage(url) {
  const image = new Image();
  image.crossOrigin = 'anonymous';
  image.decoding = 'async';
  image.src = url;
  return image.decode().then(() => image);
}

/** @typedef {{z: number, x: number, y: number, key: number}} TileAddress */

/** A TileSource fetching raster tiles over HTTP(S). */
export class RasterTileSource {
  /** @type {string} */ attribution;
  /** @type {number} */ maxZoom;
  /** @type {(() => void) | null} */ onLoad;
  #url;
  #subdomains;
  #retina;
  #maxRequests;
  #retryAfter;
  /** @type {() => number} */
  #now;
  #load;
  /** @type {LRU<number, CanvasImageSource>} */
  #tiles;
  /** @type {LRU<number, number>} when each failed tile failed */
  #failed = new LRU(2048);
  /** @type {Set<number>} */
  #loading = new Set();
  /** @type {TileQueue<TileAddress>} */
  #queue;

  /** @param {RasterTileOptions} options */
  constructor(options) {
    if (typeof options?.url !== 'string' || options.url === '') throw argumentError('RasterTileSource', 'url must be a tile URL template such as https://tile.example/{z}/{x}/{y}.png');
    this.#url = options.url;
    this.attribution = options.attribution ?? '';
    this.maxZoom = options.maxZoom ?? 19;
    this.onLoad = options.onLoad ?? null;
    this.#subdomains = options.subdomains ?? 'abc';
    this.#retina = options.retina ?? ((globalThis.devicePixelRatio ?? 1) > 1);
    this.#maxRequests = Math.max(1, options.maxRequests ?? 16);
    this.#retryAfter = options.retryAfter ?? 30000;
    this.#now = options.now ?? Date.now;
    this.#load = options.load ?? loadImage;
    this.#tiles = new LRU(cacheCapacity(options.cacheSize, 512, 'RasterTileSource'));
    this.#queue = new TileQueue(() => this.#pump());
  }

  /**
   * The tile's image when it has arrived.
   * @param {number} z
   * @param {number} x  the wrapped column
   * @param {number} y
   * @returns {CanvasImageSource | null}
   */
  get(z, x, y) {
    return this.#tiles.get(tileKey(z, x, y)) ?? null;
  }

  /**
   * Asks for a tile: it is fetched unless it is here, on its way, failed recently, or no longer
   * wanted when its turn comes. Ask in order of importance.
   * @param {number} z
   * @param {number} x
   * @param {number} y
   */
  request(z, x, y) {
    const key = tileKey(z, x, y);
    if (this.#tiles.has(key) || this.#loading.has(key) || this.#failedRecently(key)) return;
    this.#queue.want(key, { z, x, y, key });
  }

  /** Requests running now. */
  get loading() { return this.#loading.size; }

  /** @param {number} key */
  #failedRecently(key) {
    const at = this.#failed.peek(key);
    if (at === undefined) return false;
    if (this.#now() - at < this.#retryAfter) return true;
    this.#failed.delete(key);
    return false;
  }

  /** Starts requests from the queue while there is room. */
  #pump() {
    while (this.#loading.size < this.#maxRequests) {
      const tile = this.#queue.take();
      if (!tile) return;
      if (this.#tiles.has(tile.key) || this.#loading.has(tile.key) || this.#failedRecently(tile.key)) continue;
      this.#fetch(tile);
    }
  }

  /** @param {TileAddress} tile */
  #fetch(tile) {
    const { key } = tile;
    this.#loading.add(key);
    const url = tileUrl(this.#url, tile.z, tile.x, tile.y, { subdomains: this.#subdomains, retina: this.#retina });
    let request;
    try {
      request = this.#load(url);
    } catch (error) {
      request = Promise.reject(error);
    }
    request.then(
      (image) => {
        this.#loading.delete(key);
        this.#tiles.set(key, image);
        this.onLoad?.();
        this.#pump();
      },
      () => {
        this.#loading.delete(key);
        this.#failed.set(key, this.#now());
        this.#pump();
      },
    );
  }
}
