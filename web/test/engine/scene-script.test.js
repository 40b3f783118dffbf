// The scripted scene of Tests/CairnTests/Scene/SceneTests.swift through the wasm module: the
// draw list must equal the native build's literals (to 1e-6 px: libm's last bits may differ).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, MapEngine } from '../../src/index.js';

await init();

/** [kind, id, x, y, rotation, scaleY] per drawn item, bottom to top (SceneScriptLiterals). */
const EXPECTED = [
  [3, 5, 479.97899452732923, 112.29583726212834, 0, 1],
  [1, 1, 474.0910925357, 338.24289316590216, 28.30005243274795, 0.8914323018542589],
  [2, 8_589_934_592, 363.095907043208, 574.0750187823576, 0, 1],
  [1, 0, 387.43828981033084, 282.73160745564337, 0, 1],
];
const KINDS = { marker: 1, cluster: 2, clusterItem: 3 };

test('a scripted scene draws what the native build draws', () => {
  const map = new MapEngine({ camera: { latitude: 48.85, longitude: 2.35, zoom: 12, bearing: 20, tilt: 30 }, width: 800, height: 600 });
  const icon = map.registerIcon({ width: 30, height: 40, insets: { bottom: 4 } });
  map.addMarkers([
    { position: { latitude: 48.86, longitude: 2.34 }, icon, zIndex: 1, collisionBehavior: 'requiredAndHidesOptional' },
    { position: { latitude: 48.84, longitude: 2.36 }, flat: true, rotation: 45 },
    { position: { latitude: 48.8605, longitude: 2.3405 }, collisionBehavior: 'optionalAndHidesLowerPriority' },
  ]);
  const manager = map.addClusterManager({ algorithm: 'distance' });
  manager.addItems([[48.80, 2.30], [48.801, 2.301], [48.802, 2.302], [48.803, 2.303], [48.9, 2.4]]
    .map(([latitude, longitude]) => ({ position: { latitude, longitude } })));
  manager.cluster();
  map.pointerDown(1, 'mouse', 400, 300, 0, 0, 0);
  map.pointerMove(1, 430, 310, 0.05);
  map.pointerUp(1, 430, 310, 0.3);
  const frame = map.frame(1);
  const drawn = frame.items.map((i) => [KINDS[/** @type {keyof typeof KINDS} */ (i.kind)], i.id, i.x, i.y, i.rotation, i.scaleY]);
  assert.equal(drawn.length, EXPECTED.length);
  drawn.forEach((got, n) => got.forEach((v, k) => assert.ok(Math.abs(v - EXPECTED[n][k]) <= 1e-6, `item ${n} field ${k}: ${v} vs ${EXPECTED[n][k]}`)));
  assert.equal(frame.hiddenCount, 1);
  map.destroy();
});
