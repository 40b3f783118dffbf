// How a cluster manager's clusters are drawn (feature C3): Google's icon (a circle in the
// bucket's colour with the label) by default, or an image per bucket under the label, or the
// app's own drawing. The engine chooses the bucket; each distinct look is rasterised once and
// reused, so a frame with thousands of clusters draws images, not paths and text.

import { clusterIconImage, drawClusterLabel } from '../render/cluster-icon.js';
import { argumentError } from '../core/errors.js';

/** @typedef {import('../engine/cluster-manager.js').ClusterManager} ClusterManager */
/** @typedef {import('../engine/cluster-manager.js').ClusterIcon} ClusterIcon */
/** @typedef {import('../core/frame.js').DrawItem} DrawItem */
/** @typedef {import('./icon-table.js').Drawable} Drawable */

/**
 * @typedef {object} ClusterIconOptions
 * @property {CanvasImageSource[]} [clusterImages]  one image per bucket (the first also below the first bucket),
 *   drawn at the bucket's diameter with the label over it
 * @property {(ctx: CanvasRenderingContext2D, cluster: ClusterIcon & {count: number, bucket: number,
 *   aggregates: Record<string, number>}) => void} [drawCluster]  draws a cluster into a square canvas of
 *   `cluster.diameter` CSS pixels (scaled for the screen); `aggregates` are the manager's (C9), {} without
 */

/** Distinct looks kept per manager: counts below the first bucket make one each. */
const CACHE_LIMIT = 2048;

export class ClusterDrawables {
  /** @type {ClusterManager} */
  #manager;
  /** @type {ClusterIconOptions} */
  #options;
  #pixelRatio;
  /** @type {number | undefined} */
  #labelSize;
  /** @type {Map<string, Drawable>} by label, colour and diameter */
  #cache = new Map();

  /**
   * @param {ClusterManager} manager
   * @param {ClusterIconOptions} options
   * @param {number} pixelRatio
   * @param {number} [labelSize]  the label font size the engine's diameters were measured at
   */
  constructor(manager, options, pixelRatio, labelSize) {
    const o = options ?? {};
    if (o.clusterImages !== undefined && !Array.isArray(o.clusterImages)) {
      throw argumentError('addClusterManager', 'clusterImages must be an array of images, one per bucket');
    }
    if (o.drawCluster !== undefined && typeof o.drawCluster !== 'function') {
      throw argumentError('addClusterManager', 'drawCluster must be a function (ctx, cluster) => void');
    }
    this.#manager = manager;
    this.#options = o;
    this.#pixelRatio = pixelRatio;
    this.#labelSize = labelSize;
  }

  /**
   * What to draw for a cluster of the frame.
   * @param {DrawItem} item
   * @returns {Drawable}
   */
  drawable(item) {
    const icon = this.#manager.iconFor(item);
    // A callback is given the exact count and the aggregates, so its drawings differ per count
    // and values, not per label.
    const drawn = Boolean(this.#options.drawCluster);
    const aggregates = drawn && this.#manager.hasAggregates ? this.#aggregatesOf(item) : {};
    const key = `${drawn ? `${item.count}|${Object.values(aggregates).join(',')}` : icon.text}|${icon.color}|${icon.diameter}`;
    let d = this.#cache.get(key);
    if (!d) {
      if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
      d = { image: this.#rasterise(icon, item, aggregates), width: icon.diameter, height: icon.diameter };
      this.#cache.set(key, d);
    }
    return d;
  }

  /**
   * A cluster's aggregates. Zooming out, the fading copies of the clusters before carry ids of
   * that clustering, which the manager no longer knows: they keep the values last read.
   * @param {DrawItem} item
   * @returns {Record<string, number>}
   */
  #aggregatesOf(item) {
    try {
      const values = this.#manager.aggregatesOf(item.id);
      if (this.#lastAggregates.size >= CACHE_LIMIT) this.#lastAggregates.clear();
      this.#lastAggregates.set(item.id, values);
      return values;
    } catch {
      return this.#lastAggregates.get(item.id) ?? {};
    }
  }

  /** @type {Map<number, Record<string, number>>} each cluster's aggregates as last read, by id */
  #lastAggregates = new Map();

  /**
   * @param {ClusterIcon} icon
   * @param {DrawItem} item
   * @param {Record<string, number>} aggregates
   * @returns {CanvasImageSource}
   */
  #rasterise(icon, item, aggregates) {
    const { clusterImages, drawCluster } = this.#options;
    if (!clusterImages && !drawCluster) return clusterIconImage({ ...icon, labelSize: this.#labelSize }, this.#pixelRatio);
    const r = this.#pixelRatio;
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(icon.diameter * r);
    canvas.height = canvas.width;
    const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    ctx.scale(r, r);
    const d = icon.diameter;
    if (drawCluster) {
      try {
        drawCluster(ctx, { ...icon, count: item.count, bucket: item.icon, aggregates });
        return canvas;
      } catch (error) {
        reportError(error);   // the app's drawing failed: Google's icon instead, and the map goes on
        return clusterIconImage({ ...icon, labelSize: this.#labelSize }, this.#pixelRatio);
      }
    }
    const images = /** @type {CanvasImageSource[]} */ (clusterImages);
    const image = images[Math.min(Math.max(item.icon, 0), images.length - 1)];
    if (image) ctx.drawImage(image, 0, 0, d, d);
    drawClusterLabel(ctx, icon.text, d, d * 0.8);
    return canvas;
  }
}
