// What a run says on standard error: progress while it works (on a terminal, or when asked
// with --progress), notes such as the count of dropped points (unless --quiet), warnings of
// what was left undone (always), and nothing else, so that standard output stays clean for
// GeoJSON.

import { performance } from 'node:perf_hooks';

/** Updates per second at most: on a terminal the line is redrawn, elsewhere a line is added. */
const TERMINAL_INTERVAL_MS = 100;
const LOG_INTERVAL_MS = 1000;

/**
 * @typedef {object} ReporterOptions
 * @property {{write(text: string): any, isTTY?: boolean}} stream  standard error
 * @property {boolean} progress  show progress
 * @property {boolean} quiet  show no notes either
 */

/** Progress and notes on standard error. */
export class Reporter {
  #stream;
  #progress;
  #quiet;
  #terminal;
  #start = performance.now();
  #last = -Infinity;
  /** Whether a progress line is on screen, to be cleared before other text. */
  #drawn = false;

  /** @param {ReporterOptions} options */
  constructor({ stream, progress, quiet }) {
    this.#stream = stream;
    this.#progress = progress;
    this.#quiet = quiet;
    this.#terminal = Boolean(stream.isTTY);
  }

  /** Seconds since the run started, for messages. */
  get elapsed() {
    return (performance.now() - this.#start) / 1000;
  }

  /**
   * Reports where the run is. Frequent calls are cheap: most are dropped.
   * @param {string} text
   * @param {boolean} [now]  show it even if the last report was a moment ago (a new phase)
   */
  progress(text, now = false) {
    if (!this.#progress) return;
    const t = performance.now();
    if (!now && t - this.#last < (this.#terminal ? TERMINAL_INTERVAL_MS : LOG_INTERVAL_MS)) return;
    this.#last = t;
    const line = `[${this.elapsed.toFixed(1).padStart(6)}s] ${text}`;
    if (this.#terminal) {
      this.#stream.write(`\r${line}\x1b[K`);
      this.#drawn = true;
    } else {
      this.#stream.write(`${line}\n`);
    }
  }

  /**
   * A note that stays (not shown with --quiet).
   * @param {string} text
   */
  note(text) {
    if (this.#quiet) return;
    this.#clear();
    this.#stream.write(`${text}\n`);
  }

  /**
   * A problem the run could step over, which the user still has to act on: shown with --quiet
   * too, as errors are.
   * @param {string} text
   */
  warn(text) {
    this.#clear();
    this.#stream.write(`cairn: ${text}\n`);
  }

  /**
   * Ends the run's reports: a progress line drawn on a terminal stays, and what follows (an
   * error, the shell's prompt) starts on a line of its own.
   */
  end() {
    if (!this.#drawn) return;
    this.#stream.write('\n');
    this.#drawn = false;
  }

  /** Clears the progress line, if one is drawn. */
  #clear() {
    if (!this.#drawn) return;
    this.#stream.write('\r\x1b[K');
    this.#drawn = false;
  }
}

/**
 * 1234567 → "1,234,567".
 * @param {number} n
 */
export function count(n) {
  return n.toLocaleString('en-US');
}
