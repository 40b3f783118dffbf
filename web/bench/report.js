// The benchmarks' Markdown: each benchmark script writes its table as a section of its own
// (`--markdown FILE`), headed by the date and the machine it ran on, and `./build.sh bench`
// assembles the sections into docs/performance.md behind a fixed introduction. Nothing here
// measures anything.
//
//   node web/bench/report.js machine [--chromium VERSION] [--swift]   the machine line, for the
//        benchmarks not written in JavaScript (the browser benchmark, the native one)
//   node web/bench/report.js assemble [--note TEXT] OUT SECTION.md...   writes OUT (docs/performance.md),
//        with TEXT as a quoted note after the introduction (say so when the runs were not full size)

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The page's fixed introduction: what the tables are and how they are made. */
export const INTRODUCTION = `# Performance

This page is written by \`./build.sh bench\`: each benchmark script writes its own table
(\`--markdown FILE\`), headed by the date and the machine it ran on, and the build puts them
here. Do not edit the tables by hand; run the benchmarks again. Every data set is generated
from a fixed seed, so every run measures the same points.

Figures depend on the machine and on what else runs on it: compare figures from one run, on
one machine, as the clustering table does with supercluster, which it loads with the same
points in the same run.
`;

/**
 * A command's first line of output, or null when it cannot be run.
 * @param {string} command
 * @param {string[]} args
 * @returns {string | null}
 */
function firstLine(command, args) {
  try {
    const out = execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 });
    return out.split('\n')[0].trim() || null;
  } catch {
    return null;
  }
}

/**
 * The machine a benchmark runs on.
 * @param {{chromium?: string | null, swift?: boolean}} [options]  `chromium`: the version the
 *   benchmark's browser reported (default: what `chromium --version` says); `swift`: add the
 *   compiler's version
 * @returns {{cpu: string, cores: number, memoryGiB: number, node: string, chromium: string | null, swift: string | null}}
 */
export function machine(options = {}) {
  const list = cpus();
  const reported = options.chromium ?? firstLine('chromium', ['--version']);
  const chromium = reported ? (/(\d+(?:\.\d+)+)/.exec(reported)?.[1] ?? reported) : null;
  const swiftLine = options.swift ? firstLine('swift', ['--version']) : null;
  return {
    cpu: (list[0]?.model ?? 'unknown CPU').replace(/\s+/g, ' ').trim(),
    cores: list.length,
    memoryGiB: totalmem() / 2 ** 30,
    node: process.versions.node,
    chromium,
    swift: swiftLine ? (/Swift version (\S+)/.exec(swiftLine)?.[1] ?? swiftLine) : null,
  };
}

/**
 * The line under a section's heading: when and where it was measured.
 * @param {Date} date
 * @param {ReturnType<typeof machine>} m
 * @returns {string}
 */
export function machineLine(date, m) {
  const parts = [
    `${m.cpu}, ${m.cores} ${m.cores === 1 ? 'core' : 'cores'}, ${m.memoryGiB.toFixed(1)} GiB`,
    `Node ${m.node}`,
    m.chromium ? `Chromium ${m.chromium}` : 'no Chromium',
  ];
  if (m.swift) parts.push(`Swift ${m.swift}`);
  const when = date.toISOString().slice(0, 16).replace('T', ' ');
  return `Measured ${when} UTC on ${parts.join('; ')}.`;
}

/**
 * A Markdown table. Cells are text as given; `|` inside one is escaped.
 * @param {string[]} header
 * @param {Array<Array<string | number>>} rows
 * @returns {string}
 */
export function markdownTable(header, rows) {
  const cell = (/** @type {string | number} */ v) => String(v).replace(/\|/g, '\\|');
  for (const row of rows) {
    if (row.length !== header.length) throw new Error(`a row of ${row.length} cells under ${header.length} columns: ${row.join(', ')}`);
  }
  const line = (/** @type {Array<string | number>} */ cells) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * @typedef {object} Section  one benchmark's part of the page
 * @property {string} title
 * @property {string} machine  the line `machineLine` gives
 * @property {string} about  what was measured, how (a paragraph)
 * @property {string[]} header
 * @property {Array<Array<string | number>>} rows
 * @property {string[]} [notes]  paragraphs after the table
 */

/**
 * A section as Markdown.
 * @param {Section} s
 * @returns {string}
 */
export function sectionMarkdown(s) {
  const parts = [`## ${s.title}`, `*${s.machine}*`, s.about, markdownTable(s.header, s.rows), ...(s.notes ?? [])];
  return `${parts.filter((p) => p !== '').join('\n\n')}\n`;
}

/**
 * Writes a section to `file`.
 * @param {string} file
 * @param {Section} s
 */
export function writeSection(file, s) {
  writeFileSync(file, sectionMarkdown(s));
}

/**
 * The page: the introduction, a note if any, then the sections in the order given.
 * @param {string[]} sections  each section's Markdown
 * @param {string} [note]
 * @returns {string}
 */
export function performancePage(sections, note) {
  const head = note ? [INTRODUCTION, `> ${note.trim().replace(/\n/g, '\n> ')}\n`] : [INTRODUCTION];
  return [...head, ...sections.map((s) => s.trim() + '\n')].join('\n');
}

/**
 * The middle of the figures (the upper middle of an even count).
 * @param {number[]} values
 */
export function median(values) {
  const sorted = Float64Array.from(values).sort();
  return sorted[sorted.length >> 1];
}

/**
 * A duration for a table, to three figures or so: microseconds below a millisecond, seconds
 * from one.
 * @param {number} ms
 * @returns {string}
 */
export function duration(ms) {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1) return `${(ms * 1000).toPrecision(ms < 0.01 ? 2 : 3).replace(/\.0+$/, '')} µs`;
  if (ms < 1000) return `${ms < 100 ? ms.toFixed(2) : ms.toFixed(0)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/**
 * A size in bytes for a table: MB below a gigabyte, else GB (decimal units, as disks count).
 * @param {number} bytes
 * @returns {string}
 */
export function size(bytes) {
  return bytes < 1e9 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e9).toFixed(2)} GB`;
}

/**
 * The value after `--markdown` in a command line, or null; a missing value is an error.
 * @param {string[]} argv
 * @returns {string | null}
 */
export function markdownOption(argv) {
  const i = argv.indexOf('--markdown');
  if (i < 0) return null;
  const file = argv[i + 1];
  if (!file || file.startsWith('--')) throw new Error('--markdown needs a file');
  return file;
}

/** @param {string[]} argv */
function main(argv) {
  const [command, ...rest] = argv;
  if (command === 'machine') {
    const i = rest.indexOf('--chromium');
    const chromium = i >= 0 ? rest[i + 1] : undefined;
    console.log(machineLine(new Date(), machine({ chromium, swift: rest.includes('--swift') })));
  } else if (command === 'assemble') {
    const noted = rest[0] === '--note';
    const note = noted ? rest[1] : undefined;
    const [out, ...files] = noted ? rest.slice(2) : rest;
    if (!out || files.length === 0 || (noted && !note)) {
      throw new Error('usage: node web/bench/report.js assemble [--note TEXT] OUT SECTION.md...');
    }
    writeFileSync(out, performancePage(files.map((f) => readFileSync(f, 'utf8')), note));
  } else {
    throw new Error('usage: node web/bench/report.js machine [--chromium VERSION] [--swift] | assemble [--note TEXT] OUT SECTION.md...');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`report.js: ${/** @type {Error} */ (error).message}`);
    process.exit(2);
  }
}
