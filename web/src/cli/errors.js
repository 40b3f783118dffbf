// The ways a run can end, as exit codes (feature N3): 0 done, 1 the input is bad (or the run
// failed while working on it), 2 the command line is wrong. Errors carry their exit code so
// that whoever catches them last needs no table.

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
 * lines, and a run's error is one line.
 * @param {unknown} error  what JSON.parse threw
 * @returns {string}
 */
export function jsonReason(error) {
  return String(error instanceof Error ? error.message : error).replace(/\s*\n\s*/g, ' ');
}
