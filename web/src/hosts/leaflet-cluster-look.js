// How a Leaflet cluster layer's clusters look: Cairn's own icon, the app's `drawCluster`, or
// Leaflet.markercluster's `iconCreateFunction`. The icon that function returns is drawn on the
// canvas at the size the engine gives the cluster: an `L.DivIcon` is laid out once by the page
// (its class names styled by the page's CSS, as Leaflet.markercluster's are) and its boxes and
// text copied, an `L.Icon` drawn as its image. Each distinct count is drawn once.

import { clusterIconImage } from '../render/cluster-icon.js';
import { roundedRect } from '../render/controls.js';

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
 * CSS pixels: each element's background as its rounded box, each text in its font and colour.
 * @param {CanvasRenderingContext2D} ctx
 * @param {HTMLElement} el
 * @param {number} d
 */
function drawElement(ctx, el, d) {
  el.style.position = 'absolute';
  el.style.left = '-10000px';
  el.style.top = '0';
  el.style.margin = '0';
  el.style.transform = 'none';
  // Inside Leaflet's container the page's rules for its icons apply.
  const host = document.querySelector('.leaflet-container') ?? document.body;
  host.appendChild(el);
  try {
    const box = el.getBoundingClientRect();
    const size = Math.max(box.width, box.height);
    if (!(size > 0)) return;
    const s = d / size;
    const ox = (size - box.width) / 2 - box.left, oy = (size - box.height) / 2 - box.top;
    /** @param {Element} e */
    const visit = (e) => {
      const cs = getComputedStyle(e);
      const r = e.getBoundingClientRect();
      if (cs.backgroundColor && cs.backgroundColor !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(cs.backgroundColor)) {
        ctx.fillStyle = cs.backgroundColor;
        const radius = Math.min(parseFloat(cs.borderTopLeftRadius) || 0, r.width / 2, r.height / 2) * s;
        ctx.beginPath();
        roundedRect(ctx, (r.left + ox) * s, (r.top + oy) * s, r.width * s, r.height * s, radius);
        ctx.fill();
      }
      for (let i = 0; i < e.childNodes.length; i++) {
        const node = e.childNodes[i];
        if (node.nodeType === Node.TEXT_NODE && node.textContent?.trim()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          const t = range.getBoundingClientRect();
          ctx.fillStyle = cs.color;
          ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${parseFloat(cs.fontSize) * s}px ${cs.fontFamily}`;
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          ctx.fillText(node.textContent.trim(), (t.left + t.width / 2 + ox) * s, (t.top + t.height / 2 + oy) * s);
        } else if (node.nodeType === Node.ELEMENT_NODE) {
          visit(/** @type {Element} */ (node));
        }
      }
    };
    visit(el);
  } finally {
    el.remove();
  }
}
