// The C ABI fuzzed (web/bench/fuzz/abi-fuzz.js): every export, in a module instance of its own
// per seed, called with random and adversarial arguments. A trap, an exception, a status the
// module does not define or a call slower than the hang guard fails the run, naming the seed
// and the step: `node web/bench/fuzz.js --only abi --seed N` replays it. Fixed seeds, and one
// from the clock that every run prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';

import { ABI_ROLES, fuzzAbi, roleGaps } from '../../bench/fuzz/abi-fuzz.js';
import { FIXED_SEEDS, clockSeed } from '../../bench/fuzz/fuzz-random.js';

/** Seconds of fuzzing per seed, and the fewest calls however long they take (enough that every
 * export is picked, on a slow machine too). */
const SECONDS = 4;
const MIN_STEPS = 4000;

test('the fuzzer knows every export the bindings use, with as many parameters', () => {
  assert.deepEqual(roleGaps(), { unbound: [], unfuzzed: [], arity: [] });
  assert.ok(Object.keys(ABI_ROLES).length >= 70);
});

for (const seed of [...FIXED_SEEDS, clockSeed()]) {
  test(`every export survives random and adversarial calls (seed ${seed})`, async (t) => {
    t.diagnostic(`seed ${seed}; replay: node web/bench/fuzz.js --only abi --seed ${seed}`);
    const run = await fuzzAbi({ seed, minSteps: MIN_STEPS, until: performance.now() + SECONDS * 1000 });
    t.diagnostic(`${run.steps} calls; a frame drew up to ${run.drawn} items`);
    const never = Object.entries(run.calls).filter(([, n]) => n === 0).map(([name]) => name);
    assert.deepEqual(never, [], 'every export is called');
    // Calls that find state: indexes and maps made, items added, frames that draw them.
    for (const name of ['cairn_index_create', 'cairn_index_clusters', 'cairn_map_create', 'cairn_map_add_cluster_coordinates', 'cairn_map_frame']) {
      assert.ok(run.succeeded[name] > 0, `${name} succeeded ${run.succeeded[name]} times of ${run.calls[name]}`);
    }
    assert.ok(run.drawn > 0, 'some frame drew something');
  });
}
