// getTile(z, x, y, {format: 'mvt'}): tiles the engine encodes, decoded by a real reader (PyPI
// mapbox-vector-tile) and compared with getTile's own features on real data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import { init, ClusterIndex } from '../../src/index.js';
import { decodeTiles, mvtProperties } from '../support/tile-readers.js';

const fixtures = new URL('../../../Tests/Fixtures/', import.meta.url);

await init();

/** Every non-empty tile of zooms 0…maxZoom as [z, x, y]. */
function tilesOf(index, maxZoom) {
  const out = [];
  for (let z = 0; z <= maxZoom; z++) {
    for (let x = 0; x < 2 ** z; x++) for (let y = 0; y < 2 ** z; y++) if (index.getTile(z, x, y)) out.push([z, x, y]);
  }
  return out;
}

test('MVT tiles of real places decode to getTile\'s features: counts, ids, properties, positions', async () => {
  const places = JSON.parse(await readFile(new URL('places.json', fixtures), 'utf8'));
  const index = new ClusterIndex({ radius: 40, maxZoom: 4 });
  index.load(places.features);
  const tiles = tilesOf(index, 5);
  assert.ok(tiles.length > 50, `${tiles.length} tiles`);
  const encoded = tiles.map(([z, x, y]) => index.getTile(z, x, y, { format: 'mvt' }));
  const decoded = decodeTiles(encoded);
  let features = 0;
  let clusters = 0;
  tiles.forEach(([z, x, y], t) => {
    const expected = index.getTile(z, x, y, { extent: 4096 }).features;
    const layer = decoded[t].clusters;
    assert.equal(layer.extent, 4096);
    assert.equal(layer.version, 2);
    assert.equal(layer.features.length, expected.length, `tile ${z}/${x}/${y}`);
    layer.features.forEach((f, i) => {
      const e = expected[i];
      assert.equal(f.type, 'Point');
      assert.deepEqual(f.coordinates, e.geometry[0], `tile ${z}/${x}/${y} feature ${i}`);
      const props = Object.fromEntries(Object.entries(f.properties).map(([k, [v]]) => [k, v]));
      assert.deepEqual(props, mvtProperties(e.tags), `tile ${z}/${x}/${y} feature ${i}`);
      if (e.tags.cluster) {
        clusters++;
        assert.equal(f.id, e.id);
        assert.equal(f.properties.point_count[1], 'int');
        assert.equal(f.properties.cluster[1], 'bool');
      }
      features++;
    });
  });
  assert.ok(clusters > 20 && features > clusters, `${clusters} clusters of ${features} features`);
  index.destroy();
});

test('MVT values are typed: integers as ints, fractions as doubles, strings, booleans, objects as JSON', () => {
  const index = new ClusterIndex({ radius: 40, maxZoom: 2 });
  index.load([{
    type: 'Feature', id: 12,
    properties: { n: 3, neg: -2, big: 2 ** 60, f: 1.5, s: 'hé', b: false, o: { a: [1] }, gone: null },
    geometry: { type: 'Point', coordinates: [10, 20] },
  }]);
  const [tile] = decodeTiles([index.getTile(0, 0, 0, { format: 'mvt', layer: 'places', extent: 512 })]);
  assert.deepEqual(Object.keys(tile), ['places']);
  assert.equal(tile.places.extent, 512);
  const [f] = tile.places.features;
  assert.deepEqual(f.properties, {
    n: [3, 'int'], neg: [-2, 'int'], big: [2 ** 60, 'float'], f: [1.5, 'float'], s: ['hé', 'str'], b: [false, 'bool'], o: ['{"a":[1]}', 'str'],
  });
  assert.equal(f.id, 12);
  assert.deepEqual(f.coordinates, index.getTile(0, 0, 0, { extent: 512 }).features[0].geometry[0]);
  index.destroy();
});

test('getTile mvt: null for an empty tile, errors with codes for a bad extent, layer or format', () => {
  const index = new ClusterIndex({ maxZoom: 3 });
  index.load([{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [0, 0] } }]);
  assert.equal(index.getTile(3, 0, 0, { format: 'mvt' }), null);
  assert.ok(index.getTile(0, 0, 0, { format: 'mvt' }) instanceof Uint8Array);
  for (const options of [{ extent: 0 }, { extent: 100.5 }, { layer: '' }, { extent: -1 }]) {
    assert.throws(() => index.getTile(0, 0, 0, { format: 'mvt', ...options }), { code: 'INVALID_ARGUMENT' }, JSON.stringify(options));
  }
  assert.throws(() => index.getTile(0, 0, 0, { format: 'png' }), { code: 'INVALID_ARGUMENT' });
  index.destroy();
});

test('getTile buffer: the margin whose features a tile holds, the same in JSON and MVT', async () => {
  const places = JSON.parse(await readFile(new URL('places.json', fixtures), 'utf8'));
  const index = new ClusterIndex({ radius: 40, maxZoom: 4 });
  index.load(places.features);
  let wider = 0;
  const encoded = [];
  const positions = [];
  for (const [z, x, y] of tilesOf(index, 4)) {
    const radius = index.getTile(z, x, y, { extent: 4096 }).features;
    // Without a buffer the margin is the radius: 40 of 512, 320 of 4096.
    assert.deepEqual(index.getTile(z, x, y, { extent: 4096, buffer: 320 }).features, radius);
    const narrow = index.getTile(z, x, y, { extent: 4096, buffer: 80 });
    const inside = (b) => (f) => f.geometry[0].every((c) => c >= -b && c <= 4096 + b);
    // The narrow tile holds the radius tile's features within 80 of its edges (to the
    // rounding of positions to whole tile units).
    const held = narrow?.features ?? [];
    const all = new Set(radius.map((f) => JSON.stringify(f)));
    for (const f of held) assert.ok(all.has(JSON.stringify(f)) && inside(81)(f), `tile ${z}/${x}/${y}`);
    assert.ok(held.length >= radius.filter(inside(79)).length, `tile ${z}/${x}/${y}`);
    if (radius.length > (narrow?.features.length ?? 0)) wider++;
    const none = index.getTile(z, x, y, { extent: 4096, buffer: 0 });
    for (const f of none?.features ?? []) assert.ok(inside(0)(f));
    if (narrow) {
      encoded.push(index.getTile(z, x, y, { format: 'mvt', buffer: 80 }));
      positions.push(narrow.features.map((f) => f.geometry[0]));
    } else {
      assert.equal(index.getTile(z, x, y, { format: 'mvt', buffer: 80 }), null);
    }
  }
  assert.ok(wider > 10, `${wider} tiles hold less with the narrow buffer`);
  decodeTiles(encoded).forEach((tile, t) => assert.deepEqual(tile.clusters.features.map((f) => f.coordinates), positions[t]));
  for (const buffer of [-1, 4097, NaN, Infinity]) {
    assert.throws(() => index.getTile(0, 0, 0, { extent: 4096, buffer }), { code: 'INVALID_ARGUMENT' }, String(buffer));
  }
  index.destroy();
});

test('getTileCover lists every tile getTile finds something in, for the same extent and buffer, in either order', async () => {
  const places = JSON.parse(await readFile(new URL('places.json', fixtures), 'utf8'));
  const index = new ClusterIndex({ radius: 40, maxZoom: 5 });
  index.load(places.features.concat([
    { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [180, 10] } },
    { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [-179.99, 10] } }]));
  for (const options of [{}, { extent: 4096, buffer: 80 }, { extent: 256, buffer: 0 }, { extent: 512, buffer: 512 }]) {
    for (let z = 0; z <= 6; z++) {
      const cover = index.getTileCover(z, options);
      const listed = new Set();
      for (let k = 0; k < cover.length; k += 2) listed.add(`${cover[k]}/${cover[k + 1]}`);
      assert.equal(listed.size, cover.length / 2, 'each tile once');
      let nonEmpty = 0;
      for (let x = 0; x < 2 ** z; x++) {
        for (let y = 0; y < 2 ** z; y++) {
          if (!index.getTile(z, x, y, options)) continue;
          nonEmpty++;
          assert.ok(listed.has(`${x}/${y}`), `${z}/${x}/${y} with ${JSON.stringify(options)} is missing`);
        }
      }
      assert.ok(listed.size <= nonEmpty * 1.05 + 2, `zoom ${z}: ${listed.size} listed for ${nonEmpty} non-empty`);
      const inPMTilesOrder = index.getTileCover(z, { ...options, order: 'pmtiles' });
      const again = new Set();
      for (let k = 0; k < inPMTilesOrder.length; k += 2) again.add(`${inPMTilesOrder[k]}/${inPMTilesOrder[k + 1]}`);
      assert.deepEqual([...again].sort(), [...listed].sort());
    }
  }
  assert.deepEqual([...index.getTileCover(1, { order: 'pmtiles' })], [0, 0, 0, 1, 1, 1, 1, 0], 'tile ids 1…4 of zoom 1 along the curve');
  for (const [z, options] of [[31, {}], [-1, {}], [2, { extent: 0 }], [2, { buffer: -1 }], [2, { extent: 256, buffer: 300 }], [2, { order: 'rows' }], [1.5, {}]]) {
    assert.throws(() => index.getTileCover(z, options), (e) => e.code === 'INVALID_ARGUMENT', `${z} ${JSON.stringify(options)}`);
  }
  index.destroy();
  assert.throws(() => index.getTileCover(0), /destroyed/);
});
