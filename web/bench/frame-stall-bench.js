// The slowest frames of a cluster manager through the WebAssembly module: a scripted sequence of
// what makes frames degenerate — zooming out to the whole world (every item flies into its
// cluster, the world's copies share screen rows), zooming back in, tilting to the horizon,
// every item piled on one point (drawn as one cluster, spread out by a tap, then, past the
// clustering zooms, as thousands of icons on one spot, tapped there) — for each algorithm and
// size. Prints the slowest and the median frame: the engine's part (building the frame in
// WebAssembly) and what `frame()` costs the host (that, and reading the frame into objects).
// Prints numbers; asserts nothing.
// Usage: node web/bench/frame-stall-bench.js [--sizes 10000,100000] [--algorithms grid,none] [--repeat 3] [--phases]
//   --phases also prints each phase's slowest frame (steady)

import { performance } from 'node:perf_hooks';

import { init, MapEngine } from '../src/index.js';
import { mulberry32 } from './generate.js';
import { machine, machineLine, markdownOption, median, writeSection } from './report.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const SIZES = option('--sizes', '10000,100000').split(',').map(Number);
const ALGORITHMS = option('--algorithms', 'hierarchical,distance,grid,none').split(',');
const PHASES = args.includes('--phases');
const MARKDOWN = markdownOption(args);
/** @type {Array<Array<string | number>>} the table's rows */
const rows = [];
const REPEAT = Number(option('--repeat', '3'));
const VIEW = { width: 1280, height: 800 };
const PARIS = { latitude: 48.86, longitude: 2.35 };

/** `n` items within ±20° of longitude and ±10° of latitude around Paris (seeded). */
function aroundParis(n, seed = 7) {
  const random = mulberry32(seed);
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = PARIS.longitude + (random() - 0.5) * 40;
    out[2 * i + 1] = PARIS.latitude + (random() - 0.5) * 20;
  }
  return out;
}

/** `n` items on one point. */
function onePoint(n) {
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = PARIS.longitude;
    out[2 * i + 1] = PARIS.latitude;
  }
  return out;
}

/**
 * Runs the sequence for one algorithm and size; the same frames, in the same order, each run.
 * @returns {{frames: number, total: number[], engine: number[], phases: string[]}}
 */
function run(algorithm, n) {
  const map = new MapEngine({ camera: { ...PARIS, zoom: 10 }, ...VIEW });
  map.setLimits({ maxTilt: 75 });
  const manager = map.addClusterManager({ algorithm });
  manager.addCoordinates(aroundParis(n));
  manager.cluster();
  const total = [];
  const engine = [];
  const phases = [];
  let t = 1;
  const frames = (phase, count) => {
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      map.frame((t += 1 / 60));
      total.push(performance.now() - start);
      engine.push(map.frameTiming.engineMs);
      phases.push(phase);
    }
  };
  // A tap on the pile, answered once reported: consumed, or left to the default (a cluster of
  // items on one point spreads them out).
  const tap = (phase, consumed) => {
    const { x, y } = map.screenPoint(PARIS.latitude, PARIS.longitude) ?? { x: VIEW.width / 2, y: VIEW.height / 2 };
    map.pointerDown(1, 'mouse', x, y - 10, 0, 0, t);
    map.pointerUp(1, x, y - 10, t + 0.05);
    frames(phase, 24);
    map.answerTap(consumed);
    frames(phase, 30);
  };

  frames('zoom 10', 30);
  map.moveCamera({ zoom: 0 });
  frames('zoom out to 0', 60);
  map.moveCamera({ zoom: 3 });
  frames('zoom in to 3', 60);
  map.animateCamera({ ...PARIS, zoom: 10 }, { duration: 1 });
  frames('animate in to 10', 90);
  manager.animatesClusters = false;
  map.moveCamera({ zoom: 0 });
  frames('zoom 0, not animated', 30);
  manager.animatesClusters = true;
  map.moveCamera({ ...PARIS, zoom: 3, tilt: 60, bearing: 30 });
  frames('tilt 60 at zoom 3', 60);
  map.moveCamera({ zoom: 1, tilt: 75 });
  frames('tilt 75 at zoom 1', 60);
  map.moveCamera({ zoom: 5, tilt: 75, bearing: 0 });
  frames('tilt 75 at zoom 5', 60);

  map.moveCamera({ ...PARIS, zoom: 10, tilt: 0, bearing: 0 });
  frames('zoom 10', 30);
  manager.clear();
  manager.addCoordinates(onePoint(n));
  manager.cluster();
  frames('piled, zoom 10', 30);
  tap('piled, spread out at zoom 10', false);
  map.moveCamera({ zoom: 21 });
  frames('piled, zoom 21', 60);
  tap('piled, tapped at zoom 21', true);
  map.moveCamera({ zoom: 0 });
  frames('piled, zoom out to 0', 60);
  map.moveCamera({ zoom: 21, tilt: 75 });
  frames('piled, zoom 21, tilt 75', 60);
  map.destroy();
  return { frames: total.length, total, engine, phases };
}

/** @param {number[]} values */
function slowest(values) {
  let at = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[at]) at = i;
  return at;
}

await init();
// One pass at a small size first, so every path runs on optimized code (the engine's functions
// are compiled in tiers: a frame's first run through one is slow once, whatever the items).
for (const algorithm of ALGORITHMS) run(algorithm, 2000);
console.log('slowest frames over zooming out to the world, zooming in, tilting to the horizon and items piled on one point');
console.log(`(a ${VIEW.width}×${VIEW.height} view; the engine's part of a frame, and frame() as the host pays it, reading the`);
console.log(`frame into objects; the sequence runs ${REPEAT} times, and "steady" takes each frame's fastest run, so that a`);
console.log('frame the machine paused shows only where every run was slow)');
console.log('algorithm      items   engine: slowest ms  steady ms  median ms   frame(): slowest ms  steady ms  median ms   steady slowest in');
for (const n of SIZES) {
  for (const algorithm of ALGORITHMS) {
    const runs = Array.from({ length: REPEAT }, () => run(algorithm, n));
    const r = runs[0];
    // Each frame's fastest run, and of all runs the slowest frame and the median.
    const best = (key) => r[key].map((_, i) => Math.min(...runs.map((x) => x[key][i])));
    const all = (key) => runs.flatMap((x) => x[key]);
    const engine = best('engine'), total = best('total');
    const worst = slowest(engine);
    const cell = (v, width) => v.toFixed(2).padStart(width);
    rows.push([algorithm, n.toLocaleString('en-US'), cell(engine[worst], 0), cell(median(all('engine')), 0),
      cell(total[slowest(total)], 0), cell(median(all('total')), 0), r.phases[worst], n <= 10_000 ? '16 ms' : '50 ms']);
    console.log(`${algorithm.padEnd(12)} ${String(n).padStart(7)}   ${cell(Math.max(...all('engine')), 18)} ` +
      `${cell(engine[worst], 10)} ${cell(median(all('engine')), 10)}   ${cell(Math.max(...all('total')), 19)} ` +
      `${cell(total[slowest(total)], 10)} ${cell(median(all('total')), 10)}   ${r.phases[worst]}`);
    if (!PHASES) continue;
    for (const phase of new Set(r.phases)) {
      const of = (values) => values.filter((_, i) => r.phases[i] === phase);
      console.log(`    ${phase.padEnd(28)} steady engine ${Math.max(...of(engine)).toFixed(2).padStart(8)}   ` +
        `frame() ${Math.max(...of(total)).toFixed(2).padStart(8)}`);
    }
  }
}

if (MARKDOWN) {
  writeSection(MARKDOWN, {
    title: 'Slowest frames: zooming out, piles, the horizon',
    machine: machineLine(new Date(), machine()),
    about: `\`node web/bench/frame-stall-bench.js\`: one cluster manager of each algorithm in a ${VIEW.width}×${VIEW.height} view, ` +
      'through `MapEngine`, over a scripted sequence: zooming out from zoom 10 to the whole world and back, tilting to ' +
      'the horizon, every item piled on one point and tapped, spread out and zoomed out again. The sequence runs ' +
      `${REPEAT} times; "steady slowest" is the slowest of each frame's fastest run (a frame the machine paused counts ` +
      'only where every run was slow). "Engine" is the frame export; "frame()" adds reading the frame into JavaScript objects.',
    header: ['algorithm', 'items', 'engine: steady slowest (ms)', 'engine: median (ms)', 'frame(): steady slowest (ms)',
      'frame(): median (ms)', 'slowest in', 'target (engine)'],
    rows,
  });
  console.log(`wrote ${MARKDOWN}`);
}
