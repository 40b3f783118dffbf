// The module's memory over create/destroy cycles (web/bench/fuzz/memory-fuzz.js): each seed
// draws a cycle of indexes, maps, cluster managers, items, markers, buildings and frames that
// destroys all it makes, and runs it again and again: after a warm-up the memory must not
// grow, and a probe allocation must land where it did one or two cycles before (a leak smaller
// than a page shows). Fixed seeds, and one from the clock that every run prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { WARM_UP, abiMemoryCycles, apiMemoryCyclesApart } from '../../bench/fuzz/memory-fuzz.js';
import { FIXED_SEEDS, clockSeed } from '../../bench/fuzz/fuzz-random.js';

const SEEDS = [...FIXED_SEEDS, clockSeed()];

for (const seed of SEEDS) {
  test(`cycles through the ABI free all they make (seed ${seed})`, async (t) => {
    t.diagnostic(`seed ${seed}; replay: node web/bench/fuzz.js --only abi-memory --seed ${seed}`);
    const { bytes, probes } = await abiMemoryCycles({ seed });
    assert.equal(bytes.length, 12);
    assert.ok(new Set(probes.slice(WARM_UP - 1)).size <= 2, `probe addresses ${probes}`);
  });
}

for (const seed of SEEDS) {
  test(`cycles through the JS API destroy all they make (seed ${seed})`, async (t) => {
    t.diagnostic(`seed ${seed}; replay: node web/bench/fuzz.js --only api-memory --seed ${seed}`);
    // In a process of its own: another seed's cycles leave the allocator laid out otherwise.
    const { bytes, probes } = await apiMemoryCyclesApart({ seed });
    assert.equal(bytes.length, 12);
    assert.ok(new Set(probes.slice(WARM_UP - 1)).size <= 2, `probe addresses ${probes}`);
  });
}

test('a cycle that leaves 16 bytes allocated is caught by the probe', async () => {
  await assert.rejects(abiMemoryCycles({ seed: 1, leak: 16 }),
    (error) => error.name === 'FuzzFailure' && /a probe allocation after cycle 3 is at \d+, after cycle 2 it was at \d+ and after cycle 1 at \d+: the cycle leaves something allocated/.test(error.message));
});
