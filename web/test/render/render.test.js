// The renderer's pure parts, in Node: info window layout with a fake measure (features I1, I2, I5,
// I9), tile URLs, the graticule, the LRU cache, tile keys and ancestor lookup, the quad maths,
// the tile request queue and the raster source's request discipline, pin sizes at the engine's
// size (M2, V1) and colour maths. The drawing itself is checked in a browser.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { layoutInfoWindow, wrapText, fitLine, INFO_WINDOW, ELLIPSIS } from '../../src/render/info-window.js';
import { tileUrl, graticuleStep, formatDegrees, tileKey, RasterTileSource, OfflineTileSource, mercatorY } from '../../src/render/basemap/tile-source.js';
import { paintGraticule } from '../../src/render/basemap/offline-tile-source.js';
import { LRU, cacheCapacity } from '../../src/render/lru.js';
import { pinSize } from '../../src/render/pin.js';
import { init, MapEngine } from '../../src/index.js';
import { findTileImage, emptyPatch } from '../../src/render/basemap/tile-pyramid.js';
import { affineFromTriangles, growTriangle, isParallelogram, parallelogramTransform } from '../../src/render/quad.js';
import { TileQueue } from '../../src/render/basemap/tile-queue.js';
import { parseColor, darken, cssColor, withAlpha } from '../../src/render/color.js';

/** 7 px per character, 8 in bold (counting code points, as a browser would for these). */
// The offline basemap projects through the module.
before(async () => { await init(); });

const measure = (text, bold) => Array.from(text).length * (bold ? 8 : 7);
const P = INFO_WINDOW.padding;
const SNIPPET_CHARS = Math.floor(INFO_WINDOW.maxWidth / 7); // 34

// ── info window ─────────────────────────────────────────────────────────────────────────────

test('I1: title and snippet: bold title first, sizes from the text, padding and tail', () => {
  const l = layoutInfoWindow(measure, 'Sydney', 'Population: 4,627,345');
  assert.deepEqual(l.lines.map((x) => [x.text, x.bold]), [['Sydney', true], ['Population: 4,627,345', false]]);
  assert.equal(l.width, 21 * 7 + 2 * P);
  assert.equal(l.height, P + INFO_WINDOW.titleLineHeight + INFO_WINDOW.gap + INFO_WINDOW.snippetLineHeight + P + INFO_WINDOW.tail);
  assert.ok(l.lines[0].y < l.lines[1].y);
  assert.ok(l.lines[1].y + INFO_WINDOW.snippetLineHeight / 2 <= l.height - INFO_WINDOW.tail - P);
});

test('I2-like: only a title, only a snippet, neither', () => {
  const title = layoutInfoWindow(measure, 'Only a title', '');
  assert.deepEqual(title.lines.map((x) => x.bold), [true]);
  assert.equal(title.height, P + INFO_WINDOW.titleLineHeight + P + INFO_WINDOW.tail);
  assert.equal(title.width, 12 * 8 + 2 * P);

  const snippet = layoutInfoWindow(measure, '   ', 'Only a snippet');
  assert.deepEqual(snippet.lines.map((x) => [x.text, x.bold]), [['Only a snippet', false]]);
  assert.equal(snippet.height, P + INFO_WINDOW.snippetLineHeight + P + INFO_WINDOW.tail);
  assert.equal(snippet.lines[0].y, P + INFO_WINDOW.snippetLineHeight / 2);

  const none = layoutInfoWindow(measure, '', '');
  assert.deepEqual(none.lines, []);
  assert.equal(none.height, 2 * P + INFO_WINDOW.tail);
  // Still wide enough for the tail between the rounded corners.
  assert.equal(none.width, 2 * (INFO_WINDOW.radius + INFO_WINDOW.tailHalfWidth));
});

test('I5: a long title stays on one line, cut with an ellipsis within the width', () => {
  const title = 'A very long title that goes on and on well past the edge of the window';
  const l = layoutInfoWindow(measure, title, '');
  assert.equal(l.lines.length, 1);
  const text = l.lines[0].text;
  assert.ok(text.endsWith(ELLIPSIS), text);
  assert.ok(measure(text, true) <= INFO_WINDOW.maxWidth);
  assert.ok(title.startsWith(text.slice(0, -1)));
  // As long as fits: one more character would not.
  assert.ok(measure(title.slice(0, text.length) + ELLIPSIS, true) > INFO_WINDOW.maxWidth);
  assert.equal(l.width, INFO_WINDOW.maxWidth + 2 * P);
});

test('I5: a snippet wraps at word boundaries, every line within the width, no word lost', () => {
  const words = 'the quick brown fox jumps over the lazy dog while the cat sleeps by the warm fire';
  const lines = wrapText(measure, words, false, INFO_WINDOW.maxWidth, 4);
  assert.ok(lines.length > 1);
  for (const line of lines) {
    assert.ok(measure(line, false) <= INFO_WINDOW.maxWidth, line);
    assert.equal(line, line.trim());
  }
  assert.equal(lines.join(' '), words);
  // Greedy: the next line's first word would not have fitted on the line before.
  for (let i = 1; i < lines.length; i++) {
    assert.ok(measure(lines[i - 1] + ' ' + lines[i].split(' ')[0], false) > INFO_WINDOW.maxWidth);
  }
});

test('I5: a word longer than a line is broken between characters', () => {
  const word = 'x'.repeat(80);
  const lines = wrapText(measure, `ab ${word} cd`, false, INFO_WINDOW.maxWidth, 10);
  assert.deepEqual(lines, ['ab', 'x'.repeat(SNIPPET_CHARS), 'x'.repeat(SNIPPET_CHARS), 'x'.repeat(80 - 2 * SNIPPET_CHARS) + ' cd']);
});

test('I5: more than four lines: four, the last ending with an ellipsis', () => {
  const snippet = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
  const l = layoutInfoWindow(measure, 'T', snippet);
  const body = l.lines.filter((x) => !x.bold);
  assert.equal(body.length, INFO_WINDOW.maxLines);
  const last = body[3].text;
  assert.ok(last.endsWith(ELLIPSIS), last);
  assert.ok(measure(last, false) <= INFO_WINDOW.maxWidth);
  assert.ok(!body.slice(0, 3).some((x) => x.text.includes(ELLIPSIS)));
  assert.equal(l.height, P + INFO_WINDOW.titleLineHeight + INFO_WINDOW.gap + 4 * INFO_WINDOW.snippetLineHeight + P + INFO_WINDOW.tail);
  // Exactly four lines' worth is not cut.
  const four = wrapText(measure, 'a\nb\nc\nd', false, 240, 4);
  assert.deepEqual(four, ['a', 'b', 'c', 'd']);
  assert.deepEqual(wrapText(measure, 'a\nb\nc\nd\ne', false, 240, 4), ['a', 'b', 'c', `d${ELLIPSIS}`]);
});

test('snippet line breaks are kept, runs of spaces collapse; the title is one line', () => {
  assert.deepEqual(wrapText(measure, 'one   two\n\nthree', false, 240, 4), ['one two', '', 'three']);
  const l = layoutInfoWindow(measure, 'two\nlines', '');
  assert.deepEqual(l.lines.map((x) => x.text), ['two lines']);
});

test('I9: markup is text: measured and kept character for character', () => {
  const l = layoutInfoWindow(measure, '<b>bold?</b>', '<script>alert(1)</script> &amp;');
  assert.equal(l.lines[0].text, '<b>bold?</b>');
  assert.equal(l.lines[1].text, '<script>alert(1)</script> &amp;');
});

test('ellipsis and breaking never split a surrogate pair', () => {
  const emoji = '\u{1F600}'.repeat(50);
  const cut = fitLine(measure, emoji, false, 70);
  assert.equal(cut, '\u{1F600}'.repeat(9) + ELLIPSIS);
  for (const line of wrapText(measure, emoji, false, 70, 10)) {
    assert.ok(!/[\uD800-\uDBFF]$/.test(line) && !/^[\uDC00-\uDFFF]/.test(line));
  }
});

test('a custom width and padding are honoured', () => {
  const l = layoutInfoWindow(measure, '', 'aaaa bbbb cccc', { maxWidth: 70, padding: 4, maxLines: 2 });
  assert.deepEqual(l.lines.map((x) => x.text), ['aaaa bbbb', 'cccc']);
  assert.equal(l.padding, 4);
  assert.equal(l.width, 63 + 8);
});

// ── tiles ───────────────────────────────────────────────────────────────────────────────────

test('tileUrl fills z, x, y, -y and r', () => {
  assert.equal(tileUrl('https://t/{z}/{x}/{y}{r}.png', 3, 5, 2), 'https://t/3/5/2.png');
  assert.equal(tileUrl('https://t/{z}/{x}/{y}{r}.png', 3, 5, 2, { retina: true }), 'https://t/3/5/2@2x.png');
  assert.equal(tileUrl('{z}/{x}/{-y}', 3, 5, 2), '3/5/5');
  assert.equal(tileUrl('{z}/{x}/{y}/{unknown}', 1, 0, 1), '1/0/1/{unknown}');
});

test('tileUrl {s}: the same tile always gets the same subdomain, neighbours get others, all are used', () => {
  const s = (x, y, subdomains) => tileUrl('{s}', 4, x, y, { subdomains });
  assert.equal(s(3, 7), s(3, 7));
  assert.notEqual(s(3, 7), s(4, 7));
  assert.notEqual(s(3, 7), s(3, 8));
  const used = new Set();
  for (let x = 0; x < 6; x++) used.add(s(x, 0, ['t1', 't2', 't3', 't4']));
  assert.deepEqual([...used].sort(), ['t1', 't2', 't3', 't4']);
  assert.ok(['a', 'b', 'c'].includes(s(1, 1)));
  assert.equal(tileUrl('x{s}x', 0, 0, 0, { subdomains: '' }), 'xx');
});

test('graticule labels of a tile row never run into each other, zoomed right out too', () => {
  // A context that records the labels, 6 px a character (the 10-px label font is about that).
  for (const z of [0, 1, 2, 5]) {
    /** @type {{text: string, x: number, y: number}[]} */
    const labels = [];
    const ctx = /** @type {any} */ ({ beginPath() {}, moveTo() {}, lineTo() {}, stroke() {},
      measureText: (/** @type {string} */ text) => ({ width: 6 * text.length }),
      fillText: (/** @type {string} */ text, /** @type {number} */ x, /** @type {number} */ y) => { labels.push({ text, x, y }); } });
    paintGraticule(ctx, z, 0, 0);
    const row = labels.filter((l) => l.y === 3).sort((a, b) => a.x - b.x);
    assert.ok(row.length >= (z === 0 ? 4 : 1), `zoom ${z}: ${row.length} longitude labels`);
    for (let i = 1; i < row.length; i++) {
      assert.ok(row[i].x >= row[i - 1].x + 6 * row[i - 1].text.length, `zoom ${z}: ${row[i - 1].text} runs into ${row[i].text}`);
    }
  }
});

test('graticule labels turned half round stay in their boxes, drawn turned about the centre', () => {
  /** @type {any[]} */
  const calls = [];
  const ctx = /** @type {any} */ ({ beginPath() {}, moveTo() {}, lineTo() {}, stroke() {},
    measureText: (/** @type {string} */ text) => ({ width: 6 * text.length }),
    save: () => calls.push(['save']), restore: () => calls.push(['restore']),
    translate: (/** @type {number} */ x, /** @type {number} */ y) => calls.push(['translate', x, y]),
    rotate: (/** @type {number} */ a) => calls.push(['rotate', a]),
    fillText: (/** @type {string} */ text, /** @type {number} */ x, /** @type {number} */ y) => calls.push(['fillText', text, x, y]) });
  paintGraticule(ctx, 0, 0, 0, true);
  const texts = calls.filter((c) => c[0] === 'fillText');
  assert.ok(texts.length > 4);
  for (let i = 0; i < calls.length; i++) {
    if (calls[i][0] !== 'fillText') continue;
    const [, text, x, y] = calls[i];
    const [, cx, cy] = calls[i - 2];
    assert.deepEqual(calls[i - 1], ['rotate', Math.PI], text);
    // Drawn from the box's centre back by half its size: the same box, turned.
    assert.equal(x, -3 * text.length);
    assert.equal(y, -6);
    assert.ok(cx - 3 * text.length >= 0 && cx + 3 * text.length <= 256 && cy - 6 >= 0 && cy + 6 <= 256, `${text} inside the tile`);
  }
});

test('graticuleStep: 30 degrees zoomed out, finer as the zoom grows, never coarser, lines 96 px apart', () => {
  assert.equal(graticuleStep(0), 30);
  assert.equal(graticuleStep(3), 30);
  assert.equal(graticuleStep(4), 10);
  assert.equal(graticuleStep(6), 5);
  assert.equal(graticuleStep(8), 1);
  let last = Infinity;
  for (let z = 0; z <= 22; z += 0.25) {
    const step = graticuleStep(z);
    assert.ok(step <= last, `zoom ${z}: ${step} after ${last}`);
    const spacing = (step * 256 * 2 ** z) / 360;
    if (step !== 30) assert.ok(spacing >= 96, `zoom ${z}: ${spacing}`);
    last = step;
  }
  assert.equal(graticuleStep(12), 0.05);
});

test('formatDegrees names the hemisphere and keeps the step\'s decimals', () => {
  assert.equal(formatDegrees(0, 30, 'lat'), '0°');
  assert.equal(formatDegrees(30, 30, 'lat'), '30°N');
  assert.equal(formatDegrees(-60, 30, 'lat'), '60°S');
  assert.equal(formatDegrees(-120, 30, 'lng'), '120°W');
  assert.equal(formatDegrees(180, 30, 'lng'), '180°');
  assert.equal(formatDegrees(0.25 * 3, 0.25, 'lng'), '0.75°E');
  assert.equal(formatDegrees(0.1 * 3, 0.1, 'lat'), '0.3°N');
});

test('mercatorY: the equator in the middle, the poles clamped to the edges', () => {
  assert.equal(mercatorY(0), 0.5);
  assert.ok(Math.abs(mercatorY(85.0511287798)) < 1e-9);
  assert.equal(mercatorY(89), mercatorY(90));
  assert.ok(mercatorY(45) < 0.5 && mercatorY(-45) > 0.5);
});

test('offline source: attribution only with land', () => {
  assert.equal(new OfflineTileSource().attribution, '');
  assert.equal(new OfflineTileSource({ land: [[[0, 0], [10, 0], [10, 10]]] }).attribution, 'Natural Earth (public domain)');
});

test('tileKey: a different number for every tile up to zoom 7, and exact at zoom 26', () => {
  const seen = new Set();
  for (let z = 0; z <= 7; z++) {
    for (let y = 0; y < 2 ** z; y++) for (let x = 0; x < 2 ** z; x++) seen.add(tileKey(z, x, y));
  }
  assert.equal(seen.size, (4 ** 8 - 1) / 3);
  const n = 2 ** 26;
  assert.ok(Number.isSafeInteger(tileKey(26, n - 1, n - 1)));
  assert.notEqual(tileKey(26, n - 1, n - 1), tileKey(26, n - 2, n - 1));
});

/** A source holding the listed tiles, recording requests. */
function fakeSource(have, maxZoom = 19) {
  const requests = [];
  return {
    attribution: '', maxZoom, requests,
    get: (z, x, y) => (have.includes(`${z}/${x}/${y}`) ? { z, x, y } : null),
    request: (z, x, y) => { requests.push(`${z}/${x}/${y}`); },
  };
}

test('findTileImage: the tile itself; else the nearest ancestor\'s matching quarter; it asks for the tile', () => {
  const patch = emptyPatch();
  const own = fakeSource(['5/10/12']);
  assert.ok(findTileImage(own, 5, 10, 12, patch));
  assert.deepEqual([patch.z, patch.sx, patch.sy, patch.size], [5, 0, 0, 1]);
  assert.deepEqual(own.requests, []);

  const parent = fakeSource(['4/5/6', '3/2/3']);
  assert.ok(findTileImage(parent, 5, 11, 12, patch));
  assert.deepEqual([patch.z, patch.sx, patch.sy, patch.size], [4, 0.5, 0, 0.5]);
  assert.deepEqual(parent.requests, ['5/11/12']);

  const grand = fakeSource(['3/2/3']);
  assert.ok(findTileImage(grand, 5, 11, 13, patch));
  assert.deepEqual([patch.z, patch.sx, patch.sy, patch.size], [3, 0.75, 0.25, 0.25]);

  const none = fakeSource([]);
  assert.equal(findTileImage(none, 2, 1, 1, patch), false);
  assert.equal(patch.image, null);
  assert.deepEqual(none.requests, ['2/1/1']);
  assert.equal(findTileImage(none, 2, 4, 1, patch), false, 'column out of range');
});

test('findTileImage: deeper than the source goes, part of its deepest tile, and that is what it asks for', () => {
  const patch = emptyPatch();
  const src = fakeSource([], 3);
  assert.equal(findTileImage(src, 5, 9, 4, patch), false);
  assert.deepEqual(src.requests, ['3/2/1']);
  const loaded = fakeSource(['3/2/1'], 3);
  assert.ok(findTileImage(loaded, 5, 9, 4, patch));
  assert.deepEqual([patch.z, patch.sx, patch.sy, patch.size], [3, 0.25, 0, 0.25]);
});

// ── quad maths ──────────────────────────────────────────────────────────────────────────────

/** Applies a canvas transform to a point. */
const apply = (t, u, v) => [t[0] * u + t[2] * v + t[4], t[1] * u + t[3] * v + t[5]];
const near = (a, b, eps = 1e-9) => a.every((x, i) => Math.abs(x - b[i]) <= eps);

test('affineFromTriangles maps each point to its partner', () => {
  const from = [1, 0, 1, 1, 0, 1];
  const to = [100, 20, 130, 90, 10, 80];
  const t = new Float64Array(6);
  assert.ok(affineFromTriangles(from, to, t));
  for (let i = 0; i < 3; i++) assert.ok(near(apply(t, from[2 * i], from[2 * i + 1]), [to[2 * i], to[2 * i + 1]]));
  assert.equal(affineFromTriangles([0, 0, 1, 1, 2, 2], to, t), false);
});

test('growTriangle moves every edge out by the amount asked', () => {
  const tri = [0, 0, 100, 0, 0, 50];
  const out = new Float64Array(6);
  assert.ok(growTriangle(tri, 0.5, out));
  // The edge y = 0 moves to y = -0.5, x = 0 to x = -0.5, and the hypotenuse out by 0.5.
  assert.ok(Math.abs(out[1] - -0.5) < 1e-9 && Math.abs(out[3] - -0.5) < 1e-9);
  assert.ok(Math.abs(out[0] - -0.5) < 1e-9 && Math.abs(out[4] - -0.5) < 1e-9);
  const dist = (x, y) => (x * 50 + y * 100 - 5000) / Math.hypot(50, 100);
  assert.ok(Math.abs(dist(out[2], out[3]) - 0.5) < 1e-9 && Math.abs(dist(out[4], out[5]) - 0.5) < 1e-9);
  assert.equal(growTriangle([0, 0, 1, 1, 2, 2], 0.5, out), false);
});

test('parallelograms: a turned tile is one, a tilted one is not; the transform spans it grown', () => {
  const square = [10, 10, 266, 10, 266, 266, 10, 266];
  assert.ok(isParallelogram(square));
  const c = Math.cos(0.3) * 256, s = Math.sin(0.3) * 256;
  assert.ok(isParallelogram([0, 0, c, s, c - s, s + c, -s, c]));
  assert.equal(isParallelogram([20, 0, 236, 0, 256, 200, 0, 200]), false);
  const t = new Float64Array(6);
  assert.ok(parallelogramTransform(square, 0.5, t));
  assert.ok(near(apply(t, 0, 0), [9.5, 9.5]));
  assert.ok(near(apply(t, 1, 1), [266.5, 266.5]));
});

// ── tile requests ───────────────────────────────────────────────────────────────────────────

test('TileQueue: a burst replaces the last, in order, each tile once', () => {
  const tasks = [];
  let ready = 0;
  const q = new TileQueue(() => { ready++; }, (task) => tasks.push(task));
  q.want(1, 'a'); q.want(2, 'b'); q.want(1, 'a again');
  assert.equal(q.take(), undefined, 'nothing until the burst ends');
  tasks.shift()();
  assert.equal(ready, 1);
  assert.equal(q.take(), 'a');
  q.want(3, 'c'); q.want(4, 'd');
  tasks.shift()();
  assert.deepEqual([q.take(), q.take(), q.take()], ['c', 'd', undefined]);
  assert.equal(q.pending, 0);
});

/** A raster source whose loads the test settles by hand. */
function manualRaster(options = {}) {
  const loads = [];
  let redraws = 0;
  const src = new RasterTileSource({
    url: 'https://t/{z}/{x}/{y}.png', retina: false, onLoad: () => { redraws++; },
    load: (url) => new Promise((resolve, reject) => loads.push({ url, resolve, reject })),
    ...options,
  });
  return { src, loads, redraws: () => redraws };
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

test('raster source: nearest first, at most maxRequests at once, onLoad on arrival', async () => {
  const { src, loads, redraws } = manualRaster({ maxRequests: 2 });
  src.request(3, 1, 1); src.request(3, 2, 1); src.request(3, 3, 1);
  await tick();
  assert.deepEqual(loads.map((l) => l.url), ['https://t/3/1/1.png', 'https://t/3/2/1.png']);
  assert.equal(src.loading, 2);
  assert.equal(src.get(3, 1, 1), null);
  const image = { width: 256, height: 256 };
  loads[0].resolve(image);
  await tick();
  assert.equal(src.get(3, 1, 1), image);
  assert.equal(redraws(), 1);
  assert.deepEqual(loads.map((l) => l.url).slice(2), ['https://t/3/3/1.png']);
});

test('raster source: a newer frame\'s tiles replace ones not started; loaded and loading ones are not asked again', async () => {
  const { src, loads } = manualRaster({ maxRequests: 1 });
  src.request(2, 0, 0); src.request(2, 1, 0);
  await tick();
  src.request(2, 0, 0); src.request(2, 3, 3);
  await tick();
  loads[0].resolve({});
  await tick();
  assert.deepEqual(loads.map((l) => l.url), ['https://t/2/0/0.png', 'https://t/2/3/3.png']);
});

test('raster source: a failed tile is not retried every frame, only after retryAfter', async () => {
  let clock = 1000;      // a clock of the test's: no wall-clock window to miss on a busy machine
  const { src, loads } = manualRaster({ retryAfter: 40, now: () => clock });
  src.request(1, 0, 0);
  await tick();
  loads[0].reject(new Error('404'));
  await tick();
  clock += 39;
  src.request(1, 0, 0);
  await tick();
  assert.equal(loads.length, 1);
  clock += 1;
  src.request(1, 0, 0);
  await tick();
  assert.equal(loads.length, 2);
});

test('raster source: tiles beyond cacheSize are dropped, least recently used first', async () => {
  const { src, loads } = manualRaster({ cacheSize: 2 });
  for (const x of [0, 1]) src.request(1, x, 0);
  await tick();
  loads.forEach((l, i) => l.resolve({ n: i }));
  await tick();
  assert.ok(src.get(1, 0, 0)); // 1/0/0 is now the most recent
  src.request(1, 0, 1);
  await tick();
  loads[2].resolve({ n: 2 });
  await tick();
  assert.ok(src.get(1, 0, 0));
  assert.equal(src.get(1, 1, 0), null);
  assert.ok(src.get(1, 0, 1));
});

test('raster source: a url is required', () => {
  assert.throws(() => new RasterTileSource(/** @type {any} */ ({})), { code: 'INVALID_ARGUMENT', message: /url must be a tile URL template/ });
});

test('tile sources: cacheSize must be a number; below 1 keeps one tile', () => {
  const url = 'https://tile.example/{z}/{x}/{y}.png';
  for (const cacheSize of [NaN, '64', Infinity]) {
    assert.throws(() => new RasterTileSource(/** @type {any} */ ({ url, cacheSize })), { code: 'INVALID_ARGUMENT', message: /RasterTileSource: cacheSize/ });
    assert.throws(() => new OfflineTileSource(/** @type {any} */ ({ cacheSize })), { code: 'INVALID_ARGUMENT', message: /OfflineTileSource: cacheSize/ });
  }
  assert.equal(cacheCapacity(undefined, 512, 'x'), 512);
  assert.equal(cacheCapacity(0, 512, 'x'), 1);
  assert.equal(cacheCapacity(10.7, 512, 'x'), 10);
  assert.ok(new RasterTileSource({ url, cacheSize: 0 }));
});

// ── caches, pins, colours ───────────────────────────────────────────────────────────────────

test('LRU: evicts the least recently used, reads refresh, peek does not', () => {
  const evicted = [];
  const lru = new LRU(3, (k, v) => evicted.push([k, v]));
  lru.set('a', 1); lru.set('b', 2); lru.set('c', 3);
  assert.equal(lru.get('a'), 1);
  lru.set('d', 4);
  assert.deepEqual(evicted, [['b', 2]]);
  assert.equal(lru.peek('c'), 3);
  lru.set('e', 5);
  assert.deepEqual(evicted, [['b', 2], ['c', 3]]);
  assert.deepEqual([...lru.keys()], ['a', 'd', 'e']);
  lru.set('a', 10); // replacing is not evicting
  assert.equal(evicted.length, 2);
  assert.equal(lru.size, 3);
  assert.equal(lru.get('a'), 10);
  assert.throws(() => new LRU(0), RangeError);
});

test('M2/V1: the pin is drawn at the engine\'s size (27 × 43) on its tip, and scales with its style', async () => {
  await init();
  const map = new MapEngine({ camera: { latitude: 0, longitude: 0, zoom: 3 }, width: 100, height: 100 });
  const box = map.pinSize;
  map.addMarker({ position: { latitude: 0, longitude: 0 } });
  const [item] = map.frame(0).items;
  map.destroy();
  assert.deepEqual(box, { width: 27, height: 43 });
  assert.deepEqual(pinSize(undefined, box), box);
  assert.deepEqual(pinSize({ scale: 2 }, box), { width: 54, height: 86 });
  assert.deepEqual(pinSize({ scale: 0.5, background: '#00f' }, box), { width: 13.5, height: 21.5 });
  assert.deepEqual(pinSize({}, { width: 30, height: 50 }), { width: 30, height: 50 }, 'whatever size the engine gives');
  assert.deepEqual([item.anchorX, item.anchorY], [0.5, 1], 'the engine stands the pin on its tip');
  assert.throws(() => pinSize({ scale: 0 }, box), /scale must be a number above 0/);
  assert.throws(() => pinSize({ scale: NaN }, box), { name: 'CairnError', code: 'INVALID_ARGUMENT' });
  assert.throws(() => pinSize({}, { width: 0, height: 43 }), /the pin's size must be \{width, height\} above 0/);
});

test('colours: parse hex and rgb(), darken, print', () => {
  assert.deepEqual(parseColor('#EA4335'), { r: 234, g: 67, b: 53, a: 1 });
  assert.deepEqual(parseColor('#f00'), { r: 255, g: 0, b: 0, a: 1 });
  assert.deepEqual(parseColor('rgba(10, 20, 30, 0.5)'), { r: 10, g: 20, b: 30, a: 0.5 });
  assert.deepEqual(parseColor('rgb(10 20 30 / 50%)'), { r: 10, g: 20, b: 30, a: 0.5 });
  assert.equal(parseColor('red'), null);
  assert.equal(parseColor('#12345'), null);
  assert.equal(cssColor(darken({ r: 200, g: 100, b: 50, a: 1 }, 0.5)), '#643219');
  assert.equal(cssColor(withAlpha({ r: 0, g: 153, b: 204, a: 1 }, 0.35)), 'rgba(0, 153, 204, 0.35)');
});
