// The command line tool end to end: a CSV of N generated points (seeded, so every run sees the
// same file) to per-zoom GeoJSON for zooms 0–16, timed from outside, with the peak memory of
// the whole process. Prints figures; asserts nothing.
// Usage: node web/bench/cli-bench.js [--points N] [--keep] [--markdown FILE]   (N defaults to 10,000,000)

import { mkdtempSync, readdirSync, statSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

import { runCommand, writeCsv } from './command-run.js';
import { duration, machine, machineLine, markdownOption, size, writeSection } from './report.js';

const CLI = fileURLToPath(new URL('../bin/cairn.js', import.meta.url));

function parseArgs(argv) {
  const args = { points: 10_000_000, keep: false, markdown: markdownOption(argv) };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--points') args.points = Number(argv[++i]);
    else if (argv[i] === '--keep') args.keep = true;
    else if (argv[i] === '--markdown') i++;
    else if (argv[i] === '--help' || argv[i] === '-h') {
      console.log('usage: node web/bench/cli-bench.js [--points N] [--keep] [--markdown FILE]');
      process.exit(0);
    } else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!Number.isInteger(args.points) || args.points < 1) throw new Error('--points must be a positive integer');
  return args;
}

/** Runs the CLI; resolves with its wall time and peak RSS (see command-run.js). */
function run(cliArgs) {
  return runCommand(process.execPath, [CLI, ...cliArgs], { node: true });
}

function dirBytes(dir) {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

const gb = (bytes) => `${(bytes / 1e9).toFixed(2)} GB`;

/**
 * The seconds a progress line gives ("[  12.3s] read …"), or null.
 * @param {string[]} lines
 * @param {RegExp} what
 */
function progressSeconds(lines, what) {
  const line = lines.find((l) => what.test(l));
  const m = line ? /\[\s*([\d.]+)s\]/.exec(line) : null;
  return m ? Number(m[1]) : null;
}

async function main() {
  const { points, keep, markdown } = parseArgs(process.argv.slice(2));
  const work = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  try {
    const csv = join(work, 'points.csv');
    const out = join(work, 'zooms');
    let t = performance.now();
    writeCsv(csv, points);
    const csvBytes = statSync(csv).size;
    console.log(`${points.toLocaleString('en-US')} points in 300 blobs (seeded), CSV ${gb(csvBytes)}, ` +
      `generated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    console.log(`cairn cluster points.csv --out DIR (radius 40, extent 512, zooms 0–16), Node ${process.versions.node}, ` +
      `${cpus().length} cores`);
    const r = await run(['cluster', csv, '--out', out, '--min-zoom', '0', '--max-zoom', '16', '--progress']);
    const lines = r.stderr.split('\n');
    const phases = lines.filter((line) => /read .* points|clustered|done:/.test(line)).map((line) => `  ${line.trim()}`);
    console.log(phases.join('\n'));
    const outBytes = dirBytes(out);
    const files = readdirSync(out).length;
    console.log(`  elapsed ${r.seconds.toFixed(1)} s (target 60 s), peak RSS ${gb(r.rssBytes)} (target 2 GB), ` +
      `output ${gb(outBytes)} in ${files} files`);
    if (markdown) {
      // The command's own progress lines say when it had read the input and clustered every zoom.
      const read = progressSeconds(lines, /read .* points/);
      const clusteredAt = progressSeconds(lines, /clustered/);
      const done = progressSeconds(lines, /done:/);
      const span = (from, to) => (from !== null && to !== null ? duration((to - from) * 1000) : '—');
      writeSection(markdown, {
        title: 'Command line: cairn cluster',
        machine: machineLine(new Date(), machine()),
        about: `\`node web/bench/cli-bench.js\`: a seeded CSV of ${points.toLocaleString('en-US')} points in 300 blobs ` +
          `(${size(csvBytes)}, six decimals) to per-zoom GeoJSON, \`cairn cluster points.csv --out DIR\` for zooms 0–16 ` +
          '(radius 40, extent 512), timed from outside the process; the peak memory is the whole process\'s.',
        header: ['measurement', 'result', 'target'],
        rows: [
          ['end to end', duration(r.seconds * 1000), points >= 10_000_000 ? '60 s for 10,000,000 points' : ''],
          ['of which reading the CSV', span(0, read), ''],
          ['of which clustering every zoom', span(read, clusteredAt), ''],
          ['of which writing the GeoJSON', span(clusteredAt, done), ''],
          ['peak memory (RSS, whole process)', size(r.rssBytes), points >= 10_000_000 ? '2 GB for 10,000,000 points' : ''],
          ['output', `${size(outBytes)} in ${files} files`, ''],
        ],
      });
      console.log(`  wrote ${markdown}`);
    }
    if (keep) console.log(`  kept in ${work}`);
  } finally {
    if (!keep) rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
