// The real tile readers (tile_readers.py: PyPI mapbox-vector-tile and pmtiles, which the test
// command installs) called from the JS tests.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./tile_readers.py', import.meta.url));

/**
 * @param {string[]} args
 * @returns {any}
 */
export function readWithPython(args) {
  return JSON.parse(execFileSync('python3', [SCRIPT, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 }));
}

/**
 * Decodes vector tiles with mapbox-vector-tile.
 * @param {Uint8Array[]} tiles
 * @returns {any[]} one {layer name: {extent, version, features}} per tile
 */
export function decodeTiles(tiles) {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-mvt-'));
  try {
    const paths = tiles.map((t, i) => {
      const path = join(dir, `${i}.mvt`);
      writeFileSync(path, t);
      return path;
    });
    /** @type {any[]} */
    const out = [];
    // In batches, to stay within the command line's length.
    for (let i = 0; i < paths.length; i += 500) out.push(...readWithPython(['mvt', ...paths.slice(i, i + 500)]));
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A getTile feature's tags as MVT carries them: null and undefined left out, objects as JSON text.
 * @param {Record<string, any> | null | undefined} tags
 */
export function mvtProperties(tags) {
  /** @type {Record<string, any>} */
  const out = {};
  for (const [k, v] of Object.entries(tags ?? {})) {
    if (v === null || v === undefined) continue;
    out[k] = typeof v === 'object' ? JSON.stringify(v) : v;
  }
  return out;
}
