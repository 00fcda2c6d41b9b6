/**
 * Dispatch of the `cosci-safety` subcommands, and the one place a command's
 * failure becomes what the user sees: one line, `cosci-safety: CODE:
 * message`, and the exit code of src/cli/exit-codes.ts. The stack only with
 * --debug or COSCI_DEBUG=1.
 */
import { CosciError } from '../errors.js';
import { isHelp } from './args.js';
import type { CliContext } from './context.js';
import { EXIT, exitCodeOfError } from './exit-codes.js';
import { HelpRequest, UsageError } from './usage-error.js';
import {
  CLASSIFY_USAGE,
  DEV_USAGE,
  EVENTS_USAGE,
  PUBLISH_USAGE,
  QUARANTINE_USAGE,
  QUOTE_USAGE,
  SCAN_USAGE,
  SUBMIT_USAGE,
  VERIFY_USAGE,
  WORKER_USAGE,
} from './usage.js';
import { packageVersion } from './version.js';

type Command = (args: string[], ctx: CliContext) => Promise<number>;

// Each command's code is loaded when it runs: a one-off command starts
// without the modules of the others (BullMQ, the model SDK, the parsers).
const COMMANDS: Record<string, { load: () => Promise<Command>; usage: string }> = {
  dev: { load: async () => (await import('./commands/dev.js')).runDev, usage: DEV_USAGE },
  worker: { load: async () => (await import('./commands/worker.js')).runWorker, usage: WORKER_USAGE },
  publish: { load: async () => (await import('./commands/publish.js')).runPublish, usage: PUBLISH_USAGE },
  submit: { load: async () => (await import('./commands/publish.js')).runSubmit, usage: SUBMIT_USAGE },
  classify: { load: async () => (await import('./commands/classify.js')).runClassify, usage: CLASSIFY_USAGE },
  verify: { load: async () => (await import('./commands/verify.js')).runVerify, usage: VERIFY_USAGE },
  events: { load: async () => (await import('./commands/events.js')).runEvents, usage: EVENTS_USAGE },
  quarantine: { load: async () => (await import('./commands/quarantine.js')).runQuarantine, usage: QUARANTINE_USAGE },
  quote: { load: async () => (await import('./commands/quote.js')).runQuote, usage: QUOTE_USAGE },
  scan: { load: async () => (await import('./commands/scan.js')).runScan, usage: SCAN_USAGE },
};

const EXIT_CODES = Object.entries(EXIT)
  .map(([name, code]) => `${code} ${name}`)
  .join(', ');

export const USAGE = `Usage: cosci-safety <command> [options]

Commands:
  dev         try it: a private Redis, the worker and the review page, until Ctrl-C
  worker      run the classification and citation workers (Redis)
  publish     publish a hypothesis.saved or review.recorded job
  submit      submit a goal or a final report, optionally waiting for the result
  classify    classify text once with the configured model (no Redis)
  verify      check once that an excerpt is on a web page (no Redis), or
              recheck the evidence of a review verified before
  events      print events from the stream
  quarantine  list held hypotheses, show one, release or confirm it
  quote       wrap untrusted text from stdin in boundary tags
  scan        check text for instructions addressed to an AI reader (no Redis)

Every command answers --help (-h). cosci-safety --version (-V) prints the
version. --debug (or COSCI_DEBUG=1) prints the stack with an error.

Configuration: --config FILE, else COSCI_SAFETY_CONFIG, else ./cosci-safety.toml
if present, else defaults; REDIS_URL, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL and
COSCI_REVIEW_TOKEN override the file.

Exit codes: ${EXIT_CODES} (docs/cli.md).

${Object.values(COMMANDS)
  .map((c) => c.usage)
  .join('\n\n')}`;

export async function main(argv: string[], ctx: CliContext): Promise<number> {
  // --debug may come before the command too; the commands accept it after theirs.
  const args = argv[0] === '--debug' ? argv.slice(1) : argv;
  const debug = argv.includes('--debug') || ctx.env.COSCI_DEBUG === '1';
  const [name, ...rest] = args;
  if (name === undefined) {
    // A failure like any other: one line, which names the commands and where the usage is.
    return report(new UsageError(`no command given; the commands: ${Object.keys(COMMANDS).join(', ')}`), ctx, debug);
  }
  if (isHelp(name)) {
    const topic = rest[0] === undefined ? undefined : COMMANDS[rest[0]];
    ctx.stdout.write((topic?.usage ?? USAGE) + '\n');
    return EXIT.ok;
  }
  if (name === '--version' || name === '-V') {
    ctx.stdout.write(packageVersion() + '\n');
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  try {
    if (!command) throw new UsageError(`unknown command '${name}'`);
    const run = await command.load();
    return await run(rest, ctx);
  } catch (err) {
    if (err instanceof HelpRequest) {
      ctx.stdout.write(err.usage + '\n');
      return EXIT.ok;
    }
    return report(err, ctx, debug);
  }
}

/** One line for the user; the exit code of the error's code. Anything without a code of ours is INTERNAL. */
function report(err: unknown, ctx: CliContext, debug: boolean): number {
  const error =
    err instanceof CosciError
      ? err
      : new CosciError('INTERNAL', err instanceof Error ? `${err.name}: ${err.message}` : String(err), { cause: err });
  const hint =
    error instanceof UsageError
      ? ` (cosci-safety ${error.command ?? ''}${error.command ? ' ' : ''}--help)`
      : error.code === 'INTERNAL' && !debug
        ? ' (--debug prints the stack)'
        : '';
  ctx.stderr.write(`cosci-safety: ${error.code}: ${oneLine(error.message)}${hint}\n`);
  if (debug) ctx.stderr.write(stackOf(err) + '\n');
  return exitCodeOfError(error.code);
}

/**
 * A message on one line, whatever made it: a script reads one line per
 * failure, and a message of several (a library's, a text echoed back) would
 * pass for several failures. Lines are joined with "; ", or a space after a
 * colon.
 */
export function oneLine(message: string): string {
  const lines = message
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.reduce(
    (joined, line) => (joined === '' ? line : `${joined}${joined.endsWith(':') ? ' ' : '; '}${line}`),
    '',
  );
}

/** The stack of an error and of each cause under it. */
function stackOf(err: unknown): string {
  const lines: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && depth < 5; depth++) {
    lines.push(depth === 0 ? '' : 'caused by:', e instanceof Error ? (e.stack ?? e.message) : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return lines.filter(Boolean).join('\n');
}
