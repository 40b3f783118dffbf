// The demo's binary points format: what points-writer.js writes, points-file.js reads back,
// for every combination of flags; cut or foreign files fail with a message saying so; and
// fetchPoints streams a file from the demo server with progress.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePoints, fetchPoints } from '../../demo/points-file.js';
import { encodePoints } from '../../demo/points-writer.js';
import { startServer } from '../../demo/serve.js';

// Values a Float32 holds exactly, so the round trip compares with equality.
const lngLat = [-179.5, -85, 0, 0, 2.25, 48.75, 179.75, 85, -0.125, 12.5];
const population = [0, 1, 1000, 4_294_967_295, 123_456];
const names = ['Zürich, Zurich, CH', '', '東京, Tokyo, JP', 'a, b', 'Ørsta'];

for (const [withPopulation, withNames] of [[false, false], [true, false], [false, true], [true, true]]) {
  test(`round trip: population ${withPopulation ? 'yes' : 'no'}, names ${withNames ? 'yes' : 'no'}`, () => {
    const bytes = encodePoints({
      lngLat: new Float64Array(lngLat),
      population: withPopulation ? population : null,
      names: withNames ? names : null,
    });
    assert.equal(String.fromCharCode(...bytes.subarray(0, 8)), 'CAIRNPT1');
    const view = new DataView(bytes.buffer);
    assert.equal(view.getUint32(8, true), 5);
    assert.equal(view.getUint32(12, true), (withPopulation ? 1 : 0) | (withNames ? 2 : 0));
    if (!withNames) assert.equal(bytes.length % 4, 0);

    const points = parsePoints(bytes.buffer);
    assert.equal(points.count, 5);
    assert.ok(points.lngLat instanceof Float64Array);
    assert.deepEqual(Array.from(points.lngLat), lngLat);
    if (withPopulation) {
      assert.ok(points.population instanceof Uint32Array);
      assert.deepEqual(Array.from(points.population ?? []), population);
    } else {
      assert.equal(points.population, null);
    }
    assert.deepEqual(points.names, withNames ? names : null);
  });
}

test('coordinates are widened from Float32', () => {
  const points = parsePoints(encodePoints({ lngLat: [2.3488, 48.85341] }));
  assert.deepEqual(Array.from(points.lngLat), [Math.fround(2.3488), Math.fround(48.85341)]);
});

test('an empty set, with and without names', () => {
  for (const flags of [{}, { population: [], names: [] }]) {
    const bytes = encodePoints({ lngLat: [], ...flags });
    assert.equal(bytes.length, 16);
    const points = parsePoints(bytes);
    assert.equal(points.count, 0);
    assert.equal(points.lngLat.length, 0);
  }
});

test('a view into a larger buffer, even at an unaligned offset', () => {
  const file = encodePoints({ lngLat, population, names });
  const larger = new Uint8Array(file.length + 3);
  larger.set(file, 3);
  const points = parsePoints(larger.subarray(3));
  assert.deepEqual(Array.from(points.lngLat), lngLat);
  assert.deepEqual(points.names, names);
});

test('a bad magic is refused with the bytes it found', () => {
  const bytes = encodePoints({ lngLat });
  bytes[7] = '2'.charCodeAt(0);
  assert.throws(() => parsePoints(bytes), /not a Cairn points file \(starts with bytes \[43 41 49 52 4e 50 54 32\], expected "CAIRNPT1"\)/);
  assert.throws(() => parsePoints(new TextEncoder().encode('{"type":"FeatureCollection"}')), /not a Cairn points file/);
  assert.throws(() => parsePoints(new ArrayBuffer(0)), /the file is empty/);
});

test('truncated files are refused, wherever they are cut', () => {
  const full = encodePoints({ lngLat, population, names });
  assert.throws(() => parsePoints(full.subarray(0, 5)), /truncated: the header needs 16 bytes, the file has 5/);
  assert.throws(() => parsePoints(full.subarray(0, 12)), /truncated: the header/);
  assert.throws(() => parsePoints(full.subarray(0, 16 + 8 * 5 - 1)),
    /truncated: 5 points need 76 bytes for the header, coordinates and populations, the file has 55/);
  assert.throws(() => parsePoints(encodePoints({ lngLat }).subarray(0, 20)),
    /truncated: 5 points need 56 bytes for the header, coordinates, the file has 20/);
  const namesStart = 16 + 8 * 5 + 4 * 5;
  assert.throws(() => parsePoints(full.subarray(0, namesStart)), /truncated: 0 complete names of 5/);
  assert.throws(() => parsePoints(full.subarray(0, full.length - 1)), /truncated: 4 complete names of 5/);
  // Cut inside a multi-byte character: the names are not valid UTF-8.
  const tokyo = namesStart + new TextEncoder().encode(names[0] + '\n\n').length + 1;
  assert.throws(() => parsePoints(full.subarray(0, tokyo)), /names are not valid UTF-8/);
});

test('unknown flags and bytes past the end are refused', () => {
  const bytes = encodePoints({ lngLat });
  new DataView(bytes.buffer).setUint32(12, 4, true);
  assert.throws(() => parsePoints(bytes), /unknown flags 0x4/);
  const longer = new Uint8Array(encodePoints({ lngLat }).length + 4);
  longer.set(encodePoints({ lngLat }));
  assert.throws(() => parsePoints(longer), /4 unexpected bytes after the last array/);
  const extraName = new Uint8Array([...encodePoints({ lngLat: [1, 2], names: ['a'] }), ...new TextEncoder().encode('b\n')]);
  assert.throws(() => parsePoints(extraName), /more names than points/);
});

test('the writer refuses what the format cannot hold', () => {
  assert.throws(() => encodePoints({ lngLat: [1, 2, 3] }), /odd length/);
  assert.throws(() => encodePoints({ lngLat: [1, 2], names: ['a\nb'] }), /name 0 contains a line break/);
  assert.throws(() => encodePoints({ lngLat: [1, 2], names: [] }), /0 names for 1 points/);
  assert.throws(() => encodePoints({ lngLat: [1, 2], population: [-1] }), /population 0 \(-1\) is not an unsigned 32-bit integer/);
  assert.throws(() => encodePoints({ lngLat: [1, 2], population: [1.5] }), /not an unsigned 32-bit integer/);
});

test('fetchPoints streams a file from the demo server and reports progress', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cairn-points-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const count = 200_000; // 1.6 MB: many chunks
  const coords = new Float64Array(2 * count).map((_, i) => (i % 2 ? (i % 170) - 85 : (i % 360) - 180));
  await writeFile(join(root, 'many.bin'), encodePoints({ lngLat: coords }));
  await writeFile(join(root, 'bad.bin'), 'not points');
  const server = await startServer({ root, port: 0 });
  t.after(() => server.close());
  const base = `http://127.0.0.1:${server.port}/`;

  /** @type {{ loaded: number, total: number | null }[]} */
  const seen = [];
  const points = await fetchPoints(base + 'many.bin', (p) => seen.push(p));
  assert.equal(points.count, count);
  assert.deepEqual(points.lngLat, coords);
  assert.ok(seen.length > 1, `progress reported ${seen.length} times`);
  const size = 16 + 8 * count;
  assert.deepEqual(seen.at(-1), { loaded: size, total: size });
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].loaded > seen[i - 1].loaded);

  // The coordinates while they arrive: in order, in more than one chunk, all of them exactly
  // (pairs split between network chunks are joined), nothing of a file that is not one.
  /** @type {Float64Array[]} */
  const streamed = [];
  const again = await fetchPoints(base + 'many.bin', undefined, { onCoordinates: (c) => streamed.push(c) });
  assert.ok(streamed.length > 1, `coordinates came in ${streamed.length} chunks`);
  const joined = new Float64Array(streamed.reduce((n, c) => n + c.length, 0));
  streamed.reduce((at, c) => (joined.set(c, at), at + c.length), 0);
  assert.deepEqual(joined, coords);
  assert.deepEqual(again.lngLat, coords);
  // Names and populations after the coordinates are not streamed; the coordinates still are.
  const named = { lngLat: new Float64Array([1, 2, 3, 4, 5, 6]), names: ['a', 'b', 'c'], population: [7, 8, 9] };
  await writeFile(join(root, 'named.bin'), encodePoints(named));
  const few = [];
  const got = await fetchPoints(base + 'named.bin', undefined, { onCoordinates: (c) => few.push(...c) });
  assert.deepEqual(few, [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(got.names, ['a', 'b', 'c']);

  await assert.rejects(fetchPoints(base + 'missing.bin'), /fetchPoints: .*missing\.bin: HTTP 404/);
  const none = [];
  await assert.rejects(fetchPoints(base + 'bad.bin', undefined, { onCoordinates: (c) => none.push(c) }), /not a Cairn points file/);
  assert.equal(none.length, 0);
});

const cities = fileURLToPath(new URL('../../demo/data/cities.bin', import.meta.url));
test('the generated cities.bin holds at least 100,000 named places', { skip: !existsSync(cities) && 'web/demo/data/cities.bin not generated (python3 web/demo/prepare-data.py)' }, () => {
  const points = parsePoints(readFileSync(cities));
  assert.ok(points.count >= 100_000, `${points.count} places`);
  assert.equal(points.names?.length, points.count);
  const paris = points.names?.indexOf('Paris, Ile-de-France, FR') ?? -1;
  assert.ok(paris >= 0, 'Paris is there');
  assert.ok(Math.abs(points.lngLat[2 * paris] - 2.3488) < 1e-4 && Math.abs(points.lngLat[2 * paris + 1] - 48.85341) < 1e-4);
  for (let i = 0; i < points.count; i++) {
    const lng = points.lngLat[2 * i];
    const lat = points.lngLat[2 * i + 1];
    if (!(lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90)) assert.fail(`place ${i} at ${lng}, ${lat}`);
  }
});
