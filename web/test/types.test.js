// The JSDoc types of web/src hold up under `tsc --checkJs --strict`, when TypeScript is
// installed (Debian: node-typescript); otherwise skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readdirSync } from 'node:fs';

const src = fileURLToPath(new URL('../src/', import.meta.url));
const tsc = spawnSync('tsc', ['--version'], { encoding: 'utf8' });
const missing = tsc.error ? 'tsc not found (install node-typescript to check the JSDoc types)' : false;

test('web/src type-checks with tsc --checkJs --strict', { skip: missing }, () => {
  // Every browser-side module, the renderer's folder included; the CLI (web/src/cli) needs
  // Node's type definitions, which are not installed here.
  const files = readdirSync(src, { recursive: true }).map(String)
    .filter((f) => f.endsWith('.js') && !f.startsWith('cli')).map((f) => src + f);
  const result = spawnSync('tsc', ['--noEmit', '--allowJs', '--checkJs', '--strict', '--target', 'es2022',
    '--module', 'es2022', '--moduleResolution', 'node', '--lib', 'es2022,dom', ...files], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});
