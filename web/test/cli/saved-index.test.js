// `cairn cluster --index FILE`: the saved index, written atomically, restores with
// ClusterIndex.from to the index the JS API builds from the same points.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { init, ClusterIndex } from '../../src/index.js';
import { cairn } from '../support/cli-run.js';
import { mulberry32, clustered } from '../../bench/generate.js';

const WORLD = [-180, -90, 180, 90];
let work = '';
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-cli-index-'));
  await init();
});
after(() => rmSync(work, { recursive: true, force: true }));

test('--index FILE writes the built index, which ClusterIndex.from restores to what the API builds', async () => {
  const random = mulberry32(12);
  const lngLat = clustered(2000, random);
  const pop = Float64Array.from({ length: 2000 }, (_, i) => (i % 9 === 0 ? NaN : i % 100));
  const rows = Array.from({ length: 2000 }, (_, i) => `${lngLat[2 * i]},${lngLat[2 * i + 1]},${Number.isNaN(pop[i]) ? '' : pop[i]}`);
  const input = join(work, 'points.csv');
  writeFileSync(input, `lng,lat,pop\n${rows.join('\n')}\n`);
  const file = join(work, 'points.cairn');
  const run = await cairn(['cluster', input, '--max-zoom', '12', '--aggregate', 'total=sum:pop', '--index', file, '-q']);
  assert.equal(run.code, 0, run.stderr);
  const bytes = readFileSync(file);
  const restored = ClusterIndex.from(bytes);
  const built = new ClusterIndex({ maxZoom: 12, aggregates: { total: ['sum', 'pop'] } }).loadCoordinates(lngLat, { values: { pop } });
  for (let z = 0; z <= 13; z++) assert.deepEqual(restored.getClusters(WORLD, z), built.getClusters(WORLD, z), `zoom ${z}`);
  assert.deepEqual(readdirSync(work).sort(), ['points.cairn', 'points.csv'], 'no temporary left beside it');

  // An existing file is kept unless --force; with it, replaced whole.
  const again = await cairn(['cluster', input, '--max-zoom', '5', '--index', file, '-q']);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /--index .*exists/);
  assert.deepEqual(readFileSync(file), bytes);
  const forced = await cairn(['cluster', input, '--max-zoom', '5', '--index', file, '--force', '-q']);
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal(ClusterIndex.from(readFileSync(file)).options.maxZoom, 5);
  assert.deepEqual(readdirSync(work).sort(), ['points.cairn', 'points.csv']);
});

test('--index beside --out writes both', async () => {
  const input = join(work, 'few.csv');
  writeFileSync(input, 'lng,lat\n1,2\n1.001,2.001\n50,10\n');
  const out = join(work, 'out');
  const file = join(work, 'few.cairn');
  const run = await cairn(['cluster', input, '--max-zoom', '3', '--out', out, '--index', file, '-q']);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(readdirSync(out).sort(), ['z0.geojson', 'z1.geojson', 'z2.geojson', 'z3.geojson']);
  assert.equal(ClusterIndex.from(readFileSync(file)).getClusters(WORLD, 0).length, 2);
});
