#!/usr/bin/env node
/**
 * The `cosci-safety` command. The only module that reads process.env and
 * process.argv: everything below it receives them.
 */
import type { CliContext } from './context.js';
import { main, oneLine } from './run.js';

const ctx: CliContext = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
main(process.argv.slice(2), ctx).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // main reports every failure itself; this is a last resort, still one line.
    process.stderr.write(`cosci-safety: INTERNAL: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
    process.exitCode = 1;
  },
);
