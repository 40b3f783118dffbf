// No call through ClusterIndex may trap the module: garbage in gives a CairnError with a code,
// and the index keeps answering correctly afterwards. Each case runs with a fixed seed and with
// one from the clock (printed; `node --test --test-name-pattern "seed N"` with this file shows
// the names), so that every run tries other garbage too.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { init, ClusterIndex, CairnError } from '../../src/index.js';
import { mulberry32 } from '../../bench/generate.js';
import { clockSeed } from '../../bench/fuzz/fuzz-random.js';

const WORLD = [-180, -90, 180, 90];

/** The seed these cases were written with, and one from the clock. */
const SEEDS = [20240531, clockSeed()];

let random = mulberry32(SEEDS[0]);
const pick = (list) => list[Math.floor(random() * list.length)];

const NUMBERS = [NaN, Infinity, -Infinity, -1, -0, 0, 1, 2, 2.5, 5, 16, 17, 29, 30, 31, 1e308, -1e308, 5e-324,
  2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 32 + 1, -(2 ** 31) - 1, 2 ** 53, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER];
const OTHERS = ['12', 'abc', '', '1e3', ' 7 ', null, undefined, true, false, {}, [], [3], 10n,
  { valueOf: () => 4 }, Symbol('s'), () => 1];
const BBOXES = [WORLD, [170, -85, -170, 85], [NaN, 0, 0, 0], [0, 0, 0], [-1e308, -1e308, 1e308, 1e308],
  [Infinity, -Infinity, -Infinity, Infinity], ['-10', '-10', '10', '10'], new Float64Array(4), [90, 90, -90, -90],
  [0, 0, 0, 0, 0], [-180, 91, 180, 95], 'abcd'];

let ids = [];
function garbage() {
  const r = random();
  if (r < 0.3) return pick(NUMBERS);
  if (r < 0.5) return pick(OTHERS);
  if (r < 0.7 && ids.length) return pick(ids) + pick([0, 0, 1, -1, 32, -32, 0.5]);
  if (r < 0.8) return pick(BBOXES);
  return (random() - 0.5) * 10 ** Math.floor(random() * 12);
}

/** Runs `f`; it must return or throw a CairnError with a code (never a trap, nor a plain error). */
function survive(label, f) {
  try {
    f();
  } catch (error) {
    if (error instanceof CairnError && typeof error.code === 'string' && error.code !== '') return;
    throw new Error(`${label} threw ${error && error.name}: ${error && error.message}`, { cause: error });
  }
}

const readable = (_key, v) => (typeof v === 'symbol' ? 'Symbol' : typeof v === 'bigint' ? `${v}n`
  : typeof v === 'function' ? 'fn' : typeof v === 'number' && !Number.isFinite(v) ? String(v) : v);
const describe = (args) => args.map((a) => (a === undefined ? 'undefined' : JSON.stringify(a, readable))).join(', ');

function points(n, seed) {
  const rnd = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => ({
    type: 'Feature', properties: { i },
    geometry: { type: 'Point', coordinates: [rnd() * 360 - 180, rnd() * 170 - 85] },
  }));
}

let data;
before(async () => {
  await init();
  data = points(3000, 3);
});

for (const seed of SEEDS) {
  test(`garbage arguments to every query never trap the module (seed ${seed})`, (t) => {
    t.diagnostic(`seed ${seed}`);
    random = mulberry32(seed);
    const index = new ClusterIndex({ radius: 60 }).load(data);
    const baseline = [0, 4, 9, 17].map((z) => index.getClusters(WORLD, z));
    ids = index.getClusters(WORLD, 2).map((f) => f.id ?? f.properties.i);
    const outs = [new Float64Array(0), new Float64Array(3), new Float64Array(40), new Float64Array(4096), [], null, 'x'];
    const calls = {
      getClusters: () => [garbage(), garbage()],
      getClustersInto: () => [garbage(), garbage(), pick(outs)],
      getChildren: () => [garbage()],
      getLeaves: () => [garbage(), garbage(), garbage()],
      getClusterExpansionZoom: () => [garbage()],
      getTile: () => [garbage(), garbage(), garbage()],
    };
    for (let round = 0; round < 3000; round++) {
      const name = pick(Object.keys(calls));
      const args = calls[name]();
      survive(`${name}(${describe(args)})`, () => index[name](...args));
    }
    // Plausible-looking tiles and clusters too, at every zoom.
    for (let z = 0; z <= 31; z++) {
      for (const x of [-1, 0, 1, 2 ** z - 1, 2 ** z]) survive(`getTile(${z}, ${x}, 0)`, () => index.getTile(z, x, 0));
    }
    for (const id of ids) {
      survive(`leaves ${id}`, () => index.getLeaves(id, Infinity, 0));
      survive(`expansion ${id}`, () => index.getClusterExpansionZoom(id));
    }
    assert.deepEqual([0, 4, 9, 17].map((z) => index.getClusters(WORLD, z)), baseline);
    index.destroy();
  });

  test(`garbage options and input never trap the module (seed ${seed})`, (t) => {
    t.diagnostic(`seed ${seed}`);
    random = mulberry32(seed ^ 0x5bd1e995);
    const optionNames = ['radius', 'extent', 'minZoom', 'maxZoom', 'minPoints', 'generateId'];
    const shapes = [
      () => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [garbage(), garbage()] } }),
      () => ({ type: 'Feature', geometry: null }),
      () => ({ geometry: { type: 'Point', coordinates: garbage() } }),
      () => ({ geometry: { type: garbage(), coordinates: [0, 0] } }),
      () => garbage(),
      () => pick(data),
    ];
    for (let round = 0; round < 300; round++) {
      const options = {};
      for (const name of optionNames) if (random() < 0.3) options[name] = garbage();
      if (random() < 0.5) {
        // Valid but extreme numbers, so some indexes get built with them.
        options.radius = pick([1e-300, 1e-9, 1, 1e9, 1e300]);
        options.extent = pick([1e-300, 1e-9, 1, 1e9, 1e300]);
        options.maxZoom = pick([0, 1, 5, 30]);
        options.minZoom = pick([0, 0, options.maxZoom]);
        options.minPoints = pick([1, 2, 3, 1000, 2 ** 31 - 1]);
      }
      let index = null;
      survive(`new ClusterIndex(${describe([options])})`, () => { index = new ClusterIndex(options); });
      if (!index) continue;
      const features = Array.from({ length: Math.floor(random() * 40) }, () => pick(shapes)());
      if (random() < 0.5) {
        survive('load', () => index.load(features));
      } else {
        const coords = random() < 0.7 ? new Float64Array(2 * Math.floor(random() * 40)).map(() => (random() < 0.05 ? pick(NUMBERS) : random() * 400 - 200))
          : pick([[1, 2, 3], [0, 0, '1', '2'], 'xx', null, {}, { length: 2 ** 40 }, { length: 4 }, new Array(2 ** 26)]);
        survive('loadCoordinates', () => index.loadCoordinates(coords, random() < 0.1 ? { onProgress: garbage() } : undefined));
      }
      for (let q = 0; q < 10; q++) {
        survive('getClusters', () => index.getClusters(pick(BBOXES), garbage()));
        survive('getTile', () => index.getTile(pick([0, 1, 2, 30, garbage()]), pick([0, 1, garbage()]), pick([0, 1, garbage()])));
      }
      // Whatever happened, the index still takes data and answers.
      index.load(data.slice(0, 50));
      const all = index.getClusters(WORLD, Infinity);
      assert.equal(all.reduce((s, f) => s + (f.properties.cluster ? f.properties.point_count : 1), 0), 50);
      index.destroy();
    }
    // The module is still sound: a fresh index gives the usual answer.
    const check = new ClusterIndex({ radius: 60 }).load(data);
    const again = new ClusterIndex({ radius: 60 }).loadCoordinates(Float64Array.from(data.flatMap((f) => f.geometry.coordinates)));
    for (const z of [0, 5, 17]) {
      assert.deepEqual(again.getClusters(WORLD, z).map((f) => f.id ?? f.properties.index), check.getClusters(WORLD, z).map((f) => f.id ?? f.properties.i));
    }
    check.destroy();
    again.destroy();
  });
}
