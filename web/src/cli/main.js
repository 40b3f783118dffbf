// The `cairn` command: argv in, exit code out. Every error ends here as one line on standard
// error and its exit code (2 for usage, 1 for the rest); a stack trace would only be noise
// for a person at a terminal.

import { readFileSync } from 'node:fs';

import { parseCommandLine } from './args.js';
import { runCluster } from './cluster-command.js';
import { EXIT } from './errors.js';
import { Interrupted, raise } from './signals.js';

/**
 * The version in web/package.json.
 * @returns {string}
 */
export function version() {
  return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
}

/**
 * Runs the command line.
 * @param {string[]} argv  arguments after the script
 * @param {import('./cluster-command.js').Io} io
 * @returns {Promise<number>} the exit code
 */
export async function main(argv, io) {
  try {
    const command = parseCommandLine(argv);
    if (command.command === 'help') {
      io.stdout.write(`${command.text}\n`);
    } else if (command.command === 'version') {
      io.stdout.write(`${version()}\n`);
    } else {
      await runCluster(command.args, io);
    }
    return EXIT.OK;
  } catch (error) {
    if (error instanceof Interrupted) {
      // Output is cleaned up: end as the signal would have.
      raise(error.signal);
      return EXIT.INPUT;
    }
    const e = /** @type {Error & {exitCode?: number, code?: string}} */ (error);
    // The reader of standard output went away (`| head`): nothing to tell it, but the output
    // is incomplete.
    if (e && e.code === 'EPIPE') return EXIT.INPUT;
    io.stderr.write(`cairn: ${e && e.message ? e.message : String(error)}\n`);
    if (e && e.exitCode === EXIT.USAGE && !/--help/.test(e.message)) io.stderr.write('(cairn cluster --help lists the options)\n');
    return e && typeof e.exitCode === 'number' ? e.exitCode : EXIT.INPUT;
  }
}
