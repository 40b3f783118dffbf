// `cairn cluster --pmtiles FILE` and `--mvt DIR`: the archive read by the PyPI pmtiles reader
// (header, directories, every tile), every tile decoded by mapbox-vector-tile and compared with
// getTile on real data (Natural Earth places, the seeded 50k blobs), the archive decoded by
// tippecanoe-decode, the directory holding the same tiles; usage errors exit 2, and a run that
// fails or may not replace its target leaves everything as it was.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { init, ClusterIndex } from '../../src/index.js';
import { cairn, cairnHere } from '../support/cli-run.js';
import { readWithPython, mvtProperties } from '../support/tile-readers.js';

const fixtures = new URL('../../../Tests/Fixtures/', import.meta.url);
const PLACES = new URL('places.json', fixtures).pathname;
const BLOBS = new URL('clustered-50k.csv', fixtures).pathname;

let work = '';
let serial = 0;
const fresh = (name) => join(work, `${serial++}-${name}`);

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-vt-test-'));
  await init();
});
after(() => rmSync(work, { recursive: true, force: true }));

/** The CLI's default --tile-buffer: 5/256 of the extent. */
const BUFFER_4096 = 80;

/**
 * The features getTile gives tile z/x/y within `buffer`, as the CLI writes them: points with
 * their carried properties (`pointTags`) as tags; with `pointId` (--feature-ids) points have
 * their input position as the feature id and clusters their cluster_id, without it no ids.
 */
function expectedFeatures(index, z, x, y, extent, buffer, pointId, pointTags = () => ({})) {
  const tile = index.getTile(z, x, y, { extent, buffer });
  if (!tile) return null;
  for (const f of tile.features) {
    if (!pointId) delete f.id;
    if (f.tags.cluster) continue;
    if (pointId) f.id = pointId(f.tags.index);
    f.tags = pointTags(f.tags.index);
  }
  return tile.features;
}

/** Compares a decoded layer with getTile's features. */
function assertSameFeatures(layer, expected, where) {
  assert.equal(layer.features.length, expected.length, `${where}: features`);
  layer.features.forEach((f, i) => {
    const e = expected[i];
    assert.deepEqual(f.coordinates, e.geometry[0], `${where} feature ${i}: position`);
    const props = Object.fromEntries(Object.entries(f.properties).map(([k, [v]]) => [k, v]));
    assert.deepEqual(props, mvtProperties(e.tags), `${where} feature ${i}: properties`);
    assert.equal(f.id, e.id ?? null, `${where} feature ${i}: id`);
  });
}

describe('vector tiles from the command line', () => {
  const places = JSON.parse(readFileSync(PLACES, 'utf8'));
  // The CLI skips the one place without a geometry; its points keep their input positions.
  const kept = places.features.map((f, i) => (f.geometry ? i : -1)).filter((i) => i >= 0);
  const placeTags = (k) => ({ name: places.features[kept[k]].properties.name, scalerank: places.features[kept[k]].properties.scalerank });
  const placesIndex = (maxZoom) => new ClusterIndex({ maxZoom, aggregates: { sum_scalerank: ['sum', 'scalerank'] } })
    .loadCoordinates(Float64Array.from(kept.flatMap((i) => places.features[i].geometry.coordinates)),
      { values: { scalerank: Float64Array.from(kept, (i) => places.features[i].properties.scalerank) } });
  let archive = '';
  let read = null;

  before(async () => {
    archive = fresh('places.pmtiles');
    const r = await cairn(['cluster', PLACES, '--skip-invalid', '--pmtiles', archive, '--max-zoom', '5', '--properties', 'name,scalerank',
      '--aggregate', 'sum:scalerank', '--attribution', '© Natural Earth']);
    assert.equal(r.code, 0, r.stderr);
    read = readWithPython(['pmtiles', archive]);
  });

  test('--pmtiles: the pmtiles reader reads the header, metadata and every tile, equal to getTile', () => {
    const { header, metadata, tiles } = read;
    assert.equal(header.tile_type, 'MVT');
    assert.equal(header.tile_compression, 'GZIP');
    assert.equal(header.internal_compression, 'GZIP');
    assert.equal(header.min_zoom, 0);
    assert.equal(header.max_zoom, 5);
    assert.equal(header.clustered, true);
    assert.equal(header.addressed_tiles_count, tiles.length);
    assert.ok(header.tile_contents_count <= header.tile_entries_count && header.tile_entries_count <= tiles.length);
    assert.equal(metadata.attribution, '© Natural Earth');
    assert.deepEqual(metadata.vector_layers, [{
      id: 'clusters', minzoom: 0, maxzoom: 5,
      fields: { cluster: 'Boolean', cluster_id: 'Number', point_count: 'Number', point_count_abbreviated: 'Number',
        sum_scalerank: 'Number', name: 'String', scalerank: 'Number' },
    }]);
    const index = placesIndex(5);
    // Every tile of these zooms asked directly: the archive holds exactly the non-empty ones.
    const expected = [];
    for (let z = 0; z <= 5; z++) {
      for (let x = 0; x < 2 ** z; x++) for (let y = 0; y < 2 ** z; y++) if (index.getTile(z, x, y, { extent: 4096, buffer: BUFFER_4096 })) expected.push(`${z}/${x}/${y}`);
    }
    assert.deepEqual(tiles.map((t) => `${t.z}/${t.x}/${t.y}`).sort(), expected.sort());
    for (const t of tiles) {
      assert.deepEqual(Object.keys(t.layers), ['clusters']);
      assert.equal(t.layers.clusters.extent, 4096);
      assertSameFeatures(t.layers.clusters, expectedFeatures(index, t.z, t.x, t.y, 4096, BUFFER_4096, null, placeTags), `tile ${t.z}/${t.x}/${t.y}`);
      for (const f of t.layers.clusters.features) assert.equal(f.id, null, 'no feature ids without --feature-ids');
    }
    index.destroy();
  });

  test('--pmtiles: tippecanoe-decode reads the archive, every tile with its features', () => {
    const decoded = JSON.parse(execFileSync('tippecanoe-decode', [archive], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    const count = (collection) => collection.features.reduce((n, layer) => n + layer.features.length, 0);
    const tiles = decoded.features.map((tile) => [`${tile.properties.zoom}/${tile.properties.x}/${tile.properties.y}`, count(tile)]);
    assert.deepEqual(new Map(tiles), new Map(read.tiles.map((t) => [`${t.z}/${t.x}/${t.y}`, t.layers.clusters.features.length])));
    const names = new Set(decoded.features.flatMap((tile) => tile.features.flatMap((layer) => layer.features.map((f) => f.properties.name))));
    assert.ok(names.has('Niagara Falls'), 'a point keeps its name');
  });

  test('--mvt writes the same tiles as files, no empty ones, and metadata.json', async () => {
    const dir = fresh('tiles');
    const r = await cairnHere(['cluster', PLACES, '--skip-invalid', '--mvt', dir, '--max-zoom', '5', '--properties', 'name,scalerank',
      '--aggregate', 'sum:scalerank', '--attribution', '© Natural Earth']);
    assert.equal(r.code, 0, r.stderr);
    const files = [];
    for (const z of readdirSync(dir)) {
      if (z === 'metadata.json') continue;
      for (const x of readdirSync(join(dir, z))) for (const y of readdirSync(join(dir, z, x))) files.push(`${z}/${x}/${y.replace('.mvt', '')}`);
    }
    assert.deepEqual(files.sort(), read.tiles.map((t) => `${t.z}/${t.x}/${t.y}`).sort());
    const decoded = readWithPython(['mvt', ...read.tiles.map((t) => join(dir, String(t.z), String(t.x), `${t.y}.mvt`))]);
    read.tiles.forEach((t, i) => assert.deepEqual(decoded[i], t.layers, `tile ${t.z}/${t.x}/${t.y}`));
    const metadata = JSON.parse(readFileSync(join(dir, 'metadata.json'), 'utf8'));
    assert.deepEqual(metadata.vector_layers, read.metadata.vector_layers);
    assert.deepEqual(metadata.tiles, ['{z}/{x}/{y}.mvt']);
    assert.equal(metadata.minzoom, 0);
    assert.equal(metadata.maxzoom, 5);
  });

  test('--pmtiles with many tiles, --tile-buffer and --feature-ids: leaf directories, every tile readable', async () => {
    const path = fresh('blobs.pmtiles');
    const r = await cairn(['cluster', BLOBS, '--pmtiles', path, '--max-zoom', '11', '--radius', '20', '--layer', 'blobs', '--tile-extent', '512',
      '--tile-buffer', '24', '--feature-ids']);
    assert.equal(r.code, 0, r.stderr);
    const { header, tiles } = readWithPython(['pmtiles', path]);
    assert.ok(header.leaf_directory_length > 0, 'the directory is split into leaves');
    // Tens of batches through the gzip thread: each tile compared below has its own bytes.
    assert.ok(tiles.length > 20 * 1024, `${tiles.length} tiles`);
    assert.ok(header.root_offset + header.root_length <= 16384);
    assert.equal(header.addressed_tiles_count, tiles.length);
    assert.ok(header.tile_contents_count <= header.tile_entries_count && header.tile_entries_count <= header.addressed_tiles_count);
    const csv = readFileSync(BLOBS, 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').map(Number));
    const index = new ClusterIndex({ maxZoom: 11, radius: 20 }).loadCoordinates(Float64Array.from(csv.flat()));
    // A sample of tiles from every zoom, compared in full.
    const step = Math.max(1, Math.floor(tiles.length / 400));
    for (let i = 0; i < tiles.length; i += step) {
      const t = tiles[i];
      assert.equal(t.layers.blobs.extent, 512);
      assertSameFeatures(t.layers.blobs, expectedFeatures(index, t.z, t.x, t.y, 512, 24, (i) => i), `tile ${t.z}/${t.x}/${t.y}`);
      for (const f of t.layers.blobs.features) assert.ok(f.coordinates.every((c) => c >= -24 && c <= 512 + 24), 'within the buffer');
    }
    // The buffer decides which tiles exist: exactly those getTile finds something in.
    const present = new Set(tiles.filter((t) => t.z === 7).map((t) => `${t.x}/${t.y}`));
    for (let x = 0; x < 128; x++) {
      for (let y = 0; y < 128; y++) assert.equal(present.has(`${x}/${y}`), index.getTile(7, x, y, { extent: 512, buffer: 24 }) !== null, `tile 7/${x}/${y}`);
    }
    index.destroy();
  });

  test('--no-cluster-id leaves the property out, and the feature id stands in with --feature-ids', async () => {
    const run = async (name, flags) => {
      const path = fresh(name);
      const r = await cairn(['cluster', BLOBS, '--pmtiles', path, '--max-zoom', '6', ...flags]);
      assert.equal(r.code, 0, r.stderr);
      return { size: readFileSync(path).length, ...readWithPython(['pmtiles', path]) };
    };
    const full = await run('full.pmtiles', ['--feature-ids']);
    const bare = await run('bare.pmtiles', ['--feature-ids', '--no-cluster-id']);
    const none = await run('none.pmtiles', ['--no-cluster-id']);
    assert.equal(bare.metadata.vector_layers[0].fields.cluster_id, undefined);
    assert.equal(full.metadata.vector_layers[0].fields.cluster_id, 'Number');
    assert.deepEqual(bare.tiles.map((t) => `${t.z}/${t.x}/${t.y}`), full.tiles.map((t) => `${t.z}/${t.x}/${t.y}`));
    let clusters = 0;
    full.tiles.forEach((t, i) => {
      const features = bare.tiles[i].layers.clusters.features;
      t.layers.clusters.features.forEach((f, k) => {
        const { cluster_id: id, ...rest } = f.properties;
        if (f.properties.cluster) {
          clusters++;
          assert.equal(f.id, id[0], 'the feature id is the cluster id');
        }
        assert.deepEqual(features[k].properties, rest);
        assert.equal(features[k].id, f.id, 'feature ids stay');
        assert.equal(none.tiles[i].layers.clusters.features[k].id, null);
      });
    });
    assert.ok(clusters > 1000, `${clusters} clusters`);
    assert.ok(bare.size < full.size && none.size < bare.size, `${none.size} < ${bare.size} < ${full.size} bytes`);
  });

  test('--pmtiles stores equal tiles once, and a run of them as one directory entry', async () => {
    // One point at the centre of every zoom-3 tile, all with the same properties: the 64 tiles
    // of zoom 3 are equal, and every tile id of that zoom holds one.
    const rows = ['lng,lat,index'];
    for (let x = 0; x < 8; x++) {
      for (let y = 0; y < 8; y++) {
        const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y + 0.5)) / 8))) * 180) / Math.PI;
        rows.push(`${((x + 0.5) / 8) * 360 - 180},${lat},7`);
      }
    }
    const path = fresh('grid.pmtiles');
    const r = await cairnHere(['cluster', '-', '--pmtiles', path, '--zoom', '3', '--properties', 'index'], { input: rows.join('\n') + '\n' });
    assert.equal(r.code, 0, r.stderr);
    const { header, tiles } = readWithPython(['pmtiles', path]);
    assert.equal(tiles.length, 64);
    assert.equal(header.addressed_tiles_count, 64);
    assert.equal(header.tile_entries_count, 1, 'one entry with a run of 64');
    assert.equal(header.tile_contents_count, 1);
    for (const t of tiles) {
      assert.deepEqual(t.layers.clusters.features.map((f) => [f.coordinates, f.properties]), [[[2048, 2048], { index: [7, 'int'] }]]);
    }
  });

  test('an existing archive is replaced only with --force, and never a file cairn did not write', async () => {
    const path = fresh('out.pmtiles');
    writeFileSync(path, 'not an archive');
    const args = ['cluster', '-', '--pmtiles', path, '--max-zoom', '2'];
    const input = 'lng,lat\n10,10\n11,11\n';
    let r = await cairnHere(args, { input });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /already exists; use --force to replace it/);
    r = await cairnHere([...args, '--force'], { input });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /is not a file cairn writes; not replacing it/);
    assert.equal(readFileSync(path, 'utf8'), 'not an archive');
    rmSync(path);
    assert.equal((await cairnHere(args, { input })).code, 0);
    const first = readFileSync(path);
    assert.equal((await cairnHere([...args, '--force'], { input: 'lng,lat\n-50,-20\n' })).code, 0);
    assert.notDeepEqual(readFileSync(path), first);
  });

  test('a run that fails leaves no archive and no temporary files', async () => {
    const dir = fresh('failing');
    const path = join(dir, 'out.pmtiles');
    const r = await cairnHere(['cluster', '-', '--pmtiles', path], { input: 'lng,lat\n10,10\n10,95\n' });
    assert.equal(r.code, 1);
    assert.ok(!existsSync(path));
    assert.deepEqual(existsSync(dir) ? readdirSync(dir) : [], []);
  });
});

describe('vector tile usage errors: exit 2', { concurrency: true }, () => {
  const cases = [
    [['--pmtiles', 'a.pmtiles', '--tile-extent', '1000'], /--tile-extent must be a power of two, not "1000"/],
    [['--pmtiles', 'a.pmtiles', '--tile-extent', '0'], /--tile-extent must be an integer from 16 to 65536, not "0"/],
    [['--mvt', 'd', '--tile-extent', '4096.5'], /--tile-extent must be an integer/],
    [['--pmtiles', 'a.pmtiles', '--tile-buffer', '-1'], /--tile-buffer must be a number from 0 to 4096, not "-1"/],
    [['--pmtiles', 'a.pmtiles', '--tile-extent', '512', '--tile-buffer', '600'], /--tile-buffer must be a number from 0 to 512/],
    [['--out', 'd', '--feature-ids'], /--feature-ids is for vector tiles/],
    [['--out', 'd', '--no-cluster-id'], /--no-cluster-id is for vector tiles/],
    [['--pmtiles', 'a.pmtiles', '--layer', ''], /--layer needs a name/],
    [['--mvt', 'd', '--layer', '  '], /--layer needs a name/],
    [['--zoom', '1', '--layer', 'x'], /--layer is for vector tiles: give it with --pmtiles or --mvt/],
    [['--out', 'o', '--attribution', 'x'], /--attribution is for vector tiles/],
    [['--pmtiles', 'a.pmtiles', '--mvt', 'd'], /give --pmtiles or --mvt, not both/],
    [['--pmtiles', ''], /--pmtiles needs a value/],
  ];
  for (const [args, message] of cases) {
    test(args.join(' '), async () => {
      const r = await cairnHere(['cluster', '-', ...args], { input: 'lng,lat\n1,1\n' });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
    });
  }

  test('an existing directory for --pmtiles is refused', async () => {
    const dir = fresh('dir');
    mkdirSync(dir);
    const r = await cairnHere(['cluster', '-', '--pmtiles', dir, '--force'], { input: 'lng,lat\n1,1\n' });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /exists and is not a file/);
  });
});
