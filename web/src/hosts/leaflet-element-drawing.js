// A Leaflet `L.DivIcon`'s element drawn on a canvas: laid out by the page once, off screen inside
// Leaflet's container (so the page's rules for its icons apply, as they do to Leaflet's own), and
// copied from its computed style: each element's background as its rounded box, its border, its
// images and its texts in their font and colour. What else CSS can do (shadows, gradients,
// transforms) is not copied.

import { roundedRect } from '../render/controls.js';

/**
 * Lays an element out off screen, gives `use` its border box (page pixels), then takes it away.
 * @template T
 * @param {HTMLElement} el
 * @param {(box: DOMRect) => T} use
 * @returns {T}
 */
export function withLaidOut(el, use) {
  el.style.position = 'absolute';
  el.style.left = '-10000px';
  el.style.top = '0';
  el.style.margin = '0';
  el.style.transform = 'none';
  const host = document.querySelector('.leaflet-container') ?? document.body;
  host.appendChild(el);
  try {
    return use(el.getBoundingClientRect());
  } finally {
    el.remove();
  }
}

/**
 * The images inside an element that have not loaded yet.
 * @param {HTMLElement} el
 * @returns {HTMLImageElement[]}
 */
export function pendingImages(el) {
  return [...Array.from(el.querySelectorAll('img')), ...(el instanceof HTMLImageElement ? [el] : [])].filter((i) => !i.complete);
}

/**
 * Paints a laid-out element (see withLaidOut): a page point (x, y) lands on the canvas at
 * ((x + dx) × scale, (y + dy) × scale).
 * @param {CanvasRenderingContext2D} ctx
 * @param {Element} el
 * @param {number} scale
 * @param {number} dx
 * @param {number} dy
 */
export function paintElement(ctx, el, scale, dx, dy) {
  const cs = getComputedStyle(el);
  const r = el.getBoundingClientRect();
  const x = (r.left + dx) * scale, y = (r.top + dy) * scale, w = r.width * scale, h = r.height * scale;
  const radius = Math.min(parseFloat(cs.borderTopLeftRadius) || 0, r.width / 2, r.height / 2) * scale;
  if (visible(cs.backgroundColor)) {
    ctx.fillStyle = cs.backgroundColor;
    ctx.beginPath();
    roundedRect(ctx, x, y, w, h, radius);
    ctx.fill();
  }
  const border = parseFloat(cs.borderTopWidth) || 0;
  if (border > 0 && cs.borderTopStyle !== 'none' && cs.borderTopStyle !== 'hidden' && visible(cs.borderTopColor)) {
    const b = border * scale;
    ctx.strokeStyle = cs.borderTopColor;
    ctx.lineWidth = b;
    ctx.beginPath();
    roundedRect(ctx, x + b / 2, y + b / 2, w - b, h - b, Math.max(0, radius - b / 2));
    ctx.stroke();
  }
  if (el instanceof HTMLImageElement && el.complete && el.naturalWidth > 0) ctx.drawImage(el, x, y, w, h);
  for (let i = 0; i < el.childNodes.length; i++) {
    const node = el.childNodes[i];
    if (node.nodeType === Node.TEXT_NODE && node.textContent?.trim()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const t = range.getBoundingClientRect();
      ctx.fillStyle = cs.color;
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${parseFloat(cs.fontSize) * scale}px ${cs.fontFamily}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(node.textContent.trim(), (t.left + t.width / 2 + dx) * scale, (t.top + t.height / 2 + dy) * scale);
    } else if (node.nodeType === Node.ELEMENT_NODE) {
      paintElement(ctx, /** @type {Element} */ (node), scale, dx, dy);
    }
  }
}

/**
 * Whether a computed colour paints anything.
 * @param {string} colour
 */
function visible(colour) {
  return Boolean(colour) && colour !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(colour);
}
