// Map frame figures through the WebAssembly module: the cost of one animation frame as a host
// pays it (push the frame's input batch, advance, read the frame buffer into objects), for a
// small and a large view, flat and tilted. Prints numbers; asserts nothing.
// Usage: node web/bench/map-bench.js [--frames N]

import { performance } from 'node:perf_hooks';

import { init, MapEngine } from '../src/index.js';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const FRAMES = flag('--frames', 10000);
const WARMUP = 500;
// Pointer moves per frame: a pan as a 60 Hz display sees a 240 Hz pointer.
const MOVES = 4;

const VIEWS = [
  { width: 800, height: 600 },
  { width: 1920, height: 1080 },
];
const CAMERAS = [
  { name: 'flat', camera: { latitude: 40.7, longitude: -74, zoom: 12, bearing: 0, tilt: 0 } },
  { name: 'tilt 60, bearing 30', camera: { latitude: 40.7, longitude: -74, zoom: 12, bearing: 30, tilt: 60 } },
];

/** @param {number[]} values */
function median(values) {
  const sorted = Float64Array.from(values).sort();
  return sorted[sorted.length >> 1];
}

/**
 * Frames with a pan in progress (MOVES pointer moves each) and frames without input.
 * @returns {{pan: number, idle: number, tiles: number}} median microseconds per frame, mean tiles
 */
function run(view, camera) {
  const map = new MapEngine({ camera, ...view });
  const cx = view.width / 2;
  const cy = view.height / 2;
  let t = 0;
  map.pointerDown(1, 'mouse', cx, cy, 0, 0, t);
  const pan = [];
  let tiles = 0;
  for (let f = 0; f < WARMUP + FRAMES; f++) {
    const start = performance.now();
    for (let k = 1; k <= MOVES; k++) {
      // Back and forth, so the camera stays near where it started.
      const phase = (f * MOVES + k) * 0.01;
      map.pointerMove(1, cx + 150 * Math.sin(phase), cy + 80 * Math.sin(phase * 0.7), t + (k / MOVES) / 60);
    }
    t += 1 / 60;
    const frame = map.frame(t);
    const elapsed = performance.now() - start;
    if (f >= WARMUP) {
      pan.push(elapsed);
      tiles += frame.tiles.length;
    }
  }
  map.pointerUp(1, cx, cy, t);
  map.frame(t += 10);
  const idle = [];
  for (let f = 0; f < WARMUP + FRAMES; f++) {
    const start = performance.now();
    map.frame(t += 1 / 60);
    if (f >= WARMUP) idle.push(performance.now() - start);
  }
  map.destroy();
  return { pan: median(pan) * 1000, idle: median(idle) * 1000, tiles: tiles / FRAMES };
}

await init();
console.log(`map frames: median of ${FRAMES} frames after ${WARMUP} to warm up; "pan" pushes ${MOVES} pointer moves first`);
console.log('view        camera                 pan µs/frame   idle µs/frame   tiles/frame');
for (const view of VIEWS) {
  for (const { name, camera } of CAMERAS) {
    const r = run(view, camera);
    console.log(`${`${view.width}×${view.height}`.padEnd(12)}${name.padEnd(23)}${r.pan.toFixed(1).padStart(12)}` +
      `${r.idle.toFixed(1).padStart(16)}${r.tiles.toFixed(1).padStart(14)}`);
  }
}
