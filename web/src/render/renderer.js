// Draws one frame of the map on a canvas, bottom to top: background, basemap tiles, the sky
// above the far clip of a tilted view, attribution, the legs of spread-out cluster items,
// markers and cluster icons, the default info window, then the controls. The engine has already
// decided everything (where each thing is, what hides what, the order); this draws what it says.
//
// It runs 60 times a second with thousands of items, so the item loop sets one transform per
// item and allocates nothing; sprites come ready-made from the host (see pin.js and
// cluster-icon.js).

import { context2d, imageReady } from './canvas.js';
import { drawCompass, drawFloorPicker, drawLocationDot, drawMyLocationButton } from './controls.js';
import { canvasMeasure, drawInfoWindow, layoutInfoWindow } from './info-window.js';
import { argumentError } from '../core/errors.js';
import { LRU } from './lru.js';
import { drawTiles } from './basemap/tile-layer.js';
import { itemTransform } from './item-transform.js';

/** @typedef {import('../core/frame.js').Frame} Frame */
/** @typedef {import('../core/frame.js').DrawItem} DrawItem */
/** @typedef {import('../core/frame.js').InfoWindowPlacement} InfoWindowPlacement */
/** @typedef {import('./basemap/tile-source.js').TileSource} TileSource */
/** @typedef {import('./info-window.js').InfoWindowLayout} InfoWindowLayout */

/**
 * @typedef {object} Drawable  a ready image and its size (the draw item says which point of it
 *   stands on the item's (x, y): its anchorX, anchorY)
 * @property {CanvasImageSource} image
 * @property {number} width   CSS pixels
 * @property {number} height  CSS pixels
 */

/**
 * @typedef {object} RenderHost  what the map supplies for each frame
 * @property {(item: DrawItem) => Drawable | null} drawable  the look of a marker, cluster or item; null draws nothing
 * @property {(window: InfoWindowPlacement) => {title: string, snippet: string} | null} infoWindowContent
 *   the default window's text; null when the map shows a window of its own
 * @property {(building: number, level: number) => string} levelName  a building's level's short name
 */

/**
 * @typedef {object} RendererOptions
 * @property {TileSource | null} basemap  null: no basemap; the canvas is transparent and shows another
 *   map's drawing under the items (a layer in a host map)
 * @property {() => void} onNeedsRedraw  asked when something arrived that the last frame lacked (a tile, an image)
 */

/** Colours and sizes of what the renderer draws itself (not the sprites or controls). */
export const RENDER_STYLE = Object.freeze({
  background: '#e5e3df',
  skyTop: '#b9d3ec',
  haze: '#e6ecf1',
  /** How far the haze fades below the far clip, in CSS pixels. */
  hazeDepth: 28,
  leg: 'rgba(90, 90, 90, 0.85)',
  legWidth: 1.5,
  attributionFont: '10px Roboto, Arial, sans-serif',
  attributionText: '#333333',
  attributionBox: 'rgba(255, 255, 255, 0.7)',
});

/** Draws frames on one canvas; see the file's comment for the order. */
export class Renderer {
  #canvas;
  #ctx;
  #onNeedsRedraw;
  /** @type {TileSource | null} */
  #basemap;
  #width = 0;
  #height = 0;
  #ratio = 1;
  #measure;
  /** @type {LRU<string, InfoWindowLayout>} */
  #layouts = new LRU(16);
  /** @type {LRU<string, number>} */
  #attributionWidths = new LRU(8);
  /** @type {CanvasGradient | null} */
  #sky = null;
  #skyFor = NaN;
  /** @type {WeakSet<object>} images still loading that a frame left out, each waited for once */
  #loading = new WeakSet();

  /**
   * @param {HTMLCanvasElement} canvas
   * @param {RendererOptions} options
   */
  constructor(canvas, options) {
    this.#canvas = canvas;
    // A map with a basemap covers the whole canvas every frame, so it needs no alpha channel,
    // which lets the browser composite it faster; a layer over a host map's drawing needs one.
    const basemap = options.basemap;
    this.#ctx = canvas.getContext('2d', { alpha: basemap === null }) ?? context2d(canvas);
    this.#onNeedsRedraw = options.onNeedsRedraw;
    this.#measure = canvasMeasure(this.#ctx);
    this.#basemap = basemap === null ? null : this.#adopt(basemap);
    this.resize(canvas.clientWidth || canvas.width, canvas.clientHeight || canvas.height, 1);
  }

  /**
   * Sizes the canvas's pixels for a CSS size on a screen of this pixel ratio. The canvas's CSS
   * size itself is left to the page.
   * @param {number} width   CSS pixels
   * @param {number} height  CSS pixels
   * @param {number} [pixelRatio=1]  devicePixelRatio
   */
  resize(width, height, pixelRatio = 1) {
    this.#width = Math.max(0, width);
    this.#height = Math.max(0, height);
    this.#ratio = pixelRatio > 0 && Number.isFinite(pixelRatio) ? pixelRatio : 1;
    const w = Math.max(1, Math.round(this.#width * this.#ratio)), h = Math.max(1, Math.round(this.#height * this.#ratio));
    if (this.#canvas.width !== w) this.#canvas.width = w;
    if (this.#canvas.height !== h) this.#canvas.height = h;
  }

  /** The pixel ratio the canvas is sized for. */
  get pixelRatio() { return this.#ratio; }

  /** The basemap's tile source, or null for a layer over a host map. */
  get basemap() { return this.#basemap; }

  /** @param {TileSource | null} source  a tile source (a renderer made without one takes none) */
  set basemap(source) {
    this.#basemap = this.#adopt(/** @type {TileSource} */ (source));
    this.#onNeedsRedraw();
  }

  /**
   * The default info window for this text, laid out with the fonts it is drawn in (kept for
   * the next frames). The map passes its width and height to the engine (setInfoWindowSize).
   * @param {string} title
   * @param {string} snippet
   * @returns {InfoWindowLayout}
   */
  layoutInfoWindow(title, snippet) {
    const key = title + '\u0000' + snippet;
    let layout = this.#layouts.get(key);
    if (!layout) {
      layout = layoutInfoWindow(this.#measure, title, snippet);
      this.#layouts.set(key, layout);
    }
    return layout;
  }

  /**
   * Draws one whole frame.
   * @param {Frame} frame
   * @param {RenderHost} host
   */
  draw(frame, host) {
    const ctx = this.#ctx, r = this.#ratio, w = this.#width, h = this.#height;
    ctx.setTransform(r, 0, 0, r, 0, 0);
    ctx.globalAlpha = 1;
    const basemap = this.#basemap;
    if (basemap) {
      ctx.fillStyle = RENDER_STYLE.background;
      ctx.fillRect(0, 0, w, h);
      basemap.setBearing?.(frame.camera.bearing);
      drawTiles(ctx, frame.tiles, basemap, r);
      ctx.setTransform(r, 0, 0, r, 0, 0);
      if (frame.farClipY > 0) this.#drawSky(frame.farClipY);
      this.#drawAttribution(basemap.attribution);
    } else {
      ctx.clearRect(0, 0, w, h);
    }

    const items = frame.items;
    this.#drawLegs(items);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (!(item.opacity > 0)) continue;
      const d = host.drawable(item);
      // An <img> still loading draws nothing (it asks for a redraw once loaded), and a broken
      // one would throw and lose the frame.
      if (!d) continue;
      if (!imageReady(d.image)) {
        this.#redrawWhenLoaded(d.image);
        continue;
      }
      ctx.globalAlpha = item.opacity < 1 ? item.opacity : 1;
      if (item.rotation === 0 && item.scaleX === 1 && item.scaleY === 1 && item.shear === 0) {
        // Upright and unscaled, as most markers are: placed on whole device pixels, so a sprite
        // drawn at the screen's pixel ratio is copied pixel for pixel, sharp and without
        // filtering (several times faster on canvases drawn without a GPU). Half a CSS pixel of
        // snapping is not visible, even in an animation.
        const dw = d.width * r, dh = d.height * r;
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.drawImage(d.image, Math.round(item.x * r - item.anchorX * dw), Math.round(item.y * r - item.anchorY * dh), dw, dh);
        continue;
      }
      // One matrix, no save/restore.
      ctx.setTransform(...itemTransform(item, r));
      ctx.drawImage(d.image, -item.anchorX * d.width, -item.anchorY * d.height, d.width, d.height);
    }
    ctx.setTransform(r, 0, 0, r, 0, 0);
    ctx.globalAlpha = 1;

    const placement = frame.infoWindow;
    if (placement) {
      const content = host.infoWindowContent(placement);
      if (content) drawInfoWindow(ctx, placement.x, placement.y, this.layoutInfoWindow(content.title, content.snippet), r);
    }

    drawLocationDot(ctx, frame.locationDot, r);
    drawCompass(ctx, frame.compass, r);
    drawMyLocationButton(ctx, frame.myLocationButton, r);
    const picker = frame.floorPicker;
    if (picker) drawFloorPicker(ctx, picker, (level) => host.levelName(picker.building, level), r);
  }

  /**
   * Asks for a redraw once an image the frame left out has loaded.
   * @param {CanvasImageSource} image
   */
  #redrawWhenLoaded(image) {
    if (this.#loading.has(image) || typeof (/** @type {any} */ (image).addEventListener) !== 'function') return;
    this.#loading.add(image);
    /** @type {HTMLImageElement} */ (image).addEventListener('load', () => {
      this.#loading.delete(image);
      this.#onNeedsRedraw();
    }, { once: true });
  }

  /**
   * Takes a source in use, pointing its onLoad at our redraw when it has none.
   * @param {TileSource} source
   * @returns {TileSource}
   */
  #adopt(source) {
    if (!source || typeof source.get !== 'function' || typeof source.request !== 'function') {
      throw argumentError('Renderer', 'basemap must be a TileSource (attribution, maxZoom, get, request)');
    }
    if (!source.onLoad) source.onLoad = this.#onNeedsRedraw;
    return source;
  }

  /**
   * The sky above the far clip, fading into haze just below it so the map's far edge is soft.
   * @param {number} farClipY
   */
  #drawSky(farClipY) {
    const ctx = this.#ctx;
    const bottom = Math.min(this.#height, farClipY + RENDER_STYLE.hazeDepth);
    if (this.#skyFor !== farClipY || !this.#sky) {
      const g = ctx.createLinearGradient(0, 0, 0, bottom);
      const edge = Math.min(1, farClipY / bottom);
      g.addColorStop(0, RENDER_STYLE.skyTop);
      g.addColorStop(edge, RENDER_STYLE.haze);
      g.addColorStop(1, 'rgba(230, 236, 241, 0)');
      this.#sky = g;
      this.#skyFor = farClipY;
    }
    ctx.fillStyle = this.#sky;
    ctx.fillRect(0, 0, this.#width, bottom);
  }

  /**
   * The source's attribution at the bottom right, on a small translucent white box.
   * @param {string} text
   */
  #drawAttribution(text) {
    if (!text) return;
    const ctx = this.#ctx;
    ctx.font = RENDER_STYLE.attributionFont;
    let width = this.#attributionWidths.get(text);
    if (width === undefined) {
      width = ctx.measureText(text).width;
      this.#attributionWidths.set(text, width);
    }
    const boxW = Math.ceil(width) + 8, boxH = 14;
    const x = this.#width - boxW, y = this.#height - boxH;
    ctx.fillStyle = RENDER_STYLE.attributionBox;
    ctx.fillRect(x, y, boxW, boxH);
    ctx.fillStyle = RENDER_STYLE.attributionText;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, x + 4, y + boxH / 2);
  }

  /**
   * A thin line from each spread-out item's leg point to the item, under every item.
   * @param {readonly DrawItem[]} items
   */
  #drawLegs(items) {
    const ctx = this.#ctx;
    let started = false;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const leg = item.leg;
      if (!leg || !(item.opacity > 0)) continue;
      if (!started) {
        started = true;
        ctx.strokeStyle = RENDER_STYLE.leg;
        ctx.lineWidth = RENDER_STYLE.legWidth;
        ctx.lineCap = 'round';
      }
      ctx.globalAlpha = item.opacity < 1 ? item.opacity : 1;
      ctx.beginPath();
      ctx.moveTo(leg.x, leg.y);
      ctx.lineTo(item.x, item.y);
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }
}
