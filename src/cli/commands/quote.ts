/**
 * `cosci-safety quote --id ID [--hypothesis] [--datamark]`: reads stdin, prints
 * the wrapped text on stdout and the report on stderr as one line of JSON.
 */
import { escapeId, QuotingError, quoteHypothesis, quoteUntrusted } from '../../safety/quoting/index.js';
import { expectPositionals, parseCommand } from '../args.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { readStdin } from '../io.js';
import { UsageError } from '../usage-error.js';
import { QUOTE_USAGE } from '../usage.js';

export async function runQuote(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand('quote', QUOTE_USAGE, args, {
    id: { type: 'string' },
    hypothesis: { type: 'boolean', default: false },
    datamark: { type: 'boolean', default: false },
  });
  expectPositionals('quote', positionals, 0, 'no arguments');
  if (values.id === undefined) throw new UsageError('quote: --id is required', 'quote');
  // Checked before stdin is read, as quoting would check it after: an empty or
  // over-long id is the quoting layer's QUOTING_BAD_ID, given or not on the command line.
  try {
    escapeId(values.id);
  } catch (err) {
    if (err instanceof QuotingError) throw new QuotingError(err.code, `quote: --id: ${err.message}`);
    throw err;
  }
  // A shell pipe ends its text with a newline; it is not part of the source.
  const input = (await readStdin(ctx.stdin)).replace(/\r?\n$/, '');
  const options = {
    datamark: values.datamark,
    // One text at a time: the command can afford the detector, and says what it found.
    detect: true,
    ...(ctx.env.COSCI_SAFETY_QUOTING_KEY ? { key: ctx.env.COSCI_SAFETY_QUOTING_KEY } : {}),
  };
  const quoted = values.hypothesis
    ? quoteHypothesis(input, values.id, options)
    : quoteUntrusted(input, { ...options, id: values.id });
  ctx.stdout.write(quoted.text + '\n');
  ctx.stderr.write(
    JSON.stringify({
      id: quoted.id,
      hash: quoted.hash,
      ...quoted.report,
      ...(quoted.marker === undefined ? {} : { marker: quoted.marker, preamble: quoted.preamble }),
    }) + '\n',
  );
  return EXIT.ok;
}
