// SIGINT and SIGTERM while output is being written. The default (ending the process at once)
// would leave the temporary output behind, and removing it from the signal handler races with
// the writer thread still adding files. So the first signal only sets a flag; the run stops at
// its next checkpoint and unwinds like any failure (the writer thread stopped, then the
// temporary output removed); then the signal is raised again to end the process as it would
// have. A second signal ends it at once, removing what it can.

import { removeAll } from './write/atomic-directory.js';

/** @type {NodeJS.Signals[]} */
const SIGNALS = ['SIGINT', 'SIGTERM'];

/** The run was stopped by a signal; main() raises it again once everything is cleaned up. */
export class Interrupted extends Error {
  /** @param {NodeJS.Signals} signal */
  constructor(signal) {
    super(`interrupted by ${signal}`);
    this.name = 'Interrupted';
    this.signal = signal;
  }
}

/** Watches for SIGINT and SIGTERM from construction on. */
export class SignalWatch {
  /** @type {NodeJS.Signals | null} the first signal received */
  signal = null;
  #finished = false;
  #handler;

  constructor() {
    /** @param {NodeJS.Signals} signal */
    this.#handler = (signal) => {
      if (this.signal === null && !this.#finished) {
        this.signal = signal;
        return;
      }
      removeAll();
      raise(signal);
    };
    for (const s of SIGNALS) process.on(s, this.#handler);
  }

  /**
   * The output is complete: a signal from now on ends the process at once. The handler stays:
   * removing it could drop a signal that arrived a moment before and is not yet handled.
   */
  finish() {
    this.#finished = true;
  }

  /**
   * A checkpoint: throws once a signal has arrived.
   * @throws {Interrupted}
   */
  check() {
    if (this.signal !== null) throw new Interrupted(this.signal);
  }

  /** Stops watching (the default handling applies again). */
  stop() {
    for (const s of SIGNALS) process.removeListener(s, this.#handler);
  }
}

/**
 * Ends the process by a signal, as if it had not been caught (so that a shell sees it).
 * @param {NodeJS.Signals} signal
 */
export function raise(signal) {
  for (const s of SIGNALS) process.removeAllListeners(s);
  process.kill(process.pid, signal);
}
