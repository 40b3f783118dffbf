// A map's UI settings (which gestures and controls are on) as the engine takes them: their
// names in the engine's bit order, their check, and their bits. Encodings only: the defaults
// are the engine's (settings not given take them there), and what a map reports is read back
// from the engine.

import { bindingError } from '../core/errors.js';
import { booleanArg, knownKeys, objectArg } from '../core/arguments.js';

/**
 * The UI settings in the engine's bit order: bit i is setting i (`UISettings` in the module's
 * source); the module's count (`cairn_map_layout(6)`) must equal their number.
 */
export const SETTINGS = Object.freeze([
  'scrollGestures', 'zoomGestures', 'tiltGestures', 'rotateGestures', 'compassButton', 'myLocationButton', 'indoorPicker',
]);

/**
 * @typedef {object} UISettings  each left out takes the engine's default (Google's)
 * @property {boolean} [scrollGestures]    drag to pan, with fling
 * @property {boolean} [zoomGestures]      double tap, pinch, wheel, +/- keys
 * @property {boolean} [tiltGestures]      two-finger vertical drag, right- or ctrl-drag
 * @property {boolean} [rotateGestures]    two-finger rotation, right- or ctrl-drag
 * @property {boolean} [compassButton]     the compass while the bearing is not 0
 * @property {boolean} [myLocationButton]  the my-location button
 * @property {boolean} [indoorPicker]      the floor picker, while a building with floors is prominent
 */

/**
 * The settings given, checked to be booleans, as the engine's bits: which are given, and their values.
 * @param {UISettings | undefined} settings
 * @param {string} call
 * @returns {{bits: number, given: number}}
 */
export function settingsBits(settings, call) {
  const s = objectArg(settings, 'settings', call);
  knownKeys(s, SETTINGS, 'settings', call);
  let bits = 0, given = 0;
  SETTINGS.forEach((name, i) => {
    const value = /** @type {Record<string, unknown>} */ (s)[name];
    if (value === undefined) return;
    given |= 1 << i;
    if (booleanArg(value, name, call)) bits |= 1 << i;
  });
  return { bits, given };
}

/**
 * The engine's bits as settings, every one named.
 * @param {number} bits
 * @returns {Required<UISettings>}
 */
export function readSettings(bits) {
  return /** @type {Required<UISettings>} */ (Object.fromEntries(SETTINGS.map((name, i) => [name, (bits & (1 << i)) !== 0])));
}

/**
 * Checks the module's settings against SETTINGS.
 * @param {number} count  `cairn_map_layout(6)`
 */
export function checkSettingCount(count) {
  if (count !== SETTINGS.length) {
    throw bindingError('MODULE_MISMATCH', `cairn: the module has ${count} UI settings but ui-settings.js names ${SETTINGS.length}; ` +
      'update SETTINGS to match the engine');
  }
}
