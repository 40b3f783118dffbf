// Where a drawn item's icon goes on the canvas: one matrix, in canvas setTransform's terms
// (x' = a·u + c·v + e, y' = b·u + d·v + f), that takes a point (u, v) of the icon, in CSS pixels
// from its anchor, to device pixels. The engine gives the turn, the scales along the icon's
// axes and, for a flat marker, the shear (see DrawItem).

const DEGREES = Math.PI / 180;

/**
 * @param {import('../core/frame.js').DrawItem} item
 * @param {number} r  device pixels per CSS pixel
 * @returns {[number, number, number, number, number, number]}
 */
export function itemTransform(item, r) {
  const cos = item.rotation === 0 ? 1 : Math.cos(item.rotation * DEGREES);
  const sin = item.rotation === 0 ? 0 : Math.sin(item.rotation * DEGREES);
  const sx = item.scaleX * r, sy = item.scaleY * r, k = item.shear * r;
  // Scale and shear along the icon's axes, then turn clockwise, then move to the anchor.
  return [cos * sx - sin * k, sin * sx + cos * k, -sin * sy, cos * sy, item.x * r, item.y * r];
}
