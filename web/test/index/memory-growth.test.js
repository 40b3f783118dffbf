// How the module's memory grows over a large build. Each growth costs the host more than its
// size (V8 replaces the buffer object and counts the whole memory towards its garbage
// collector's limit, collecting after nearly every growth), so a build grows the memory for
// what it will allocate up front, not allocation by allocation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import { mulberry32, uniform, clustered } from '../../bench/generate.js';

test('a build grows the memory up front, not zoom by zoom', async () => {
  const bytes = await readFile(new URL('../../dist/cairn.wasm', import.meta.url));
  // A module of its own: what other tests left free in a shared one would hide the growth.
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const x = instance.exports;
  x._initialize();
  const n = 300_000;
  const lngLat = uniform(n, mulberry32(5));
  const buffer = x.cairn_alloc(lngLat.byteLength);
  new Float64Array(x.memory.buffer, buffer, lngLat.length).set(lngLat);
  const index = x.cairn_index_create(40, 512, 0, 16, 2);
  assert.ok(index > 0);
  assert.equal(x.cairn_index_reserve(index, n), 0);
  assert.equal(x.cairn_index_add(index, buffer, n), n);
  x.cairn_free(buffer);

  const sizes = [x.memory.buffer.byteLength];
  for (;;) {
    const left = x.cairn_index_build_step(index);
    assert.ok(left >= 0);
    sizes.push(x.memory.buffer.byteLength);
    if (left === 0) break;
  }
  const grew = (k) => sizes[k] > sizes[k - 1];
  const laterGrowths = sizes.slice(2).filter((_, k) => grew(k + 2)).length;
  const perPoint = sizes.map((size) => (size / n).toFixed(1)).join(', ');
  assert.ok(sizes[1] >= 0.9 * sizes[sizes.length - 1], `memory in bytes per point after each step: ${perPoint}`);
  assert.ok(laterGrowths <= 2, `the memory grew in ${laterGrowths} of the ${sizes.length - 2} later steps (bytes per point: ${perPoint})`);
  assert.equal(x.cairn_index_destroy(index), 0);
});

test('a load of known size grows the memory once, at its reserve, before a point is written', async () => {
  const bytes = await readFile(new URL('../../dist/cairn.wasm', import.meta.url));
  for (const [name, make] of [['uniform', uniform], ['clustered', clustered]]) {
    const { instance } = await WebAssembly.instantiate(bytes, {});
    const x = instance.exports;
    x._initialize();
    const n = 400_000;
    const lngLat = make(n, mulberry32(7));
    // As ClusterIndex loads: a staging buffer of 65,536 points, the reserve, the adds, the steps.
    const room = 65_536;
    const staging = x.cairn_alloc(room * 16);
    const index = x.cairn_index_create(40, 512, 0, 16, 2);
    assert.ok(staging > 0 && index > 0);
    const steps = [];
    let size = x.memory.buffer.byteLength;
    const note = (what) => {
      const now = x.memory.buffer.byteLength;
      if (now !== size) steps.push(`${what}: ${(size / 2 ** 20).toFixed(0)} → ${(now / 2 ** 20).toFixed(0)} MiB`);
      size = now;
    };
    assert.equal(x.cairn_index_reserve(index, n), 0);
    note('reserve');
    for (let done = 0; done < n; done += room) {
      const count = Math.min(room, n - done);
      new Float64Array(x.memory.buffer, staging, 2 * count).set(lngLat.subarray(2 * done, 2 * (done + count)));
      assert.equal(x.cairn_index_add(index, staging, count), done + count);
      note(`add of points ${done}…`);
    }
    for (let step = 0; ; step++) {
      const left = x.cairn_index_build_step(index);
      assert.ok(left >= 0);
      note(`build step ${step}`);
      if (left === 0) break;
    }
    assert.ok(steps.length <= 1 && (steps.length === 0 || steps[0].startsWith('reserve')),
      `${name}: the memory grew ${steps.length} times: ${steps.join('; ')}`);
    assert.ok(size > 16 * 2 ** 20 + n * 40, `${name}: the reserve made room for the load (memory now ${size} bytes)`);
    assert.equal(x.cairn_index_destroy(index), 0);
  }
});
