// No frame may stall: cluster managers of ten thousand items through the real module, in the
// frames that pile items up — a zoom out to the whole world (items fly into their clusters and
// end on their rows, on every copy of the world), every item on one point (one cluster, then
// past the clustering zooms thousands of icons on one spot, tapped there), tilting to the
// horizon. Every frame must come back within a generous second (a frame takes milliseconds;
// the limit catches work that grows with the square of the items, which took seconds).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';

import { init, MapEngine } from '../../src/index.js';

before(async () => {
  await init();
});

const N = 10_000;
const LIMIT_MS = 1000;
const PARIS = { latitude: 48.86, longitude: 2.35 };

/** `n` items within ±20° of longitude and ±10° of latitude of Paris (seeded), or all on it. */
function items(n, onOnePoint = false) {
  const out = new Float64Array(2 * n);
  let s = 7;
  const random = () => (s = (s * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < n; i++) {
    out[2 * i] = onOnePoint ? PARIS.longitude : PARIS.longitude + (random() - 0.5) * 40;
    out[2 * i + 1] = onOnePoint ? PARIS.latitude : PARIS.latitude + (random() - 0.5) * 20;
  }
  return out;
}

/** A 1280 × 800 map over Paris at zoom 10 with one manager of `algorithm` holding `lngLat`, clustered. */
function mapWith(algorithm, lngLat) {
  const map = new MapEngine({ camera: { ...PARIS, zoom: 10 }, width: 1280, height: 800 });
  map.setLimits({ maxTilt: 75 });
  const manager = map.addClusterManager({ algorithm });
  manager.addCoordinates(lngLat);
  manager.cluster();
  return { map, manager };
}

/**
 * Draws `count` frames 1/60 s apart from `clock.t`, failing at the first that takes longer than
 * the limit; returns the last frame and the events of them all.
 */
function frames(map, clock, count, label) {
  let last = null;
  const events = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    last = map.frame((clock.t += 1 / 60));
    const ms = performance.now() - start;
    // The items are read only to name a failure: reading them is the caller's linear cost.
    if (!(ms < LIMIT_MS)) assert.fail(`${label}: frame ${i} took ${ms.toFixed(0)} ms (${last.items.length} drawn)`);
    events.push(...last.events);
  }
  return { last, events };
}

/** Zooms a map of `n` items out from zoom 10 to the world and back in to zoom 3. */
function zoomOut(algorithm, n) {
  const { map } = mapWith(algorithm, items(n));
  const clock = { t: 1 };
  frames(map, clock, 5, 'zoom 10');
  map.moveCamera({ zoom: 0 });
  // The re-clustering waits 0.2 s, then its animation runs 0.5 s: at its end the items sit
  // on their clusters' rows, on each of the world's copies (42 frames on).
  const { last } = frames(map, clock, 48, 'zoom out to 0');
  assert.ok(last.items.some((i) => i.kind === (algorithm === 'none' ? 'clusterItem' : 'cluster')), 'drawn at zoom 0');
  map.moveCamera({ zoom: 3 });
  frames(map, clock, 20, 'zoom in to 3');
  map.destroy();
}

for (const algorithm of ['hierarchical', 'distance', 'grid', 'none']) {
  test(`${algorithm}: zooming out to the world from zoom 10, no frame stalls`, () => zoomOut(algorithm, N));

  test(`${algorithm}: ten thousand items on one point, drawn and tapped, no frame stalls`, () => {
    const { map } = mapWith(algorithm, items(N, true));
    const clock = { t: 1 };
    frames(map, clock, 5, 'on one point at zoom 10');
    // Past the clustering zooms every item is drawn on its own, all on the one spot.
    map.moveCamera({ zoom: 21 });
    const piled = frames(map, clock, 20, 'zoom 21').last;
    assert.equal(piled.items.filter((i) => i.kind === 'clusterItem').length, N);
    const { x, y } = map.screenPoint(PARIS.latitude, PARIS.longitude);
    map.pointerDown(1, 'mouse', x, y - 10, 0, 0, clock.t);
    map.pointerUp(1, x, y - 10, clock.t + 0.04);
    const { events } = frames(map, clock, 25, 'tapped at zoom 21');
    assert.ok(events.some((e) => e.type === 'clusterItemTapped'), 'the tap finds an item of the pile');
    map.answerTap(true);
    // And back out to the world: thousands fly into one cluster on every copy.
    map.moveCamera({ zoom: 0 });
    frames(map, clock, 48, 'zoom out to 0');
    map.destroy();
  });

  test(`${algorithm}: tilted to the horizon, no frame stalls`, () => {
    const { map } = mapWith(algorithm, items(N));
    const clock = { t: 1 };
    map.moveCamera({ zoom: 3, tilt: 60, bearing: 30 });
    frames(map, clock, 20, 'tilt 60 at zoom 3');
    map.moveCamera({ zoom: 1, tilt: 75 });
    frames(map, clock, 20, 'tilt 75 at zoom 1');
    map.destroy();
  });
}
