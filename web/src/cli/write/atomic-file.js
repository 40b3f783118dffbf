// One output file written whole or not at all: the bytes go to a temporary file beside the
// target, which is renamed over it once complete (rename is atomic within a directory), so a
// reader never sees a partial file and a failed run leaves the old one as it was.

import { existsSync, lstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { UsageError, systemReason } from '../errors.js';

/**
 * Writes `bytes` to `path` atomically.
 * @param {string} path
 * @param {Uint8Array} bytes
 * @param {string} flag  the option that named it, for messages
 * @param {boolean} force  whether an existing file may be replaced
 */
export function writeFileAtomically(path, bytes, flag, force) {
  const where = `${flag} ${path}`;
  checkFileTarget(path, flag, force);
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, bytes);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new UsageError(`${where}: cannot write it (${systemReason(error)})`);
  }
}

/**
 * Checks before any work that `path` can be written (its directory exists, it is not a
 * directory, an existing file only with `force`).
 * @param {string} path
 * @param {string} flag
 * @param {boolean} force
 */
export function checkFileTarget(path, flag, force) {
  const where = `${flag} ${path}`;
  if (!existsSync(dirname(path) || '.')) throw new UsageError(`${where}: its directory does not exist`);
  if (existsSync(path)) {
    if (lstatSync(path).isDirectory()) throw new UsageError(`${where}: is a directory, not a file`);
    if (!force) throw new UsageError(`${where}: exists (give --force to replace it)`);
  }
}
