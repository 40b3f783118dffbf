// The folders of web/src are layers, and imports go one way between them:
//
//   core    module loading and binding, errors, argument checks: imports only core
//   index   ClusterIndex: core
//   engine  MapEngine and its cluster managers, no DOM: core
//   render  draws a frame on a canvas: core
//   map     CairnMap, the page's map: engine, render, core
//   hosts   Cairn as a layer of another map library (Leaflet, MapLibre): map, engine, render, core
//   cli     the cairn command: index, core
//   index.js, leaflet.js and maplibre.js (the package's entry points) may import anything.
//
// Every module path a file names counts: `import … from`, `export … from`, `import '…'`,
// `import('…')` (JSDoc type imports too: a type is knowledge of the module it comes from) and
// `new URL('…', import.meta.url)`. A relative module path must also name a file that exists;
// Node's own modules (`node:…`) are for the command line and the module loader only. Below the
// map and the renderer no file touches the DOM: core, index and engine run in Node as they
// run in a page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { posix } from 'node:path';

/** What each layer may import, besides itself. */
const ALLOWED = Object.freeze({
  core: [],
  index: ['core'],
  engine: ['core'],
  render: ['core'],
  map: ['engine', 'render', 'core'],
  hosts: ['map', 'engine', 'render', 'core'],
  cli: ['index', 'core'],
});

/** The layers that may use Node's own modules. */
const NODE_LAYERS = Object.freeze(['core', 'cli']);

/** The layers that hold no DOM: nothing here may use the page or a canvas. */
const NO_DOM = Object.freeze(['core', 'index', 'engine']);

/** What touches the DOM: the page's globals, and the types of elements, canvases and images. */
const DOM = /\b(?:document|window)(?=\.\w)|\b(?:HTML\w*Element|CanvasRenderingContext2D|CanvasImageSource|ImageBitmap|OffscreenCanvas|requestAnimationFrame|ResizeObserver|getComputedStyle)\b/g;

/** Module paths: the quoted path is group 1 (with `new URL`, only against import.meta.url). */
const MODULE_PATHS = [
  /\bfrom\s*(['"])([^'"\n]+)\1/g,
  /\bimport\s*(['"])([^'"\n]+)\1/g,
  /\bimport\s*\(\s*(['"])([^'"\n]+)\1/g,
  /\bnew\s+URL\(\s*(['"])([^'"\n]+)\1\s*,\s*import\.meta\.url/g,
];

/**
 * The layer of a file of web/src (a path relative to it): its top folder, or 'entry' for a
 * file at the top.
 * @param {string} path
 */
function layerOf(path) {
  const slash = path.indexOf('/');
  return slash < 0 ? 'entry' : path.slice(0, slash);
}

/**
 * Every module path a source text names, with its line.
 * @param {string} text
 * @returns {{spec: string, line: number}[]}
 */
export function modulePaths(text) {
  const found = [];
  for (const pattern of MODULE_PATHS) {
    for (const m of text.matchAll(pattern)) {
      found.push({ spec: m[2], line: text.slice(0, m.index).split('\n').length, at: m.index });
    }
  }
  return found.sort((a, b) => a.at - b.at).map(({ spec, line }) => ({ spec, line }));
}

/**
 * The imports that go the wrong way between layers, or name no file.
 * @param {Map<string, string>} sources  text by path relative to web/src ('/'-separated)
 * @param {(path: string) => boolean} exists  whether a path relative to web/src names a file
 * @returns {string[]}  one line per problem, naming the file, the line and the import
 */
export function layerProblems(sources, exists) {
  const problems = [];
  for (const [path, text] of sources) {
    const from = layerOf(path);
    if (NO_DOM.includes(from)) {
      for (const m of text.matchAll(DOM)) {
        problems.push(`${path}:${text.slice(0, m.index).split('\n').length} uses '${m[0]}': ${NO_DOM.join(', ')} hold no DOM`);
      }
    }
    for (const { spec, line } of modulePaths(text)) {
      const where = `${path}:${line} imports '${spec}'`;
      if (spec.startsWith('node:')) {
        if (from !== 'entry' && !NODE_LAYERS.includes(from)) problems.push(`${where}: only ${NODE_LAYERS.join(' and ')} use Node's modules`);
        continue;
      }
      if (!spec.startsWith('./') && !spec.startsWith('../')) {
        problems.push(`${where}: not a relative path (web/src has no dependencies)`);
        continue;
      }
      const target = posix.normalize(posix.join(posix.dirname(path), spec));
      if (target.startsWith('../')) {
        // Outside web/src: only data next to it (the built module, package.json), never code.
        if (target.endsWith('.js')) problems.push(`${where}: outside web/src`);
        continue;
      }
      if (!exists(target)) {
        problems.push(`${where}: no such file (${target})`);
        continue;
      }
      const to = layerOf(target);
      if (to === 'entry' && from !== 'entry') {
        problems.push(`${where}: only the entry point's users import index.js`);
      } else if (from !== 'entry' && to !== from && !ALLOWED[from]?.includes(to)) {
        problems.push(`${where}: ${from} may import ${[from, ...(ALLOWED[from] ?? [])].join(', ')}, not ${to}`);
      }
    }
  }
  return problems;
}

const src = new URL('../src/', import.meta.url);

test('imports in web/src go one way between its folders and name files that exist', () => {
  const sources = new Map(readdirSync(src, { recursive: true }).map(String)
    .filter((f) => f.endsWith('.js'))
    .map((f) => [f.split('\\').join('/'), readFileSync(new URL(f, src), 'utf8')]));
  assert.ok(sources.size > 40, `found only ${sources.size} files under web/src`);
  for (const layer of Object.keys(ALLOWED)) {
    assert.ok([...sources.keys()].some((f) => layerOf(f) === layer), `no files in web/src/${layer}`);
  }
  const problems = layerProblems(sources, (path) => existsSync(fileURLToPath(new URL(path, src))));
  assert.deepEqual(problems, [], `imports against the layers:\n${problems.join('\n')}`);
});

test('the check finds each kind of wrong import', () => {
  const files = new Map([
    ['core/a.js', "import { b } from '../engine/b.js';\nexport { c } from './c.js';"],
    ['engine/b.js', "/** @typedef {import('../map/m.js').M} M */\nconst { x } = await import('../render/r.js');\nconst c = document.createElement('canvas');"],
    ['render/r.js', "import '../core/missing.js';\nconst u = new URL('../index/i.js', import.meta.url);\nimport { y } from 'lodash';"],
    ['map/m.js', "import { b } from '../engine/b.js';\nimport { r } from '../render/r.js';\nimport { i } from '../index.js';"],
    ['index/i.js', "import { readFile } from 'node:fs';\nconst data = new URL('../../dist/cairn.wasm', import.meta.url);"],
    ['cli/main.js', "import { i } from '../index/i.js';\nimport { m } from '../map/m.js';\nimport { s } from 'node:fs';"],
    ['index.js', "export { M } from './map/m.js';\nexport { I } from './index/i.js';"],
  ]);
  const present = new Set([...files.keys(), 'core/c.js']);
  assert.deepEqual(layerProblems(files, (path) => present.has(path)), [
    "core/a.js:1 imports '../engine/b.js': core may import core, not engine",
    "engine/b.js:3 uses 'document': core, index, engine hold no DOM",
    "engine/b.js:1 imports '../map/m.js': engine may import engine, core, not map",
    "engine/b.js:2 imports '../render/r.js': engine may import engine, core, not render",
    "render/r.js:1 imports '../core/missing.js': no such file (core/missing.js)",
    "render/r.js:2 imports '../index/i.js': render may import render, core, not index",
    "render/r.js:3 imports 'lodash': not a relative path (web/src has no dependencies)",
    "map/m.js:3 imports '../index.js': only the entry point's users import index.js",
    "index/i.js:1 imports 'node:fs': only core and cli use Node's modules",
    "cli/main.js:2 imports '../map/m.js': cli may import cli, index, core, not map",
  ]);
});
