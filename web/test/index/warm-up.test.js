// warmUp(): a small clustering run once per module, which leaves the engine's other indexes
// and later loads as they would be without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, warmUp, ClusterIndex } from '../../src/index.js';
import { mulberry32, clustered } from '../../bench/generate.js';

test('warmUp runs once and changes nothing an index shows', async () => {
  await init();
  const points = clustered(5000, mulberry32(9));
  const summary = (index) => [0, 4, 8, 12, 17].map((z) => index.getClusters([-180, -90, 180, 90], z)
    .map((f) => `${f.properties.cluster ? f.properties.point_count : 1}@${f.geometry.coordinates.join(',')}`).sort().join(' '));
  const earlier = new ClusterIndex({ radius: 60, maxZoom: 16 });
  earlier.loadCoordinates(points);
  const expected = summary(earlier);

  assert.equal(warmUp(), true);
  assert.equal(warmUp(), false, 'the second call does nothing');

  const later = new ClusterIndex({ radius: 60, maxZoom: 16 });
  later.loadCoordinates(points);
  assert.deepEqual(summary(earlier), expected);
  assert.deepEqual(summary(later), expected);
  earlier.destroy();
  later.destroy();
});
