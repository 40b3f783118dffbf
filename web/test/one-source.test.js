// One source of truth: the engine owns every default and rule of map behaviour, and the
// JavaScript over it (web/src/engine, map, render and the host-map layers) must not write them
// again. The engine's distinctive defaults are read from the module (the default pin's size,
// the camera limits) and looked for as number literals in the code (comments aside); so are the
// ground anchor written as a point, settings with defaults, and the key policy (modifier keys
// read anywhere but MapEngine.modifiers, which only encodes them), and Web Mercator written out
// anywhere in web/src.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { init } from '../src/index.js';
import { SETTINGS } from '../src/engine/ui-settings.js';
import * as mercator from '../src/core/mercator.js';

const src = fileURLToPath(new URL('../src/', import.meta.url));

/** @type {import('../src/core/wasm.js').CairnModule} */
let mod;
before(async () => { mod = await init(); });

/** Every .js file under the folders of web/src, as [path, code without comments]. */
function sources(folders) {
  return folders.flatMap((folder) => readdirSync(src + folder, { recursive: true }).map(String)
    .filter((f) => f.endsWith('.js')).map((f) => [`${folder}/${f}`, withoutComments(readFileSync(`${src}${folder}/${f}`, 'utf8'))]));
}

/** The code with its comments blanked (a `//` inside a string ends the line's code early: that only scans less). */
function withoutComments(code) {
  return code.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/[^\n]*/g, '');
}

/** Where a number literal of `values` is written: 'path:line: text'. */
function numbersIn(files, values) {
  const found = [];
  for (const [path, code] of files) {
    code.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(/(?<![\w.$])(\d+(?:\.\d+)?)(?![\w.])/g)) {
        if (values.includes(Number(m[1]))) found.push(`${path}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  return found;
}

/** Where a pattern is written. */
function patternIn(files, pattern) {
  return files.flatMap(([path, code]) => code.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])));
}

/** What the engine says, through its exports alone. */
function engineDefaults() {
  const fn = mod.fn;
  const out = fn.cairn_alloc(64) >>> 0;
  const h = fn.cairn_map_create(0, 0, 3, NaN, NaN, 800, 600);
  try {
    const v = () => new Float64Array(mod.memory.buffer, out, 4);
    assert.equal(fn.cairn_map_pin_size(out), 0);
    const [pinWidth, pinHeight] = v();
    assert.equal(fn.cairn_map_limits(h, out), 0);
    const [, maxZoom, maxTilt, maxTileZoom] = v();
    return { pin: [pinWidth, pinHeight], limits: [maxZoom, maxTilt, maxTileZoom] };
  } finally {
    fn.cairn_map_destroy(h);
    fn.cairn_free(out);
  }
}

test('the check finds each kind of re-declared default', () => {
  const files = [['x.js', withoutComments('const PIN = { width: 27, height: 43 }; // 60\nlimit(22); /* 22 */ a = 2.27;\n' +
    'if (e.ctrlKey || e.altKey) return;\nconst anchor = { x: 0.5, y: 1 };')]];
  const lines = (found) => found.map((f) => f.split(':')[1]);
  assert.deepEqual(lines(numbersIn(files, [27, 43])), ['1', '1']);
  assert.deepEqual(lines(numbersIn(files, [60, 22, 27])), ['1', '2'], 'not in comments, not inside 2.27');
  assert.equal(patternIn(files, /\.(?:ctrlKey|altKey|metaKey)\b/).length, 1);
  assert.equal(patternIn(files, /\{\s*x:\s*0\.5,\s*y:\s*1\s*\}/).length, 1);
});

test('no layer over the engine writes the default pin\'s size, the camera limits or the ground anchor', () => {
  const { pin, limits } = engineDefaults();
  assert.deepEqual(pin, [27, 43], 'the engine\'s (Google\'s) pin');
  assert.deepEqual(limits, [22, 60, 22], 'the engine\'s (Google\'s) limits');
  const over = sources(['engine', 'map', 'render', 'leaflet', 'maplibre'].filter((f) => readdirSync(src).includes(f)));
  assert.deepEqual(numbersIn(over, pin), [], 'the pin\'s size comes from the module (MapEngine.pinSize)');
  // Tile sources have zoom ranges of their own (render/basemap); the map's camera does not.
  const camera = over.filter(([path]) => !path.startsWith('render/basemap/'));
  assert.deepEqual(numbersIn(camera, limits), [], 'limits left out are the engine\'s to fill');
  assert.deepEqual(patternIn(over, /\{\s*x:\s*0\.5,\s*y:\s*1\s*\}/), [], 'the ground anchor is the engine\'s default and in each draw record');
});

test('the key policy and the settings\' defaults are the engine\'s', () => {
  const map = sources(['map']);
  assert.deepEqual(patternIn(map, /\.(?:ctrlKey|altKey|metaKey)\b/), [], 'modifiers are encoded by MapEngine.modifiers; the engine decides');
  assert.ok(SETTINGS.every((s) => typeof s === 'string'), 'the settings table names the bits, nothing more');
});

/** The cluster managers' defaults, through the module's export alone (`cairn_cluster_defaults`). */
function clusterDefaults() {
  const fn = mod.fn;
  const out = fn.cairn_alloc(8 * 64) >>> 0;
  try {
    const n = fn.cairn_cluster_defaults(out, 64);
    assert.ok(n > 7 && n <= 64);
    const v = Array.from(new Float64Array(mod.memory.buffer, out, n));
    const count = v[6];
    return { options: v.slice(0, 5), labelFontSize: v[5], buckets: v.slice(7, 7 + count), colors: v.slice(7 + count, 7 + 2 * count) };
  } finally {
    fn.cairn_free(out);
  }
}

test('cluster icons and manager defaults are the engine\'s: no colour, bucket list, diameter rule or default option in JS', () => {
  const d = clusterDefaults();
  assert.deepEqual(d.options, [0, 4, 20, 40, 1], 'hierarchical, minimumClusterSize 4, maximumClusterZoom 20, radius 40, animated');
  assert.equal(d.labelFontSize, 14, 'Google\'s label font');
  assert.deepEqual(d.buckets, [10, 50, 100, 200, 1000]);
  assert.deepEqual(d.colors, [0x0099cc, 0x669900, 0xff8800, 0xcc0000, 0x9933cc]);
  const over = sources(['engine', 'map', 'render', 'leaflet', 'maplibre'].filter((f) => readdirSync(src).includes(f)));
  // The colours, as '#rrggbb' or 0xRRGGBB.
  for (const c of d.colors) {
    const hex = c.toString(16).padStart(6, '0');
    assert.deepEqual(patternIn(over, new RegExp(`(?:#|0x)${hex}\\b`, 'i')), [], `colour #${hex} comes from the draw records`);
  }
  // The bucket list, written as a list.
  assert.deepEqual(patternIn(over, new RegExp(`\\[\\s*${d.buckets.join('\\s*,\\s*')}\\s*\\]`)), [], 'the buckets come from the engine');
  // A diameter or size worked out from a bucket (the engine's ClusterIconBuckets.diameter).
  assert.deepEqual(patternIn(over, /\d\s*[*+-]\s*\(?\s*(?:bucket|item\.icon)\b|\b(?:bucket|item\.icon)\s*\)?\s*[*+]\s*\d/), [],
    'a cluster\'s diameter is in its draw record');
  // An option left out filled in with a number or name of the engine's defaults.
  const defaults = [4, 20, 40].join('|');
  // (Tile sources have options of their own.)
  const managers = over.filter(([path]) => !path.startsWith('render/basemap/'));
  assert.deepEqual(patternIn(managers, new RegExp(`(?:undefined\\s*\\?|\\?\\?)\\s*(?:(?:${defaults})\\b|'hierarchical')`)), [],
    'options left out take cairn_cluster_defaults');
  // The label font's size.
  assert.deepEqual(numbersIn(sources(['render', 'map']).map(([p, code]) => [p, code.replace(/boxH = \d+/g, '')]), [d.labelFontSize])
    .filter((line) => /font|px/.test(line)), [], 'the label font size is the engine\'s');
});

test('the check finds cluster icon rules written in JS', () => {
  const files = [['x.js', withoutComments("const C = ['#0099CC'];\nconst B = [10, 50, 100, 200, 1000];\n" +
    'diameter: 30 + 4 * (bucket + 1),\nconst m = o.minimumClusterSize === undefined ? 4 : o.m;\nconst a = o.algorithm ?? \'hierarchical\';')]];
  assert.equal(patternIn(files, /(?:#|0x)0099cc\b/i).length, 1);
  assert.equal(patternIn(files, /\[\s*10\s*,\s*50\s*,\s*100\s*,\s*200\s*,\s*1000\s*\]/).length, 1);
  assert.equal(patternIn(files, /\d\s*[*+-]\s*\(?\s*(?:bucket|item\.icon)\b|\b(?:bucket|item\.icon)\s*\)?\s*[*+]\s*\d/).length, 1);
  assert.equal(patternIn(files, /(?:undefined\s*\?|\?\?)\s*(?:(?:4|20|40)\b|'hierarchical')/).length, 2);
});

/** Web Mercator written out: its forward and inverse formulas, in the shapes they take. */
const MERCATOR = /Math\.(?:sinh|atan)\(|Math\.log\(\s*Math\.tan\(|Math\.log\(\s*\(\s*1\s*\+\s*\w+\s*\)\s*\/\s*\(\s*1\s*-|\/\s*360\s*\+\s*0\.5|\+\s*180\s*\)\s*\/\s*360/;

test('no JavaScript writes Web Mercator: it asks the engine (core/mercator.js)', () => {
  const all = sources(readdirSync(src, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name));
  assert.ok(all.length > 50);
  assert.deepEqual(patternIn(all, MERCATOR), [], 'project with core/mercator.js, which calls the module');
  const { mercatorX, mercatorY, latitudeAt, maxLatitude } = mercator;
  assert.equal(mercatorX(-180), 0);
  assert.equal(mercatorY(0), 0.5);
  assert.ok(Math.abs(latitudeAt(mercatorY(48.8566)) - 48.8566) < 1e-12);
  assert.equal(mercatorY(maxLatitude() + 1), 0);
});

test('the check finds Web Mercator written in JS', () => {
  const files = [['x.js', withoutComments('const y = (1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2;\n' +
    'return (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;\nconst x = (lng + 180) / 360;\n' +
    'const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;\nconst x = (records[i] / 360 + 0.5) * n;\nMath.atan2(dy, dx);')]];
  assert.equal(patternIn(files, MERCATOR).length, 5);
});
