// What a run says about input it cannot read (web/src/cli/read: input.js telling the format,
// the readers' messages): in the words of the format it has, on one line a person can read.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { init } from '../../../src/index.js';
import { formatOf } from '../../../src/cli/read/input.js';
import { mulberry32 } from '../../../bench/generate.js';
import { cairnHere } from '../../support/cli-run.js';

let work = '';
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-input-test-'));
  await init();
});
after(() => rmSync(work, { recursive: true, force: true }));

/** Runs `cairn cluster` on a file of that name and content, to standard output. */
async function run(name, content, extra = []) {
  const path = join(work, name);
  writeFileSync(path, content);
  return cairnHere(['cluster', path, '--zoom', '0', ...extra]);
}

test('an empty or blank GeoJSON file is empty GeoJSON, not CSV without a header', async () => {
  for (const [name, content, problem] of [
    ['empty.geojson', '', 'line 1: the input is empty'],
    ['blank.geojson', '  \n\t\r\n ', 'line 3: the input is white space only'],
    ['empty.json', '', 'line 1: the input is empty'],
    ['bom.geojson', '\ufeff', 'line 1: the input is empty'],
  ]) {
    const r = await run(name, content);
    assert.equal(r.code, 1, name);
    assert.equal(r.stderr, `cairn: ${join(work, name)}: ${problem}\n`, name);
  }
  // Standard input whose format nothing tells: empty, in no format's words.
  const stdin = await cairnHere(['cluster', '-', '--zoom', '0'], { input: ' \n' });
  assert.equal(stdin.code, 1);
  assert.equal(stdin.stderr, 'cairn: stdin: line 2: the input is white space only\n');
  assert.equal(formatOf('points.geojson', Buffer.from(' \n'), true), 'geojson');
  assert.equal(formatOf('-', Buffer.alloc(0), true), 'geojson');
  // A CSV by name or by --format is still a CSV without its header; empty NDJSON is no points.
  assert.match((await run('empty.csv', '')).stderr, /empty\.csv: line 1: no header row \(the input is empty\)\n$/);
  assert.match((await cairnHere(['cluster', '-', '--zoom', '0', '--format', 'csv'], { input: '' })).stderr, /stdin: line 1: no header row/);
  const ndjson = await run('empty.ndjson', '\n\n');
  assert.equal(ndjson.code, 0, ndjson.stderr);
  assert.equal(JSON.parse(ndjson.stdout).features.length, 0);
  // Text that opens like JSON is still told by its first line.
  assert.equal(formatOf('-', Buffer.from('{"type":"Feature"}\n'), false), 'ndjson');
  assert.equal(formatOf('-', Buffer.from('lng,lat\n'), true), 'csv');
});

/** Bytes that are not text: no line feeds (one "line" of all of it), and no quotes or commas. */
function binary(n, seed) {
  const random = mulberry32(seed);
  return Buffer.from(Array.from({ length: n }, (_, i) => {
    const b = Math.floor(random() * 256);
    // Letters at the ends, which a CSV header name is trimmed at.
    if (i === 0 || i === n - 1) return 0x41;
    return b === 0x0a || b === 0x22 || b === 0x2c || b === 0x7b || b === 0x5b ? 0x01 : b;
  }));
}

/** A run's error: one short line, saying how long the text it cut was. */
function cutShort(r, length, label) {
  assert.equal(r.code, 1, label);
  assert.equal(r.stderr.split('\n').length, 2, `${label}: one line`);
  assert.ok(r.stderr.length < 400, `${label}: ${r.stderr.length} characters: ${r.stderr.slice(0, 400)}`);
  assert.match(r.stderr, new RegExp(`… \\(${length.toLocaleString('en-US')} characters\\)`), label);
  // Control characters are escaped, never written to a terminal as they are.
  assert.doesNotMatch(r.stderr.slice(0, -1), /[\x00-\x08\x0b-\x1f\x7f]/, label);
}

test('binary input and long fields are cut in messages, which say how long they were', async () => {
  const bytes = binary(100_000, 5);
  const blob = await run('blob.dat', bytes);
  cutShort(blob, bytes.toString('utf8').length, 'binary as CSV');
  assert.match(blob.stderr, /: line 1: no longitude column \(looked for lng, lon, longitude; name it with --lng-column\); the header has "/);
  // A header of many columns names the first few.
  const wide = await run('wide.csv', `${Array.from({ length: 5000 }, (_, i) => `c${i}`).join(',')}\n`);
  assert.equal(wide.code, 1);
  assert.match(wide.stderr, /the header has "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", … \(5,000 columns\)\n$/);
  assert.ok(wide.stderr.length < 400, wide.stderr);
  const field = 'x'.repeat(100_000);
  cutShort(await run('long.csv', `lng,lat\n${field},1\n`), 100_000, 'a long CSV field');
  cutShort(await run('long-lat.csv', `lng,lat\n1,${field}\n`, ['--skip-invalid']).then(async (r) => {
    // Skipped, the record is quoted in the note as short.
    assert.equal(r.code, 0);
    assert.ok(r.stderr.length < 400, r.stderr);
    return run('long-lat.csv', `lng,lat\n1,${field}\n`);
  }), 100_000, 'a long latitude');
  cutShort(await run('long-column.csv', 'lng,lat\n1,2\n', ['--aggregate', `sum:${field}`]), 100_000, 'a long column name asked for');
  const feature = (geometry, type = 'Feature') => JSON.stringify({ type, properties: {}, geometry });
  cutShort(await run('type.ndjson', `${feature({ type: field, coordinates: [1, 2] })}\n`), 100_000, 'a long geometry type');
  cutShort(await run('ftype.ndjson', `${feature({ type: 'Point', coordinates: [1, 2] }, field)}\n`), 100_000, 'a long feature type');
  cutShort(await run('lng.ndjson', `${feature({ type: 'Point', coordinates: [field, 2] })}\n`), 100_000, 'a long longitude');
  cutShort(await run('lngs.ndjson', `${feature({ type: 'Point', coordinates: [Array(30_000).fill(1), 2] })}\n`), 60_001, 'an array as the longitude');
  cutShort(await run('doc.geojson', `{"type":${JSON.stringify(field)},"features":[]}`), 100_000, 'a long collection type');
  cutShort(await run('key.geojson', `{${JSON.stringify(field)} 1}`), 100_000, 'a long member name');
  // Malformed JSON: the parser's own message, with the input's control characters escaped.
  const junk = await run('junk.ndjson', Buffer.concat([Buffer.from('{"a":'), bytes, Buffer.from('\n')]));
  assert.equal(junk.code, 1);
  assert.ok(junk.stderr.length < 400, junk.stderr);
  assert.doesNotMatch(junk.stderr.slice(0, -1), /[\x00-\x08\x0b-\x1f\x7f]/);
});

test('a value nested deeper than a run can copy is an invalid record, named by its line', async () => {
  const nested = (depth) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  const line = (value) => `{"type":"Feature","properties":{"a":${value}},"geometry":{"type":"Point","coordinates":[1,2]}}`;
  const deep = `${line('"x"')}\n${line(nested(5000))}\n`;
  const r = await run('deep.ndjson', deep, ['--properties', 'a']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, `cairn: ${join(work, 'deep.ndjson')}: line 2: property a is nested more than 1,000 levels deep\n`);
  const skipped = await run('deep.ndjson', deep, ['--properties', 'a', '--skip-invalid']);
  assert.equal(skipped.code, 0, skipped.stderr);
  assert.equal(JSON.parse(skipped.stdout).features.length, 1);
  assert.match(skipped.stderr, /skipped 1 invalid record \(line 2: property a is nested more than 1,000 levels deep\)/);
  const collection = await run('deep.geojson', `{"type":"FeatureCollection","features":[${line(nested(5000))}]}`, ['--properties', 'a']);
  assert.match(collection.stderr, /deep\.geojson: feature 0 \(line 1\): property a is nested more than 1,000 levels deep\n$/);
  // Not carried, the property is not read; at 1,000 levels it is carried, to GeoJSON and to tiles.
  assert.equal((await run('deep.ndjson', deep)).code, 0);
  const deepest = await run('deepest.ndjson', `${line(nested(1000))}\n`, ['--properties', 'a']);
  assert.equal(deepest.code, 0, deepest.stderr);
  assert.equal(JSON.stringify(JSON.parse(deepest.stdout).features[0].properties.a), nested(1000));
  const tiles = join(work, 'deep-tiles');
  const tiled = await cairnHere(['cluster', join(work, 'deepest.ndjson'), '--properties', 'a', '--tiles', tiles, '--max-zoom', '0']);
  assert.equal(tiled.code, 0, tiled.stderr);
  // A coordinate nested that deep is no number, said without writing it out.
  const coordinate = await run('deep-lng.ndjson', `{"type":"Feature","geometry":{"type":"Point","coordinates":[${nested(5000)},2]}}\n`);
  assert.match(coordinate.stderr, /line 1: longitude \[… \(nested too deeply to write out\) is not a number\n$/);
});
