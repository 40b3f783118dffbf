// The ways a run can end, as exit codes (feature N3): 0 done, 1 the input is bad (or the run
// failed while working on it), 2 the command line is wrong. Errors carry their exit code so
// that whoever catches them last needs no table.

import { count } from './progress.js';

/** Exit codes of `cairn`. */
export const EXIT = Object.freeze({ OK: 0, INPUT: 1, USAGE: 2 });

/** The command line cannot be run as given: unknown option, bad value, output in the way. */
export class UsageError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'UsageError';
    this.exitCode = EXIT.USAGE;
  }
}

/** The input cannot be clustered: its message names the line or feature and the problem. */
export class InputError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'InputError';
    this.exitCode = EXIT.INPUT;
  }
}

/**
 * Why JSON.parse refused a text, on one line: its message quotes the text, which may span
 * lines, and a run's error is one line. Control characters of the text (binary input) are
 * escaped, as a terminal would act on them.
 * @param {unknown} error  what JSON.parse threw
 * @returns {string}
 */
export function jsonReason(error) {
  return String(error instanceof Error ? error.message : error).replace(/\s*\n\s*/g, ' ').replace(CONTROL, escapeControl);
}

/** A text a message quotes is cut after this many characters. */
const QUOTED_LENGTH = 60;
/** Column names a message lists, at most. */
const LISTED_NAMES = 8;
/** Control characters, which a terminal would act on: global to replace them, plain to test for one. */
const CONTROL = /[\x00-\x1f\x7f]/g;
const A_CONTROL = /[\x00-\x1f\x7f]/;

/** @param {string} c */
const escapeControl = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * A text of the input for a message, in JSON quotes: cut when long, saying how long it was
 * (a binary file's first "line" may be the whole file, and a message is one line).
 * @param {string} text
 * @returns {string}
 */
export function quoted(text) {
  if (text.length <= QUOTED_LENGTH) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, QUOTED_LENGTH))}… (${count(text.length)} characters)`;
}

/**
 * A text of the input for a message, as it is when short and printable, else as `quoted`.
 * @param {string} text
 * @returns {string}
 */
export function unquoted(text) {
  return text.length <= QUOTED_LENGTH && !A_CONTROL.test(text) ? text : quoted(text);
}

/**
 * A JSON value of the input for a message: as JSON, cut as `quoted` cuts text.
 * @param {unknown} value
 * @returns {string}
 */
export function quotedJson(value) {
  if (typeof value === 'string') return quoted(value);
  const text = jsonText(value);
  if (text === null) return `${Array.isArray(value) ? '[' : '{'}… (nested too deeply to write out)`;
  return text.length <= QUOTED_LENGTH ? text : `${text.slice(0, QUOTED_LENGTH)}… (${count(text.length)} characters)`;
}

/**
 * JSON.stringify, or null for a value nested too deeply for it (it recurses, and runs out of
 * stack on input that JSON.parse reads).
 * @param {unknown} value
 * @returns {string | null}
 */
function jsonText(value) {
  try {
    return String(JSON.stringify(value));
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/**
 * Names for a message, quoted: the first few, and how many there are when there are more.
 * @param {string[]} names
 * @param {string} [what]  what they are, for the count: "columns"
 */
export function quotedList(names, what = 'columns') {
  const shown = names.slice(0, LISTED_NAMES).map(quoted).join(', ');
  return names.length <= LISTED_NAMES ? shown : `${shown}, … (${count(names.length)} ${what})`;
}

/**
 * A system error's reason without the call and its paths: "no such file or directory".
 * @param {unknown} error
 * @returns {string}
 */
export function systemReason(error) {
  const e = /** @type {any} */ (error);
  const code = e && e.code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EPERM') return 'operation not permitted';
  if (code === 'EISDIR') return 'it is a directory';
  return e && e.message ? e.message : String(error);
}
