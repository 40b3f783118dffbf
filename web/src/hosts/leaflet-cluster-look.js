// How a Leaflet cluster layer's clusters look: Cairn's own icon, the app's `drawCluster`, or
// Leaflet.markercluster's `iconCreateFunction`. The icon that function returns is drawn on the
// canvas at the size the engine gives the cluster: an `L.DivIcon` is laid out once by the page
// (its class names styled by the page's CSS, as Leaflet.markercluster's are) and copied
// (leaflet-element-drawing.js), an `L.Icon` drawn as its image. Each distinct count is drawn once.

import { clusterIconImage } from '../render/cluster-icon.js';
import { paintElement, withLaidOut } from './leaflet-element-drawing.js';

/** @typedef {import('../map/cluster-drawables.js').ClusterIconOptions} ClusterIconOptions */

/**
 * The cluster manager's look options for a layer's options.
 * @param {any} L
 * @param {{iconCreateFunction?: (cluster: any) => any, drawCluster?: ClusterIconOptions['drawCluster']}} options
 * @returns {ClusterIconOptions}
 */
export function leafletClusterLook(L, options) {
  if (options.drawCluster) return { drawCluster: options.drawCluster };
  const create = options.iconCreateFunction;
  if (!create) return {};
  return {
    drawCluster(ctx, cluster) {
      const count = cluster.count;
      // Drawn once per count: the function is given what every cluster of that count shares.
      const icon = create({ getChildCount: () => count });
      const d = cluster.diameter;
      if (icon instanceof L.DivIcon) {
        drawElement(ctx, icon.createIcon(), d);
      } else if (icon instanceof L.Icon && icon.options.iconUrl) {
        const image = loaded(icon.options.iconUrl);
        if (image) ctx.drawImage(image, 0, 0, d, d);
      } else {
        ctx.drawImage(clusterIconImage(cluster, 1), 0, 0, d, d);
      }
    },
  };
}

/** @type {Map<string, HTMLImageElement>} */
const IMAGES = new Map();

/**
 * An image once it has loaded (loading starts at the first ask), else null.
 * @param {string} url
 */
function loaded(url) {
  let image = IMAGES.get(url);
  if (!image) {
    image = new Image();
    image.src = url;
    IMAGES.set(url, image);
  }
  return image.complete && image.naturalWidth > 0 ? image : null;
}

/**
 * Draws an icon's element, laid out by the page (off screen), scaled into a square of `d`
 * CSS pixels and centred there.
 * @param {CanvasRenderingContext2D} ctx
 * @param {HTMLElement} el
 * @param {number} d
 */
function drawElement(ctx, el, d) {
  withLaidOut(el, (box) => {
    const size = Math.max(box.width, box.height);
    if (!(size > 0)) return;
    paintElement(ctx, el, d / size, (size - box.width) / 2 - box.left, (size - box.height) / 2 - box.top);
  });
}
