// A basemap that needs no network: each tile is painted on a canvas in the page, sea blue with
// the land polygons it is given (Natural Earth's, say) in Web Mercator, and a graticule whose
// spacing shrinks as the zoom grows. Tiles are painted lazily, a few per task after the frame
// that asked for them, so a pan across new ground never holds a frame up.

import { createCanvas, context2d } from '../canvas.js';
import { LRU, cacheCapacity } from '../lru.js';
import { TileQueue } from './tile-queue.js';
import { tileKey } from './tile-pyramid.js';
import { latitudeAt, maxLatitude, mercatorX, mercatorY } from '../../core/mercator.js';

export { mercatorX, mercatorY };

/**
 * @typedef {object} OfflineTileOptions
 * @property {number[][][]} [land]  rings of [longitude, latitude]; holes are rings inside rings (filled even-odd)
 * @property {(() => void) | null} [onLoad]  called after tiles were painted (the renderer sets it to ask for a redraw)
 * @property {number} [maxZoom=22]
 * @property {number} [cacheSize=256]  painted tiles kept
 * @property {number} [tilesPerTask=4]  painted at most in one task
 * @property {number} [budget=8]  milliseconds a task paints for at most (it always paints one)
 * @property {(task: () => void) => void} [schedule]  runs a painting task later (default setTimeout 0)
 */

/** The offline basemap's colours and label font. */
export const OFFLINE_STYLE = Object.freeze({
  sea: '#aad3df',
  land: '#f2efe9',
  line: 'rgba(40, 70, 90, 0.16)',
  mainLine: 'rgba(40, 70, 90, 0.3)',
  label: 'rgba(40, 70, 90, 0.55)',
  labelFont: '10px Roboto, Arial, sans-serif',
});

const TILE = 256;

// Graticule spacings in degrees, coarse to fine.
const STEPS = [30, 10, 5, 2, 1, 0.5, 0.25, 0.1, 0.05, 0.025, 0.01, 0.005, 0.0025, 0.001, 0.0005, 0.00025, 0.0001,
  0.00005, 0.000025, 0.00001];
/** Graticule lines at least this many pixels apart (along the equator). */
const MIN_SPACING = 96;
/** Tiles between graticule labels, across and down (see paintGraticule). */
const LABEL_EVERY = 4;

/**
 * The graticule's spacing in degrees at a zoom: the finest of 30°, 10°, 5°, 2°, 1°, 0.5°, …
 * whose lines are at least 40 pixels apart; 30° when none are. Never grows with zoom.
 * @param {number} zoom
 * @returns {number}
 */
export function graticuleStep(zoom) {
  const pixelsPerDegree = (TILE * 2 ** zoom) / 360;
  let step = STEPS[0];
  for (const s of STEPS) {
    if (s * pixelsPerDegree < MIN_SPACING) break;
    step = s;
  }
  return step;
}

/**
 * A graticule label: '0°', '30°N', '45.5°W', '180°', with as many decimals as the step has.
 * @param {number} degrees
 * @param {number} step
 * @param {'lat' | 'lng'} axis
 * @returns {string}
 */
export function formatDegrees(degrees, step, axis) {
  let decimals = 0;
  while (decimals < 8 && Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) > 1e-9) decimals++;
  const text = Math.abs(degrees).toFixed(decimals);
  if (Number(text) === 0 || (axis === 'lng' && Number(text) === 180)) return `${text}°`;
  const hemisphere = axis === 'lat' ? (degrees > 0 ? 'N' : 'S') : (degrees > 0 ? 'E' : 'W');
  return `${text}°${hemisphere}`;
}

/**
 * @typedef {object} ProjectedRing  a ring in world coordinates with its bounds
 * @property {Float64Array} points  x0, y0, x1, y1, …
 * @property {number} minX
 * @property {number} minY
 * @property {number} maxX
 * @property {number} maxY
 */

/**
 * Projects rings once, so painting a tile only scales and shifts.
 * @param {number[][][]} rings
 * @returns {ProjectedRing[]}
 */
function projectRings(rings) {
  /** @type {ProjectedRing[]} */
  const out = [];
  for (const ring of rings) {
    if (!Array.isArray(ring) || ring.length < 3) continue;
    const points = new Float64Array(ring.length * 2);
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity, n = 0;
    for (const p of ring) {
      const x = mercatorX(Number(p[0])), y = mercatorY(Number(p[1]));
      if (!(Number.isFinite(x) && Number.isFinite(y))) continue;
      points[n++] = x;
      points[n++] = y;
      minX = Math.min(minX, x); maxX = Math.max(maxX, x);
      minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    if (n >= 6) out.push({ points: points.subarray(0, n), minX, minY, maxX, maxY });
  }
  return out;
}

/** @typedef {{z: number, x: number, y: number, key: number, turned: 0 | 1}} TileAddress */

/** A TileSource that paints its tiles in the page; it projects through the module, so make it after `init()`. */
export class OfflineTileSource {
  /** @type {string} */ attribution;
  /** @type {number} */ maxZoom;
  /** @type {(() => void) | null} */ onLoad;
  #land;
  #tilesPerTask;
  #budget;
  #schedule;
  #scheduled = false;
  /** @type {LRU<number, HTMLCanvasElement>[]} painted tiles, with their labels upright, then turned half round */
  #tiles;
  /** 1 while the map is turned more than a quarter (labels then painted turned half round, to read upright) */
  #turned = /** @type {0 | 1} */ (0);
  /** @type {TileQueue<TileAddress>} */
  #queue;

  /** @param {OfflineTileOptions} [options] */
  constructor(options = {}) {
    this.#land = projectRings(options.land ?? []);
    this.attribution = options.land && options.land.length > 0 ? 'Natural Earth (public domain)' : '';
    this.maxZoom = options.maxZoom ?? 22;
    this.onLoad = options.onLoad ?? null;
    this.#tilesPerTask = Math.max(1, options.tilesPerTask ?? 4);
    this.#budget = options.budget ?? 8;
    this.#schedule = options.schedule ?? ((task) => { setTimeout(task, 0); });
    // An evicted canvas gives its pixels back at once instead of whenever it is collected.
    const capacity = cacheCapacity(options.cacheSize, 256, 'OfflineTileSource');
    this.#tiles = [0, 1].map(() => new LRU(capacity, (_, canvas) => { canvas.width = 0; canvas.height = 0; }));
    this.#queue = new TileQueue(() => this.#wake());
  }

  /**
   * The tile when it has been painted.
   * @param {number} z
   * @param {number} x
   * @param {number} y
   * @returns {CanvasImageSource | null}
   */
  get(z, x, y) {
    const key = tileKey(z, x, y);
    const tile = this.#tiles[this.#turned].get(key);
    if (tile) return tile;
    // While it is painted the other way up, the tile as it was stands in (its labels upside down).
    const other = this.#tiles[1 - this.#turned].get(key);
    if (other) this.request(z, x, y);
    return other ?? null;
  }

  /**
   * Labels are painted to read upright on the map as it is turned: beyond a quarter turn, half
   * round (tiles are painted again, once, each way).
   * @param {number} bearing  degrees
   */
  setBearing(bearing) {
    this.#turned = Math.cos((bearing * Math.PI) / 180) < 0 ? 1 : 0;
  }

  /**
   * Asks for a tile to be painted soon.
   * @param {number} z
   * @param {number} x
   * @param {number} y
   */
  request(z, x, y) {
    const key = tileKey(z, x, y);
    const turned = this.#turned;
    // Keys below zoom 26 are under 2^51: doubled with the way up, still exact.
    if (!this.#tiles[turned].has(key)) this.#queue.want(2 * key + turned, { z, x, y, key, turned });
  }

  #wake() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#schedule(() => this.#paintSome());
  }

  #paintSome() {
    this.#scheduled = false;
    const start = performance.now();
    let painted = 0;
    while (painted < this.#tilesPerTask && (painted === 0 || performance.now() - start < this.#budget)) {
      const tile = this.#queue.take();
      if (!tile) break;
      const tiles = this.#tiles[tile.turned];
      if (tiles.has(tile.key)) continue;
      tiles.set(tile.key, this.paint(tile.z, tile.x, tile.y, tile.turned === 1));
      painted++;
    }
    if (this.#queue.pending > 0) this.#wake();
    if (painted > 0) this.onLoad?.();
  }

  /**
   * Paints one tile now (the queue calls it; exposed for previews and tests in a browser).
   * @param {number} z
   * @param {number} x
   * @param {number} y
   * @param {boolean} [turned]  labels turned half round (see setBearing)
   * @returns {HTMLCanvasElement}
   */
  paint(z, x, y, turned = false) {
    const canvas = createCanvas(TILE, TILE);
    const ctx = context2d(canvas);
    ctx.fillStyle = OFFLINE_STYLE.sea;
    ctx.fillRect(0, 0, TILE, TILE);
    this.#paintLand(ctx, z, x, y);
    paintGraticule(ctx, z, x, y, turned);
    return canvas;
  }

  /**
   * @param {CanvasRenderingContext2D} ctx
   * @param {number} z
   * @param {number} x
   * @param {number} y
   */
  #paintLand(ctx, z, x, y) {
    const n = 2 ** z, scale = TILE * n;
    // A margin of a few pixels, so a coast just outside the tile still closes its fill inside.
    const margin = 4 / scale;
    const west = x / n - margin, east = (x + 1) / n + margin, north = y / n - margin, south = (y + 1) / n + margin;
    let any = false;
    ctx.beginPath();
    for (const ring of this.#land) {
      if (ring.maxX < west || ring.minX > east || ring.maxY < north || ring.minY > south) continue;
      any = true;
      const p = ring.points;
      let lastX = (p[0] * n - x) * TILE, lastY = (p[1] * n - y) * TILE;
      ctx.moveTo(lastX, lastY);
      for (let i = 2; i < p.length; i += 2) {
        const px = (p[i] * n - x) * TILE, py = (p[i + 1] * n - y) * TILE;
        // Points closer than half a pixel add nothing at this zoom but time.
        if (Math.abs(px - lastX) < 0.5 && Math.abs(py - lastY) < 0.5 && i + 2 < p.length) continue;
        ctx.lineTo(px, py);
        lastX = px;
        lastY = py;
      }
      ctx.closePath();
    }
    if (!any) return;
    ctx.fillStyle = OFFLINE_STYLE.land;
    ctx.fill('evenodd');
  }
}

/**
 * Draws a label whose box (left, top, its width × `height`) lies wholly inside the tile, and
 * skips it otherwise: a tile cannot draw past its edge, and half a label reads as another one.
 * Turned, the text is drawn half round about the box's centre, in the same box. Returns the
 * box's right edge, or -Infinity when it was skipped.
 * @param {CanvasRenderingContext2D} ctx
 * @param {string} text
 * @param {number} left
 * @param {number} top
 * @param {number} height
 * @param {boolean} turned
 * @returns {number}
 */
function labelInside(ctx, text, left, top, height, turned) {
  const width = ctx.measureText(text).width;
  const right = left + width;
  if (left < 0 || top < 0 || right > TILE || top + height > TILE) return -Infinity;
  const baseline = ctx.textBaseline;
  ctx.textBaseline = 'top';
  if (turned) {
    ctx.save();
    ctx.translate(left + width / 2, top + height / 2);
    ctx.rotate(Math.PI);
    ctx.fillText(text, -width / 2, -height / 2);
    ctx.restore();
  } else {
    ctx.fillText(text, left, top);
  }
  ctx.textBaseline = baseline;
  return right;
}

/** Room kept between two longitude labels of a row (zoomed right out, lines are 21 px apart). */
const LABEL_GAP = 4;

/**
 * Lines of latitude and longitude every graticuleStep(z) degrees. Labels go on every fourth
 * tile row (longitudes) and column (latitudes) only: labelled in every tile, a line would
 * repeat its label every 256 pixels and the map would read as a table of numbers. A longitude
 * label that would run into the one before it is left out.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} z
 * @param {number} x
 * @param {number} y
 * @param {boolean} [turned]  labels turned half round, to read upright on a map turned so
 */
export function paintGraticule(ctx, z, x, y, turned = false) {
  const n = 2 ** z;
  const step = graticuleStep(z);
  const west = (x / n) * 360 - 180, east = ((x + 1) / n) * 360 - 180;
  const north = latitudeAt(y / n), south = latitudeAt((y + 1) / n);
  ctx.lineWidth = 1;
  ctx.font = OFFLINE_STYLE.labelFont;
  ctx.fillStyle = OFFLINE_STYLE.label;
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  let labelEnd = -Infinity;
  // Whole multiples of the step, counted as integers so 0.1-degree lines do not drift.
  for (let k = Math.ceil(west / step); k * step <= east; k++) {
    const lng = k * step;
    // Half-pixel positions make one-pixel lines sharp.
    const px = Math.round((mercatorX(lng) * n - x) * TILE) + 0.5;
    if (px < 0 || px > TILE) continue;
    ctx.strokeStyle = k === 0 ? OFFLINE_STYLE.mainLine : OFFLINE_STYLE.line;
    ctx.beginPath();
    ctx.moveTo(px, 0);
    ctx.lineTo(px, TILE);
    ctx.stroke();
    if (y % LABEL_EVERY === 0 && px + 3 >= labelEnd + LABEL_GAP) {
      labelEnd = Math.max(labelEnd, labelInside(ctx, formatDegrees(lng, step, 'lng'), px + 3, 3, 12, turned));
    }
  }
  ctx.textBaseline = 'bottom';
  const edge = maxLatitude();
  for (let k = Math.ceil(Math.max(south, -edge) / step); k * step <= Math.min(north, edge); k++) {
    const lat = k * step;
    const py = Math.round((mercatorY(lat) * n - y) * TILE) + 0.5;
    if (py < 0 || py > TILE) continue;
    ctx.strokeStyle = k === 0 ? OFFLINE_STYLE.mainLine : OFFLINE_STYLE.line;
    ctx.beginPath();
    ctx.moveTo(0, py);
    ctx.lineTo(TILE, py);
    ctx.stroke();
    if (x % LABEL_EVERY === 0) labelInside(ctx, formatDegrees(lat, step, 'lat'), 3, py - 2 - 12, 12, turned);
  }
}
