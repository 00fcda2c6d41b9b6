/** `cosci-safety events tail [--from ID] [--count N] [--follow]`: prints events as JSON lines. */
import { parseArgs } from 'node:util';
import { readEvents, waitForEvents } from '../../events/reader.js';
import { createBlockingConnection } from '../../queues/connection.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../usage-error.js';

export const EVENTS_USAGE = `cosci-safety events tail [--config FILE] [--from ID] [--count N] [--follow]
  Prints events of the stream as JSON lines: the last N (default 20), or those
  from stream id ID; with --follow, waits for new ones until interrupted.`;

export async function runEvents(args: string[], ctx: CliContext): Promise<number> {
  const [what, ...rest] = args;
  if (what !== 'tail') throw new UsageError(`events: expected 'tail'\n\n${EVENTS_USAGE}`);
  const { values } = parseArgs({
    args: rest,
    options: {
      config: { type: 'string' },
      from: { type: 'string' },
      count: { type: 'string', default: '20' },
      follow: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const count = Number(values.count);
  if (!Number.isInteger(count) || count <= 0) throw new UsageError('events tail: --count must be a positive integer');
  const { config } = cliConfig(ctx, values.config);
  const redis = createBlockingConnection(config.redis, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  const stream = config.redis.events_stream;
  try {
    let events;
    if (values.from !== undefined) {
      events = await readEvents(redis, stream, values.from, count);
    } else {
      const last = (await redis.xrevrange(stream, '+', '-', 'COUNT', count)) as Array<[string, string[]]>;
      events = last.length > 0 ? await readEvents(redis, stream, last.at(-1)![0], count) : [];
    }
    for (const e of events) ctx.stdout.write(JSON.stringify(e) + '\n');
    if (!values.follow) return 0;
    let after = events.at(-1)?.id ?? '$';
    let stop = false;
    const onSignal = () => {
      stop = true;
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    while (!stop) {
      for (const e of await waitForEvents(redis, stream, after, 1000)) {
        ctx.stdout.write(JSON.stringify(e) + '\n');
        after = e.id;
      }
    }
    return 0;
  } finally {
    redis.disconnect();
  }
}
