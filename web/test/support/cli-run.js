// Running the `cairn` command in tests: as a script in its own process (exit codes, signals,
// real streams), or through main() in this process (fast, for long tables of cases).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Readable, Writable } from 'node:stream';

import { main } from '../../src/cli/main.js';

export const CLI = fileURLToPath(new URL('../../bin/cairn.js', import.meta.url));

/**
 * Runs the CLI in its own process.
 * @param {string[]} args
 * @param {{input?: string | Buffer, cwd?: string, command?: string[]}} [options]  `command`:
 *   what runs Node (e.g. a user switch such as setpriv and its arguments) before it
 * @returns {Promise<{code: number | null, signal: string | null, stdout: string, stderr: string}>}
 */
export function cairn(args, { input, cwd, command = [] } = {}) {
  return new Promise((resolve, reject) => {
    const [program, ...before] = [...command, process.execPath];
    const child = spawn(program, [...before, CLI, ...args], { cwd });
    let stdout = '';
    let stderr = '';
    // Decoded by the streams, so that a character split between two chunks stays whole.
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.on('error', () => {}); // the CLI may exit before reading all of it
    child.stdin.end(input);
  });
}

/**
 * Runs the command in this process, through the same main() the script calls.
 * @param {string[]} args
 * @param {{input?: string | Array<string | Buffer>}} [options]  standard input, whole or as the
 *   chunks it arrives in
 */
export async function cairnHere(args, { input = '' } = {}) {
  const stdout = [];
  const stderr = [];
  const sink = (chunks) => new Writable({ write(chunk, _, done) { chunks.push(Buffer.from(chunk)); done(); } });
  const code = await main(args, {
    stdin: Readable.from(Array.isArray(input) ? input.map((chunk) => Buffer.from(chunk)) : input ? [Buffer.from(input)] : []),
    stdout: sink(stdout),
    stderr: sink(stderr),
  });
  return { code, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() };
}
