// The benchmarks' Markdown (web/bench/report.js): tables, sections with their machine line,
// and the page `./build.sh bench` assembles from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { INTRODUCTION, duration, machineLine, markdownOption, markdownTable, performancePage, sectionMarkdown, size }
  from '../../bench/report.js';

const REPORT = fileURLToPath(new URL('../../bench/report.js', import.meta.url));

test('a table has a header, a rule and one line per row, with pipes escaped', () => {
  assert.equal(markdownTable(['a', 'b'], [[1, 'x|y'], ['', 2]]), '| a | b |\n| --- | --- |\n| 1 | x\\|y |\n|  | 2 |');
  assert.throws(() => markdownTable(['a', 'b'], [[1]]), /a row of 1 cells under 2 columns/);
});

test('the machine line names the date, the CPU, its cores and memory, and the versions', () => {
  const m = { cpu: 'Some CPU', cores: 2, memoryGiB: 23.5, node: '20.20.2', chromium: '156.0.1', swift: null };
  assert.equal(machineLine(new Date(Date.UTC(2025, 0, 2, 3, 4)), m),
    'Measured 2025-01-02 03:04 UTC on Some CPU, 2 cores, 23.5 GiB; Node 20.20.2; Chromium 156.0.1.');
  assert.match(machineLine(new Date(0), { ...m, chromium: null, swift: '6.3.1' }), /; no Chromium; Swift 6\.3\.1\.$/);
});

test('a section is its heading, machine line, paragraph, table and notes', () => {
  const text = sectionMarkdown({ title: 'T', machine: 'M.', about: 'About.', header: ['x'], rows: [['1']], notes: ['N.'] });
  assert.equal(text, '## T\n\n*M.*\n\nAbout.\n\n| x |\n| --- |\n| 1 |\n\nN.\n');
});

test('durations and sizes read in their unit', () => {
  assert.equal(duration(0.0123), '12.3 µs');
  assert.equal(duration(12.345), '12.35 ms');
  assert.equal(duration(1234), '1.23 s');
  assert.equal(duration(65_000), '65.0 s');
  assert.equal(duration(NaN), '—');
  assert.equal(size(136.8e6), '136.8 MB');
  assert.equal(size(3.87e9), '3.87 GB');
  assert.equal(markdownOption(['--points', '5', '--markdown', 'out.md']), 'out.md');
  assert.equal(markdownOption(['--points', '5']), null);
  assert.throws(() => markdownOption(['--markdown']), /needs a file/);
});

test('the page is the introduction, the note, then the sections in order; the command writes it', () => {
  assert.equal(performancePage(['## A\n', '## B\n'], 'Small run.'), `${INTRODUCTION}\n> Small run.\n\n## A\n\n## B\n`);
  const dir = mkdtempSync(join(tmpdir(), 'cairn-report-'));
  try {
    writeFileSync(join(dir, '1.md'), '## One\n');
    writeFileSync(join(dir, '2.md'), '## Two\n');
    const out = join(dir, 'performance.md');
    const run = spawnSync(process.execPath, [REPORT, 'assemble', out, join(dir, '1.md'), join(dir, '2.md')], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(readFileSync(out, 'utf8'), `${INTRODUCTION}\n## One\n\n## Two\n`);
    const bad = spawnSync(process.execPath, [REPORT, 'assemble', out], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /usage/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
