// Helpers shared by the map test suites (markers, cluster managers): options at a position,
// scripted clicks, and assertions on numbers and on the errors the API throws.
import assert from 'node:assert/strict';

import { CairnError } from '../../src/index.js';

/** `actual` within `tolerance` of `expected`, the message naming `label`. */
export const closeTo = (actual, expected, tolerance, label) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${label}: ${actual} is not within ${tolerance} of ${expected}`);

/** Options placed at a latitude and longitude. */
export const at = (latitude, longitude) => ({ position: { latitude, longitude } });

/** A mouse click at (x, y) pressed at `t`; the engine reports it 0.3 s after the release. */
export function click(map, x, y, t) {
  map.pointerDown(7, 'mouse', x, y, 0, 0, t);
  map.pointerUp(7, x, y, t + 0.04);
}

/** `f` must throw a CairnError with `code`; returns it. */
export function refused(f, code) {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof CairnError, `not a CairnError: ${error}`);
    assert.equal(error.code, code, error.message);
    return error;
  }
  return assert.fail(`no ${code} error`);
}

/**
 * A seeded source of garbage for fuzz tests: `pick(list)`, and `value()`: one of `numbers`, one of
 * `others`, an object with a number of `numbers` in each of `fields`, or a number of any magnitude.
 */
export function garbage(random, numbers, others, fields) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const value = () => {
    const r = random();
    if (r < 0.4) return pick(numbers);
    if (r < 0.6) return pick(others);
    if (r < 0.8) return Object.fromEntries(fields.map((f) => [f, pick(numbers)]));
    return (random() - 0.5) * 10 ** Math.floor(random() * 10);
  };
  return { pick, value };
}
