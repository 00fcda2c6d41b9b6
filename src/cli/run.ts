/** Dispatch of the `cosci-safety` subcommands. */
import { QuotingError } from '../safety/quoting/index.js';
import { CLASSIFY_USAGE, runClassify } from './commands/classify.js';
import { EVENTS_USAGE, runEvents } from './commands/events.js';
import { PUBLISH_USAGE, runPublish, runSubmit } from './commands/publish.js';
import { QUARANTINE_USAGE, runQuarantine } from './commands/quarantine.js';
import { QUOTE_USAGE, runQuote } from './commands/quote.js';
import { WORKER_USAGE, runWorker } from './commands/worker.js';
import { VERIFY_USAGE, runVerify } from './commands/verify.js';
import { CosciError } from '../errors.js';
import type { CliContext } from './context.js';
import { UsageError } from './usage-error.js';

const USAGE = `Usage: cosci-safety <command> [options]

Commands:
  worker      run the classification workers (Redis)
  publish     publish a hypothesis.saved or review.recorded job
  submit      submit a goal.submitted job, optionally waiting for its verdict
  classify    classify text once with the configured model (no Redis)
  verify      check once that an excerpt is on a web page (no Redis)
  events      print events from the stream
  quarantine  list held hypotheses, show one, release or confirm it
  quote       wrap untrusted text from stdin in boundary tags

Configuration: --config FILE, else COSCI_SAFETY_CONFIG, else ./cosci-safety.toml
if present, else defaults; REDIS_URL, ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL
override the file.

${WORKER_USAGE}

${PUBLISH_USAGE}

${CLASSIFY_USAGE}

${VERIFY_USAGE}

${EVENTS_USAGE}

${QUARANTINE_USAGE}

${QUOTE_USAGE}`;

type Command = (args: string[], ctx: CliContext) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  quote: runQuote,
  worker: runWorker,
  publish: runPublish,
  submit: runSubmit,
  classify: runClassify,
  events: runEvents,
  verify: runVerify,
  quarantine: runQuarantine,
};

export async function main(argv: string[], ctx: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    ctx.stdout.write(USAGE + '\n');
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    ctx.stderr.write(`cosci-safety: unknown command '${name}'\n\n${USAGE}\n`);
    return 2;
  }
  try {
    return await command(rest, ctx);
  } catch (err) {
    if (
      err instanceof UsageError ||
      (err instanceof Error && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      ctx.stderr.write(`cosci-safety: ${err.message}\n`);
      return 2;
    }
    if (err instanceof CosciError) {
      ctx.stderr.write(`cosci-safety: ${err.code}: ${err.message}\n`);
      return 1;
    }
    if (err instanceof QuotingError) {
      ctx.stderr.write(`cosci-safety: ${err.code}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
