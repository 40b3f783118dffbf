// The command line's checks (web/src/cli/args.js): every value out of range gets the range
// message, negative numbers too, which Node's parser would take for options.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { parseCommandLine } from '../../src/cli/args.js';
import { UsageError } from '../../src/cli/errors.js';

const refused = (argv, message) => assert.throws(() => parseCommandLine(['cluster', '-', ...argv]),
  (error) => error instanceof UsageError && message.test(error.message), `${argv.join(' ')}`);

test('a negative number after an option is its value, refused with the range message', () => {
  refused(['--zoom', '-1'], /^--zoom must be an integer from 0 to 30, not "-1"$/);
  refused(['--zoom', '0', '--precision', '-1'], /^--precision must be an integer from 0 to 12, not "-1"$/);
  refused(['--zoom', '0', '--min-zoom', '-2'], /^--min-zoom must be an integer from 0 to 30, not "-2"$/);
  refused(['--zoom', '0', '--max-zoom', '-0.5'], /^--max-zoom must be an integer from 0 to 30, not "-0.5"$/);
  refused(['--zoom', '0', '--radius', '-40'], /^--radius must be a number above 0, not "-40"$/);
  refused(['--zoom', '0', '--extent', '-.5'], /^--extent must be a number above 0, not "-.5"$/);
  refused(['--zoom', '0', '--min-points', '-3e2'], /^--min-points must be an integer 1 or more, not "-3e2"$/);
  // As with the value written after '=', and as --zoom 99 is told.
  refused(['--zoom=-1'], /^--zoom must be an integer from 0 to 30, not "-1"$/);
  refused(['--zoom', '99'], /^--zoom must be an integer from 0 to 30, not "99"$/);
});

test('what follows an option and is not a number is still read as before', () => {
  // An option after an option that needs a value: Node's parser says the value is ambiguous.
  refused(['--zoom', '--force'], /--zoom' argument is ambiguous/);
  refused(['--zoom', '-q'], /--zoom' argument is ambiguous/);
  // A negative number where no value is taken is no value: an unknown option.
  refused(['--zoom', '1', '--force', '-1'], /Unknown option '-1'/);
  // After `--`, everything is an argument.
  refused(['--zoom', '1', '--', '-1'], /^unexpected argument "-1" \(one INPUT only\)$/);
  const { args } = /** @type {any} */ (parseCommandLine(['cluster', '-', '--zoom', '3', '--precision', '4']));
  assert.equal(args.zoom, 3);
  assert.equal(args.precision, 4);
});
