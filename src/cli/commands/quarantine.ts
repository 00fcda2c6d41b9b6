/**
 * `cosci-safety quarantine list | show ID | release ID | confirm ID`: the
 * scientist's review of held hypotheses, from a terminal. The same service
 * as the HTTP review API.
 */
import { buildReviewService } from '../../runtime/builders.js';
import { expectPositionals, isHelp, parseCommand } from '../args.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { withRedis } from '../redis.js';
import { HelpRequest, UsageError } from '../usage-error.js';
import { QUARANTINE_USAGE } from '../usage.js';

const SUBCOMMANDS = ['list', 'show', 'release', 'confirm'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

export async function runQuarantine(args: string[], ctx: CliContext): Promise<number> {
  const [what, ...rest] = args;
  if (isHelp(what)) throw new HelpRequest(QUARANTINE_USAGE);
  if (!(SUBCOMMANDS as readonly string[]).includes(what ?? '')) {
    throw new UsageError(`quarantine: expected list, show, release or confirm, got '${what ?? ''}'`, 'quarantine');
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
  });
  const [id] =
    sub === 'list'
      ? expectPositionals(command, positionals, 0, 'no hypothesis id')
      : expectPositionals(command, positionals, 1, 'one hypothesis id');
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

  const { config } = cliConfig(ctx, values.config);
  return withRedis(config, async (redis) => {
    const service = buildReviewService(config, redis);
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
    });
    ctx.stdout.write(JSON.stringify(result) + '\n');
    return EXIT.ok;
  });
}
