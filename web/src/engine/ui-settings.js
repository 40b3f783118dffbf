// A map's UI settings (which gestures and controls are on) as the engine takes them: their
// defaults, their check, and the engine's bits for them.

import { booleanArg, knownKeys, objectArg } from '../core/arguments.js';

/**
 * The UI settings in the engine's bit order (bit i is setting i), with their defaults: gestures
 * on, buttons off, the floor picker on, as Google's.
 */
export const SETTINGS = Object.freeze([
  { name: 'scrollGestures', default: true },
  { name: 'zoomGestures', default: true },
  { name: 'tiltGestures', default: true },
  { name: 'rotateGestures', default: true },
  { name: 'compassButton', default: false },
  { name: 'myLocationButton', default: false },
  { name: 'indoorPicker', default: true },
]);

/**
 * @typedef {object} UISettings
 * @property {boolean} [scrollGestures=true]   drag to pan, with fling
 * @property {boolean} [zoomGestures=true]     double tap, pinch, wheel, +/- keys
 * @property {boolean} [tiltGestures=true]     two-finger vertical drag, right- or ctrl-drag
 * @property {boolean} [rotateGestures=true]   two-finger rotation, right- or ctrl-drag
 * @property {boolean} [compassButton=false]   the compass while the bearing is not 0
 * @property {boolean} [myLocationButton=false]  the my-location button
 * @property {boolean} [indoorPicker=true]     the floor picker, while a building with floors is prominent
 */

/**
 * The settings with defaults for those not given, checked to be booleans.
 * @param {UISettings | undefined} settings
 * @param {string} call
 * @returns {Required<UISettings>}
 */
export function resolveSettings(settings, call) {
  const given = objectArg(settings, 'settings', call);
  knownKeys(given, SETTINGS.map((s) => s.name), 'settings', call);
  /** @type {Record<string, boolean>} */
  const out = {};
  for (const s of SETTINGS) {
    out[s.name] = given[s.name] === undefined ? s.default : booleanArg(given[s.name], s.name, call);
  }
  return /** @type {Required<UISettings>} */ (out);
}

/**
 * Settings as the engine's bits.
 * @param {Required<UISettings>} settings
 * @returns {number}
 */
export function settingsBits(settings) {
  return SETTINGS.reduce((bits, s, i) => (settings[/** @type {keyof UISettings} */ (s.name)] ? bits | (1 << i) : bits), 0);
}
