#!/usr/bin/env node
// Writes the demo's synthetic data set, web/demo/data/synthetic-1m.bin: a million points in
// blobs of every size (the benchmark's seeded `clustered` generator), so the demo shows the
// same points on every machine. Coordinates only: no names, no population.
//
//   node web/demo/make-synthetic.js [COUNT] [--out FILE]     (COUNT defaults to 1000000)

import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clustered, mulberry32 } from '../bench/generate.js';
import { encodePoints } from './points-writer.js';

const SEED = 20240611;
const DEFAULT_OUT = fileURLToPath(new URL('./data/synthetic-1m.bin', import.meta.url));

function main() {
  let count = 1_000_000;
  let out = DEFAULT_OUT;
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out') out = args[++i];
    else if (/^\d+$/.test(args[i])) count = Number(args[i]);
    else {
      console.error(`make-synthetic: unknown argument ${args[i]}\nusage: node web/demo/make-synthetic.js [COUNT] [--out FILE]`);
      process.exit(2);
    }
  }
  if (!out || count > 0xffffffff) {
    console.error('make-synthetic: --out needs a file, and COUNT must fit 32 bits');
    process.exit(2);
  }

  const started = performance.now();
  const bytes = encodePoints({ lngLat: clustered(count, mulberry32(SEED)) });
  mkdirSync(dirname(out), { recursive: true });
  // Written beside and renamed, so an interrupted run never leaves half a file to be served.
  writeFileSync(out + '.tmp', bytes);
  renameSync(out + '.tmp', out);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`wrote ${relative(process.cwd(), out) || out}: ${count.toLocaleString('en-US')} points, ` +
    `${(bytes.length / 1e6).toFixed(1)} MB (${seconds} s)`);
}

main();
