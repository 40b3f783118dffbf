// An output file that appears complete or not at all, like AtomicDirectory's directories: the
// run writes under temporary names beside the target and renames the finished file into place.
// An existing target is replaced only with --force, and only when it is a file of the kind cairn
// writes there (its first bytes say so), never a directory or anything else.

import { closeSync, existsSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

import { UsageError, systemReason } from '../errors.js';
import { checkWritableAbove, holdTemporary, releaseTemporary } from './atomic-directory.js';

export class AtomicFile {
  /** @type {string[]} temporaries made so far: the file in the making first */
  #temporaries = [];

  /**
   * @param {string} target
   * @param {string} flag  the option that named it, for messages
   * @param {Uint8Array} magic  how a file cairn wrote there begins
   * @param {boolean} force  whether an existing output may be replaced
   */
  constructor(target, flag, magic, force) {
    this.target = target;
    this.flag = flag;
    this.magic = magic;
    this.force = force;
  }

  /** @throws {UsageError} when the target may not be written or replaced */
  check() {
    checkWritableAbove(this.target, `${this.flag} ${this.target}`);
    this.#checkExisting();
  }

  #checkExisting() {
    if (!existsSync(this.target)) return;
    const where = `${this.flag} ${this.target}`;
    if (!statSync(this.target).isFile()) throw new UsageError(`${where}: exists and is not a file`);
    if (!this.force) throw new UsageError(`${where}: already exists; use --force to replace it`);
    if (!this.#isOurs()) throw new UsageError(`${where}: is not a file cairn writes; not replacing it`);
  }

  #isOurs() {
    const head = new Uint8Array(this.magic.length);
    let fd = -1;
    try {
      fd = openSync(this.target, 'r');
      if (readSync(fd, head, 0, head.length, 0) !== head.length) return false;
    } catch {
      return false;
    } finally {
      if (fd >= 0) closeSync(fd);
    }
    return head.every((b, i) => b === this.magic[i]);
  }

  /**
   * A temporary path beside the target, removed on failure or a signal.
   * @param {string} role  what it holds, in its name
   * @returns {string}
   */
  temporary(role) {
    const path = join(dirname(resolve(this.target)), `.${basename(this.target)}.cairn-${process.pid}-${randomBytes(4).toString('hex')}.${role}.tmp`);
    this.#temporaries.push(path);
    holdTemporary(path);
    return path;
  }

  /**
   * Renames temporary `path` into place of the target.
   * @param {string} path
   * @throws {UsageError} when the target has become something that may not be replaced
   */
  commit(path) {
    this.#checkExisting();
    try {
      renameSync(path, this.target);
    } catch (error) {
      throw new UsageError(`${this.flag} ${this.target}: cannot move the new output into place (${systemReason(error)})`);
    }
    releaseTemporary(path);
    this.#temporaries = this.#temporaries.filter((t) => t !== path);
    this.discard();
  }

  /** Removes every temporary left. */
  discard() {
    for (const path of this.#temporaries) {
      rmSync(path, { force: true });
      releaseTemporary(path);
    }
    this.#temporaries = [];
  }
}
