/**
 * `cosci-safety quarantine list | show ID | release ID | confirm ID |
 * reclassify --degraded`: the scientist's review of held hypotheses, from a
 * terminal. The same service as the HTTP review API.
 */
import { MAX_RECLASSIFY } from '../../review/reclassify.js';
import { buildReviewService } from '../../runtime/builders.js';
import { expectPositionals, isHelp, parseCommand } from '../args.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { withRedis } from '../redis.js';
import { HelpRequest, UsageError } from '../usage-error.js';
import { QUARANTINE_USAGE } from '../usage.js';

const SUBCOMMANDS = ['list', 'show', 'release', 'confirm', 'reclassify'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

export async function runQuarantine(args: string[], ctx: CliContext): Promise<number> {
  const [what, ...rest] = args;
  if (isHelp(what)) throw new HelpRequest(QUARANTINE_USAGE);
  if (!(SUBCOMMANDS as readonly string[]).includes(what ?? '')) {
    throw new UsageError(
      `quarantine: expected list, show, release, confirm or reclassify, got '${what ?? ''}'`,
      'quarantine',
    );
  }
  const sub = what as Subcommand;
  const command = `quarantine ${sub}`;
  const { values, positionals } = parseCommand(command, QUARANTINE_USAGE, rest, {
    config: { type: 'string' },
    limit: { type: 'string', default: '200' },
    json: { type: 'boolean', default: false },
    by: { type: 'string' },
    note: { type: 'string' },
    revision: { type: 'string' },
    degraded: { type: 'boolean', default: false },
    'override-claim': { type: 'boolean', default: false },
  });
  const [id] =
    sub === 'list' || sub === 'reclassify'
      ? expectPositionals(command, positionals, 0, 'no hypothesis id')
      : expectPositionals(command, positionals, 1, 'one hypothesis id');
  if (sub === 'reclassify') {
    // Only degraded verdicts are classified again; the flag says so on the command line, where it is read.
    if (!values.degraded) throw new UsageError(`${command}: --degraded is required`, 'quarantine');
    if (values.by === undefined) throw new UsageError(`${command}: --by NAME is required`, 'quarantine');
  }
  if (sub === 'release' || sub === 'confirm') {
    if (values.by === undefined) throw new UsageError(`${command}: --by NAME is required`, 'quarantine');
    if (values.note === undefined) throw new UsageError(`${command}: --note TEXT is required`, 'quarantine');
  }
  let revision: number | undefined;
  if (values.revision !== undefined) {
    revision = Number(values.revision);
    if (!Number.isInteger(revision) || revision < 0) {
      throw new UsageError(`${command}: --revision must be a whole number`, 'quarantine');
    }
  }
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit <= 0)
    throw new UsageError(`${command}: --limit must be a positive integer`, 'quarantine');

  const { config, logger } = cliConfig(ctx, values.config);
  return withRedis(config, async (redis) => {
    const service = buildReviewService(config, redis, undefined, logger);
    if (sub === 'reclassify') {
      if (!config.anthropic.api_key)
        logger.warn('no Anthropic API key: every verdict would stay degraded (no_api_key)');
      const result = await service.reclassify({
        by: values.by!,
        ...(values.note === undefined ? {} : { note: values.note }),
        limit: Math.min(limit, MAX_RECLASSIFY),
      });
      if (values.json) {
        ctx.stdout.write(JSON.stringify(result) + '\n');
        return EXIT.ok;
      }
      for (const item of result.items) {
        const what =
          item.outcome === 'reassessed'
            ? `reassessed\t${item.state}\t${item.action}\t${item.categories?.join(',') || '-'}\tconfidence ${(item.confidence ?? 0).toFixed(2)}`
            : item.outcome === 'still_degraded'
              ? `still degraded\t${item.reason ?? ''}`
              : `skipped\t${item.why ?? ''}`;
        ctx.stdout.write(`${item.hypothesisId}\trevision ${item.revision}\t${what}\n`);
      }
      ctx.stdout.write(
        `${result.reassessed} reassessed (${result.released} left the queue), ${result.stillDegraded} still degraded, ` +
          `${result.skipped} skipped, ${result.remaining} not asked (past the limit)\n`,
      );
      return EXIT.ok;
    }
    if (sub === 'list') {
      const items = await service.list(limit);
      if (values.json) {
        for (const item of items) ctx.stdout.write(JSON.stringify(item) + '\n');
      } else if (items.length === 0) {
        ctx.stdout.write('no held hypotheses\n');
      } else {
        for (const item of items) {
          const categories = item.categories.length > 0 ? item.categories.join(',') : '-';
          ctx.stdout.write(
            `${item.hypothesisId}\trevision ${item.revision}\t${item.state}\t${categories}\t` +
              `confidence ${item.confidence.toFixed(2)}${item.degraded ? '\tdegraded' : ''}\t${item.updatedAt}\n`,
          );
        }
      }
      return EXIT.ok;
    }
    if (sub === 'show') {
      ctx.stdout.write(JSON.stringify(await service.show(id!), null, 2) + '\n');
      return EXIT.ok;
    }
    const result = await service.decide(sub === 'release' ? 'released' : 'confirmed', {
      hypothesisId: id!,
      by: values.by!,
      note: values.note!,
      ...(revision === undefined ? {} : { revision }),
      ...(values['override-claim'] ? { confirm: true } : {}),
    });
    ctx.stdout.write(JSON.stringify(result) + '\n');
    return EXIT.ok;
  });
}
