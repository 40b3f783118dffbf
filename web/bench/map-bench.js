// Map frame figures through the WebAssembly module: the cost of one animation frame as a host
// pays it (push the frame's input batch, advance, read the frame buffer into objects), for a
// small and a large view, flat and tilted. Prints numbers; asserts nothing.
// Usage: node web/bench/map-bench.js [--frames N]

import { performance } from 'node:perf_hooks';

import { init, MapEngine } from '../src/index.js';
import { mulberry32 } from './generate.js';

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

// Scenes through wasm: frames while panning with 10,000 markers in view (a quarter optional,
// so collisions run), and with a hierarchical cluster manager of 1,000,000 items at several
// zooms, then through its re-clustering animations, and of 10,000,000 items. (A tap's hit test is measured natively,
// by CairnBench: through wasm it would be lost in the frame that reports it.)
{
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  // The engine's clock only moves forward (an earlier time counts as the latest seen), so every
  // pan starts after the one before: a pan at a stale time would be one long jump and fling.
  let clock = 100;
  const panFrames = (map, frames) => {
    const times = [];
    const engine = [];
    const drawn = [];
    let t = (clock += 10);
    map.frame(t);
    map.pointerDown(1, 'mouse', 800, 600, 0, 0, t);
    for (let f = 0; f < frames; f++) {
      const start = performance.now();
      map.pointerMove(1, 800 + 40 * Math.sin(f * 0.05), 600, t + 0.008);
      drawn.push(map.frame(t += 1 / 60).items.length);
      times.push(performance.now() - start);
      engine.push(map.frameTiming.engineMs);
    }
    map.pointerUp(1, 800, 600, t);
    map.frame(t + 1);
    clock = t + 1;
    panFrames.drawn = median(drawn);
    panFrames.engine = median(engine) * 1000;
    return median(times) * 1000;
  };
  const view = { width: 1600, height: 1200 };
  const markers = new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 14 }, ...view });
  const span = 1600 / (256 * 16384) * 360;
  markers.addMarkers(Array.from({ length: 10000 }, (_, k) => ({
    position: { latitude: (random() - 0.5) * span * 0.7, longitude: (random() - 0.5) * span },
    collisionBehavior: k % 4 === 0 ? 'optionalAndHidesLowerPriority' : 'required',
  })));
  const markerUs = panFrames(markers, 200);
  const drawn = panFrames.drawn;
  markers.destroy();
  const markerEngineUs = panFrames.engine;
  console.log(`scene, 10,000 markers in view: ${(markerUs / 1000).toFixed(2)} ms per panning frame (${drawn} drawn), ` +
    `of which the engine's frame ${(markerEngineUs / 1000).toFixed(2)} ms`);

  /** `count` [lng, lat] pairs uniform over a box (mulberry32: the small generator above puts consecutive pairs on a few lines). */
  const uniformIn = (count, seed, west, south, width, height) => {
    const uniform = mulberry32(seed);
    const out = new Float64Array(2 * count);
    for (let i = 0; i < count; i++) {
      out[2 * i] = west + uniform() * width;
      out[2 * i + 1] = south + uniform() * height;
    }
    return out;
  };
  const clustered = new MapEngine({ camera: { latitude: 40, longitude: -100, zoom: 5 }, ...view });
  const manager = clustered.addClusterManager({ algorithm: 'hierarchical' });
  // Uniform over the United States: the densest views this engine draws (thousands of clusters
  // and items at zooms 7-9 in a 1600×1200 view).
  const lngLat = uniformIn(1_000_000, 3, -125, 25, 58, 24);
  let start = performance.now();
  manager.addCoordinates(lngLat);
  manager.cluster();
  console.log(`cluster manager, 1,000,000 items over the US: addCoordinates + cluster() ${((performance.now() - start) / 1000).toFixed(1)} s`);
  /** Panning frames at each zoom, looking at (40, -100). */
  const panAtZooms = (map, zooms) => {
    for (const zoom of zooms) {
      map.moveCamera({ latitude: 40, longitude: -100, zoom });
      map.frame((clock += 10));     // the re-clustering animation (0.5 s) is over before the pan
      const us = panFrames(map, 240);
      console.log(`  zoom ${zoom}: ${(us / 1000).toFixed(2)} ms per panning frame (${panFrames.drawn} drawn), ` +
        `of which the engine's frame ${(panFrames.engine / 1000).toFixed(2)} ms`);
    }
  };
  panAtZooms(clustered, [3, 5, 7, 9, 11]);
  // The frames of a re-clustering's animation (C5, 0.5 s): entities fly out of (zooming in) or
  // into (zooming out, the old ones fading over the new) their clusters. The camera holds still.
  for (const [from, to] of [[8, 9], [9, 8]]) {
    const engine = [];
    for (let round = 0; round < 4; round++) {
      clustered.moveCamera({ latitude: 40, longitude: -100, zoom: from });
      clustered.frame((clock += 1));
      clustered.frame((clock += 1));
      clustered.moveCamera({ latitude: 40, longitude: -100, zoom: to });
      for (let f = 0; f < 30; f++) {
        const drawnNow = clustered.frame((clock += 1 / 60)).items.length;
        if (f > 0) engine.push(clustered.frameTiming.engineMs);
        if (f === 15) panFrames.drawn = drawnNow;
      }
    }
    console.log(`  zoom ${from} → ${to}, the animation's frames: the engine's frame ${median(engine).toFixed(2)} ms ` +
      `(${panFrames.drawn} drawn mid-way)`);
  }
  clustered.destroy();

  // C11's upper scale: 10,000,000 items over the whole world in one hierarchical manager (feature
  // C11 asks that it stay usable): the build, and panning frames at four zooms.
  const world = new MapEngine({ camera: { latitude: 40, longitude: -100, zoom: 3 }, ...view });
  const tenMillion = world.addClusterManager({ algorithm: 'hierarchical' });
  const many = uniformIn(10_000_000, 11, -180, -80, 360, 160);
  start = performance.now();
  tenMillion.addCoordinates(many);
  const added = performance.now();
  tenMillion.cluster();
  console.log(`cluster manager, 10,000,000 items over the world: addCoordinates ${((added - start) / 1000).toFixed(1)} s, ` +
    `cluster() ${((performance.now() - added) / 1000).toFixed(1)} s`);
  panAtZooms(world, [3, 6, 9, 12]);
  world.destroy();
}
