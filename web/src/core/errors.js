// Errors from the engine and the bindings. Every export returns a status (negative = failure)
// and leaves a number in `cairn_last_error_detail` saying which point, option or cluster was at
// fault; this file turns the two into an Error a person can act on. What the bindings refuse
// before the engine sees it (an argument of the wrong type, a module that does not load) is a
// CairnError too, so that every error of the API has a code to branch on.

/**
 * The clustering options, in the order of the engine's option field numbers (the detail of an
 * INVALID_OPTION status), with the rule the engine enforces, for the message.
 * @type {ReadonlyArray<{name: string, rule: string}>}
 */
export const OPTION_FIELDS = Object.freeze([
  { name: 'radius', rule: 'must be a finite number > 0' },
  { name: 'extent', rule: 'must be a finite number > 0' },
  { name: 'minZoom', rule: 'must be an integer from 0 to 30' },
  { name: 'maxZoom', rule: 'must be an integer from minZoom to 30' },
  { name: 'minPoints', rule: 'must be an integer ≥ 1' },
]);

/**
 * @typedef {object} StatusInfo
 * @property {string} code   stable name, e.g. 'INVALID_OPTION'
 * @property {string} name   the engine's name for the case, e.g. 'invalidOption'
 * @property {(detail: number) => string} describe  the message for a detail
 */

/**
 * Every engine status code (positive; the ABI returns it negated).
 * @type {Readonly<Record<number, StatusInfo>>}
 */
export const STATUS_CODES = Object.freeze({
  1: { code: 'INVALID_HANDLE', name: 'invalidHandle', describe: () => 'the index or map does not exist (destroyed, or never created)' },
  2: { code: 'INVALID_ARGUMENT', name: 'invalidArgument', describe: () => 'invalid argument' },
  3: {
    code: 'INVALID_OPTION', name: 'invalidOption',
    describe: (field) => {
      const f = OPTION_FIELDS[field];
      return f ? `option ${f.name} is out of range: ${f.rule}` : `an option is out of range (field ${field})`;
    },
  },
  4: { code: 'NON_FINITE_COORDINATE', name: 'nonFiniteCoordinate', describe: (i) => `point ${i} has a non-finite coordinate` },
  5: { code: 'LATITUDE_OUT_OF_RANGE', name: 'latitudeOutOfRange', describe: (i) => `point ${i} has a latitude outside -90…90` },
  6: { code: 'UNKNOWN_CLUSTER', name: 'unknownCluster', describe: (id) => `no cluster with id ${id} (unknown or stale)` },
  7: { code: 'INVALID_STATE', name: 'invalidState', describe: () => 'the index is not in a state that allows this call' },
  8: { code: 'TOO_MANY_POINTS', name: 'tooManyPoints', describe: () => 'too many points for one index' },
  9: { code: 'OUT_OF_MEMORY', name: 'outOfMemory', describe: (n) => `not enough memory left to hold and cluster ${n} more points` },
  10: { code: 'NON_FINITE_VALUE', name: 'nonFiniteValue', describe: (i) => `point ${i} has an infinite value for an aggregated property` },
  11: { code: 'INVALID_RECORD', name: 'invalidRecord', describe: (i) => `record ${i} of the batch is malformed (unknown type or a non-finite number); nothing was applied` },
  12: {
    code: 'INVALID_BUCKETS', name: 'invalidBuckets',
    describe: (p) => `cluster icon buckets ${['', 'are empty', 'must be whole numbers above 0', 'must be strictly increasing', 'need one colour each'][p] ?? 'are invalid'}`,
  },
  13: { code: 'UNKNOWN_MARKER', name: 'unknownMarker', describe: (id) => `no marker with id ${id} (removed, cleared, or never added)` },
  14: {
    code: 'INVALID_MARKER', name: 'invalidMarker',
    describe: (f) => `marker ${['', 'position (finite, latitude within ±90)', 'altitude', 'icon', 'groundAnchor', 'infoWindowAnchor', 'rotation', 'opacity (0…1)', 'zIndex', 'collisionPriority', 'indoorLevel (a level of a building on the map)'][f] || 'property'} is invalid`,
  },
  15: {
    code: 'INVALID_MARKER_IN_BATCH', name: 'invalidMarkerInBatch',
    // The engine's detail is position × 16 + the property; the bindings pass the position.
    describe: (i) => `marker ${i} of the batch has an invalid property; none was added`,
  },
  // The limits of the engine: each detail is the limit.
  16: { code: 'TOO_MANY_INDEXES', name: 'tooManyIndexes', describe: (n) => `too many indexes at once: at most ${n} can exist (destroy one first)` },
  17: { code: 'TOO_MANY_MAPS', name: 'tooManyMaps', describe: (n) => `too many maps at once: at most ${n} can exist (destroy one first)` },
  18: { code: 'TOO_MANY_CLUSTER_MANAGERS', name: 'tooManyClusterManagers', describe: (n) => `a map holds at most ${n} cluster managers at once` },
  19: { code: 'TOO_MANY_MARKERS', name: 'tooManyMarkers', describe: (n) => `a map holds at most ${n} markers` },
  20: { code: 'TOO_MANY_ITEMS', name: 'tooManyItems', describe: (n) => `a cluster manager holds at most ${n} items` },
  21: { code: 'TOO_MANY_ICONS', name: 'tooManyIcons', describe: (n) => `a map registers at most ${n} icons` },
  22: { code: 'TOO_MANY_BUILDINGS', name: 'tooManyBuildings', describe: (n) => `a map takes at most ${n} indoor buildings over its life` },
  23: {
    code: 'INVALID_SAVED_INDEX', name: 'invalidSavedIndex',
    describe: (p) => `not a usable saved index: ${SAVED_INDEX_PROBLEMS[p] ?? 'it is malformed'}`,
  },
  24: { code: 'UNKNOWN_POINT', name: 'unknownPoint', describe: (id) => `no point with id ${id} (never added, or removed)` },
});

/** Why a buffer was refused as a saved index (the detail of INVALID_SAVED_INDEX). */
const SAVED_INDEX_PROBLEMS = Object.freeze([
  'it is truncated (shorter than its content)',
  'it is not a saved index',
  'it was saved in another format version than this engine reads',
  'its content does not match its checksum (altered or damaged)',
  'its content contradicts itself',
]);

/** Codes of errors only the bindings raise, with no engine status (their `status` is 0). */
export const BINDING_CODES = Object.freeze({
  MODULE_LOAD_FAILED: 'init could not read or fetch the module',
  MODULE_MISMATCH: 'the module is not the cairn.wasm these bindings were written for',
  IMAGE_LOAD_FAILED: 'an icon image could not be loaded or decoded',
  WORKER_FAILED: 'the worker thread of a WorkerClusterIndex could not start, or stopped',
});

/**
 * The ABI status (negative) of each code, by code name.
 * @type {Readonly<Record<string, number>>}
 */
export const STATUS_BY_CODE = Object.freeze(Object.fromEntries(Object.entries(STATUS_CODES).map(([n, s]) => [s.code, -Number(n)])));

/**
 * An error reported by the engine, or by the bindings: on the engine's behalf (a feature that is
 * not a Point, an argument of the wrong type) with the engine's codes, or with one of
 * BINDING_CODES and `status` 0 (a module that does not load or does not match).
 */
export class CairnError extends Error {
  /**
   * @param {string} message
   * @param {{code: string, status: number, detail?: number, cause?: unknown}} info
   *   `code`: a name from STATUS_CODES or BINDING_CODES; `status`: the ABI status (the negated
   *   code), 0 for a binding code; `detail`: the point index, option field number or cluster id
   *   the error is about; `cause`: the error that led to this one, if any
   */
  constructor(message, { code, status, detail = 0, cause }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'CairnError';
    /** @type {string} */
    this.code = code;
    /** @type {number} */
    this.status = status;
    /** @type {number} */
    this.detail = detail;
  }
}

/**
 * Turns a negative status and its detail into a CairnError.
 * @param {number} status  what an export returned (negative)
 * @param {number} detail  `cairn_last_error_detail()` (or a value the caller knows better, such
 *   as the input index of a point when the engine only saw part of the input)
 * @param {{call?: string, hint?: string}} [context]  the method that failed, and advice
 * @returns {CairnError}
 */
export function errorFromStatus(status, detail, context = {}) {
  const info = STATUS_CODES[-status];
  const text = info ? info.describe(detail) : `unknown engine status ${status}`;
  const message = `${context.call ? `${context.call}: ` : ''}${text}${context.hint ? ` (${context.hint})` : ''}`;
  return new CairnError(message, { code: info ? info.code : 'UNKNOWN', status, detail });
}

/**
 * The error for a marker (or cluster item) the engine refused with INVALID_MARKER_IN_BATCH, whose
 * detail is the position × 16 + the property (`MarkerProperties.Field`; 0: the record itself):
 * for a call that adds a batch, INVALID_MARKER_IN_BATCH naming the position (and the property in
 * the message); for one that adds one, INVALID_MARKER naming the property.
 * @param {number} detail  `cairn_last_error_detail()`
 * @param {string} call
 * @param {boolean} batch
 * @returns {CairnError}
 */
export function refusedInBatch(detail, call, batch) {
  const property = detail % 16;
  if (!batch) return errorFromStatus(STATUS_BY_CODE.INVALID_MARKER, property, { call });
  const hint = STATUS_CODES[-STATUS_BY_CODE.INVALID_MARKER].describe(property);
  return errorFromStatus(STATUS_BY_CODE.INVALID_MARKER_IN_BATCH, Math.floor(detail / 16), { call, hint });
}

/**
 * A CairnError with code INVALID_ARGUMENT, for arguments the bindings refuse before the engine
 * sees them (a string where a number belongs, a buffer of the wrong type).
 * @param {string} call  the method or function refused
 * @param {string} text
 * @returns {CairnError}
 */
export function argumentError(call, text) {
  return new CairnError(`${call}: ${text}`, { code: 'INVALID_ARGUMENT', status: STATUS_BY_CODE.INVALID_ARGUMENT });
}

/**
 * A CairnError with code INVALID_OPTION, as the engine reports an option out of range: the
 * detail is the option's field number (see OPTION_FIELDS), or -1 for an option the engine does
 * not take (aggregates, map, reduce).
 * @param {string} call
 * @param {string} name  the option
 * @param {string} text
 * @returns {CairnError}
 */
export function optionError(call, name, text) {
  return new CairnError(`${call}: ${text}`, {
    code: 'INVALID_OPTION', status: STATUS_BY_CODE.INVALID_OPTION, detail: OPTION_FIELDS.findIndex((f) => f.name === name),
  });
}

/**
 * A CairnError with code OUT_OF_MEMORY, for a buffer the module's memory could not give.
 * @param {string} call
 * @param {string} text  what could not be had
 * @returns {CairnError}
 */
export function memoryError(call, text) {
  return new CairnError(`${call}: ${text}`, { code: 'OUT_OF_MEMORY', status: STATUS_BY_CODE.OUT_OF_MEMORY });
}

/**
 * A CairnError with one of BINDING_CODES.
 * @param {keyof typeof BINDING_CODES} code
 * @param {string} message
 * @param {unknown} [cause]  the error that led to it (a failed read, a compile error)
 * @returns {CairnError}
 */
export function bindingError(code, message, cause) {
  return new CairnError(message, { code, status: 0, cause });
}

/**
 * A value as an error message shows it: strings quoted, and never a throw of its own (a
 * Symbol, or an object with no way to become a string).
 * @param {unknown} value
 * @returns {string}
 */
export function describeValue(value) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'symbol') return 'a symbol';
  try {
    return String(value);
  } catch {
    return 'an object that cannot be shown';
  }
}
