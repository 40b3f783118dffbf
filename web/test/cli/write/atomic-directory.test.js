// Replacing an old output that cannot be removed (web/src/cli/write/atomic-directory.js): the
// run refuses up front when permissions show it, and when removing fails all the same (an
// immutable file), the new output stays in place and the run says what is left of the old
// one. Never a raw system error, never a temporary directory left unnamed.
//
// Permissions bind only a user other than root, and these tests usually run as root: the CLI
// then runs as nobody (setpriv), on a folder of nobody's. An immutable file or folder (chattr
// +i) binds root too, where the filesystem has the attribute. A case that can be set up
// neither way is skipped, saying why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CLI, cairn } from '../../support/cli-run.js';

/** Debian's nobody and nogroup. */
const NOBODY = 65534;
const AS_NOBODY = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];
const isRoot = process.getuid?.() === 0;

/**
 * How to run the CLI as a user whom permissions bind: as it is when this is not root, as nobody
 * when setpriv can switch to nobody and nobody can read the CLI; else why not.
 * @returns {{command: string[]} | {skip: string}}
 */
function unprivileged() {
  if (!isRoot) return { command: [] };
  const probe = spawnSync(AS_NOBODY[0], [...AS_NOBODY.slice(1), process.execPath, '-e',
    `require('fs').accessSync(${JSON.stringify(CLI)}, require('fs').constants.R_OK)`], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    return { skip: `running as root, and Node cannot run as nobody here (${probe.error?.message ?? probe.stderr.trim()})` };
  }
  return { command: AS_NOBODY };
}

/**
 * Whether files here can be made immutable (root, and a filesystem with the attribute).
 * @param {string} dir
 * @returns {string | false}  why not, or false when they can
 */
function noImmutableFiles(dir) {
  if (!isRoot) return 'only root can make a file immutable';
  const probe = join(dir, 'probe');
  writeFileSync(probe, '');
  const set = spawnSync('chattr', ['+i', probe], { encoding: 'utf8' });
  spawnSync('chattr', ['-i', probe]);
  rmSync(probe);
  if (set.error || set.status !== 0) return `chattr +i does not work here (${set.error?.message ?? set.stderr.trim()})`;
  return false;
}

let work = '';
before(() => {
  work = mkdtempSync(join(tmpdir(), 'cairn-atomic-test-'));
  chmodSync(work, 0o755);
});
after(() => {
  // What a test made read-only or immutable, made removable again.
  spawnSync('chattr', ['-R', '-i', work]);
  spawnSync('chmod', ['-R', 'u+w', work]);
  rmSync(work, { recursive: true, force: true });
});

let serial = 0;
/** A fresh folder, owned by whoever runs the CLI (nobody, when this is root). */
function folder(owner) {
  const dir = join(work, `${serial++}`);
  mkdirSync(dir);
  if (owner) chownSync(dir, NOBODY, NOBODY);
  return dir;
}

/** Names under `dir`, every depth, sorted ('/'-separated). */
const tree = (dir) => readdirSync(dir, { recursive: true }).map(String).sort();
const POINTS = 'lng,lat\n1,2\n3,4\n-100,40\n';

const user = unprivileged();

test('an old output whose files cannot be removed is not replaced, and the run says why', { skip: 'skip' in user ? user.skip : false }, async () => {
  const { command } = /** @type {{command: string[]} } */ (user);
  const dir = folder(isRoot);
  const input = join(dir, 'points.csv');
  writeFileSync(input, POINTS);
  if (isRoot) chownSync(input, NOBODY, NOBODY);
  // Tiles: a read-only folder inside the old pyramid.
  const tiles = join(dir, 'tiles');
  const first = await cairn(['cluster', input, '--tiles', tiles, '--max-zoom', '2'], { command });
  assert.equal(first.code, 0, first.stderr);
  const before = tree(tiles);
  chmodSync(join(tiles, '1'), 0o555);
  const tilesRun = await cairn(['cluster', input, '--tiles', tiles, '--max-zoom', '1', '--force'], { command });
  assert.equal(tilesRun.code, 2, tilesRun.stderr);
  assert.match(tilesRun.stderr, /^cairn: --tiles .*tiles: cannot remove the old output: no permission to remove the files in 1; not replacing it\n/);
  assert.deepEqual(tree(tiles), before, 'the old output is as it was');
  // GeoJSON: the output directory itself read-only.
  const out = join(dir, 'mine');
  assert.equal((await cairn(['cluster', input, '--out', out, '--max-zoom', '1'], { command })).code, 0);
  chmodSync(out, 0o555);
  const outRun = await cairn(['cluster', input, '--out', out, '--max-zoom', '2', '--force'], { command });
  assert.equal(outRun.code, 2, outRun.stderr);
  assert.match(outRun.stderr, /^cairn: --out .*mine: cannot remove the old output: no permission to remove the files in it; not replacing it\n/);
  assert.deepEqual(tree(out), ['z0.geojson', 'z1.geojson']);
  assert.deepEqual(readdirSync(dir).sort(), ['mine', 'points.csv', 'tiles'], 'no temporary directory is left');
  // Writable again, the old output is replaced.
  chmodSync(out, 0o755);
  const again = await cairn(['cluster', input, '--out', out, '--max-zoom', '2', '--force'], { command });
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(tree(out), ['z0.geojson', 'z1.geojson', 'z2.geojson']);
});

/**
 * A folder with points and an output of them, as root makes it, for a case that needs
 * immutable files; null (the test skipped, saying why) where they cannot be had.
 * @param {import('node:test').TestContext} t
 */
async function immutableCase(t) {
  const dir = folder(false);
  const why = noImmutableFiles(dir);
  if (why) {
    t.skip(why);
    return null;
  }
  const input = join(dir, 'points.csv');
  writeFileSync(input, POINTS);
  const out = join(dir, 'mine');
  assert.equal((await cairn(['cluster', input, '--out', out, '--max-zoom', '1'])).code, 0);
  return { dir, input, out };
}

test('an old output that fails to go all the same: the new one is in place, and the run names what is left', async (t) => {
  const made = await immutableCase(t);
  if (!made) return;
  const { dir, input, out } = made;
  writeFileSync(join(out, 'z0.geojson'), 'old');
  assert.equal(spawnSync('chattr', ['+i', join(out, 'z0.geojson')]).status, 0);
  const r = await cairn(['cluster', input, '--out', out, '--max-zoom', '2', '--force']);
  assert.equal(r.code, 0, r.stderr);
  const left = readdirSync(dir).filter((name) => name.endsWith('.old'));
  assert.equal(left.length, 1, `what is left of the old output: ${readdirSync(dir)}`);
  assert.equal(r.stderr, `cairn: --out ${out}: replaced, but the old output could not be removed whole ` +
    `(z0.geojson: operation not permitted); what is left of it is in ${join(dir, left[0])}\n`);
  assert.deepEqual(tree(out), ['z0.geojson', 'z1.geojson', 'z2.geojson']);
  assert.notEqual(readFileSync(join(out, 'z0.geojson'), 'utf8'), 'old');
  assert.deepEqual(tree(join(dir, left[0])), ['z0.geojson']);
  // --quiet keeps it: it is a problem to act on, not progress.
  spawnSync('chattr', ['-i', join(dir, left[0], 'z0.geojson')]);
  rmSync(join(dir, left[0]), { recursive: true });
  assert.equal(spawnSync('chattr', ['+i', join(out, 'z1.geojson')]).status, 0);
  const quiet = await cairn(['cluster', input, '--out', out, '--max-zoom', '0', '--force', '--quiet']);
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.match(quiet.stderr, /^cairn: --out .*: replaced, but the old output could not be removed whole \(z1\.geojson: operation not permitted\)/);
});

test('an immutable old output is refused up front, as one without permissions', async (t) => {
  const made = await immutableCase(t);
  if (!made) return;
  const { dir, input, out } = made;
  assert.equal(spawnSync('chattr', ['+i', out]).status, 0);
  const r = await cairn(['cluster', input, '--out', out, '--max-zoom', '2', '--force']);
  spawnSync('chattr', ['-i', out]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^cairn: --out .*mine: cannot remove the old output: no permission to remove the files in it; not replacing it\n/);
  assert.deepEqual(tree(out), ['z0.geojson', 'z1.geojson']);
  assert.deepEqual(readdirSync(dir).sort(), ['mine', 'points.csv'], 'no temporary directory is left');
});

test('an old output that cannot be moved aside stays, and the new one goes: a plain message', async (t) => {
  // Another user's output in a sticky folder (as /tmp is): its files may be removed, but only
  // its owner may rename it. Only root can set that up for nobody.
  if (!isRoot) return t.skip('needs root, to give the output to another user than the one who runs the CLI');
  if ('skip' in user) return t.skip(user.skip);
  const dir = folder(false);
  chmodSync(dir, 0o1777);
  const input = join(dir, 'points.csv');
  writeFileSync(input, POINTS);
  const out = join(dir, 'mine');
  assert.equal((await cairn(['cluster', input, '--out', out, '--max-zoom', '1'])).code, 0);
  chmodSync(out, 0o777);
  for (const name of readdirSync(out)) chmodSync(join(out, name), 0o666);
  const r = await cairn(['cluster', input, '--out', out, '--max-zoom', '2', '--force'], { command: user.command });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^cairn: --out .*mine: cannot replace it: cannot move the old output aside \(operation not permitted\)\n/);
  assert.deepEqual(tree(out), ['z0.geojson', 'z1.geojson']);
  assert.deepEqual(readdirSync(dir).sort(), ['mine', 'points.csv'], 'no temporary directory is left');
});
