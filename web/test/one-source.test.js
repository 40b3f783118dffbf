// One source of truth: the engine owns every default and rule of map behaviour, and the
// JavaScript over it (web/src/engine, map, render and the host-map layers) must not write them
// again. The engine's distinctive defaults are read from the module (the default pin's size,
// the camera limits) and looked for as number literals in the code (comments aside); so are the
// ground anchor written as a point, settings with defaults, and the key policy (modifier keys
// read anywhere but MapEngine.modifiers, which only encodes them).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { init } from '../src/index.js';
import { SETTINGS } from '../src/engine/ui-settings.js';

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
