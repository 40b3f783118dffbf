// The `cairn` command line tool, end to end: tests run `node web/bin/cairn.js` and check what
// it writes against the JS API on the same points (the same module underneath). The long
// tables of messages run most cases through main() in this process, as starting Node for each
// would make the suite slow; each kind of case is run through the script at least once.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';

import { init, ClusterIndex } from '../../src/index.js';
import { WorldScanner } from '../../src/cli/write/world-scanner.js';
import { main } from '../../src/cli/main.js';
import { CLI, cairn, cairnHere } from '../support/cli-run.js';
import { AtomicDirectory } from '../../src/cli/write/atomic-directory.js';
import { parseDecimal } from '../../src/cli/read/numbers.js';
import { mulberry32 } from '../../bench/generate.js';

const WORLD = [-180, -90, 180, 90];
// The reference fixtures (see their README), as the parity tests of the index read them.
const fixtures = new URL('../../../Tests/Fixtures/', import.meta.url);

let work = '';
/** A fresh path in the test's temporary directory. */
let serial = 0;
const fresh = (name) => join(work, `${serial++}-${name}`);

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-cli-test-'));
  await init();
});
after(() => rmSync(work, { recursive: true, force: true }));

// ── test data ──────────────────────────────────────────────────────────────────────────────

/**
 * Points all over the world: blobs (some across the antimeridian), scattered points, a few
 * near the poles, and a stack of identical points; with a name (commas, quotes, accents) and a
 * population (sometimes missing).
 */
function makePoints(n, seed) {
  const random = mulberry32(seed);
  const blobs = [[2.35, 48.85], [179.9, -16.5], [-74, 40.7], [139.7, 35.7]];
  const points = [];
  for (let i = 0; i < n; i++) {
    let lng;
    let lat;
    if (i % 50 === 7) {
      [lng, lat] = [12.5, 41.9];
    } else if (i % 3 === 0) {
      const [bx, by] = blobs[i % blobs.length];
      lng = bx + (random() - 0.5) * 4;
      lat = by + (random() - 0.5) * 4;
      if (lng >= 180) lng -= 360;
    } else {
      lng = random() * 360 - 180;
      lat = i % 97 === 0 ? (random() < 0.5 ? -89.5 : 89.5) : random() * 170 - 85;
    }
    const name = i % 11 === 0 ? `Place "${i}", é` : `p${i}`;
    const pop = i % 13 === 0 ? null : Math.round(random() * 10000);
    points.push({ lng, lat, name, pop });
  }
  return points;
}

const csvField = (v) => (v === null ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v));
const toCsv = (points) => `lng,lat,name,pop\n${points.map((p) => [p.lng, p.lat, p.name, p.pop].map(csvField).join(',')).join('\n')}\n`;
const feature = (p) => ({ type: 'Feature', properties: { name: p.name, ...(p.pop === null ? {} : { pop: p.pop }) }, geometry: { type: 'Point', coordinates: [p.lng, p.lat] } });
const toNdjson = (points) => `${points.map((p) => JSON.stringify(feature(p))).join('\n')}\n`;
// Members around "features" that the streaming reader must skip, nested values included.
const toCollection = (points) => JSON.stringify({
  type: 'FeatureCollection', name: 'test [with {brackets}]', crs: { properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } },
  features: points.map(feature), bbox: [-180, -90, 180, 90],
}, null, 2);

const POINTS = makePoints(1000, 11);
const LNGLAT = Float64Array.from(POINTS.flatMap((p) => [p.lng, p.lat]));
const POP = Float64Array.from(POINTS, (p) => (p.pop === null ? NaN : p.pop));

function writeInput(name, text) {
  const path = fresh(name);
  writeFileSync(path, text);
  return path;
}

// ── comparing with the JS API ──────────────────────────────────────────────────────────────

/** The features of a GeoJSON file or text (checking it is a FeatureCollection). */
function features(pathOrText, isText = false) {
  const json = JSON.parse(isText ? pathOrText : readFileSync(pathOrText, 'utf8'));
  assert.equal(json.type, 'FeatureCollection');
  return json.features;
}

/** A feature as a key: c<id>:<count> for clusters, p<index> for points. */
const keyOf = (f) => (f.properties.cluster ? `c${f.id}:${f.properties.point_count}` : `p${f.properties.index}`);

/**
 * Checks CLI features against getClusters of an index of LNGLAT at zoom z: the same items, the
 * same positions (to the output's precision; a point's are its input's, as getClusters gives a
 * caller's own feature), the same aggregates.
 */
function assertSameItems(cliFeatures, index, z, { decimals = 7, aggregates = [] } = {}) {
  const expected = new Map(index.getClusters(WORLD, z).map((f) => [keyOf(f), f]));
  assert.equal(cliFeatures.length, expected.size, `zoom ${z}: item count`);
  const tolerance = 0.5 * 10 ** -decimals + 1e-12;
  for (const f of cliFeatures) {
    const e = expected.get(keyOf(f));
    assert.ok(e, `zoom ${z}: ${keyOf(f)} is not an item of getClusters`);
    const [x, y] = f.geometry.coordinates;
    const point = e.properties.index;
    const [ex, ey] = f.properties.cluster ? e.geometry.coordinates : [LNGLAT[2 * point], LNGLAT[2 * point + 1]];
    assert.ok(Math.abs(x - ex) <= tolerance && Math.abs(y - ey) <= tolerance, `zoom ${z}: ${keyOf(f)} at ${x},${y}, expected ${ex},${ey}`);
    if (f.properties.cluster) {
      assert.deepEqual(f.properties, { ...e.properties, ...Object.fromEntries(aggregates.map((name) => [name, Number.isNaN(e.properties[name]) ? null : e.properties[name]])) });
    }
  }
}

const zoomFiles = (dir) => readdirSync(dir).sort((a, b) => Number(a.slice(1, -8)) - Number(b.slice(1, -8)));

// ── input formats ──────────────────────────────────────────────────────────────────────────

describe('input formats', { concurrency: true }, () => {
  let csvOut;
  before(async () => {
    csvOut = fresh('csv-out');
    const r = await cairn(['cluster', writeInput('points.csv', toCsv(POINTS)), '--out', csvOut]);
    assert.equal(r.code, 0, r.stderr);
  });

  test('CSV to per-zoom GeoJSON: every zoom equals getClusters of the JS API', () => {
    assert.deepEqual(zoomFiles(csvOut), Array.from({ length: 17 }, (_, z) => `z${z}.geojson`));
    const index = new ClusterIndex().loadCoordinates(LNGLAT);
    for (let z = 0; z <= 16; z++) assertSameItems(features(join(csvOut, `z${z}.geojson`)), index, z);
    index.destroy();
  });

  test('newline-delimited GeoJSON and a FeatureCollection give the same files as CSV', async () => {
    for (const [name, text] of [['points.ndjson', toNdjson(POINTS)], ['points.geojson', toCollection(POINTS)],
      ['points-seq.json', toNdjson(POINTS).split('\n').map((l) => (l ? `\x1e${l}` : l)).join('\r\n')]]) {
      const out = fresh('out');
      const r = await cairn(['cluster', writeInput(name, text), '--out', out]);
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      for (const file of zoomFiles(csvOut)) {
        assert.equal(readFileSync(join(out, file), 'utf8'), readFileSync(join(csvOut, file), 'utf8'), `${name} ${file}`);
      }
    }
  });

  test('standard input with -, each format told from the content; --zoom alone writes to stdout', async () => {
    const z5 = readFileSync(join(csvOut, 'z5.geojson'), 'utf8');
    for (const [i, text] of [toCsv(POINTS), toNdjson(POINTS), toCollection(POINTS)].entries()) {
      const r = await (i === 0 ? cairn : cairnHere)(['cluster', '-', '--zoom', '5'], { input: text });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, z5);
    }
  });

  test('--format overrides the guess', async () => {
    // A .txt name says nothing; the first line is a whole Feature, so the guess is ndjson.
    const path = writeInput('points.txt', toNdjson(POINTS));
    const asCollection = await cairnHere(['cluster', path, '--zoom', '3', '--format', 'geojson']);
    assert.equal(asCollection.code, 1);
    assert.match(asCollection.stderr, /not a FeatureCollection \(for one feature per line use --format ndjson; put a single feature in a FeatureCollection\)/);
    const asNdjson = await cairnHere(['cluster', path, '--zoom', '3', '--format', 'ndjson']);
    assert.equal(asNdjson.code, 0, asNdjson.stderr);
    assert.equal(asNdjson.stdout, readFileSync(join(csvOut, 'z3.geojson'), 'utf8'));
  });

  test('RFC 8142 sequences: a record runs over lines to the next RS', async () => {
    const pretty = POINTS.slice(0, 40).map((p) => `\x1e${JSON.stringify(feature(p), null, 2)}\n`);
    const expected = await cairnHere(['cluster', '-', '--zoom', '4'], { input: toNdjson(POINTS.slice(0, 40)) });
    const r = await cairnHere(['cluster', '-', '--format', 'ndjson', '--zoom', '4'], { input: pretty.join('') });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, expected.stdout);
    // Without --format, from standard input or a name that says only JSON: the RS tells.
    for (const source of ['-', writeInput('pretty-seq.json', pretty.join(''))]) {
      const guessed = await cairnHere(['cluster', source, '--zoom', '4'], source === '-' ? { input: pretty.join('') } : {});
      assert.equal(guessed.code, 0, `${source}: ${guessed.stderr}`);
      assert.equal(guessed.stdout, expected.stdout, source);
    }
    const lines = pretty[0].split('\n').length - 1;
    const bad = await cairnHere(['cluster', '-', '--format', 'ndjson', '--zoom', '4', '--skip-invalid'],
      { input: [pretty[0], '\x1e{"type":\n"Feature",,}\n', ...pretty.slice(1)].join('') });
    assert.equal(bad.code, 0, bad.stderr);
    assert.match(bad.stderr, new RegExp(`skipped 1 invalid record \\(line ${lines + 1}: malformed JSON`));
    assert.equal(features(bad.stdout, true).reduce((n, f) => n + (f.properties.point_count ?? 1), 0), 40);
    // Records and plain lines mixed: a line after a whole record is a line of its own.
    const plainLines = toNdjson(POINTS.slice(0, 40)).split('\n');
    const mixed = await cairnHere(['cluster', '-', '--format', 'ndjson', '--zoom', '4'],
      { input: plainLines.map((l, i) => (i % 3 === 0 && l ? `\x1e${l}` : l)).join('\n') });
    assert.equal(mixed.code, 0, mixed.stderr);
    assert.equal(mixed.stdout, expected.stdout);
  });

  test('standard input: the format shows however the input arrives in chunks', async () => {
    const ndjson = toNdjson(POINTS.slice(0, 50));
    const long = JSON.stringify({ type: 'Feature', properties: { d: 'x'.repeat(70_000) }, geometry: { type: 'Point', coordinates: [1, 2] } });
    const collection = JSON.stringify({ type: 'FeatureCollection', features: POINTS.slice(0, 50).map(feature) });
    const csv = `\ufeff${toCsv(POINTS.slice(0, 50))}`;
    for (const [what, whole, chunks] of [
      ['a first line cut in two', ndjson, [ndjson.slice(0, 20), ndjson.slice(20)]],
      ['a first line longer than a pipe\'s chunk', `${long}\n${long}\n`, [long.slice(0, 65_536), `${long.slice(65_536)}\n${long}\n`]],
      ['white space first', collection, ['   ', '\n', collection]],
      ['a byte order mark byte by byte', csv, [...Buffer.from(csv).subarray(0, 4)].map((b) => Buffer.from([b])).concat([Buffer.from(csv).subarray(4)])],
      ...[collection, ndjson].map((text) => {
        const bytes = Buffer.from(`\ufeff${text}`);
        return ['JSON after a byte order mark byte by byte', text, [...bytes.subarray(0, 3)].map((b) => Buffer.from([b])).concat([bytes.subarray(3)])];
      }),
    ]) {
      const expected = await cairnHere(['cluster', '-', '--zoom', '4'], { input: whole });
      assert.equal(expected.code, 0, `${what}: ${expected.stderr}`);
      const split = await cairnHere(['cluster', '-', '--zoom', '4'], { input: chunks });
      assert.equal(split.code, 0, `${what}: ${split.stderr}`);
      assert.equal(split.stdout, expected.stdout, what);
    }
  });

  test('CSV: --lng-column/--lat-column, CRLF line ends, quoted fields with commas, quotes and line breaks', async () => {
    const csv = 'id,"y",x,note\r\n1,48.85,2.35,"a, ""quoted""\r\nnote"\r\n2,-33.9,151.2,plain\r\n3,40.7,-74.0,\r\n';
    const r = await cairnHere(['cluster', '-', '--format', 'csv', '--lng-column', 'x', '--lat-column', 'y', '--properties', 'note,id', '--zoom', '16'], { input: csv });
    assert.equal(r.code, 0, r.stderr);
    const byIndex = Object.fromEntries(features(r.stdout, true).map((f) => [f.properties.index, f]));
    assert.deepEqual(byIndex[0].properties, { index: 0, note: 'a, "quoted"\r\nnote', id: 1 });
    assert.deepEqual(byIndex[0].geometry.coordinates, [2.35, 48.85]);
    assert.deepEqual(byIndex[1].properties, { index: 1, note: 'plain', id: 2 });
    assert.deepEqual(byIndex[2].properties, { index: 2, id: 3 }, 'an empty field is left out');
    assert.deepEqual(byIndex[2].geometry.coordinates, [-74, 40.7]);
  });

  test('CSV: a byte order mark before a quoted header', async () => {
    const r = await cairnHere(['cluster', '-', '--zoom', '0'], { input: '\ufeff"lng","lat"\n1,2\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(features(r.stdout, true)[0].geometry.coordinates, [1, 2]);
  });

  test('numbers are read as Number() reads them', () => {
    const random = mulberry32(3);
    const texts = ['0', '-0', '7', '+3', '1.', '.5', '-12.345678', '1e2', '2.5E-3', ' 12.5 ', '\t4\t', '12.5\u00a0', '12.5\r',
      '0.9007199254740993', '9007199254740993', '9007199254740992', '123456789012345678901234567890', '0.1000000000000000055511151231257827'];
    for (let i = 0; i < 2000; i++) {
      const digits = Array.from({ length: 1 + Math.floor(random() * 19) }, () => Math.floor(random() * 10)).join('');
      const dot = Math.floor(random() * (digits.length + 1));
      texts.push(`${random() < 0.5 ? '-' : ''}${digits.slice(0, dot)}.${digits.slice(dot)}`.replace(/^(-?)\.$/, '$10'));
    }
    for (const text of texts) {
      const bytes = Buffer.from(`x${text}y`);
      assert.ok(Object.is(parseDecimal(bytes, 1, bytes.length - 1), Number(text)), `${JSON.stringify(text)}: ${parseDecimal(bytes, 1, bytes.length - 1)} against ${Number(text)}`);
    }
    for (const text of ['', ' ', '0x10', 'Infinity', 'NaN', '1,5', '1e', '--1']) {
      const bytes = Buffer.from(text);
      assert.ok(Number.isNaN(parseDecimal(bytes, 0, bytes.length)), JSON.stringify(text));
    }
  });

  test('CSV headers lon/latitude are found in any case; text that is not a JSON number stays a string', async () => {
    const csv = '\ufeffZip,LON,Latitude,score\n02134,-71.1,42.35,1e3\n';
    const r = await cairnHere(['cluster', '-', '--properties', 'Zip,score', '--zoom', '0'], { input: csv });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(features(r.stdout, true)[0].properties, { index: 0, Zip: '02134', score: 1e3 });
  });

  test('CSV: lines of white space only are blank lines', async () => {
    const r = await cairnHere(['cluster', '-', '--format', 'csv', '--zoom', '17'], { input: 'lng,lat\n1,2\n  \t\n\n3,4\n   \n' });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(features(r.stdout, true).map((f) => f.properties.index).sort(), [0, 1]);
  });

  test('an empty CSV (header only) gives empty FeatureCollections', async () => {
    const out = fresh('empty');
    const r = await cairnHere(['cluster', writeInput('empty.csv', 'lng,lat\n'), '--out', out, '--max-zoom', '2']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(zoomFiles(out), ['z0.geojson', 'z1.geojson', 'z2.geojson']);
    assert.deepEqual(features(join(out, 'z1.geojson')), []);
  });
});

// ── options ────────────────────────────────────────────────────────────────────────────────

describe('options', { concurrency: true }, () => {
  const csv = () => writeInput('points.csv', toCsv(POINTS));

  test('--radius --extent --min-zoom --max-zoom --min-points cluster as the JS API does, zooms min…max', async () => {
    const options = { radius: 60, extent: 256, minZoom: 2, maxZoom: 9, minPoints: 3 };
    const out = fresh('out');
    const r = await cairn(['cluster', csv(), '--out', out, '--radius', '60', '--extent', '256', '--min-zoom', '2', '--max-zoom', '9', '--min-points', '3']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(zoomFiles(out), Array.from({ length: 8 }, (_, i) => `z${i + 2}.geojson`));
    const index = new ClusterIndex(options).loadCoordinates(LNGLAT);
    for (let z = 2; z <= 9; z++) assertSameItems(features(join(out, `z${z}.geojson`)), index, z);
    assert.ok(features(join(out, 'z2.geojson')).every((f) => !f.properties.cluster || f.properties.point_count >= 3));
    index.destroy();
  });

  test('--aggregate: sum, min, max, count, mean, with default and chosen names, as the JS API computes them', async () => {
    const out = fresh('out');
    const r = await cairnHere(['cluster', csv(), '--out', out, '--max-zoom', '8', '--aggregate', 'sum:pop', '--aggregate', 'min:pop',
      '--aggregate', 'biggest=max:pop', '--aggregate', 'count:pop', '--aggregate', 'mean:pop']);
    assert.equal(r.code, 0, r.stderr);
    const aggregates = { sum_pop: ['sum', 'pop'], min_pop: ['min', 'pop'], biggest: ['max', 'pop'], count_pop: ['count', 'pop'], mean_pop: ['mean', 'pop'] };
    const index = new ClusterIndex({ maxZoom: 8, aggregates }).loadCoordinates(LNGLAT, { values: { pop: POP } });
    for (let z = 0; z <= 8; z++) assertSameItems(features(join(out, `z${z}.geojson`)), index, z, { aggregates: Object.keys(aggregates) });
    const clusters = features(join(out, 'z0.geojson')).filter((f) => f.properties.cluster);
    assert.ok(clusters.some((f) => f.properties.sum_pop > 0 && f.properties.count_pop > 1));
    index.destroy();
  });

  test('--aggregate with GeoJSON input reads numbers from properties (non-numbers count as none)', async () => {
    const points = [[10, 10, 5], [10.001, 10, 'x'], [10, 10.001, 7]].map(([lng, lat, pop]) => ({ type: 'Feature', properties: { pop }, geometry: { type: 'Point', coordinates: [lng, lat] } }));
    const r = await cairnHere(['cluster', '-', '--zoom', '0', '--aggregate', 'sum:pop', '--aggregate', 'count:pop'], { input: points.map((p) => JSON.stringify(p)).join('\n') });
    assert.equal(r.code, 0, r.stderr);
    const [cluster] = features(r.stdout, true);
    assert.equal(cluster.properties.point_count, 3);
    assert.equal(cluster.properties.sum_pop, 12);
    assert.equal(cluster.properties.count_pop, 2);
  });

  test('points keep the coordinates they came with, beyond ±180° and ±85.05° too', async () => {
    const csv = 'lng,lat\n190,10\n-540.5,0\n-179.9999999,89.9\n1,-88\n2.5,3.25\n';
    const r = await cairnHere(['cluster', '-', '--zoom', '5', '--precision', '12'], { input: csv });
    assert.equal(r.code, 0, r.stderr);
    const byIndex = Object.fromEntries(features(r.stdout, true).map((f) => [f.properties.index, f.geometry.coordinates]));
    assert.deepEqual(byIndex, { 0: [190, 10], 1: [-540.5, 0], 2: [-179.9999999, 89.9], 3: [1, -88], 4: [2.5, 3.25] });
  });

  test('--aggregate names and properties may hold any character', async () => {
    const csv = 'lng,lat,pop😀,é\n10,10,5,1\n10.001,10,6,2\n';
    const out = fresh('names');
    for (const where of [['--zoom', '0'], ['--out', out, '--max-zoom', '0'], ['--tiles', out + '-tiles', '--max-zoom', '0']]) {
      const r = await cairnHere(['cluster', '-', ...where, '--aggregate', 'sum:pop😀', '--aggregate', 'largest é=max:é'], { input: csv });
      assert.equal(r.code, 0, r.stderr);
    }
    for (const properties of [features(join(out, 'z0.geojson')), [JSON.parse(readFileSync(join(out + '-tiles', '0', '0', '0.json'), 'utf8')).features[0].tags]]) {
      const p = properties[0].properties ?? properties[0];
      assert.equal(p['sum_pop😀'], 11);
      assert.equal(p['largest é'], 2);
    }
  });

  test('--properties carries input properties onto points (GeoJSON values of any type), not onto clusters', async () => {
    const input = [
      { type: 'Feature', properties: { name: 'a', tags: ['x', 1], nested: { k: null }, skip: 1 }, geometry: { type: 'Point', coordinates: [-120, 10] } },
      { type: 'Feature', properties: null, geometry: { type: 'Point', coordinates: [60, -10] } },
      { type: 'Feature', properties: { name: 'c' }, geometry: { type: 'Point', coordinates: [60.0001, -10] } },
    ].map((f) => JSON.stringify(f)).join('\n');
    const r = await cairnHere(['cluster', '-', '--zoom', '3', '--properties', 'name,tags,nested'], { input });
    assert.equal(r.code, 0, r.stderr);
    const [first, second] = features(r.stdout, true).sort((a, b) => a.geometry.coordinates[0] - b.geometry.coordinates[0]);
    assert.deepEqual(first.properties, { index: 0, name: 'a', tags: ['x', 1], nested: { k: null } });
    assert.equal(second.properties.cluster, true);
    assert.equal(second.properties.name, undefined);
  });

  test('a carried property named index replaces the input index', async () => {
    const r = await cairnHere(['cluster', '-', '--zoom', '0', '--properties', 'index'], { input: 'lng,lat,index\n1,2,A7\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(features(r.stdout, true)[0].properties, { index: 'A7' });
  });

  test('--precision sets the decimals of coordinates', async () => {
    const r = await cairnHere(['cluster', '-', '--zoom', '0', '--precision', '3'], { input: 'lng,lat\n12.3456789,-45.6789012\n-0.0001,0.5\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /"coordinates":\[12\.346,-45\.679\]/);
    assert.match(r.stdout, /"coordinates":\[0,0\.5\]/, 'no "-0"; no trailing zeros');
  });

  test('--progress reports on stderr, --quiet says nothing, neither by default when stderr is not a terminal', async () => {
    const input = toCsv(POINTS.slice(0, 50)) + '1,95\n';
    const loud = await cairnHere(['cluster', '-', '--zoom', '2', '--progress', '--skip-invalid'], { input });
    assert.equal(loud.code, 0, loud.stderr);
    assert.match(loud.stderr, /read 50 points/);
    assert.match(loud.stderr, /wrote zoom 2: \d+ features/);
    assert.match(loud.stderr, /skipped 1 invalid record \(line 52: latitude 95 is beyond ±90\)/);
    const plain = await cairn(['cluster', '-', '--zoom', '2', '--skip-invalid'], { input });
    assert.equal(plain.stderr, 'stdin: skipped 1 invalid record (line 52: latitude 95 is beyond ±90)\n');
    const quiet = await cairnHere(['cluster', '-', '--zoom', '2', '--quiet', '--skip-invalid'], { input });
    assert.equal(quiet.code, 0);
    assert.equal(quiet.stderr, '');
    assert.equal(quiet.stdout, plain.stdout);
  });
});

// ── tiles ──────────────────────────────────────────────────────────────────────────────────

describe('tile pyramid', () => {
  test('--tiles writes getTile(z, x, y) of every non-empty tile and nothing else', async () => {
    const out = fresh('tiles');
    const r = await cairn(['cluster', writeInput('points.csv', toCsv(POINTS)), '--tiles', out, '--max-zoom', '4',
      '--aggregate', 'sum:pop', '--properties', 'name']);
    assert.equal(r.code, 0, r.stderr);
    const index = new ClusterIndex({ maxZoom: 4, aggregates: { sum_pop: ['sum', 'pop'] } }).loadCoordinates(LNGLAT, { values: { pop: POP } });
    assert.deepEqual(readdirSync(out).sort(), ['0', '1', '2', '3', '4']);
    for (let z = 0; z <= 4; z++) {
      // Every tile of the zoom, asked directly: the written ones must be exactly the non-null ones.
      const expected = [];
      for (let x = 0; x < 2 ** z; x++) {
        for (let y = 0; y < 2 ** z; y++) {
          const tile = index.getTile(z, x, y);
          if (!tile) continue;
          for (const f of tile.features) if (!f.tags.cluster) f.tags = { index: f.tags.index, name: POINTS[f.tags.index].name };
          expected.push([`${x}/${y}.json`, tile]);
        }
      }
      const written = readdirSync(join(out, String(z))).flatMap((x) => readdirSync(join(out, String(z), x)).map((y) => `${x}/${y}`));
      assert.deepEqual(written.sort(), expected.map(([name]) => name).sort(), `zoom ${z}: tiles written`);
      for (const [name, tile] of expected) {
        assert.deepEqual(JSON.parse(readFileSync(join(out, String(z), name), 'utf8')), tile, `tile ${z}/${name}`);
      }
    }
    index.destroy();
  });

  test('tile tags of points keep counting input indices past dropped records', async () => {
    const out = fresh('tiles');
    const r = await cairnHere(['cluster', '-', '--tiles', out, '--zoom', '0', '--skip-invalid', '--min-points', '5', '--properties', 'name'],
      { input: 'lng,lat,name\n10,10,a\n10,95,bad\n-40,-20,c\n' });
    assert.equal(r.code, 0, r.stderr);
    const tile = JSON.parse(readFileSync(join(out, '0', '0', '0.json'), 'utf8'));
    assert.deepEqual(tile.features.map((f) => f.tags).sort((a, b) => a.index - b.index), [{ index: 0, name: 'a' }, { index: 2, name: 'c' }]);
  });

  test('--zoom with --out writes that zoom only', async () => {
    const out = fresh('out');
    const r = await cairnHere(['cluster', writeInput('points.csv', toCsv(POINTS)), '--out', out, '--zoom', '4']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(out), ['z4.geojson']);
    const index = new ClusterIndex().loadCoordinates(LNGLAT);
    assertSameItems(features(join(out, 'z4.geojson')), index, 4);
    index.destroy();
  });

  test('tiles at the antimeridian include the items across it; --zoom restricts the pyramid to one zoom', async () => {
    const out = fresh('tiles');
    const r = await cairnHere(['cluster', '-', '--tiles', out, '--zoom', '3'], { input: 'lng,lat\n179.99,0.5\n-179.99,0.5\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(out), ['3']);
    assert.deepEqual(readdirSync(join(out, '3')).sort(), ['0', '7']);
    for (const x of ['0', '7']) {
      assert.equal(JSON.parse(readFileSync(join(out, '3', x, '3.json'), 'utf8')).features.length, 2, `tile 3/${x}/3 shows both points`);
    }
  });
});

test('the world scan splits dense bands and never repeats or loses an item at a band edge', async () => {
  // A tiny query room forces many bands and splits; points sit exactly on band edges too.
  const lngLat = [];
  for (let i = 0; i < 400; i++) lngLat.push(-170 + i * 0.85, i % 2 ? 0 : 85.0511287798066);
  for (const [lng, lat] of [...LNGLAT.subarray(0, 1200)].reduce((a, v, i) => (i % 2 ? a[a.length - 1].push(v) : a.push([v]), a), [])) lngLat.push(lng, lat);
  const index = new ClusterIndex().loadCoordinates(Float64Array.from(lngLat));
  const scanner = new WorldScanner(index, { room: 16 });
  for (const z of [16, 12, 6, 0]) {
    const keys = [];
    for (const { records, count, stride } of scanner.zoom(z)) {
      for (let k = 0; k < count; k++) keys.push(records[k * stride + 1] > 1 ? `c${records[k * stride]}` : `p${records[k * stride]}`);
    }
    const expected = index.getClusters(WORLD, z).map((f) => (f.properties.cluster ? `c${f.id}` : `p${f.properties.index}`));
    assert.deepEqual(keys.sort(), expected.sort(), `zoom ${z}`);
  }
  index.destroy();
  // More points on one line of latitude than a query holds: no band split can separate them.
  const line = new ClusterIndex().loadCoordinates(Float64Array.from({ length: 600 }, (_, i) => (i % 2 ? 10 : -179 + i * 0.3)));
  let count = 0;
  for (const batch of new WorldScanner(line, { room: 50 }).zoom(16)) count += batch.count;
  assert.equal(count, 300);
  line.destroy();
});

// ── parity fixtures through the CLI ────────────────────────────────────────────────────────

/**
 * Leaf input indices (ascending) of every item of an index, zoom by zoom from maxZoom + 1 (every point
 * alone) down, each cluster's leaves gathered from its children one zoom up: one getChildren
 * per cluster instead of one getLeaves per cluster and zoom.
 * @returns {Map<number, number[]>[]} per zoom: item key (point index, or -1 - cluster id) → leaves
 */
function leavesByZoom(index, { minZoom, maxZoom }, indexOfLeaf) {
  const stride = index.recordStride;
  const out = new Float64Array(stride * (1 << 17));
  // Items as keys from the fast path (no feature objects): the point index, or -1 - cluster id.
  const keysAt = (z) => {
    const n = index.getClustersInto(WORLD, z, out);
    assert.ok(n <= out.length / stride);
    return Array.from({ length: n }, (_, k) => (out[k * stride + 1] > 1 ? -1 - out[k * stride] : out[k * stride]));
  };
  const keyOf = (f) => (f.properties.cluster ? -1 - f.id : indexOfLeaf(f));
  const zooms = [];
  zooms[maxZoom + 1] = new Map(keysAt(maxZoom + 1).map((key) => [key, [key]]));
  for (let z = maxZoom; z >= minZoom; z--) {
    // An item that was there one zoom up has the same leaves; a cluster formed at this zoom
    // has its children there.
    const above = zooms[z + 1];
    zooms[z] = new Map(keysAt(z).map((key) => [key, above.get(key) ??
      index.getChildren(-1 - key).flatMap((child) => above.get(keyOf(child))).sort((a, b) => a - b)]));
  }
  return zooms;
}

/**
 * The items of the CLI's GeoJSON text, one per line, read with a pattern rather than
 * JSON.parse: four times faster on the fixtures' millions of features, and the other tests
 * check that the output is GeoJSON.
 * @returns {Array<{key: number, count: number, line: string}>} key: the point index, or -1 - id
 *   for a cluster
 */
function items(text) {
  const list = [];
  for (const line of text.split('\n')) {
    const m = /^\{"type":"Feature",(?:"id":(\d+),"properties":\{"cluster":true,"cluster_id":\d+,"point_count":(\d+)|"properties":\{"index":(\d+))/.exec(line);
    if (m) list.push(m[1] !== undefined ? { key: -1 - Number(m[1]), count: Number(m[2]), line } : { key: Number(m[3]), count: 1, line });
  }
  return list;
}

/**
 * Checks a CLI run of a reference fixture: items, clusters and the membership fingerprint (see
 * the fixtures' README) at every zoom, from the CLI's output (cluster ids and point indices);
 * the leaves of a cluster id come from an index on the same data. `zooms`: the zooms to check
 * (all by default).
 * @returns {Promise<{lists: Array<Array<{item: {line: string}, leaves: number[]}>>, stderr: string}>}
 *   the CLI's items per zoom, sorted as the reference sorts them
 */
async function checkFixtureRun(run, inputPath, index, indexOfLeaf, extraArgs, zooms = run.zooms.map((entry) => entry.z)) {
  const { radius, extent, minZoom, maxZoom, minPoints } = run.options;
  const out = fresh('fixture');
  const args = ['cluster', inputPath, '--radius', String(radius), '--extent', String(extent), '--min-zoom', String(minZoom),
    '--max-zoom', String(maxZoom), '--min-points', String(minPoints), ...extraArgs];
  const all = await cairn([...args, '--out', out]);
  assert.equal(all.code, 0, all.stderr);
  // The zoom above maxZoom (every point alone) through stdout.
  const above = await cairnHere([...args, '--zoom', String(maxZoom + 1)]);
  assert.equal(above.code, 0, above.stderr);
  const leaves = leavesByZoom(index, run.options, indexOfLeaf);
  const lists = [];
  for (const expected of run.zooms.filter((entry) => zooms.includes(entry.z))) {
    const z = expected.z;
    const cli = items(z > maxZoom ? above.stdout : readFileSync(join(out, `z${z}.geojson`), 'utf8'));
    const where = `${run.input} ${JSON.stringify(run.options)} zoom ${z}`;
    assert.equal(cli.length, expected.items, `${where}: items`);
    assert.equal(cli.filter((item) => item.count > 1).length, expected.clusters, `${where}: clusters`);
    // Sorted by first leaf: every point is in one item, so first leaves are distinct and can
    // index an array (a comparator sort of every zoom made this test slow).
    const byFirstLeaf = [];
    for (const item of cli) {
      const l = leaves[z].get(item.key);
      if (!l) assert.fail(`${where}: ${item.line} is not an item of the index`);
      if (l.length !== item.count) assert.fail(`${where}: point_count of ${item.line}`);
      byFirstLeaf[l[0]] = { item, leaves: l };
    }
    const list = byFirstLeaf.filter(Boolean);
    const sha = createHash('sha256').update(list.map((entry) => entry.leaves.join(',')).join('\n')).digest('hex');
    assert.equal(sha, expected.membershipSha256, `${where}: membership`);
    lists[z] = list;
  }
  return { lists, stderr: all.stderr };
}

describe('parity fixtures through the CLI', { concurrency: true }, () => {
  test('places.json (a FeatureCollection with one null geometry, dropped with --skip-invalid)', async () => {
    const path = fileURLToPath(new URL('places.json', fixtures));
    const places = JSON.parse(readFileSync(path, 'utf8'));
    const runs = JSON.parse(readFileSync(new URL('places.reference.json', fixtures), 'utf8'));
    const position = new Map(places.features.map((f, i) => [f, i]));
    for (const run of runs) {
      // The features the CLI loads: it numbers clusters above the points it kept (ClusterIndex
      // numbers them above every feature it was given, as supercluster does).
      const index = new ClusterIndex(run.options).load(places.features.filter((f) => f.geometry));
      const { lists, stderr } = await checkFixtureRun(run, path, index, (f) => position.get(f), ['--skip-invalid', '--precision', '12']);
      assert.match(stderr, /skipped 1 invalid record \(feature 162 \(line \d+\): has no geometry\)/);
      // Positions too, as the reference has them (the output has 12 decimals).
      for (const expected of run.zooms) {
        expected.items_detail.forEach(([refLeaves, lng, lat], i) => {
          const { item, leaves } = lists[expected.z][i];
          assert.deepEqual(leaves, refLeaves);
          const [x, y] = JSON.parse(item.line.replace(/,$/, '')).geometry.coordinates;
          assert.ok(Math.abs(x - lng) <= 1e-9 && Math.abs(y - lat) <= 1e-9, `zoom ${expected.z} item ${i} at ${x},${y}, reference ${lng},${lat}`);
        });
      }
      index.destroy();
    }
  });

  test('clustered-50k.csv (CSV)', async () => {
    const path = fileURLToPath(new URL('clustered-50k.csv', fixtures));
    const lines = readFileSync(path, 'utf8').trim().split('\n').slice(1);
    const lngLat = Float64Array.from(lines.flatMap((line) => line.split(',').map(Number)));
    const runs = JSON.parse(readFileSync(new URL('clustered-50k.reference.json', fixtures), 'utf8'));
    // Both option sets at once (the CLI runs in its own process). Every zoom of the first; the
    // second (radius 80, zooms 0–20) at a few zooms, as checking all of them doubles this
    // suite's time for little more coverage.
    await Promise.all(runs.map(async (run, i) => {
      const index = new ClusterIndex(run.options).loadCoordinates(lngLat);
      await checkFixtureRun(run, path, index, (f) => f.properties.index, [], i === 0 ? undefined : [0, 7, 14, 20, 21]);
      index.destroy();
    }));
  });
});

// ── bad input ──────────────────────────────────────────────────────────────────────────────

describe('bad input: exit 1 with the line or feature and the problem', { concurrency: true }, () => {
  const cases = [
    ['CSV: empty longitude', 'points.csv', 'lng,lat\n1,2\n,3\n', /points\.csv: line 3: no longitude \(column lng is empty\)/],
    ['CSV: not a number', 'points.csv', 'lng,lat\n1,2\nabc,3\n', /line 3: longitude "abc" is not a number/],
    ['CSV: NaN', 'points.csv', 'lng,lat\n1,NaN\n', /line 2: latitude "NaN" is not a number/],
    ['CSV: infinite', 'points.csv', 'lng,lat\n1e999,2\n', /line 2: longitude Infinity is not a finite number/],
    ['CSV: latitude beyond 90', 'points.csv', 'lng,lat\n\n1,2\n5,90.5\n', /line 4: latitude 90\.5 is beyond ±90/],
    ['CSV: too few fields', 'points.csv', 'name,lng,lat\na,1,2\nb,1\n', /line 3: has 2 fields, the header has 3/],
    ['CSV: unterminated quote', 'points.csv', 'lng,lat,name\n1,2,"open\n3,4,x\n', /line 2: a quoted field is not closed before the end of the input/],
    ['CSV: text after a closing quote', 'points.csv', 'lng,lat\n"1"x,2\n', /line 2: unexpected "x" after the closing quote of field 1/],
    ['CSV: two longitude columns', 'points.csv', 'lon,lng,lat\n1,2,3\n', /line 1: two longitude columns, "lon" and "lng"; name one with --lng-column/],
    ['CSV: no coordinate columns', 'points.csv', 'a,b\n1,2\n', /line 1: no longitude column \(looked for lng, lon, longitude; name it with --lng-column\); the header has "a", "b"/],
    ['CSV: empty', 'points.csv', '', /no header row \(the input is empty\)/],
    ['CSV: aggregate column missing', 'points.csv', 'lng,lat\n1,2\n', /line 1: no column named "pop" \(for --aggregate\)/, ['--aggregate', 'sum:pop']],
    ['CSV: infinite aggregate value', 'points.csv', 'lng,lat,pop\n1,2,1e400\n', /line 2: column pop: 1e400 is not a finite number/, ['--aggregate', 'sum:pop']],
    ['NDJSON: malformed JSON', 'points.ndjson', '{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}}\n{"type": Feature}\n', /points\.ndjson: line 2: malformed JSON \(/],
    ['NDJSON: not a Point', 'points.ndjson', '{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}\n', /line 1: has a LineString geometry, not a Point/],
    ['NDJSON: a geometry without a type', 'points.ndjson', '{"type":"Feature","geometry":{"coordinates":[1,2]}}\n', /line 1: has a geometry without a type, not a Point/],
    ['NDJSON: a geometry that is no object', 'points.ndjson', '{"type":"Feature","geometry":5}\n', /line 1: has a number as its geometry, not a Point/],
    ['NDJSON: missing coordinates', 'points.ndjson', '{"type":"Feature","geometry":{"type":"Point"}}\n', /line 1: has no \[longitude, latitude\] coordinates/],
    ['NDJSON: a string coordinate', 'points.ndjson', '{"type":"Feature","geometry":{"type":"Point","coordinates":["1",2]}}\n', /line 1: longitude "1" is not a number/],
    ['NDJSON: not a Feature', 'points.ndjson', '\n\n[1,2]\n', /line 3: is an array, not a GeoJSON Feature/],
    ['NDJSON: infinite aggregate value', 'points.ndjson', '{"type":"Feature","properties":{"pop":1e999},"geometry":{"type":"Point","coordinates":[1,2]}}\n', /line 1: property pop is Infinity, not a finite number/, ['--aggregate', 'sum:pop']],
    ['GeoJSON: latitude beyond 90, by feature index', 'points.geojson', '{"type":"FeatureCollection","features":[\n{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}},\n{"type":"Feature","geometry":{"type":"Point","coordinates":[1,-91]}}]}', /points\.geojson: feature 1 \(line 3\): latitude -91 is beyond ±90/],
    ['GeoJSON: null geometry', 'points.geojson', '{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null}]}', /feature 0 \(line 1\): has no geometry/],
    ['GeoJSON: malformed feature over lines, told on one', 'points.geojson', '{"type":"FeatureCollection","features":[{\n"type":\n}\n]}\n', /feature 0 \(line 1\): malformed JSON \([^\n]*"\{ "type": \}" is not valid JSON\)\n$/],
    ['GeoJSON: malformed feature', 'points.geojson', '{"type":"FeatureCollection","features":[{"type":"Feature",,}]}', /feature 0 \(line 1\): malformed JSON/],
    ['GeoJSON: cut short after a feature', 'points.geojson', '{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}},', /the input ends after feature 0 \(is the file cut short\?\)/],
    ['GeoJSON: cut short', 'points.geojson', '{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}},{"type":"Fea', /the input ends inside feature 1 \(is the file cut short\?\)/],
    ['GeoJSON: no features', 'points.geojson', '{"type":"FeatureCollection"}', /has no "features" array/],
    ['GeoJSON: a Feature, not a collection', 'points.geojson', '{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},\n"properties":{}}', /is a GeoJSON "Feature", not a FeatureCollection/],
    ['GeoJSON: not an object', 'points.geojson', '[{"type":"Feature"}]', /line 1: expected a GeoJSON FeatureCollection, found '\['/],
    ['GeoJSON: junk after the end', 'points.geojson', '{"type":"FeatureCollection","features":[]} x', /unexpected 'x' after the end of the FeatureCollection/],
    ['GeoJSON: features not an array', 'points.geojson', '{"features":{}}', /"features" must be an array, found '\{'/],
  ];
  for (const [name, file, text, message, extra = []] of cases) {
    test(name, async () => {
      const out = fresh('out');
      // One case of each format through the script, the rest through main() in this process.
      const run = /empty longitude|malformed JSON|by feature index/.test(name) ? cairn : cairnHere;
      const r = await run(['cluster', writeInput(file, text), '--out', out, ...extra]);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, message);
      assert.ok(r.stderr.startsWith('cairn: '), r.stderr);
      assert.equal(existsSync(out), false, 'no output after bad input');
    });
  }
});

describe('--skip-invalid', { concurrency: true }, () => {
  test('drops bad records, says how many, and keeps counting input indices', async () => {
    const lines = ['lng,lat'];
    for (let i = 0; i < 20; i++) lines.push(i % 4 === 1 ? `${i},${100 + i}` : i === 6 ? 'x,1' : `${i * 0.001},0`);
    const r = await cairn(['cluster', '-', '--skip-invalid', '--zoom', '20'], { input: lines.join('\n') });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^stdin: skipped 6 invalid records \(line 3: latitude 101 is beyond ±90; line 7: latitude 105 is beyond ±90; line 8: longitude "x" is not a number; line 11: latitude 109 is beyond ±90; line 15: latitude 113 is beyond ±90; 1 more\)\n$/);
    const indices = features(r.stdout, true).map((f) => f.properties.index).sort((a, b) => a - b);
    assert.deepEqual(indices, Array.from({ length: 20 }, (_, i) => i).filter((i) => i % 4 !== 1 && i !== 6));
  });

  test('skips malformed lines and features too, but not a broken document', async () => {
    const ndjson = await cairnHere(['cluster', '-', '--skip-invalid', '--zoom', '0'], { input: '{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}}\nnot json\n' });
    assert.equal(ndjson.code, 0, ndjson.stderr);
    assert.match(ndjson.stderr, /skipped 1 invalid record \(line 2: malformed JSON/);
    const csv = await cairnHere(['cluster', '-', '--format', 'csv', '--skip-invalid', '--zoom', '17', '--properties', 'name'],
      { input: 'name,lng,lat\n"a"x,1,2\n"b\nc",3,4\n"d"\r,5,6\n"e",7,8\n' });
    assert.equal(csv.code, 0, csv.stderr);
    assert.match(csv.stderr, /skipped 2 invalid records \(line 2: unexpected "x" after the closing quote of field 1; line 5: unexpected "\\r" after the closing quote of field 1\)/);
    assert.deepEqual(features(csv.stdout, true).map((f) => f.properties).sort((a, b) => a.index - b.index), [{ index: 1, name: 'b\nc' }, { index: 3, name: 'e' }]);
    const collection = await cairnHere(['cluster', '-', '--skip-invalid', '--zoom', '0'], { input: '{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}},{"type":"Feature","geometry":{"type":"Point","coordinates":[1,' });
    assert.equal(collection.code, 1);
    assert.match(collection.stderr, /the input ends inside feature 1/);
  });
});

test('on a terminal, the progress line ends with the run, before an error too', async () => {
  const run = async (args, failWrites = false) => {
    const chunks = [];
    const stderr = Object.assign(new Writable({ write(chunk, _, done) { chunks.push(Buffer.from(chunk)); done(); } }), { isTTY: true });
    const stdout = new Writable({ write(_, __, done) { done(failWrites ? new Error('the disk is full') : undefined); } });
    const code = await main(args, { stdin: Readable.from([]), stdout, stderr });
    return { code, text: Buffer.concat(chunks).toString() };
  };
  const done = await run(['cluster', writeInput('points.csv', toCsv(POINTS)), '--out', fresh('tty'), '--max-zoom', '2']);
  assert.equal(done.code, 0);
  assert.match(done.text, /\r\[ *[\d.]+s\] done: .*\x1b\[K\n$/, 'the last progress line stays, and ends');
  // A failure after progress was drawn: standard output refuses the GeoJSON.
  const failed = await run(['cluster', writeInput('points.csv', toCsv(POINTS)), '--zoom', '2', '--progress'], true);
  assert.equal(failed.code, 1);
  assert.match(failed.text, /\x1b\[K\ncairn: the disk is full\n$/, 'the error starts a line of its own');
});

// ── output safety ──────────────────────────────────────────────────────────────────────────

describe('existing output and --force', { concurrency: true }, () => {
  const input = () => writeInput('points.csv', 'lng,lat\n1,2\n');

  test('an existing output is only replaced with --force, then wholly', async () => {
    const parent = fresh('parent');
    const out = join(parent, 'out');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'z12.geojson'), 'old');
    const refused = await cairn(['cluster', input(), '--out', out, '--max-zoom', '1']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--out .*: already exists; use --force to replace it/);
    assert.equal(readFileSync(join(out, 'z12.geojson'), 'utf8'), 'old');
    const forced = await cairn(['cluster', input(), '--out', out, '--max-zoom', '1', '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.deepEqual(zoomFiles(out), ['z0.geojson', 'z1.geojson'], 'the old z12 is gone with the old output');
    assert.deepEqual(readdirSync(parent), ['out'], 'no temporaries left');
  });

  test('an empty directory is used without --force; a directory with other files is never replaced', async () => {
    const empty = fresh('empty');
    mkdirSync(empty);
    assert.equal((await cairnHere(['cluster', input(), '--tiles', empty, '--max-zoom', '0'])).code, 0);
    assert.ok(existsSync(join(empty, '0', '0', '0.json')));
    const mine = fresh('mine');
    mkdirSync(mine);
    writeFileSync(join(mine, 'notes.txt'), 'keep');
    const r = await cairnHere(['cluster', input(), '--tiles', mine, '--force']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /holds "notes\.txt", which cairn does not write; not replacing it/);
    assert.equal(readFileSync(join(mine, 'notes.txt'), 'utf8'), 'keep');
  });

  test('an output path that is a file is refused', async () => {
    const file = writeInput('file', 'x');
    const r = await cairnHere(['cluster', input(), '--out', file, '--force']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /exists and is not a directory/);
    // Below a file: refused before the input is read (this input is not even there).
    const below = await cairnHere(['cluster', fresh('missing.csv'), '--out', join(file, 'out')]);
    assert.equal(below.code, 2);
    assert.match(below.stderr, /--out .*file\/out: .*file is not a directory/);
  });

  test('--force never replaces files cairn does not write, however deep', async () => {
    const tiles = fresh('deep-tiles');
    mkdirSync(join(tiles, '5'), { recursive: true });
    writeFileSync(join(tiles, '5', 'notes.txt'), 'keep');
    const r = await cairnHere(['cluster', input(), '--tiles', tiles, '--max-zoom', '1', '--force']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /holds "5\/notes\.txt", which cairn does not write/);
    assert.equal(readFileSync(join(tiles, '5', 'notes.txt'), 'utf8'), 'keep');
    const out = fresh('dir-named-like-output');
    mkdirSync(join(out, 'z3.geojson'), { recursive: true });
    writeFileSync(join(out, 'z3.geojson', 'data.txt'), 'keep');
    const o = await cairnHere(['cluster', input(), '--out', out, '--max-zoom', '1', '--force']);
    assert.equal(o.code, 2);
    assert.match(o.stderr, /holds "z3\.geojson", which cairn does not write/);
    // A pyramid cairn wrote is replaced.
    assert.equal((await cairnHere(['cluster', input(), '--tiles', tiles + '-own', '--max-zoom', '2'])).code, 0);
    const again = await cairnHere(['cluster', input(), '--tiles', tiles + '-own', '--max-zoom', '1', '--force']);
    assert.equal(again.code, 0, again.stderr);
    assert.ok(!existsSync(join(tiles + '-own', '2')), 'the old zoom 2 went with the old pyramid');
  });

  test('a symbolic link to a directory stays a link; the directory gets the output', async () => {
    const real = fresh('real');
    mkdirSync(real);
    const link = fresh('link');
    symlinkSync(real, link);
    for (const extra of [[], ['--force']]) {
      const r = await cairnHere(['cluster', input(), '--out', link, '--max-zoom', extra.length ? '2' : '1', ...extra]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(lstatSync(link).isSymbolicLink());
      assert.deepEqual(zoomFiles(real), extra.length ? ['z0.geojson', 'z1.geojson', 'z2.geojson'] : ['z0.geojson', 'z1.geojson']);
    }
    const dangling = fresh('dangling');
    symlinkSync(fresh('nowhere'), dangling);
    const r = await cairnHere(['cluster', input(), '--out', dangling]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /is a symbolic link to nothing/);
  });

  test('a failed run takes away the directories it made for its output, and only those', () => {
    const base = fresh('base');
    mkdirSync(base);
    const directory = new AtomicDirectory(join(base, 'a', 'b', 'out'), '--out', [/^z\d+\.geojson$/], false);
    directory.check();
    directory.begin();
    assert.ok(existsSync(join(base, 'a', 'b')));
    directory.discard();
    assert.deepEqual(readdirSync(base), [], 'a and a/b are gone; the base stays');
  });

  test('an output that appears while the run works is checked again before it is replaced', () => {
    const target = fresh('appears');
    const directory = new AtomicDirectory(target, '--out', [/^z\d+\.geojson$/], false);
    directory.check();
    const temporary = directory.begin();
    writeFileSync(join(temporary, 'z0.geojson'), 'new');
    mkdirSync(target);
    writeFileSync(join(target, 'important.txt'), 'keep');
    assert.throws(() => directory.commit(), { name: 'UsageError', message: /already exists; use --force/ });
    directory.discard();
    assert.deepEqual(readdirSync(target), ['important.txt']);
    assert.ok(!existsSync(temporary));
  });
});

test('a directory as standard input is a usage error, not an empty input', async () => {
  const dir = fresh('stdin-dir');
  mkdirSync(dir);
  const fd = openSync(dir, 'r');
  const child = spawn(process.execPath, [CLI, 'cluster', '-', '--zoom', '0'], { stdio: [fd, 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
  const code = await new Promise((resolve) => child.on('close', resolve));
  closeSync(fd);
  assert.equal(code, 2);
  assert.match(stderr, /cannot read standard input: it is a directory/);
});

describe('usage errors: exit 2', { concurrency: true }, () => {
  const cases = [
    [[], /missing command/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['cluster'], /missing INPUT/],
    [['cluster', 'a.csv', 'b.csv', '--zoom', '1'], /unexpected argument "b\.csv"/],
    [['cluster', '-', '--bogus'], /Unknown option '--bogus'/],
    [['cluster', '-'], /nothing to write: give --out DIR, --tiles DIR, --pmtiles FILE, --mvt DIR, or --zoom Z/],
    [['cluster', '-', '--out', 'a', '--tiles', 'b'], /give --out or --tiles, not both/],
    [['cluster', '-', '--zoom', '1', '--radius', '0'], /--radius must be a number above 0, not "0"/],
    [['cluster', '-', '--zoom', '1', '--extent', 'wide'], /--extent must be a number above 0, not "wide"/],
    [['cluster', '-', '--zoom', '1', '--max-zoom', '31'], /--max-zoom must be an integer from 0 to 30, not "31"/],
    [['cluster', '-', '--zoom', '3', '--min-zoom', '5'], /--zoom 3 is below --min-zoom 5, the lowest zoom clustered/],
    [['cluster', '-', '--out', '.'], /--out \.: is the current directory or holds it/],
    [['cluster', '-', '--tiles', '..', '--force'], /--tiles \.\.: is the current directory or holds it/],
    [['cluster', '-', '--zoom', '1', '--min-zoom', '5', '--max-zoom', '3'], /--min-zoom \(5\) must not be above --max-zoom \(3\)/],
    [['cluster', '-', '--zoom', '1', '--min-points', '1.5'], /--min-points must be an integer 1 or more, not "1\.5"/],
    [['cluster', '-', '--zoom', 'x'], /--zoom must be an integer from 0 to 30, not "x"/],
    [['cluster', '-', '--zoom', '1', '--precision', '13'], /--precision must be an integer from 0 to 12/],
    [['cluster', '-', '--zoom', '1', '--aggregate', 'median:pop'], /--aggregate "median:pop": expected OP:PROPERTY or NAME=OP:PROPERTY, OP one of sum, min, max, count, mean/],
    [['cluster', '-', '--zoom', '1', '--aggregate', 'sum:a', '--aggregate', 'sum_a=max:b'], /two aggregates named sum_a/],
    [['cluster', '-', '--zoom', '1', '--aggregate', 'point_count=sum:a'], /point_count is a property every cluster has/],
    [['cluster', '-', '--zoom', '1', '--format', 'xml'], /--format must be one of csv, ndjson, geojson, not "xml"/],
    [['cluster', '-', '--zoom', '1', '--properties', 'a,,b'], /--properties takes names separated by commas/],
    [['cluster', '-', '--zoom', '1', '--progress', '--quiet'], /give --progress or --quiet, not both/],
    [['cluster', '/no/such/file.csv', '--zoom', '1'], /cannot read \/no\/such\/file\.csv: no such file or directory/],
    [['cluster', '.', '--zoom', '1'], /cannot read \.: it is a directory/],
  ];
  for (const [args, message] of cases) {
    test(args.join(' ') || '(no arguments)', async () => {
      const run = args.length < 2 || args.includes('--bogus') ? cairn : cairnHere;
      const r = await run(args, { input: '' });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
    });
  }

  test('--help and --version', async () => {
    const help = await cairn(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: cairn <command>/);
    const clusterHelp = await cairnHere(['cluster', '--help']);
    assert.equal(clusterHelp.code, 0);
    for (const option of ['--radius', '--extent', '--min-zoom', '--max-zoom', '--min-points', '--properties', '--aggregate',
      '--out', '--tiles', '--zoom', '--progress', '--quiet', '--skip-invalid', '--force', '--lng-column', '--lat-column', '--format', '--precision']) {
      assert.ok(clusterHelp.stdout.includes(option), `cluster --help mentions ${option}`);
    }
    const version = await cairnHere(['--version']);
    assert.equal(version.code, 0);
    assert.equal(version.stdout.trim(), JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
  });
});

// ── interrupted runs ───────────────────────────────────────────────────────────────────────

describe('interrupted runs leave no partial output', { concurrency: true }, () => {
  let bigCsv;
  before(() => {
    const random = mulberry32(5);
    let text = 'lng,lat\n';
    for (let i = 0; i < 100_000; i++) text += `${(random() * 360 - 180).toFixed(6)},${(random() * 170 - 85).toFixed(6)}\n`;
    bigCsv = writeInput('big.csv', text);
  });

  for (const [signal, flag] of [['SIGINT', '--out'], ['SIGTERM', '--out'], ['SIGTERM', '--tiles']]) {
    test(`${signal} while writing ${flag}`, async () => {
      const parent = fresh('parent');
      mkdirSync(parent);
      const out = join(parent, 'result');
      const child = spawn(process.execPath, [CLI, 'cluster', bigCsv, flag, out, '--progress']);
      let stderr = '';
      let sent = false;
      const ended = new Promise((resolve) => child.on('close', (code, sig) => resolve({ code, sig })));
      child.stderr.on('data', (d) => {
        stderr += d;
        // Only once output has begun do temporaries exist: that is the case to check.
        if (!sent && /wrote zoom 16|tiles written/.test(stderr)) {
          sent = true;
          child.kill(signal);
        }
      });
      const { code, sig } = await ended;
      assert.ok(sent, `the run ended before writing began: ${stderr}`);
      assert.equal(sig, signal, `ended by the signal (code ${code}): ${stderr.split('\n').filter((l) => !l.startsWith('[')).join(' | ')}`);
      // A signal that comes as the last file is done may find the output complete and in place
      // (a busy machine delays it); anything else is a failure.
      const left = readdirSync(parent);
      if (left.length > 0) {
        assert.deepEqual(left, ['result'], 'no temporary is left');
        const zooms = readdirSync(out);
        assert.equal(zooms.length, 17, 'an output left in place is complete');
        if (flag === '--out') for (const file of zooms) features(join(out, file));
      }
    });
  }

  test('a second signal ends the run at once, and still removes the directories it made', async () => {
    const parent = fresh('parent');
    mkdirSync(parent);
    const child = spawn(process.execPath, [CLI, 'cluster', bigCsv, '--out', join(parent, 'made', 'for', 'it'), '--progress']);
    let stderr = '';
    let sent = false;
    const ended = new Promise((resolve) => child.on('close', (code, sig) => resolve({ code, sig })));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (!sent && /wrote zoom 16/.test(stderr)) {
        sent = true;
        child.kill('SIGTERM');
        child.kill('SIGTERM');
      }
    });
    const { sig } = await ended;
    assert.ok(sent, `the run ended before writing began: ${stderr}`);
    assert.equal(sig, 'SIGTERM');
    const left = readdirSync(parent);
    // As in the tests above, a run may finish before the signals come: then it is complete.
    if (left.length > 0) assert.equal(readdirSync(join(parent, 'made', 'for', 'it')).length, 17, `left: ${left}`);
  });
});
