/**
 * `cosci-safety verify --url U --excerpt E`: one-off citation check, no Redis
 * (no cache): fetches the page with every guard of the worker and prints the
 * result as JSON.
 */
import { buildParsePool, buildVerifier } from '../../runtime/builders.js';
import { expectPositionals, parseCommand } from '../args.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { exitCodeOfCitation } from '../exit-codes.js';
import { readInputFile } from '../io.js';
import { UsageError } from '../usage-error.js';
import { VERIFY_USAGE } from '../usage.js';

export async function runVerify(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand('verify', VERIFY_USAGE, args, {
    config: { type: 'string' },
    url: { type: 'string' },
    excerpt: { type: 'string' },
    'excerpt-file': { type: 'string' },
  });
  expectPositionals('verify', positionals, 0, 'no arguments');
  if (!values.url) throw new UsageError('verify: --url is required', 'verify');
  if (values.excerpt !== undefined && values['excerpt-file'] !== undefined)
    throw new UsageError('verify: give --excerpt or --excerpt-file, not both', 'verify');
  const excerpt = values['excerpt-file'] !== undefined ? await readInputFile(values['excerpt-file']) : values.excerpt;
  if (excerpt === undefined) throw new UsageError('verify: --excerpt or --excerpt-file is required', 'verify');
  const { config } = cliConfig(ctx, values.config);
  // The page is parsed in a thread under the worker's bounds, as in the worker.
  const parsePool = buildParsePool(config);
  try {
    const verifier = buildVerifier(config, { reader: parsePool });
    const [result] = await verifier.verify([{ claim: '', url: values.url, excerpt }]);
    ctx.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return exitCodeOfCitation(result!);
  } finally {
    await parsePool.close();
  }
}
