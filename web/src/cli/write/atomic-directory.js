// Output directories that appear complete or not at all (feature N3). A run writes into a
// temporary directory beside the target and renames it into place at the end; on failure, or
// on SIGINT/SIGTERM (see signals.js), the temporary directory is removed. An existing target is only replaced
// with --force, and never when it holds files cairn does not write, at any depth (so that
// `--out . --force` cannot wipe a working directory). The target is checked before any work
// and again just before it is replaced, since it may have appeared or changed meanwhile. A
// symbolic link to a directory stays a link: the directory it points to is replaced.

import { accessSync, constants, existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';

import { UsageError, systemReason } from '../errors.js';

/**
 * Temporary directories of this process that are not yet renamed into place, each with what
 * removes the directories made above it (for a run's temporary; none for an old output set aside).
 * @type {Map<string, (() => void) | null>}
 */
const pending = new Map();

/**
 * An output directory in the making.
 */
export class AtomicDirectory {
  /** @type {string | null} the temporary directory, once begun */
  temporary = null;
  /** @type {string | null} the first directory above it that the run made, if any */
  #madeAbove = null;

  /**
   * @param {string} target  where the output goes
   * @param {string} flag  the option that named it, for messages
   * @param {RegExp[]} ours  the names cairn writes there, by depth: directories at every depth
   *   but the last, files at the last
   * @param {boolean} force  whether an existing output may be replaced
   * @param {RegExp | null} [topFiles]  the files cairn writes at the top beside the
   *   directories, if any (a metadata file)
   */
  constructor(target, flag, ours, force, topFiles = null) {
    this.target = target;
    this.flag = flag;
    this.ours = ours;
    this.force = force;
    this.topFiles = topFiles;
  }

  /**
   * Checks, before any work, that the target may be written: that its directory can be made
   * there, and that an existing target may be replaced (see `#checkExisting`).
   * @throws {UsageError} when it cannot or may not
   */
  check() {
    const where = `${this.flag} ${this.target}`;
    if (!existsSync(this.target) && isLink(this.target)) {
      throw new UsageError(`${where}: is a symbolic link to nothing`);
    }
    checkWritableAbove(this.#path(), where);
    // Replacing the directory a shell stands in would leave it in a deleted one.
    const path = existsSync(this.target) ? realpathSync(this.target) : resolve(this.target);
    const here = realpathSync(process.cwd());
    if (here === path || here.startsWith(path.endsWith(sep) ? path : path + sep)) {
      throw new UsageError(`${where}: is the current directory or holds it; the output directory is replaced as a whole, so name a directory of its own`);
    }
    this.#checkExisting();
  }

  /**
   * The path to write: the target, or the directory a symbolic link there points to.
   * @returns {string}
   */
  #path() {
    return existsSync(this.target) && isLink(this.target) ? realpathSync(this.target) : this.target;
  }

  /**
   * @throws {UsageError} when the target exists and is not a directory, or is a non-empty
   *   directory and --force was not given, or holds anything cairn does not write
   */
  #checkExisting() {
    const path = this.#path();
    if (!existsSync(path)) return;
    const where = `${this.flag} ${this.target}`;
    if (!statSync(path).isDirectory()) throw new UsageError(`${where}: exists and is not a directory`);
    if (readdirSync(path).length === 0) return;
    if (!this.force) throw new UsageError(`${where}: already exists; use --force to replace it`);
    const foreign = foreignEntry(path, this.ours, this.topFiles);
    if (foreign !== null) {
      throw new UsageError(`${where}: holds ${JSON.stringify(foreign)}, which cairn does not write; not replacing it`);
    }
    // Replacing it removes every file in it: each folder of it must let this user do so.
    const locked = lockedFolder(path);
    if (locked !== null) {
      throw new UsageError(`${where}: cannot remove the old output: no permission to remove the files in ${locked === '' ? 'it' : locked}; not replacing it`);
    }
  }

  /**
   * Creates the temporary directory beside the target.
   * @returns {string} its path
   * @throws {UsageError} when it cannot be made
   */
  begin() {
    const path = this.#path();
    const parent = dirname(path);
    const temporary = join(parent, `.${basename(path)}.cairn-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    try {
      this.#madeAbove = mkdirSync(parent, { recursive: true }) ?? null;
      mkdirSync(temporary);
    } catch (error) {
      this.#removeMadeAbove();
      throw new UsageError(`${this.flag} ${this.target}: cannot make a directory in ${parent} (${/** @type {any} */ (error).code ?? error})`);
    }
    this.temporary = temporary;
    pending.set(temporary, () => this.#removeMadeAbove());
    return temporary;
  }

  /**
   * Puts the finished output in place of the target (replacing it, if it exists and may still
   * be replaced).
   * @returns {string | null} what the run must tell although it succeeded: an old output that
   *   could not be removed whole (it is left aside, named), or null
   * @throws {UsageError} when the target has become something that may not be replaced, or
   *   cannot be (the new output is then still the temporary directory, for `discard`)
   */
  commit() {
    const temporary = /** @type {string} */ (this.temporary);
    this.#checkExisting();
    const path = this.#path();
    const where = `${this.flag} ${this.target}`;
    /** @type {string | null} */
    let left = null;
    if (existsSync(path)) {
      // Rename the old output aside first: rename() cannot replace a non-empty directory.
      const aside = `${temporary}.old`;
      pending.set(aside, null);
      try {
        renameSync(path, aside);
      } catch (error) {
        pending.delete(aside);
        throw new UsageError(`${where}: cannot replace it: cannot move the old output aside (${systemReason(error)})`);
      }
      try {
        renameSync(temporary, path);
      } catch (error) {
        renameSync(aside, path);
        pending.delete(aside);
        throw new UsageError(`${where}: cannot replace it: cannot move the new output into place (${systemReason(error)})`);
      }
      pending.delete(temporary);
      const stuck = removeTree(aside);
      pending.delete(aside);
      if (stuck !== null) {
        left = `${where}: replaced, but the old output could not be removed whole (${stuck}); what is left of it is in ${aside}`;
      }
    } else {
      renameSync(temporary, path);
      pending.delete(temporary);
    }
    this.temporary = null;
    return left;
  }

  /** Removes the temporary directory (after a failure), and the directories made for it. */
  discard() {
    if (this.temporary === null) return;
    rmSync(this.temporary, { recursive: true, force: true });
    pending.delete(this.temporary);
    this.temporary = null;
    this.#removeMadeAbove();
  }

  /** Removes the directories `begin` made above the target, while nothing else came into them. */
  #removeMadeAbove() {
    if (this.#madeAbove === null) return;
    for (let dir = dirname(this.#path()); ; dir = dirname(dir)) {
      try {
        rmdirSync(dir);
      } catch {
        break;
      }
      if (dir === this.#madeAbove) break;
    }
    this.#madeAbove = null;
  }
}

/**
 * Whether a path is a symbolic link (one that points nowhere too).
 * @param {string} path
 */
function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * The first entry under `dir` (as a path relative to it) that cairn does not write, or null.
 * @param {string} dir
 * @param {RegExp[]} levels  the names cairn writes, by depth (see AtomicDirectory)
 * @param {RegExp | null} [files]  files cairn writes at this depth besides
 * @returns {string | null}
 */
function foreignEntry(dir, levels, files = null) {
  const [names, ...deeper] = levels;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (files !== null && entry.isFile() && files.test(entry.name)) continue;
    const kindFits = deeper.length > 0 ? entry.isDirectory() : entry.isFile();
    if (!kindFits || !names.test(entry.name)) return entry.name;
    if (deeper.length > 0) {
      const inner = foreignEntry(join(dir, entry.name), deeper);
      if (inner !== null) return `${entry.name}/${inner}`;
    }
  }
  return null;
}

/**
 * The first folder of the tree at `dir` (itself included) in which this user may not remove
 * entries: one without write and search permission. Root passes every such check, so other
 * failures (an immutable file) show only when removing; see `removeTree`.
 * @param {string} dir
 * @returns {string | null}  its path relative to `dir` ('' for `dir` itself), or null
 */
function lockedFolder(dir) {
  /** @type {string[]} */
  const open = [''];
  while (open.length > 0) {
    const at = /** @type {string} */ (open.pop());
    const path = join(dir, at);
    try {
      accessSync(path, constants.W_OK | constants.X_OK);
    } catch {
      return at;
    }
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) open.push(at === '' ? entry.name : `${at}/${entry.name}`);
    }
  }
  return null;
}

/**
 * Removes a tree, going on past what cannot be removed.
 * @param {string} dir
 * @returns {string | null}  the first entry that stayed (relative to `dir`) and why, or null
 *   when all of it went
 */
function removeTree(dir) {
  /** @type {string | null} */
  let stuck = null;
  /** @param {string} at  relative to dir, '' for dir itself */
  const remove = (at) => {
    const path = at === '' ? dir : join(dir, at);
    try {
      if (lstatSync(path).isDirectory()) {
        for (const name of readdirSync(path)) remove(at === '' ? name : `${at}/${name}`);
        rmdirSync(path);
      } else {
        unlinkSync(path);
      }
    } catch (error) {
      // A folder that stays because something in it stayed: that entry is the one to name.
      if (stuck === null && /** @type {any} */ (error).code !== 'ENOTEMPTY') stuck = `${at === '' ? '.' : at}: ${systemReason(error)}`;
    }
  };
  remove('');
  if (stuck === null && existsSync(dir)) stuck = `${readdirSync(dir)[0] ?? '.'}: not removed`;
  return stuck;
}

/**
 * Checks that an output can be made at `path`: the nearest existing directory above it must
 * take new entries.
 * @param {string} path
 * @param {string} where  the option and target, for messages
 * @throws {UsageError}
 */
export function checkWritableAbove(path, where) {
  let above = dirname(resolve(path));
  while (!existsSync(above)) above = dirname(above);
  if (!statSync(above).isDirectory()) throw new UsageError(`${where}: ${above} is not a directory`);
  try {
    accessSync(above, constants.W_OK);
  } catch {
    throw new UsageError(`${where}: cannot write in ${above}`);
  }
}

/**
 * Keeps a temporary output of another kind (a file, see atomic-file.js) among those a second
 * signal removes, until it is released.
 * @param {string} path
 */
export function holdTemporary(path) {
  pending.set(path, null);
}

/** @param {string} path  a temporary renamed into place or removed */
export function releaseTemporary(path) {
  pending.delete(path);
}

/**
 * Removes every temporary directory still pending, as well as it can: for a second signal,
 * when there is no time to stop the writer thread first (it may still be adding a file).
 */
export function removeAll() {
  for (const [path, removeMadeAbove] of pending) {
    try {
      rmSync(path, { recursive: true, force: true });
      removeMadeAbove?.();
    } catch {
      // Nothing more to do on the way out.
    }
  }
  pending.clear();
}
