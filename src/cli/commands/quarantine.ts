/**
 * `cosci-safety quarantine list | show ID | release ID | confirm ID`: the
 * scientist's review of held hypotheses, from a terminal. The same service
 * as the HTTP review API.
 */
import { parseArgs } from 'node:util';
import { createBlockingConnection } from '../../queues/connection.js';
import { buildReviewService } from '../../runtime/builders.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../usage-error.js';

export const QUARANTINE_USAGE = `cosci-safety quarantine list [--config FILE] [--limit N] [--json]
cosci-safety quarantine show ID [--config FILE]
cosci-safety quarantine release ID --by NAME --note TEXT [--revision N] [--config FILE]
cosci-safety quarantine confirm ID --by NAME --note TEXT [--revision N] [--config FILE]
  Lists the held (quarantined or blocked) hypotheses, shows one as JSON (text,
  verdict, evidence status, audit history), or records a person's decision on
  its latest revision: release lets it through, confirm keeps it blocked. A
  decision is final for the revision, emits hypothesis_released or
  hypothesis_confirmed, and is appended to the audit stream. With --revision,
  the decision is refused if a newer revision has arrived since.`;

export async function runQuarantine(args: string[], ctx: CliContext): Promise<number> {
  const [what, ...rest] = args;
  if (what !== 'list' && what !== 'show' && what !== 'release' && what !== 'confirm') {
    throw new UsageError(`quarantine: expected list, show, release or confirm\n\n${QUARANTINE_USAGE}`);
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      config: { type: 'string' },
      limit: { type: 'string', default: '200' },
      json: { type: 'boolean', default: false },
      by: { type: 'string' },
      note: { type: 'string' },
      revision: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const id = positionals[0];
  if (what !== 'list' && (id === undefined || positionals.length !== 1)) {
    throw new UsageError(`quarantine ${what}: expected one hypothesis id\n\n${QUARANTINE_USAGE}`);
  }
  if (what === 'release' || what === 'confirm') {
    if (values.by === undefined) throw new UsageError(`quarantine ${what}: --by NAME is required`);
    if (values.note === undefined) throw new UsageError(`quarantine ${what}: --note TEXT is required`);
  }
  let revision: number | undefined;
  if (values.revision !== undefined) {
    revision = Number(values.revision);
    if (!Number.isInteger(revision) || revision < 0) {
      throw new UsageError('quarantine: --revision must be a whole number');
    }
  }
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit <= 0)
    throw new UsageError('quarantine list: --limit must be a positive integer');

  const { config } = cliConfig(ctx, values.config);
  const redis = createBlockingConnection(config.redis, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    const service = buildReviewService(config, redis);
    if (what === 'list') {
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
      return 0;
    }
    if (what === 'show') {
      ctx.stdout.write(JSON.stringify(await service.show(id!), null, 2) + '\n');
      return 0;
    }
    const result = await service.decide(what === 'release' ? 'released' : 'confirmed', {
      hypothesisId: id!,
      by: values.by!,
      note: values.note!,
      ...(revision === undefined ? {} : { revision }),
    });
    ctx.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  } finally {
    redis.disconnect();
  }
}
