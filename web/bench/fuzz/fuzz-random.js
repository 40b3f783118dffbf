// What every fuzzer of web/bench/fuzz shares: a seeded source of ordinary and adversarial
// values, the seeds a run uses, the hang guard, and the failure that names its seed and step so
// that `node web/bench/fuzz.js --only NAME --seed N` replays it.

import { performance } from 'node:perf_hooks';

import { mulberry32 } from '../generate.js';

/** The seeds every default run fuzzes, whatever the clock says. */
export const FIXED_SEEDS = Object.freeze([1, 2, 3]);

/** Longest an engine call may take before the fuzzer calls it a hang: generous, as frames take milliseconds. */
export const HANG_MS = 1000;

/** Items per cluster manager (and markers per map; points per index: 5×) unless a run says otherwise. */
export const MAX_ITEMS = 2000;

/**
 * The replay options for a run's size limit and hang guard, where they are not the defaults.
 * @param {number} maxItems
 * @param {number} [hangMs]
 */
export const sizeFlag = (maxItems, hangMs = HANG_MS) =>
  `${maxItems === MAX_ITEMS ? '' : ` --max-items ${maxItems}`}${hangMs === HANG_MS ? '' : ` --hang-ms ${hangMs}`}`;

/** A seed from the clock, different from run to run (printed, so that a failure can be replayed). */
export function clockSeed() {
  return (Date.now() ^ (performance.now() * 1000)) >>> 0;
}

/** Doubles at and beyond every edge the engine checks: NaN, infinities, zeros, the world's limits, integer limits. */
export const EDGE_NUMBERS = Object.freeze([NaN, Infinity, -Infinity, 0, -0, 1, -1, 0.5, 2, 3, 5e-324, -5e-324,
  1e-300, 1e300, -1e300, Number.MAX_VALUE, -Number.MAX_VALUE, 85.0511287798, -85.0511287798, 85.06, 90, -90,
  90.000001, 180, -180, 180.000001, 360, 540, 22, 30, 31, 255, 256, 4096, 4097, 65535, 65536,
  2 ** 24, 2 ** 24 + 1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 32, 2 ** 32 + 1,
  2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e15, 1e21]);

/** 32-bit integers at the edges: what an i32 parameter receives (JS numbers wrap to it). */
export const EDGE_INTS = Object.freeze([0, 1, -1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 63, 64, 255, 256, 1023, 1024,
  1025, 4095, 4096, 65535, 65536, 2 ** 24, 2 ** 24 + 1, 2 ** 30, 2 ** 31 - 1, -(2 ** 31), -(2 ** 31) + 1, -2, -16]);

/** A fuzzer's failure: what happened, at which step of which seed, and the calls just before. */
export class FuzzFailure extends Error {
  /**
   * @param {string} fuzzer  its name for --only
   * @param {number} seed
   * @param {number} step
   * @param {string} message
   * @param {string[]} recent  the last calls, oldest first
   * @param {unknown} [cause]
   * @param {string} [flags]  options of the run to replay it with (` --max-items 10000`)
   */
  constructor(fuzzer, seed, step, message, recent, cause, flags = '') {
    super(`${fuzzer} fuzz, seed ${seed}, step ${step}: ${message}\n` +
      `  replay: node web/bench/fuzz.js --only ${fuzzer} --seed ${seed}${flags} --steps ${step + 1}\n` +
      `  last calls:\n${recent.map((call) => `    ${call}`).join('\n')}`, cause === undefined ? undefined : { cause });
    this.name = 'FuzzFailure';
    this.seed = seed;
    this.step = step;
  }
}

/** The last calls a fuzzer made, kept for its failure message. */
const RECENT_CALLS = 12;

/** A seeded stream of choices, with a record of the calls made from them. */
export class Fuzz {
  /**
   * @param {string} name  the fuzzer's name, for failures
   * @param {number} seed
   * @param {string} [flags]  options to replay it with, for failures
   * @param {number} [hangMs]  the hang guard
   */
  constructor(name, seed, flags = '', hangMs = HANG_MS) {
    this.name = name;
    this.seed = seed;
    this.flags = flags;
    this.hangMs = hangMs;
    this.random = mulberry32(seed);
    this.step = 0;
    /** @type {string[]} */
    this.recent = [];
  }

  /** A whole number from 0 to n − 1. */
  int(n) { return Math.floor(this.random() * n); }

  /** True with probability p. */
  chance(p) { return this.random() < p; }

  /**
   * One element of a list.
   * @template T
   * @param {readonly T[]} list
   * @returns {T}
   */
  pick(list) { return list[this.int(list.length)]; }

  /** A double from a ≤ x < b. */
  between(a, b) { return a + (b - a) * this.random(); }

  /** Mostly `ordinary()`, sometimes a double at or beyond an edge. */
  number(ordinary, edge = 0.15) { return this.chance(edge) ? this.pick(EDGE_NUMBERS) : ordinary(); }

  /** A 32-bit integer: mostly below `n`, sometimes at an edge. */
  int32(n, edge = 0.15) { return this.chance(edge) ? this.pick(EDGE_INTS) : this.int(n); }

  /** A latitude, longitude pair of doubles, mostly valid. */
  latitude() { return this.number(() => this.between(-85, 85), 0.08); }
  longitude() { return this.number(() => this.between(-180, 180), 0.08); }

  /** Remembers a call for the failure message. */
  note(text) {
    this.recent.push(text);
    if (this.recent.length > RECENT_CALLS) this.recent.shift();
  }

  /**
   * A failure at the current step.
   * @param {string} message
   * @param {unknown} [cause]
   */
  fail(message, cause) {
    return new FuzzFailure(this.name, this.seed, this.step, message, this.recent, cause, this.flags);
  }
}

/**
 * Runs `call`, timing it against the hang guard.
 * @template T
 * @param {Fuzz} fuzz
 * @param {string} label  what is called, for the failure
 * @param {() => T} call
 * @param {number} [limitMs]  the run's hang guard unless given
 * @returns {T}
 */
export function timed(fuzz, label, call, limitMs = fuzz.hangMs) {
  const start = performance.now();
  const result = call();
  const ms = performance.now() - start;
  if (ms > limitMs) throw fuzz.fail(`${label} took ${ms.toFixed(0)} ms (the hang guard is ${limitMs} ms)`);
  return result;
}

/** A value for a message: numbers as they are (NaN, -0 and infinities too), other values as JSON, cut short. */
export function show(value) {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol' || typeof value === 'function' || value === undefined) return String(value);
  let text;
  try {
    text = JSON.stringify(value, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : typeof v === 'bigint' ? `${v}n` : v));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  text = String(text);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
