/**
 * `cosci-safety verify --url U --excerpt E`: one-off citation check, no Redis
 * (no cache): fetches the page with every guard of the worker and prints the
 * result as JSON. Exit code 3 when the citation is not ok.
 */
import { parseArgs } from 'node:util';
import { buildParsePool, buildVerifier } from '../../runtime/builders.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../usage-error.js';

export const VERIFY_USAGE = `cosci-safety verify [--config FILE] --url URL (--excerpt TEXT | --excerpt-file FILE)
  Fetches URL (http or https, public addresses only unless allow-listed in
  citations.allow_private_hosts) and checks that the excerpt is on the page.
  Prints {status, reason?, excerptLen, ...}; exit code 3 when not ok.`;

export async function runVerify(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      config: { type: 'string' },
      url: { type: 'string' },
      excerpt: { type: 'string' },
      'excerpt-file': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    ctx.stdout.write(VERIFY_USAGE + '\n');
    return 0;
  }
  if (!values.url) throw new UsageError('verify: --url is required');
  let excerpt = values.excerpt;
  if (excerpt === undefined && values['excerpt-file'] !== undefined) {
    const { readFile } = await import('node:fs/promises');
    excerpt = await readFile(values['excerpt-file'], 'utf8');
  }
  if (excerpt === undefined) throw new UsageError('verify: --excerpt or --excerpt-file is required');
  const { config } = cliConfig(ctx, values.config);
  // The page is parsed in a thread under the worker's bounds, as in the worker.
  const parsePool = buildParsePool(config);
  try {
    const verifier = buildVerifier(config, { reader: parsePool });
    const [result] = await verifier.verify([{ claim: '', url: values.url, excerpt }]);
    ctx.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return result!.status === 'ok' ? 0 : 3;
  } finally {
    await parsePool.close();
  }
}
