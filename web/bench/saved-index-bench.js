// Saved indexes: how long ClusterIndex.from takes to restore a million-point index that save()
// wrote, beside the load (clustering) it saves, in one run on seeded data.
//
//   node web/bench/saved-index-bench.js [--points N] [--repeat R] [--markdown FILE]

import { init, ClusterIndex } from '../src/index.js';
import { clustered, mulberry32, uniform } from './generate.js';
import { duration, machine, machineLine, markdownOption, size, writeSection } from './report.js';

function parseArgs(argv) {
  const args = { points: 1_000_000, repeat: 5, markdown: markdownOption(argv) };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--points') args.points = Number(argv[++i]);
    else if (argv[i] === '--repeat') args.repeat = Number(argv[++i]);
    else if (argv[i] === '--markdown') i++;
    else {
      console.log('usage: node web/bench/saved-index-bench.js [--points N] [--repeat R] [--markdown FILE]');
      process.exit(argv[i] === '--help' ? 0 : 2);
    }
  }
  return args;
}

/** The fastest of `repeat` runs of `run`, in milliseconds. */
function best(repeat, run) {
  let fastest = Infinity;
  for (let r = 0; r < repeat; r++) {
    const start = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  await init();
  const n = args.points;
  const rows = [];
  for (const [kind, make] of [['uniform', uniform], ['clustered', clustered]]) {
    const lngLat = make(n, mulberry32(42));
    let index = null;
    const loadMs = best(Math.min(args.repeat, 3), () => {
      index?.destroy();
      index = new ClusterIndex().loadCoordinates(lngLat);
    });
    let saved = null;
    const saveMs = best(args.repeat, () => { saved = index.save(); });
    const restoreMs = best(args.repeat, () => ClusterIndex.from(saved).destroy());
    // The restored index answers (one query, so nothing is left lazy in the figure above).
    const restored = ClusterIndex.from(saved);
    if (restored.getClusters([-180, -85, 180, 85], 3).length !== index.getClusters([-180, -85, 180, 85], 3).length) {
      throw new Error('the restored index answers otherwise');
    }
    restored.destroy();
    index.destroy();
    console.log(`${kind}: load ${duration(loadMs)}, save ${duration(saveMs)} (${size(saved.byteLength)}), from ${duration(restoreMs)}`);
    rows.push([n.toLocaleString('en-US'), kind, duration(loadMs), duration(saveMs), size(saved.byteLength),
      duration(restoreMs), `${(loadMs / restoreMs).toFixed(0)}×`]);
  }
  if (args.markdown) {
    writeSection(args.markdown, {
      title: 'Saved indexes: ClusterIndex.from beside load',
      machine: machineLine(new Date(), machine()),
      about: '`node web/bench/saved-index-bench.js`: points uniform over ±180°/±85° or clustered in 300 blobs, seeded; ' +
        `default options. Load is \`loadCoordinates\` (clustering every zoom); save is \`save()\`; from is ` +
        `\`ClusterIndex.from(buffer)\`, which checks the buffer (header, checksum, every id) and restores it without ` +
        `clustering. Best of ${args.repeat} runs (load: of ${Math.min(args.repeat, 3)}).`,
      header: ['points', 'data', 'load', 'save', 'saved size', 'from', 'load ÷ from'],
      rows,
      notes: [],
    });
    console.log(`\nwrote ${args.markdown}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
