// Warming the engine up before a large load.
//
// A WebAssembly engine first runs a module's functions as quickly compiled baseline code, and
// recompiles the busy ones with its optimizing compiler in the background; a call already
// running stays on the code it started with. The engine's loops over every point make a call
// per chunk of points, so they switch to the optimized code as soon as it is ready; but each
// zoom's clustering passes are single calls, and the first zooms of a million points take a
// few hundred milliseconds each, on baseline code in a fresh page. `warmUp()` clusters two
// small seeded point sets first — one spread out, one in tight blobs, between them every way
// the engine clusters a zoom — so that the optimized code is ready when the real data comes. It costs about 0.1 s once, best spent while the data downloads.

import { ClusterIndex } from './cluster-index.js';
import { getModule } from '../core/wasm.js';

let warmed = false;

/**
 * Clusters two small seeded point sets (66,000 points spread over the world, 12,000 in tight
 * blobs) and frees them, once per page: a large load that follows runs on optimized code from
 * its start. Optional; call it after `init()`, ideally while the data is on its way.
 * @returns {boolean} whether this call did the work (false: done before)
 * @throws {CairnError} (INVALID_STATE) if `init()` has not finished
 */
export function warmUp() {
  getModule();
  if (warmed) return false;
  warmed = true;
  let state = 0x2545f491;
  // A small linear congruential generator: the same points on every run.
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const spread = new Float64Array(2 * 66_000);
  for (let i = 0; i < spread.length; i += 2) {
    spread[i] = random() * 360 - 180;
    spread[i + 1] = random() * 170 - 85;
  }
  const blobs = new Float64Array(2 * 12_000);
  for (let i = 0; i < blobs.length; i += 2) {
    const blob = Math.floor(random() * 40);
    const size = 10 ** (blob / 10 - 3.5);   // 0.0003° … 3°
    blobs[i] = ((blob * 37) % 360) - 180 + (random() - 0.5) * size;
    blobs[i + 1] = ((blob * 53) % 140) - 70 + (random() - 0.5) * size;
  }
  /** @type {Array<{ points: Float64Array, radius: number }>} */
  const sets = [{ points: spread, radius: 40 }, { points: blobs, radius: 80 }];
  for (const { points, radius } of sets) {
    const index = new ClusterIndex({ radius, maxZoom: 16 });
    try {
      index.loadCoordinates(points);
    } finally {
      index.destroy();
    }
  }
  return true;
}
