#!/usr/bin/env node
// `cairn`: batch clustering from the command line. The work is in src/cli/; see main.js.
import { main } from '../src/cli/main.js';

process.exitCode = await main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
