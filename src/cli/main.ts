#!/usr/bin/env node
/**
 * The `cosci-safety` command. The only module that reads process.env and
 * process.argv: everything below it receives them.
 */
import type { CliContext } from './context.js';
import { EXIT } from './exit-codes.js';
import { main, oneLine } from './run.js';

// A reader that stops early (`| head -1`) closes the pipe, and the next
// write fails with EPIPE, which unheard ends the process with a stack. What
// the command had still to print has nowhere to go: it ends at once, quietly,
// with 141 (128 + SIGPIPE), what a shell reports of a program ended by a
// closed pipe, so that `set -o pipefail` does not read a cut answer as 0.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT.output_closed);
    if (stream !== process.stderr)
      process.stderr.write(`cosci-safety: INTERNAL: ${oneLine(`cannot write: ${err.message}`)}\n`);
    process.exit(EXIT.refused);
  });
}

const ctx: CliContext = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
main(process.argv.slice(2), ctx).then(
  (code) => {
    process.exitCode = code;
    // A wait given up at Ctrl-C leaves BullMQ's own timer for it behind, which
    // would hold the process until --timeout: end once the output is written.
    if (code === EXIT.interrupted) process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  },
  (err: unknown) => {
    // main reports every failure itself; this is a last resort, still one line.
    process.stderr.write(`cosci-safety: INTERNAL: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
    process.exitCode = EXIT.refused;
  },
);
