// docs/c-abi.md is the C ABI's reference: it must name every export the bindings use and
// every status code the module defines, so that an export or a code added is documented too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { BINDINGS } from '../src/core/wasm.js';
import { STATUS_CODES } from '../src/core/errors.js';

const doc = readFileSync(new URL('../../docs/c-abi.md', import.meta.url), 'utf8');

test('docs/c-abi.md names every export the bindings use', () => {
  // Named as an export: in backquotes, followed by its arguments or the closing quote.
  const missing = Object.keys(BINDINGS).filter((name) => !new RegExp(`\`${name}[(\`]`).test(doc));
  assert.deepEqual(missing, []);
});

test('docs/c-abi.md lists every status code with its name', () => {
  const missing = Object.entries(STATUS_CODES)
    .filter(([code, { code: name }]) => !new RegExp(`^\\| ${code} \\| \`${name}\` \\|`, 'm').test(doc))
    .map(([code, { code: name }]) => `${code} ${name}`);
  assert.deepEqual(missing, []);
  assert.ok(Object.keys(STATUS_CODES).length >= 22);
});
