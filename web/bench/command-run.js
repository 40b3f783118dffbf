// What the command line benchmarks share: the seeded CSV of points they feed, and running a
// command timed from outside with its peak memory.

import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { mulberry32, clustered } from './generate.js';

const TIME = '/usr/bin/time';
/** Points per write while generating the CSV. */
const BATCH = 100_000;

/** Writes `n` clustered points as CSV with 6 decimals (about 10 cm), the way exports usually come. */
export function writeCsv(path, n) {
  const lngLat = clustered(n, mulberry32(2));
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, 'lng,lat\n');
    for (let start = 0; start < n; start += BATCH) {
      let text = '';
      for (let i = start; i < Math.min(n, start + BATCH); i++) text += `${lngLat[2 * i].toFixed(6)},${lngLat[2 * i + 1].toFixed(6)}\n`;
      writeSync(fd, text);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Runs a command; resolves with its wall time and peak RSS. The RSS comes from GNU time when it
 * is installed, else (for a Node script only) from the process itself through a wrapper that
 * reports its own maxRSS.
 * @param {string} program
 * @param {string[]} args
 * @param {{node?: boolean}} [options]  `node`: program is Node and args[0] the CLI's script
 * @returns {Promise<{seconds: number, rssBytes: number, stderr: string}>}
 */
export function runCommand(program, args, { node = false } = {}) {
  const useTime = existsSync(TIME);
  if (!useTime && !node) return Promise.reject(new Error(`${TIME} (Debian package time) is needed to measure ${program}`));
  const wrapper = `import(${JSON.stringify(new URL('../src/cli/main.js', import.meta.url).href)}).then(async ({ main }) => {
    const code = await main(process.argv.slice(1), process);
    process.stderr.write('maxRSS ' + process.resourceUsage().maxRSS + '\\n');
    process.exit(code);
  })`;
  const command = useTime ? TIME : process.execPath;
  const argv = useTime ? ['-v', program, ...args] : ['--input-type=module', '-e', wrapper, ...args.slice(1)];
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, argv, { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - start) / 1000;
      if (code !== 0) return reject(new Error(`${program} exited with ${code}:\n${stderr.slice(-4000)}`));
      const kb = useTime ? /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] : /maxRSS (\d+)/.exec(stderr)?.[1];
      resolve({ seconds, rssBytes: Number(kb) * 1024, stderr });
    });
  });
}
