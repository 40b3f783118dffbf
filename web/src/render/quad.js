// The maths of drawing a tile into the quadrilateral the engine projected it to. A 2D canvas
// only maps images affinely, so a tilted tile (a trapezoid) is drawn as two triangles, each
// with the affine map its three corners define; a tile that is only moved or turned (a
// parallelogram) takes one map for the whole tile. Every piece is grown by about half a pixel
// so neighbours overlap and no hairline of background shows between them.
//
// Transforms are written as canvas setTransform's (a, b, c, d, e, f): x' = a·u + c·v + e,
// y' = b·u + d·v + f, where (u, v) are 0…1 across the tile's image.

/**
 * Whether the corners (x, y of top-left, top-right, bottom-right, bottom-left) form a
 * parallelogram within a tolerance in pixels: the diagonals share their midpoint.
 * @param {ArrayLike<number>} c
 * @param {number} [tolerance=0.05]
 * @returns {boolean}
 */
export function isParallelogram(c, tolerance = 0.05) {
  return Math.abs(c[0] + c[4] - c[2] - c[6]) <= tolerance && Math.abs(c[1] + c[5] - c[3] - c[7]) <= tolerance;
}

/**
 * The transform mapping the unit square onto the parallelogram spanned by the top-left,
 * top-right and bottom-left corners, grown by `grow` pixels across each edge's direction.
 * @param {ArrayLike<number>} c  corners as for isParallelogram
 * @param {number} grow
 * @param {Float64Array | number[]} out  six numbers
 * @returns {boolean} false when the shape is too thin to draw
 */
export function parallelogramTransform(c, grow, out) {
  const ux = c[2] - c[0], uy = c[3] - c[1], vx = c[6] - c[0], vy = c[7] - c[1];
  const lu = Math.hypot(ux, uy), lv = Math.hypot(vx, vy);
  if (!(lu > 1e-9 && lv > 1e-9)) return false;
  const gu = grow / lu, gv = grow / lv;
  out[0] = ux * (1 + 2 * gu);
  out[1] = uy * (1 + 2 * gu);
  out[2] = vx * (1 + 2 * gv);
  out[3] = vy * (1 + 2 * gv);
  out[4] = c[0] - gu * ux - gv * vx;
  out[5] = c[1] - gu * uy - gv * vy;
  return true;
}

/**
 * Moves a triangle's corners away from its incentre so that every edge moves out by `grow`
 * pixels (a scaling about the incentre moves each edge by the same distance).
 * @param {ArrayLike<number>} p  x0, y0, x1, y1, x2, y2
 * @param {number} grow
 * @param {Float64Array | number[]} out  six numbers; may be p itself
 * @returns {boolean} false when the triangle has no area
 */
export function growTriangle(p, grow, out) {
  const x0 = p[0], y0 = p[1], x1 = p[2], y1 = p[3], x2 = p[4], y2 = p[5];
  const a = Math.hypot(x1 - x2, y1 - y2), b = Math.hypot(x0 - x2, y0 - y2), c = Math.hypot(x0 - x1, y0 - y1);
  const perimeter = a + b + c;
  const area2 = Math.abs((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0));
  if (!(area2 > 1e-9 && perimeter > 0)) return false;
  const ix = (a * x0 + b * x1 + c * x2) / perimeter, iy = (a * y0 + b * y1 + c * y2) / perimeter;
  const r = area2 / perimeter;
  const k = (r + grow) / r;
  out[0] = ix + (x0 - ix) * k; out[1] = iy + (y0 - iy) * k;
  out[2] = ix + (x1 - ix) * k; out[3] = iy + (y1 - iy) * k;
  out[4] = ix + (x2 - ix) * k; out[5] = iy + (y2 - iy) * k;
  return true;
}

/**
 * The affine transform taking three points (u, v) to three points (x, y).
 * @param {ArrayLike<number>} from  u0, v0, u1, v1, u2, v2 (not in a line)
 * @param {ArrayLike<number>} to    x0, y0, x1, y1, x2, y2
 * @param {Float64Array | number[]} out  six numbers
 * @returns {boolean} false when `from` is degenerate
 */
export function affineFromTriangles(from, to, out) {
  const u0 = from[0], v0 = from[1];
  const du1 = from[2] - u0, dv1 = from[3] - v0, du2 = from[4] - u0, dv2 = from[5] - v0;
  const det = du1 * dv2 - du2 * dv1;
  if (!(Math.abs(det) > 1e-12)) return false;
  const dx1 = to[2] - to[0], dx2 = to[4] - to[0], dy1 = to[3] - to[1], dy2 = to[5] - to[1];
  const a = (dx1 * dv2 - dx2 * dv1) / det, c = (du1 * dx2 - du2 * dx1) / det;
  const b = (dy1 * dv2 - dy2 * dv1) / det, d = (du1 * dy2 - du2 * dy1) / det;
  out[0] = a; out[1] = b; out[2] = c; out[3] = d;
  out[4] = to[0] - a * u0 - c * v0;
  out[5] = to[1] - b * u0 - d * v0;
  return true;
}
