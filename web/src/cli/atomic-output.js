// Output directories that appear complete or not at all (SPEC N3). A run writes into a
// temporary directory beside the target and renames it into place at the end; on failure, or
// on SIGINT/SIGTERM (see signals.js), the temporary directory is removed. An existing target is only replaced
// with --force, and never when it holds files cairn does not write (so that `--out . --force`
// cannot wipe a working directory).

import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

import { UsageError } from './errors.js';

/** Temporary directories of this process that are not yet renamed into place. */
const pending = new Set();

/**
 * An output directory in the making.
 */
export class AtomicDirectory {
  /** @type {string | null} the temporary directory, once begun */
  temporary = null;

  /**
   * @param {string} target  where the output goes
   * @param {string} flag  the option that named it, for messages
   * @param {RegExp} ours  names (top level) that cairn writes there
   */
  constructor(target, flag, ours) {
    this.target = target;
    this.flag = flag;
    this.ours = ours;
  }

  /**
   * Checks, before any work, that the target may be written.
   * @param {boolean} force
   * @throws {UsageError} when the target exists (and is not an empty directory) without
   *   --force, is not a directory, or holds files cairn does not write
   */
  check(force) {
    if (!existsSync(this.target)) return;
    const where = `${this.flag} ${this.target}`;
    if (!statSync(this.target).isDirectory()) throw new UsageError(`${where}: exists and is not a directory`);
    const entries = readdirSync(this.target);
    if (entries.length === 0) return;
    if (!force) throw new UsageError(`${where}: already exists; use --force to replace it`);
    const foreign = entries.find((name) => !this.ours.test(name));
    if (foreign !== undefined) {
      throw new UsageError(`${where}: holds ${JSON.stringify(foreign)}, which cairn does not write; not replacing it`);
    }
  }

  /**
   * Creates the temporary directory beside the target.
   * @returns {string} its path
   */
  begin() {
    const parent = dirname(this.target);
    mkdirSync(parent, { recursive: true });
    const temporary = join(parent, `.${basename(this.target)}.cairn-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    mkdirSync(temporary);
    this.temporary = temporary;
    pending.add(temporary);
    return temporary;
  }

  /** Puts the finished output in place of the target (replacing it, if it exists). */
  commit() {
    const temporary = /** @type {string} */ (this.temporary);
    if (existsSync(this.target)) {
      // Rename the old output aside first: rename() cannot replace a non-empty directory.
      const aside = `${temporary}.old`;
      pending.add(aside);
      renameSync(this.target, aside);
      try {
        renameSync(temporary, this.target);
      } catch (error) {
        renameSync(aside, this.target);
        pending.delete(aside);
        throw error;
      }
      pending.delete(temporary);
      rmSync(aside, { recursive: true, force: true });
      pending.delete(aside);
    } else {
      renameSync(temporary, this.target);
      pending.delete(temporary);
    }
    this.temporary = null;
  }

  /** Removes the temporary directory (after a failure). */
  discard() {
    if (this.temporary === null) return;
    rmSync(this.temporary, { recursive: true, force: true });
    pending.delete(this.temporary);
    this.temporary = null;
  }
}

/**
 * Removes every temporary directory still pending, as well as it can: for a second signal,
 * when there is no time to stop the writer thread first (it may still be adding a file).
 */
export function removeAll() {
  for (const path of pending) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Nothing more to do on the way out.
    }
  }
  pending.clear();
}
