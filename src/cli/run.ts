/** Dispatch of the `cosci-safety` subcommands. */
import { QuotingError } from '../safety/quoting/index.js';
import { QUOTE_USAGE, runQuote } from './commands/quote.js';
import type { CliContext } from './context.js';
import { UsageError } from './usage-error.js';

const USAGE = `Usage: cosci-safety <command> [options]

Commands:
  quote       wrap untrusted text from stdin in boundary tags

Run 'cosci-safety <command> --help' for a command's options.

${QUOTE_USAGE}`;

type Command = (args: string[], ctx: CliContext) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  quote: runQuote,
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
    if (err instanceof QuotingError) {
      ctx.stderr.write(`cosci-safety: ${err.code}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
