/**
 * `cosci-safety verify --url U --excerpt E`: one-off citation check, no Redis
 * (no cache): fetches the page with every guard of the worker and prints the
 * result as JSON, with the page it was checked against.
 *
 * `cosci-safety verify --recheck REVIEW_ID [--revision N]`: the evidence of a
 * review the worker verified, checked again against its pages as they are
 * now (src/citations/rechecker.ts); reads the result from Redis and emits
 * its events there.
 */
import { buildParsePool, buildRechecker, buildVerifier } from '../../runtime/builders.js';
import { expectPositionals, parseCommand } from '../args.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { exitCodeOfCitation, exitCodeOfRecheck } from '../exit-codes.js';
import { readInputFile } from '../io.js';
import { withRedis } from '../redis.js';
import { UsageError } from '../usage-error.js';
import { VERIFY_USAGE } from '../usage.js';

export async function runVerify(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand('verify', VERIFY_USAGE, args, {
    config: { type: 'string' },
    url: { type: 'string' },
    excerpt: { type: 'string' },
    'excerpt-file': { type: 'string' },
    recheck: { type: 'string' },
    revision: { type: 'string' },
  });
  expectPositionals('verify', positionals, 0, 'no arguments');
  if (values.recheck !== undefined) {
    if (values.url !== undefined || values.excerpt !== undefined || values['excerpt-file'] !== undefined)
      throw new UsageError('verify: give --recheck REVIEW_ID, or --url with --excerpt, not both', 'verify');
    return recheck(values.recheck, values.revision, values.config, ctx);
  }
  if (values.revision !== undefined) throw new UsageError('verify: --revision goes with --recheck', 'verify');
  if (!values.url) throw new UsageError('verify: --url is required (or --recheck REVIEW_ID)', 'verify');
  if (values.excerpt !== undefined && values['excerpt-file'] !== undefined)
    throw new UsageError('verify: give --excerpt or --excerpt-file, not both', 'verify');
  const excerpt = values['excerpt-file'] !== undefined ? await readInputFile(values['excerpt-file']) : values.excerpt;
  if (excerpt === undefined) throw new UsageError('verify: --excerpt or --excerpt-file is required', 'verify');
  const { config } = cliConfig(ctx, values.config);
  // The page is parsed in a thread under the worker's bounds, as in the worker.
  const parsePool = buildParsePool(config);
  try {
    const verifier = buildVerifier(config, { reader: parsePool });
    const { results, pages } = await verifier.verifyWithPages([{ claim: '', url: values.url, excerpt }]);
    const result = results[0]!;
    const page = pages[result.url];
    ctx.stdout.write(JSON.stringify(page === undefined ? result : { ...result, page }, null, 2) + '\n');
    return exitCodeOfCitation(result);
  } finally {
    await parsePool.close();
  }
}

async function recheck(reviewId: string, rawRevision: string | undefined, file: string | undefined, ctx: CliContext) {
  let revision: number | undefined;
  if (rawRevision !== undefined) {
    revision = Number(rawRevision);
    if (!/^\d+$/.test(rawRevision) || !Number.isSafeInteger(revision)) {
      throw new UsageError(`verify: --revision must be a whole number, got '${rawRevision}'`, 'verify');
    }
  }
  if (reviewId.trim() === '') throw new UsageError('verify: --recheck needs a review id', 'verify');
  const { config } = cliConfig(ctx, file);
  const parsePool = buildParsePool(config);
  try {
    return await withRedis(config, async (redis) => {
      const report = await buildRechecker(config, redis, parsePool).recheck(reviewId, revision);
      ctx.stdout.write(JSON.stringify(report, null, 2) + '\n');
      return exitCodeOfRecheck(report);
    });
  } finally {
    await parsePool.close();
  }
}
