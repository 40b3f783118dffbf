// The demo's static server, run as `./build.sh demo` runs it: MIME types the browser insists
// on (application/wasm for streaming compilation), nothing outside its root, the printed
// address, and a clean exit on SIGTERM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';

const serveScript = fileURLToPath(new URL('../../demo/serve.js', import.meta.url));

/**
 * Starts serve.js in its own process and resolves with it and the address it printed.
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} [env]
 */
async function startServe(args, env = process.env) {
  const child = spawn(process.execPath, [serveScript, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (d) => (output += d));
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      const match = /^Cairn demo: (http:\/\/localhost:(\d+)\/web\/demo\/)$/m.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve.js exited with ${code}: ${output}`)));
  });
  return { child, url: String(url), port: Number(new URL(String(url)).port) };
}

/**
 * One raw request, its path sent exactly as given (fetch would normalise `..` away).
 * @param {number} port
 * @param {string} path
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders, body: string }>}
 */
function get(port, path, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('serves files with their MIME types, refuses what is outside the root, stops on SIGTERM', async (t) => {
  const parent = await mkdtemp(join(tmpdir(), 'cairn-serve-'));
  t.after(() => rm(parent, { recursive: true, force: true }));
  const root = join(parent, 'root');
  await mkdir(join(root, 'web', 'demo'), { recursive: true });
  const wasm = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]); // an empty module
  await writeFile(join(root, 'web', 'm.wasm'), wasm);
  await writeFile(join(root, 'web', 'demo', 'index.html'), '<!doctype html><title>demo</title>');
  await writeFile(join(root, 'web', 'a.js'), 'export {};');
  await writeFile(join(root, 'web', 'd.json'), '[]');
  await writeFile(join(root, 'web', 'p.bin'), 'CAIRNPT1');
  await writeFile(join(root, 'web', 's.css'), 'body{}');
  await writeFile(join(root, 'web', 'i.svg'), '<svg/>');
  await writeFile(join(root, 'web', 'i.png'), '');
  await mkdir(join(root, '.git'));
  await writeFile(join(root, '.git', 'config'), 'hidden');
  await writeFile(join(parent, 'secret.txt'), 'outside the root');
  await symlink(join(parent, 'secret.txt'), join(root, 'web', 'link.txt'));
  // A folder whose index.html is a link outside the root: the folder's address must not serve it.
  await mkdir(join(root, 'web', 'linked'));
  await symlink(join(parent, 'secret.txt'), join(root, 'web', 'linked', 'index.html'));

  const { child, url, port } = await startServe(['--port', '0', '--root', root]);
  t.after(() => child.kill('SIGKILL'));
  assert.ok(port > 0, url);

  const wasmResponse = await fetch(`http://127.0.0.1:${port}/web/m.wasm`);
  assert.equal(wasmResponse.status, 200);
  assert.equal(wasmResponse.headers.get('content-type'), 'application/wasm');
  assert.deepEqual(Buffer.from(await wasmResponse.arrayBuffer()), wasm);
  assert.ok(WebAssembly.validate(wasm));

  const types = {
    '/web/a.js': 'text/javascript; charset=utf-8',
    '/web/d.json': 'application/json; charset=utf-8',
    '/web/p.bin': 'application/octet-stream',
    '/web/s.css': 'text/css; charset=utf-8',
    '/web/i.svg': 'image/svg+xml',
    '/web/i.png': 'image/png',
    '/web/demo/': 'text/html; charset=utf-8',
  };
  for (const [path, type] of Object.entries(types)) {
    const response = await get(port, path);
    assert.equal(response.status, 200, path);
    assert.equal(response.headers['content-type'], type, path);
  }

  const head = await get(port, '/web/a.js', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-length'], '10');
  assert.equal(head.body, '');

  const home = await get(port, '/');
  assert.equal(home.status, 302);
  assert.equal(home.headers.location, '/web/demo/');
  const folder = await get(port, '/web/demo');
  assert.equal(folder.status, 301);
  assert.equal(folder.headers.location, '/web/demo/');
  // A path with leading slashes redirects within this server: a Location of //web/demo/ is a
  // browser's address of the host "web".
  for (const path of ['/.//web/demo', '//web/demo', '/..//web/demo', '/.///web/demo?x=1']) {
    const redirect = await get(port, path);
    assert.equal(redirect.status, 301, path);
    assert.match(redirect.headers.location, /^\/web\/demo\/(\?x=1)?$/, path);
  }

  assert.equal((await get(port, '/web/missing.js')).status, 404);
  assert.equal((await get(port, '/web/')).status, 404); // a folder without index.html: no listing
  assert.equal((await get(port, '/web/a.js', 'POST')).status, 405);

  for (const path of ['/../secret.txt', '/web/../../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt',
    '/web/..%2f..%2fsecret.txt', '/web/%2e%2e%5c%2e%2e%5csecret.txt', '/web/link.txt', '/web/linked/', '/web/linked/index.html',
    '/.git/config', '/web/%00.js', '/%E0%A4%A']) {
    const response = await get(port, path);
    assert.ok(response.status === 403 || response.status === 404, `${path}: ${response.status}`);
    assert.doesNotMatch(response.body, /outside the root|hidden/, path);
  }

  child.kill('SIGTERM');
  const [code, signal] = await once(child, 'exit');
  assert.equal(code, 0);
  assert.equal(signal, null);
});

test('the port comes from PORT when --port is not given, and a bad one is a usage error', async (t) => {
  const { child, port } = await startServe([], { ...process.env, PORT: '0' });
  t.after(() => child.kill('SIGKILL'));
  assert.ok(port > 0);
  const busy = spawn(process.execPath, [serveScript, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let error = '';
  busy.stderr.on('data', (d) => (error += d));
  const [busyCode] = await once(busy, 'exit');
  assert.equal(busyCode, 1);
  assert.match(error, new RegExp(`port ${port} is in use`));
  child.kill('SIGINT');
  assert.equal((await once(child, 'exit'))[0], 0);

  const bad = spawn(process.execPath, [serveScript, '--port', 'eighty'], { stdio: 'ignore' });
  assert.equal((await once(bad, 'exit'))[0], 2);
});

test('the repository root is served by default: the demo, the engine and the module', async (t) => {
  const { child, url, port } = await startServe(['--port', '0']);
  t.after(() => child.kill('SIGKILL'));
  assert.equal(url, `http://localhost:${port}/web/demo/`);
  const index = await get(port, '/web/src/index.js');
  assert.equal(index.status, 200);
  assert.equal(index.headers['content-type'], 'text/javascript; charset=utf-8');
  const wasm = await get(port, '/web/dist/cairn.wasm', 'HEAD');
  // The module is built output: present whenever the test suite runs through ./build.sh test.
  assert.ok(wasm.status === 200 || wasm.status === 404);
  if (wasm.status === 200) assert.equal(wasm.headers['content-type'], 'application/wasm');
  child.kill('SIGTERM');
  assert.equal((await once(child, 'exit'))[0], 0);
});
