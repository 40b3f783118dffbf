// The JavaScript API fuzzed (web/bench/fuzz/api-fuzz.js): ClusterIndex, MapEngine, markers,
// indoor buildings and cluster managers in random call sequences with plausible and garbage
// arguments, live and destroyed. A trap, an error that is not a CairnError with a code, or a
// frame or clustering slower than the hang guard (1 s) fails the run, naming the seed and the
// step: `node web/bench/fuzz.js --only api --seed N` replays it. Fixed seeds, and one from the
// clock that every run prints. Sizes stay at 2,000 items per manager at most.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';

import { fuzzApi } from '../../bench/fuzz/api-fuzz.js';
import { FIXED_SEEDS, clockSeed } from '../../bench/fuzz/fuzz-random.js';

/** Seconds of fuzzing per seed. */
const SECONDS = 5;

for (const seed of [...FIXED_SEEDS, clockSeed()]) {
  test(`random call sequences of the JS API never trap nor hang (seed ${seed})`, async (t) => {
    t.diagnostic(`seed ${seed}; replay: node web/bench/fuzz.js --only api --seed ${seed}`);
    const run = await fuzzApi({ seed, until: performance.now() + SECONDS * 1000 });
    t.diagnostic(`${run.steps} calls, ${run.errors} CairnErrors; a frame drew up to ${run.drawn} items`);
    assert.ok(run.steps > 100, `${run.steps} calls`);
    assert.ok(run.drawn > 0, 'some frame drew something');
    assert.ok(run.errors > 0, 'garbage was refused with CairnErrors');
  });
}

// Sequences that once failed, replayed to the step that failed.
const REPLAYS = [
  // A marker's copies of the world bounded near infinity, on a map turned away from north.
  { seed: 1, steps: 2530 },
];

for (const { seed, steps } of REPLAYS) {
  test(`the call sequence of seed ${seed} runs its ${steps} steps without a trap`, async () => {
    const run = await fuzzApi({ seed, steps, until: Infinity });
    assert.equal(run.steps, steps);
    assert.ok(run.drawn > 0, 'some frame drew something');
  });
}

test('the fuzzer fails on an error that is not a CairnError, naming its seed and step', async () => {
  // A MapEngine whose frame throws a plain error: what a bug in the bindings would look like.
  const { MapEngine } = await import('../../src/index.js');
  const frame = MapEngine.prototype.frame;
  MapEngine.prototype.frame = function broken() { throw new TypeError('a bug'); };
  try {
    await assert.rejects(fuzzApi({ seed: 7, until: performance.now() + 5000 }),
      (error) => error.name === 'FuzzFailure' && /^api fuzz, seed 7, step \d+: frame\(.*\) threw TypeError: a bug\n {2}replay: node web\/bench\/fuzz\.js --only api --seed 7 --steps \d+\n/.test(error.message));
  } finally {
    MapEngine.prototype.frame = frame;
  }
});
