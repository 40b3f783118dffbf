// The tiles as DIR/{z}/{x}/{y}.mvt (uncompressed, as static hosts serve files) and
// DIR/metadata.json, written into an AtomicDirectory's temporary directory.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The names this output holds, by depth, and its file at the top (for AtomicDirectory's check of an old output). */
export const MVT_DIRECTORY_NAMES = [/^\d+$/, /^\d+$/, /^\d+\.mvt$/];
export const MVT_METADATA_NAME = /^metadata\.json$/;

export class MvtDirectory {
  /** @type {string | null} the z/x directory made last */
  #made = null;

  /** @param {string} dir  the temporary directory */
  constructor(dir) {
    this.dir = dir;
  }

  /**
   * @param {number} z
   * @param {number} x
   * @param {number} y
   * @param {Uint8Array} tile
   */
  add(z, x, y, tile) {
    const column = join(this.dir, String(z), String(x));
    if (column !== this.#made) {
      mkdirSync(column, { recursive: true });
      this.#made = column;
    }
    writeFileSync(join(column, `${y}.mvt`), tile);
  }

  /** @param {Record<string, any>} metadata */
  finish(metadata) {
    writeFileSync(join(this.dir, 'metadata.json'), `${JSON.stringify({ tilejson: '3.0.0', tiles: ['{z}/{x}/{y}.mvt'], ...metadata }, null, 2)}\n`);
  }
}
