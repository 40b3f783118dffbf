// The map's own controls (features G2–G4), drawn where the engine placed them: the compass (a
// white disc with a red north and grey south needle, turned so it points north), the
// my-location button (a white rounded square with a target glyph), the floor picker (a white
// column of level names, the shown one on grey) and the location dot (blue, white ring, with a
// pale halo as wide as the position's accuracy). All in CSS pixels under
// the context's transform; shadows take the pixel ratio because they ignore the transform.

/** @typedef {import('../core/frame.js').Frame} Frame */

const BLUE = '#4285F4';
const NEEDLE_NORTH = '#E94235';
const NEEDLE_SOUTH = '#9AA0A6';
const GLYPH = '#666666';

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} pixelRatio
 */
function controlShadow(ctx, pixelRatio) {
  ctx.shadowColor = 'rgba(0, 0, 0, 0.3)';
  ctx.shadowBlur = 4 * pixelRatio;
  ctx.shadowOffsetY = 1 * pixelRatio;
}

/**
 * A white disc with the controls' shadow (the compass's face, the location dot's ring).
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @param {number} pixelRatio
 */
function whiteDisc(ctx, x, y, r, pixelRatio) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  controlShadow(ctx, pixelRatio);
  ctx.fillStyle = '#ffffff';
  ctx.fill();
  ctx.shadowColor = 'transparent';
}

/**
 * The compass: nothing while fully faded out.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Frame['compass']} compass  centre, diameter, opacity, rotation in degrees clockwise
 * @param {number} pixelRatio
 */
export function drawCompass(ctx, compass, pixelRatio) {
  const { x, y, size, opacity } = compass;
  if (!(opacity > 0 && size > 0)) return;
  const r = size / 2;
  ctx.save();
  ctx.globalAlpha = Math.min(1, opacity);
  whiteDisc(ctx, x, y, r, pixelRatio);
  ctx.translate(x, y);
  ctx.rotate((compass.rotation * Math.PI) / 180);
  // A diamond split across its width: the upper half points north.
  const half = r * 0.62, wide = r * 0.24;
  ctx.beginPath();
  ctx.moveTo(0, -half);
  ctx.lineTo(wide, 0);
  ctx.lineTo(-wide, 0);
  ctx.closePath();
  ctx.fillStyle = NEEDLE_NORTH;
  ctx.fill();
  ctx.beginPath();
  ctx.moveTo(0, half);
  ctx.lineTo(-wide, 0);
  ctx.lineTo(wide, 0);
  ctx.closePath();
  ctx.fillStyle = NEEDLE_SOUTH;
  ctx.fill();
  ctx.restore();
}

/**
 * The my-location button: nothing when it is hidden.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Frame['myLocationButton']} button  centre and side
 * @param {number} pixelRatio
 */
export function drawMyLocationButton(ctx, button, pixelRatio) {
  const { x, y, size } = button;
  if (!button.visible || !(size > 0)) return;
  const half = size / 2;
  ctx.save();
  ctx.beginPath();
  roundedRect(ctx, x - half, y - half, size, size, Math.min(4, size / 8));
  controlShadow(ctx, pixelRatio);
  ctx.fillStyle = '#ffffff';
  ctx.fill();
  ctx.shadowColor = 'transparent';
  // A target: a ring with four ticks reaching out of it and a filled centre.
  const ring = size * 0.2, tick = size * 0.3;
  ctx.strokeStyle = GLYPH;
  ctx.fillStyle = GLYPH;
  ctx.lineWidth = Math.max(1.5, size * 0.05);
  ctx.beginPath();
  ctx.arc(x, y, ring, 0, 2 * Math.PI);
  ctx.moveTo(x, y - ring); ctx.lineTo(x, y - tick);
  ctx.moveTo(x, y + ring); ctx.lineTo(x, y + tick);
  ctx.moveTo(x - ring, y); ctx.lineTo(x - tick, y);
  ctx.moveTo(x + ring, y); ctx.lineTo(x + tick, y);
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(x, y, size * 0.09, 0, 2 * Math.PI);
  ctx.fill();
  ctx.restore();
}

/**
 * The floor picker: nothing when the frame has none. Each button shows its level's short name
 * (cut to fit), the shown level in white on grey.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Frame['floorPicker']} picker
 * @param {(level: number) => string} name  a level's short name
 * @param {number} pixelRatio
 */
export function drawFloorPicker(ctx, picker, name, pixelRatio) {
  if (!picker || !(picker.count > 0)) return;
  const { x, top, size, count } = picker;
  const left = x - size / 2;
  ctx.save();
  ctx.beginPath();
  roundedRect(ctx, left, top, size, size * count, Math.min(4, size / 8));
  controlShadow(ctx, pixelRatio);
  ctx.fillStyle = '#ffffff';
  ctx.fill();
  ctx.shadowColor = 'transparent';
  ctx.font = `500 ${Math.round(size * 0.35)}px sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let k = 0; k < count; k++) {
    const level = picker.first + k, y = top + k * size;
    if (level === picker.activeLevel) {
      ctx.fillStyle = GLYPH;
      ctx.fillRect(left + 2, y + 2, size - 4, size - 4);
    }
    ctx.fillStyle = level === picker.activeLevel ? '#ffffff' : '#3c4043';
    ctx.fillText(name(level), x, y + size / 2, size - 6);
  }
  ctx.restore();
}

/**
 * The location dot: nothing when the frame has none.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Frame['locationDot']} dot  position and accuracy radius in CSS pixels
 * @param {number} pixelRatio
 */
export function drawLocationDot(ctx, dot, pixelRatio) {
  if (!dot) return;
  const { x, y, radius } = dot;
  const ring = 9, core = 6.5;
  ctx.save();
  // The halo only when the accuracy circle is wider than the dot itself.
  if (radius > ring) {
    ctx.beginPath();
    ctx.arc(x, y, radius, 0, 2 * Math.PI);
    ctx.fillStyle = 'rgba(66, 133, 244, 0.15)';
    ctx.fill();
    ctx.lineWidth = 1;
    ctx.strokeStyle = 'rgba(66, 133, 244, 0.35)';
    ctx.stroke();
  }
  whiteDisc(ctx, x, y, ring, pixelRatio);
  ctx.beginPath();
  ctx.arc(x, y, core, 0, 2 * Math.PI);
  ctx.fillStyle = BLUE;
  ctx.fill();
  ctx.restore();
}

/**
 * Adds a rounded rectangle to the current path.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x
 * @param {number} y
 * @param {number} w
 * @param {number} h
 * @param {number} r
 */
export function roundedRect(ctx, x, y, w, h, r) {
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}
