// The module and its bindings: what was built, and whether the JS agrees with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { init, exportNames, BINDINGS, ABI_VERSION, getModule, isInitialized } from '../../src/core/wasm.js';
import { STATUS_CODES, OPTION_FIELDS, CairnError, errorFromStatus } from '../../src/core/errors.js';

const STATUS_CODES_BY_NAME = Object.fromEntries(Object.entries(STATUS_CODES).map(([n, s]) => [s.code, -Number(n)]));
import { ClusterIndex } from '../../src/index/cluster-index.js';
import * as publicApi from '../../src/index.js';

const wasmUrl = new URL('../../dist/cairn.wasm', import.meta.url);

/**
 * A minimal module that looks like cairn.wasm but reports another ABI version: the bytes of
 * (memory 1) (func _initialize) (func cairn_abi_version (result i32) i32.const <version>), with
 * an `unreachable` in `_initialize` if asked.
 */
function fakeModuleBytes(version, { trapOnInit = false } = {}) {
  const initBody = trapOnInit ? [0x00, 0x0b] : [0x0b];
  const str = (s) => [s.length, ...Buffer.from(s)];
  const section = (id, body) => [id, body.length, ...body];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [2, 0x60, 0, 0, 0x60, 0, 1, 0x7f]), // types: () → (), () → i32
    ...section(3, [2, 0, 1]), // two functions
    ...section(5, [1, 0, 1]), // one memory, 1 page
    ...section(7, [3, ...str('memory'), 2, 0, ...str('_initialize'), 0, 0, ...str('cairn_abi_version'), 0, 1]),
    ...section(10, [2, initBody.length + 1, 0, ...initBody, 4, 0, 0x41, version, 0x0b]),
  ]);
}

// These run first, while the module is not loaded yet (each test file is its own process).
test('a ClusterIndex before init() is a clear error', () => {
  assert.equal(isInitialized(), false);
  assert.throws(() => new ClusterIndex(), { name: 'CairnError', code: 'INVALID_STATE', message: /call `await init\(\)` first/ });
  assert.throws(() => getModule(), { code: 'INVALID_STATE', message: /init/ });
});

test('init refuses a module with another ABI version, and can be retried', async () => {
  await assert.rejects(init(fakeModuleBytes(2)), { code: 'MODULE_MISMATCH', message: /ABI version 2 but these bindings know version 1/ });
  assert.equal(isInitialized(), false);
});

test('init refuses a module without the cairn exports', async () => {
  const empty = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
  await assert.rejects(init(empty), { code: 'MODULE_MISMATCH', status: 0, message: /not cairn\.wasm/ });
});

test('init failures of reading and compiling have codes too, and keep their cause', async () => {
  await assert.rejects(init(new Uint8Array([1, 2, 3, 4])), (e) => e instanceof CairnError && e.code === 'MODULE_MISMATCH' &&
    e.cause instanceof WebAssembly.CompileError && /not a module these bindings can use/.test(e.message));
  const missing = fileURLToPath(new URL('./no-such-dir/cairn.wasm', import.meta.url));
  await assert.rejects(init(missing), (e) => e instanceof CairnError && e.code === 'MODULE_LOAD_FAILED' &&
    e.cause?.code === 'ENOENT' && e.message.includes('could not read the module'));
  await assert.rejects(init(fakeModuleBytes(ABI_VERSION, { trapOnInit: true })), (e) => e instanceof CairnError &&
    e.code === 'MODULE_MISMATCH' && e.cause instanceof WebAssembly.RuntimeError);
  await assert.rejects(init(42), { code: 'INVALID_ARGUMENT', message: /source must be/ });
  assert.equal(isInitialized(), false);
});

test('init loads once and is idempotent', async () => {
  const [a, b] = await Promise.all([init(), init()]);
  assert.equal(a, b);
  assert.equal(await init(), a);
  assert.equal(getModule(), a);
  assert.equal(a.abiVersion, ABI_VERSION);
});

/** Runs `init(<source expression>)` in a fresh Node process; resolves with what it prints. */
function initInChild(sourceExpression) {
  const script = `
    import { readFileSync } from 'node:fs';
    import { init } from ${JSON.stringify(new URL('../../src/core/wasm.js', import.meta.url).href)};
    const wasmUrl = new URL(${JSON.stringify(wasmUrl.href)});
    const mod = await init(${sourceExpression});
    console.log(mod.abiVersion, mod.recordStride);`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout, stderr) => {
      if (error) reject(new Error(`${sourceExpression}: ${stderr || error.message}`));
      else resolve(stdout.trim());
    });
  });
}

test('init takes every kind of source: path, URL, http, bytes, Module, Response', async () => {
  const bytes = await readFile(wasmUrl);
  const server = createServer((request, response) => {
    // /plain serves the wrong content type, which makes streaming compilation refuse it.
    if (request.url === '/missing') {
      response.writeHead(404);
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': request.url === '/plain' ? 'text/plain' : 'application/wasm' });
    response.end(bytes);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const expected = `1 ${(await init()).recordStride}`;
    const sources = [
      'undefined',
      'wasmUrl',
      'wasmUrl.href',
      JSON.stringify(fileURLToPath(wasmUrl)),
      JSON.stringify(`${base}/cairn.wasm`),
      'readFileSync(wasmUrl)',
      'new Uint8Array(readFileSync(wasmUrl)).buffer',
      'await WebAssembly.compile(readFileSync(wasmUrl))',
      `await fetch(${JSON.stringify(`${base}/cairn.wasm`)})`,
      `await fetch(${JSON.stringify(`${base}/plain`)})`,
    ];
    for (const source of sources) assert.equal(await initInChild(source), expected, source);
    await assert.rejects(initInChild('42'), /source must be/);
    await assert.rejects(initInChild(JSON.stringify(`${base}/missing`)), /MODULE_LOAD_FAILED[\s\S]*HTTP 404|HTTP 404[\s\S]*MODULE_LOAD_FAILED/);
    await assert.rejects(initInChild(`await fetch(${JSON.stringify(`${base}/missing`)})`), /HTTP 404[\s\S]*MODULE_LOAD_FAILED/);
  } finally {
    server.close();
  }
});

test('the built module imports nothing', async () => {
  const module = await WebAssembly.compile(await readFile(wasmUrl));
  assert.deepEqual(WebAssembly.Module.imports(module), []);
});

test('export/binding parity: every export bound, every binding exported', async () => {
  const module = await WebAssembly.compile(await readFile(wasmUrl));
  const exported = WebAssembly.Module.exports(module).map((e) => e.name).sort();
  const bound = exportNames().slice().sort();
  const cairnExports = exported.filter((name) => name.startsWith('cairn_'));
  for (const name of cairnExports) assert.ok(bound.includes(name), `export ${name} has no binding`);
  for (const name of bound) assert.ok(exported.includes(name), `binding ${name} is not exported`);
  assert.deepEqual(exported, bound);
});

test('binding signatures match the exports’ arity', async () => {
  const { instance } = await init();
  for (const [name, binding] of Object.entries(BINDINGS)) {
    assert.equal(instance.exports[name].length, binding.params.length, name);
    assert.ok(binding.doc.length > 0, name);
  }
});

test('ABI version and layout come from the module', async () => {
  const mod = await init();
  assert.equal(mod.fn.cairn_abi_version(), ABI_VERSION);
  assert.equal(mod.recordStride, mod.fn.cairn_record_stride());
  assert.ok(Number.isInteger(mod.recordStride) && mod.recordStride >= 4);
});

test('the status table covers every engine code', async () => {
  const mod = await init();
  const count = mod.fn.cairn_status_count();
  assert.ok(count >= 1);
  assert.equal(Object.keys(STATUS_CODES).length, count, 'table has codes the engine does not');
  const codes = new Set();
  for (let code = 1; code <= count; code++) {
    const info = STATUS_CODES[code];
    assert.ok(info, `status code ${code} has no entry`);
    assert.match(info.code, /^[A-Z_]+$/);
    codes.add(info.code);
    const error = errorFromStatus(-code, 7);
    assert.ok(error instanceof CairnError && error instanceof Error);
    assert.equal(error.code, info.code);
    assert.equal(error.status, -code);
    assert.equal(error.detail, 7);
    assert.ok(error.message.length > 10);
  }
  assert.equal(codes.size, count, 'codes are distinct');
});

test('error messages name what was wrong', () => {
  assert.equal(errorFromStatus(-4, 12).message, 'point 12 has a non-finite coordinate');
  assert.equal(errorFromStatus(-3, 0).message, 'option radius is out of range: must be a finite number > 0');
  assert.equal(errorFromStatus(-6, 123).message, 'no cluster with id 123 (unknown or stale)');
  assert.equal(errorFromStatus(-5, 3, { call: 'load' }).message, 'load: point 3 has a latitude outside -90…90');
  assert.equal(OPTION_FIELDS.length, 5);
  assert.deepEqual(OPTION_FIELDS.map((f) => f.name), ['radius', 'extent', 'minZoom', 'maxZoom', 'minPoints']);
  assert.equal(errorFromStatus(-99, 0).code, 'UNKNOWN');
});

test('index.js exports the public API', () => {
  assert.deepEqual(Object.keys(publicApi).sort(), ['CairnError', 'CairnMap', 'ClusterIndex', 'IndoorBuilding', 'MapEngine', 'MapIcon', 'Marker', 'WorkerClusterIndex', 'init', 'warmUp']);
});

test('memory limits are errors, not traps: too many points, an allocation too large', async () => {
  const { fn } = await init();
  const h = fn.cairn_index_create(40, 512, 0, 16, 2);
  assert.ok(h > 0);
  // A 32-bit module holds at most 2^24 points per index (their build must fit in 4 GiB).
  assert.equal(fn.cairn_index_reserve(h, 2 ** 24 + 1), STATUS_CODES_BY_NAME.TOO_MANY_POINTS);
  assert.equal(fn.cairn_index_reserve(h, 1000), 0);
  // A capacity whose byte size overflows 32 bits is refused, not wrapped.
  while (fn.cairn_index_build_step(h) > 0) { /* zero points: returns at once */ }
  assert.equal(fn.cairn_index_clusters(h, -180, -85, 180, 85, 0, 0, 0x20000000), STATUS_CODES_BY_NAME.INVALID_ARGUMENT);
  assert.equal(fn.cairn_index_tile(h, 0, 0, 0, 0, 0x7fffffff), STATUS_CODES_BY_NAME.INVALID_ARGUMENT);
  // Bigger than a buffer may be, or than memory has left: null, and the module lives on.
  assert.equal(fn.cairn_alloc(fn.cairn_buffer_limit() + 1), 0);
  assert.equal(fn.cairn_alloc(-1), 0);
  assert.equal(fn.cairn_index_destroy(h), 0);
  const p = fn.cairn_alloc(64);
  assert.ok(p > 0);
  assert.equal(fn.cairn_free(p), 0);
});
