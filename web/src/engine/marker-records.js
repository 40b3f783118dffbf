// Markers as the engine takes them: the options a caller gives (Google's names), checked for
// their JS types and completed with Google's defaults, and encoded into the module's marker
// records. Encodings only: ranges are the engine's to check, and what a marker does (where it
// is drawn, what it hides, when its info window opens) is decided there.

import { argumentError, bindingError } from '../core/errors.js';
import { booleanArg, int32Arg, nameArg, numberArg, numbersArg, objectArg, stringArg } from '../core/arguments.js';

/** How an altitude is measured (a marker's, a screen point's), as the engine numbers it. */
export const ALTITUDE_MODES = Object.freeze({ clampToGround: 0, relativeToGround: 1, absolute: 2 });

/** How a marker competes for space with others (feature V4), as the engine numbers it. */
export const COLLISION_BEHAVIORS = Object.freeze({ required: 0, requiredAndHidesOptional: 1, optionalAndHidesLowerPriority: 2 });

/** How a marker appears when added (feature M9), as the engine numbers it. */
export const APPEAR_ANIMATIONS = Object.freeze({ none: 0, pop: 1, fadeIn: 2 });

/**
 * The fields of a marker record, in the engine's order (`_MarkerRecords.Field` in the module's
 * source); the module's stride (`cairn_map_layout(5)`) must equal their number.
 */
export const MARKER_FIELDS = Object.freeze([
  'latitude', 'longitude', 'altitudeMode', 'altitude', 'icon', 'groundAnchorX', 'groundAnchorY',
  'infoWindowAnchorX', 'infoWindowAnchorY', 'rotation', 'flags', 'opacity', 'zIndex', 'collision',
  'collisionPriority', 'appearAnimation', 'userData', 'indoorBuilding', 'indoorLevel',
]);

/** Doubles per marker record. */
const STRIDE = MARKER_FIELDS.length;

/** Record position by field name. */
const R = /** @type {Readonly<Record<string, number>>} */ (Object.freeze(Object.fromEntries(MARKER_FIELDS.map((f, i) => [f, i]))));

/** The bits of a record's `flags` field. */
export const MARKER_FLAGS = Object.freeze({
  flat: 1, visible: 2, hasTitle: 4, hasSnippet: 8, customInfoWindow: 16, tracksInfoWindowChanges: 32,
  /** Updates only: the title or snippet changed (the engine decides whether the window redraws). */
  contentChanged: 64,
});

/**
 * The record fields of each marker property the engine can refuse, in the engine's order: the
 * detail of an INVALID_MARKER error is the position here plus one.
 */
export const MARKER_PROPERTY_FIELDS = Object.freeze([
  ['latitude', 'longitude'], ['altitude'], ['icon'], ['groundAnchorX', 'groundAnchorY'],
  ['infoWindowAnchorX', 'infoWindowAnchorY'], ['rotation'], ['opacity'], ['zIndex'], ['collisionPriority'],
  ['indoorBuilding', 'indoorLevel'],
]);

/** @typedef {import('../core/frame.js').LatLng} LatLng */
/** @typedef {import('../core/frame.js').Point} Point */
/** @typedef {keyof typeof ALTITUDE_MODES} AltitudeMode */
/** @typedef {keyof typeof COLLISION_BEHAVIORS} CollisionBehavior */
/** @typedef {keyof typeof APPEAR_ANIMATIONS} AppearAnimation */

/**
 * @typedef {object} MarkerOptions  a marker as the caller describes it, with Google's names
 * @property {LatLng} position
 * @property {number} [altitude=0]  metres, for `relativeToGround` and `absolute`
 * @property {AltitudeMode} [altitudeMode='clampToGround']
 * @property {number} [icon=-1]  a number from `registerIcon`, or -1 for the default pin
 * @property {Point} [groundAnchor={x: 0.5, y: 1}]  the icon's point on the position, in 0…1 of the icon
 * @property {Point} [infoWindowAnchor={x: 0.5, y: 0}]  the icon's point the info window points at
 * @property {number} [rotation=0]  degrees clockwise about the ground anchor; from north for a flat marker
 * @property {boolean} [flat=false]  lies on the ground: turns with the map and is foreshortened by tilt
 * @property {number} [opacity=1]  0…1
 * @property {number} [zIndex=0]  higher draws on top
 * @property {boolean} [visible=true]
 * @property {CollisionBehavior} [collisionBehavior='required']
 * @property {number} [collisionPriority=0]  among optional markers, the higher wins
 * @property {AppearAnimation} [appearAnimation='none']  played once, when the marker is added
 * @property {string} [title='']  shown in the info window; kept on the JS side
 * @property {string} [snippet='']  shown below the title; kept on the JS side
 * @property {boolean} [customInfoWindow=false]  the app draws its own window, which opens without title or snippet
 * @property {boolean} [tracksInfoWindowChanges=false]  an open window redraws when the title or snippet changes
 *   (an `infoWindowContentChanged` event); otherwise it keeps the old content until reopened
 * @property {unknown} [userData]  any value of the app's, kept on the JS side
 * @property {{building: number, level: number} | null} [indoorLevel=null]  a level of a building
 *   (`addIndoorBuilding`'s id; levels from the top, 0 first): the marker is drawn only while
 *   that level is shown (feature G4)
 */

/** @typedef {Required<MarkerOptions>} Marker  a marker's options, every one resolved */

/** Google's defaults, for every option but `position`. */
export const MARKER_DEFAULTS = Object.freeze({
  altitude: 0, altitudeMode: 'clampToGround', icon: -1,
  groundAnchor: Object.freeze({ x: 0.5, y: 1 }), infoWindowAnchor: Object.freeze({ x: 0.5, y: 0 }),
  rotation: 0, flat: false, opacity: 1, zIndex: 0, visible: true, collisionBehavior: 'required', collisionPriority: 0,
  appearAnimation: 'none', title: '', snippet: '', customInfoWindow: false, tracksInfoWindowChanges: false,
  userData: undefined, indoorLevel: null,
});

/**
 * @param {Readonly<Record<string, number>>} table
 * @returns {(value: unknown, name: string, call: string) => unknown}
 */
const nameOf = (table) => (value, name, call) => (nameArg(table, value, name, call), value);

/** @type {(value: unknown, name: string, call: string) => unknown} */
const pointArg = (value, name, call) => numbersArg(value, ['x', 'y'], name, call);

/**
 * The check of each option's JS type (and of names for enumerations); the value it returns is
 * what the marker keeps (a copy for objects).
 * @type {Readonly<Record<keyof MarkerOptions, (value: unknown, name: string, call: string) => unknown>>}
 */
const CHECKS = Object.freeze({
  position: (value, name, call) => numbersArg(value, ['latitude', 'longitude'], name, call),
  altitude: numberArg,
  altitudeMode: nameOf(ALTITUDE_MODES),
  icon: int32Arg,
  groundAnchor: pointArg,
  infoWindowAnchor: pointArg,
  rotation: numberArg,
  flat: booleanArg,
  opacity: numberArg,
  zIndex: numberArg,
  visible: booleanArg,
  collisionBehavior: nameOf(COLLISION_BEHAVIORS),
  collisionPriority: numberArg,
  appearAnimation: nameOf(APPEAR_ANIMATIONS),
  title: stringArg,
  snippet: stringArg,
  customInfoWindow: booleanArg,
  tracksInfoWindowChanges: booleanArg,
  userData: (value) => value,
  indoorLevel: (value, name, call) => (value === null ? null : numbersArg(value, ['building', 'level'], name, call)),
});

/**
 * A marker's options checked and completed: those `given` (undefined ones are not given) over
 * `base`, which is MARKER_DEFAULTS for a new marker or its current options for an update.
 * @param {unknown} given
 * @param {Readonly<Partial<Marker>>} base
 * @param {string} label  how messages name the options ('' for the call's own argument)
 * @param {string} call
 * @returns {Marker}
 * @throws {CairnError} (INVALID_ARGUMENT) for an unknown option, a missing position, or a value of
 *   the wrong type, naming the option
 */
export function resolveMarker(given, base, label, call) {
  return /** @type {Marker} */ (resolveOptions(CHECKS, 'marker', given, base, label, call));
}

/**
 * The checks of some of the marker options, for what takes only those (cluster items).
 * @template {keyof MarkerOptions} K
 * @param {readonly K[]} names
 * @returns {Readonly<Record<K, (value: unknown, name: string, call: string) => unknown>>}
 */
export function markerChecks(names) {
  return Object.freeze(/** @type {Record<K, (value: unknown, name: string, call: string) => unknown>} */ (
    Object.fromEntries(names.map((name) => [name, CHECKS[name]]))));
}

/**
 * Options checked against `checks` (one per option, returning what is kept) and completed: those
 * `given` (undefined ones are not given) over `base`; an option missing from both is checked as
 * undefined, which only `userData` accepts.
 * @param {Readonly<Record<string, (value: unknown, name: string, call: string) => unknown>>} checks
 * @param {string} noun  what the options describe, for messages ('marker', 'cluster item')
 * @param {unknown} given
 * @param {Readonly<Record<string, unknown>>} base
 * @param {string} label  how messages name the options ('' for the call's own argument)
 * @param {string} call
 * @returns {Record<string, unknown>}
 * @throws {CairnError} (INVALID_ARGUMENT) naming the option
 */
export function resolveOptions(checks, noun, given, base, label, call) {
  const o = objectArg(given, label || 'options', call);
  const prefix = label ? `${label}.` : '';
  for (const key of Object.keys(o)) {
    if (!Object.hasOwn(checks, key)) throw argumentError(call, `${prefix}${key} is not a ${noun} option`);
  }
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const key of Object.keys(checks)) {
    out[key] = o[key] === undefined && Object.hasOwn(base, key) ? base[key] : checks[key](o[key], prefix + key, call);
  }
  return out;
}

/**
 * A copy of a marker's options that the caller may change freely (`userData` is the app's own).
 * @param {Marker} m
 * @returns {Marker}
 */
export function copyMarker(m) {
  return { ...m, position: { ...m.position }, groundAnchor: { ...m.groundAnchor }, infoWindowAnchor: { ...m.infoWindowAnchor },
    indoorLevel: m.indoorLevel && { ...m.indoorLevel } };
}

/**
 * Checks the module's marker records against MARKER_FIELDS.
 * @param {number} stride  `cairn_map_layout(5)`
 */
export function checkMarkerStride(stride) {
  if (stride !== STRIDE) {
    throw bindingError('MODULE_MISMATCH', `cairn: the module's marker records have ${stride} doubles but marker-records.js names ` +
      `${STRIDE}; update MARKER_FIELDS to match the engine`);
  }
}

/**
 * Writes marker `i` of `out` (records of MARKER_FIELDS.length doubles). Title and snippet go as
 * flags (whether each is non-empty); the engine's user-data field carries 0, as the value stays
 * on the JS side.
 * @param {Float64Array} out
 * @param {number} i
 * @param {Marker} m
 */
export function encodeMarker(out, i, m) {
  const k = i * STRIDE;
  const f = MARKER_FLAGS;
  out[k + R.latitude] = m.position.latitude;
  out[k + R.longitude] = m.position.longitude;
  out[k + R.altitudeMode] = ALTITUDE_MODES[m.altitudeMode];
  out[k + R.altitude] = m.altitude;
  out[k + R.icon] = m.icon;
  out[k + R.groundAnchorX] = m.groundAnchor.x;
  out[k + R.groundAnchorY] = m.groundAnchor.y;
  out[k + R.infoWindowAnchorX] = m.infoWindowAnchor.x;
  out[k + R.infoWindowAnchorY] = m.infoWindowAnchor.y;
  out[k + R.rotation] = m.rotation;
  out[k + R.flags] = (m.flat ? f.flat : 0) | (m.visible ? f.visible : 0) | (m.title !== '' ? f.hasTitle : 0) |
    (m.snippet !== '' ? f.hasSnippet : 0) | (m.customInfoWindow ? f.customInfoWindow : 0) |
    (m.tracksInfoWindowChanges ? f.tracksInfoWindowChanges : 0);
  out[k + R.opacity] = m.opacity;
  out[k + R.zIndex] = m.zIndex;
  out[k + R.collision] = COLLISION_BEHAVIORS[m.collisionBehavior];
  out[k + R.collisionPriority] = m.collisionPriority;
  out[k + R.appearAnimation] = APPEAR_ANIMATIONS[m.appearAnimation];
  out[k + R.userData] = 0;
  out[k + R.indoorBuilding] = m.indoorLevel ? m.indoorLevel.building : 0;
  out[k + R.indoorLevel] = m.indoorLevel ? m.indoorLevel.level : 0;
}

