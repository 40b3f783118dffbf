// Markers as the engine takes them: the options a caller gives (Google's names), checked for
// their JS types and encoded into the module's marker records, and the records the engine writes
// back read as options. Encodings only: a record carries what the caller gave, the engine
// completes it (its defaults for a marker added, the marker's current properties for one
// changed), ranges are the engine's to check, and what a marker does (where it is drawn, what
// it hides, when its info window opens) is decided there.

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
 * source); the module's stride (`cairn_map_layout(5)`) must equal their number. `given` has bit
 * i set for each field i given, `givenFlags` the bits of `flags` given.
 */
export const MARKER_FIELDS = Object.freeze([
  'latitude', 'longitude', 'altitudeMode', 'altitude', 'icon', 'groundAnchorX', 'groundAnchorY',
  'infoWindowAnchorX', 'infoWindowAnchorY', 'rotation', 'flags', 'opacity', 'zIndex', 'collision',
  'collisionPriority', 'appearAnimation', 'userData', 'indoorBuilding', 'indoorLevel', 'given', 'givenFlags',
]);

/** The icon number of the pin the host draws for markers without an icon, as the engine numbers it. */
export const DEFAULT_PIN = -1;

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
 * @typedef {object} MarkerOptions  a marker as the caller describes it, with Google's names; each option
 *   left out takes the engine's default (Google's), which `marker(id)` reports
 * @property {LatLng} position
 * @property {number} [altitude]  metres, for `relativeToGround` and `absolute`
 * @property {AltitudeMode} [altitudeMode]
 * @property {number} [icon]  a number from `registerIcon`, or DEFAULT_PIN (-1) for the default pin
 * @property {Point} [groundAnchor]  the icon's point on the position, in 0…1 of the icon
 * @property {Point} [infoWindowAnchor]  the icon's point the info window points at
 * @property {number} [rotation]  degrees clockwise about the ground anchor; from north for a flat marker
 * @property {boolean} [flat]  lies on the ground: turns with the map and is foreshortened by tilt
 * @property {number} [opacity]  0…1
 * @property {number} [zIndex]  higher draws on top
 * @property {boolean} [visible]
 * @property {CollisionBehavior} [collisionBehavior]
 * @property {number} [collisionPriority]  among optional markers, the higher wins
 * @property {AppearAnimation} [appearAnimation]  played once, when the marker is added
 * @property {string} [title]  shown in the info window; kept on the JS side (none: '')
 * @property {string} [snippet]  shown below the title; kept on the JS side (none: '')
 * @property {boolean} [customInfoWindow]  the app draws its own window, which opens without title or snippet
 * @property {boolean} [tracksInfoWindowChanges]  an open window redraws when the title or snippet changes
 *   (an `infoWindowContentChanged` event); otherwise it keeps the old content until reopened
 * @property {unknown} [userData]  any value of the app's, kept on the JS side
 * @property {{building: number, level: number} | null} [indoorLevel]  a level of a building
 *   (`addIndoorBuilding`'s id; levels from the top, 0 first): the marker is drawn only while
 *   that level is shown (feature G4); null for none
 */

/** @typedef {Required<MarkerOptions>} Marker  a marker's options, every one resolved */

/** @typedef {Omit<Marker, 'title' | 'snippet' | 'userData'>} EngineMarker  what the engine holds of a marker */

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

/** The options a marker takes. */
export const MARKER_OPTIONS = Object.freeze(Object.keys(CHECKS));

/**
 * A marker's options as given (undefined ones are not given), checked.
 * @param {unknown} given
 * @param {boolean} added  a new marker, which needs a position
 * @param {string} label  how messages name the options ('' for the call's own argument)
 * @param {string} call
 * @returns {Partial<Marker>}
 * @throws {CairnError} (INVALID_ARGUMENT) for an unknown option, a missing position, or a value of
 *   the wrong type, naming the option
 */
export function checkMarker(given, added, label, call) {
  const o = objectArg(given, label || 'options', call);
  const prefix = label ? `${label}.` : '';
  /** @type {Record<string, unknown>} */
  const out = {};
  const keys = Object.keys(o);
  for (const key of keys) {
    if (!Object.hasOwn(CHECKS, key)) throw argumentError(call, `${prefix}${key} is not a marker option`);
  }
  for (const key of keys) {
    if (o[key] !== undefined) out[key] = CHECKS[/** @type {keyof MarkerOptions} */ (key)](o[key], prefix + key, call);
  }
  if (added && out.position === undefined) CHECKS.position(undefined, `${prefix}position`, call);
  return /** @type {Partial<Marker>} */ (out);
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
 * Checks the module's marker records against MARKER_FIELDS.
 * @param {number} stride  `cairn_map_layout(5)`
 */
export function checkMarkerStride(stride) {
  if (stride !== STRIDE) {
    throw bindingError('MODULE_MISMATCH', `cairn: the module's marker records have ${stride} doubles but marker-records.js names ` +
      `${STRIDE}; update MARKER_FIELDS to match the engine`);
  }
}

/** The options that are flags of the record, named as the flags are. */
const FLAG_OPTIONS = /** @type {const} */ (['flat', 'visible', 'customInfoWindow', 'tracksInfoWindowChanges']);

/**
 * Writes marker `i` of `out` (records of MARKER_FIELDS.length doubles): the options given, and
 * which they are. A title or snippet goes as a flag (whether it is non-empty); the engine's
 * user-data field is not given, as the value stays on the JS side.
 * @param {Float64Array} out
 * @param {number} i
 * @param {Partial<Marker>} m  the options given
 */
export function encodeMarker(out, i, m) {
  const k = i * STRIDE;
  out.fill(0, k, k + STRIDE);
  let given = 0, flags = 0, givenFlags = 0;
  /** @param {string} field @param {number} value */
  const put = (field, value) => { out[k + R[field]] = value; given |= 1 << R[field]; };
  /** @param {number} bit @param {boolean} on */
  const flag = (bit, on) => { givenFlags |= bit; if (on) flags |= bit; };
  if (m.position) { put('latitude', m.position.latitude); put('longitude', m.position.longitude); }
  if (m.altitudeMode !== undefined) put('altitudeMode', ALTITUDE_MODES[m.altitudeMode]);
  if (m.altitude !== undefined) put('altitude', m.altitude);
  if (m.icon !== undefined) put('icon', m.icon);
  if (m.groundAnchor) { put('groundAnchorX', m.groundAnchor.x); put('groundAnchorY', m.groundAnchor.y); }
  if (m.infoWindowAnchor) { put('infoWindowAnchorX', m.infoWindowAnchor.x); put('infoWindowAnchorY', m.infoWindowAnchor.y); }
  if (m.rotation !== undefined) put('rotation', m.rotation);
  for (const name of FLAG_OPTIONS) if (m[name] !== undefined) flag(MARKER_FLAGS[name], Boolean(m[name]));
  if (m.title !== undefined) flag(MARKER_FLAGS.hasTitle, m.title !== '');
  if (m.snippet !== undefined) flag(MARKER_FLAGS.hasSnippet, m.snippet !== '');
  if (m.opacity !== undefined) put('opacity', m.opacity);
  if (m.zIndex !== undefined) put('zIndex', m.zIndex);
  if (m.collisionBehavior !== undefined) put('collision', COLLISION_BEHAVIORS[m.collisionBehavior]);
  if (m.collisionPriority !== undefined) put('collisionPriority', m.collisionPriority);
  if (m.appearAnimation !== undefined) put('appearAnimation', APPEAR_ANIMATIONS[m.appearAnimation]);
  if (m.indoorLevel !== undefined) {
    // null: on no building (the engine's building 0).
    put('indoorBuilding', m.indoorLevel ? m.indoorLevel.building : 0);
    put('indoorLevel', m.indoorLevel ? m.indoorLevel.level : 0);
  }
  out[k + R.flags] = flags;
  out[k + R.given] = given;
  out[k + R.givenFlags] = givenFlags;
}

/**
 * The name of an engine number in a table of them.
 * @template {string} K
 * @param {Readonly<Record<K, number>>} table
 * @param {number} value
 * @returns {K}
 */
function nameOfNumber(table, value) {
  const entry = Object.entries(table).find(([, v]) => v === value);
  if (!entry) throw bindingError('MODULE_MISMATCH', `cairn: the engine wrote ${value}, which marker-records.js does not name`);
  return /** @type {K} */ (entry[0]);
}

/**
 * A marker record the engine wrote back (every field given), as options.
 * @param {Float64Array} r  one record
 * @returns {EngineMarker}
 */
export function decodeMarker(r) {
  const flags = r[R.flags];
  const building = r[R.indoorBuilding];
  return {
    position: { latitude: r[R.latitude], longitude: r[R.longitude] },
    altitude: r[R.altitude],
    altitudeMode: nameOfNumber(ALTITUDE_MODES, r[R.altitudeMode]),
    icon: r[R.icon],
    groundAnchor: { x: r[R.groundAnchorX], y: r[R.groundAnchorY] },
    infoWindowAnchor: { x: r[R.infoWindowAnchorX], y: r[R.infoWindowAnchorY] },
    rotation: r[R.rotation],
    flat: (flags & MARKER_FLAGS.flat) !== 0,
    opacity: r[R.opacity],
    zIndex: r[R.zIndex],
    visible: (flags & MARKER_FLAGS.visible) !== 0,
    collisionBehavior: nameOfNumber(COLLISION_BEHAVIORS, r[R.collision]),
    collisionPriority: r[R.collisionPriority],
    appearAnimation: nameOfNumber(APPEAR_ANIMATIONS, r[R.appearAnimation]),
    customInfoWindow: (flags & MARKER_FLAGS.customInfoWindow) !== 0,
    tracksInfoWindowChanges: (flags & MARKER_FLAGS.tracksInfoWindowChanges) !== 0,
    indoorLevel: building === 0 ? null : { building, level: r[R.indoorLevel] },
  };
}
