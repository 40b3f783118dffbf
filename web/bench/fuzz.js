// The fuzzers of web/bench/fuzz for longer than the test suite runs them, or one seed again.
//
//   node web/bench/fuzz.js [--minutes M] [--only abi|api|abi-memory|api-memory] [--seed N]
//                          [--steps K] [--max-items N] [--hang-ms T] [--seconds-per-seed S]
//
// Without --seed: new seeds (from the clock, then counting up) for M minutes (default 10), each
// fuzzer in turn, S seconds a seed (default 30). With --seed: that seed only, until the time is
// up or K calls are made (a failure names its step: K = step + 1 replays it exactly). Exits 1 at
// the first failure, printing it and how to replay it. --max-items (default 2,000) sets the
// most items per cluster manager and markers per map (points per index: 5×); larger sizes go
// where the test suite does not; --hang-ms (default 1,000) sets the hang guard of the call
// fuzzers (a lower one finds slow frames).

import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

import { fuzzAbi } from './fuzz/abi-fuzz.js';
import { fuzzApi } from './fuzz/api-fuzz.js';
import { abiMemoryCycles, apiMemoryCyclesApart } from './fuzz/memory-fuzz.js';
import { HANG_MS, MAX_ITEMS, clockSeed } from './fuzz/fuzz-random.js';

/** The fuzzers by name: each takes a seed, a deadline, a step limit and the size limit. */
const FUZZERS = {
  abi: (seed, until, steps, maxItems) => fuzzAbi({ seed, until, steps, maxItems, hangMs })
    .then((r) => `${r.steps.toLocaleString('en-US')} calls, frames of up to ${r.drawn} items`),
  api: (seed, until, steps, maxItems) => fuzzApi({ seed, until, steps, maxItems, hangMs })
    .then((r) => `${r.steps.toLocaleString('en-US')} calls (${r.errors.toLocaleString('en-US')} refused), frames of up to ${r.drawn} items`),
  'abi-memory': (seed, _until, _steps, maxItems) => abiMemoryCycles({ seed, maxItems })
    .then((r) => `${r.bytes.length} cycles, memory ${r.bytes[r.bytes.length - 1]} bytes`),
  'api-memory': (seed, _until, _steps, maxItems) => apiMemoryCyclesApart({ seed, maxItems })
    .then((r) => `${r.bytes.length} cycles, memory ${r.bytes[r.bytes.length - 1]} bytes`),
};

function usage(message) {
  console.error(`fuzz: ${message}\nusage: node web/bench/fuzz.js [--minutes M] [--only ${Object.keys(FUZZERS).join('|')}] ` +
    '[--seed N] [--steps K] [--max-items N] [--hang-ms T] [--seconds-per-seed S]');
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      minutes: { type: 'string' }, only: { type: 'string' }, seed: { type: 'string' }, steps: { type: 'string' },
      'max-items': { type: 'string' }, 'hang-ms': { type: 'string' }, 'seconds-per-seed': { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  usage(String(/** @type {Error} */ (error).message).split(/\.\s/)[0]);
}
if (values.help) usage('fuzzes the module for a while');
const positive = (text, flag, fallback) => {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!(n > 0) || !Number.isFinite(n)) usage(`${flag} must be a number above 0, not ${JSON.stringify(text)}`);
  return n;
};
const minutes = positive(values.minutes, '--minutes', values.seed === undefined ? 10 : 2);
const perSeed = positive(values['seconds-per-seed'], '--seconds-per-seed', 30);
const steps = positive(values.steps, '--steps', Infinity);
const maxItems = positive(values['max-items'], '--max-items', MAX_ITEMS);
const hangMs = positive(values['hang-ms'], '--hang-ms', HANG_MS);
const names = values.only === undefined ? Object.keys(FUZZERS) : values.only.split(',');
for (const name of names) if (!(name in FUZZERS)) usage(`no fuzzer "${name}"`);
if (values.seed !== undefined && !/^\d+$/.test(values.seed)) usage(`--seed must be a whole number, not ${JSON.stringify(values.seed)}`);

const end = performance.now() + minutes * 60_000;
let seed = values.seed === undefined ? clockSeed() : Number(values.seed);
let runs = 0;
console.log(`fuzzing ${names.join(', ')} for ${minutes} min${values.seed === undefined ? `, from seed ${seed}` : ` with seed ${seed}`}` +
  ` (at most ${maxItems} items per manager)`);
do {
  for (const name of names) {
    // A new seed gets its slice of time; one seed, its share of all of it.
    const until = Math.min(end, performance.now() + (values.seed === undefined ? perSeed * 1000 : (minutes * 60_000) / names.length));
    const start = performance.now();
    try {
      const summary = await FUZZERS[name](seed, until, steps, maxItems);
      console.log(`${name} seed ${seed}: ${summary} in ${((performance.now() - start) / 1000).toFixed(1)} s`);
    } catch (error) {
      console.error(error instanceof Error && error.name === 'FuzzFailure' ? error.message : error);
      process.exit(1);
    }
    runs++;
    if (performance.now() >= end) break;
  }
  seed = (seed + 1) >>> 0;
} while (values.seed === undefined && performance.now() < end);
console.log(`no failure in ${runs} run${runs === 1 ? '' : 's'}`);
