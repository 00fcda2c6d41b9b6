/** `cosci-safety events tail [--from ID] [--count N] [--type TYPES] [--follow]`: prints events as JSON lines. */
import { EVENT_TYPES } from '../../contracts/events.js';
import { readEvents, readLastEvents, waitForEvents, type TypeFilter } from '../../events/reader.js';
import type { Redis } from 'ioredis';
import { expectPositionals, isHelp, parseCommand } from '../args.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { withRedis } from '../redis.js';
import { HelpRequest, UsageError } from '../usage-error.js';
import { EVENTS_USAGE } from '../usage.js';

/** The types named by each --type, checked against the known ones. */
export function parseTypes(values: readonly string[] | undefined): TypeFilter {
  if (values === undefined) return undefined;
  const types = new Set<string>();
  for (const value of values) {
    for (const name of value.split(',').map((t) => t.trim())) {
      if (name === '')
        throw new UsageError('events tail: --type needs event types, e.g. --type hypothesis_quarantined', 'events');
      if (!(EVENT_TYPES as readonly string[]).includes(name)) {
        throw new UsageError(
          `events tail: unknown event type '${name}'; known types: ${EVENT_TYPES.join(', ')}`,
          'events',
        );
      }
      types.add(name);
    }
  }
  return types;
}

/** A stream entry id as XRANGE takes it: `-` (the start), or `<ms>` or `<ms>-<seq>`. */
const STREAM_ID = /^(-|\d+(-\d+)?)$/;

export async function runEvents(args: string[], ctx: CliContext): Promise<number> {
  const [what, ...rest] = args;
  if (isHelp(what)) throw new HelpRequest(EVENTS_USAGE);
  if (what !== 'tail') throw new UsageError(`events: expected 'tail', got '${what ?? ''}'`, 'events');
  const { values, positionals } = parseCommand('events tail', EVENTS_USAGE, rest, {
    config: { type: 'string' },
    from: { type: 'string' },
    count: { type: 'string', default: '20' },
    type: { type: 'string', multiple: true },
    follow: { type: 'boolean', default: false },
  });
  expectPositionals('events tail', positionals, 0, 'no more arguments');
  const count = Number(values.count);
  if (!Number.isInteger(count) || count <= 0)
    throw new UsageError('events tail: --count must be a positive integer', 'events');
  if (values.from !== undefined && !STREAM_ID.test(values.from)) {
    throw new UsageError(
      `events tail: --from must be a stream entry id such as 1712345678901-0 (the "id" of an event), got '${values.from}'`,
      'events',
    );
  }
  const types = parseTypes(values.type);
  const { config } = cliConfig(ctx, values.config);
  const stream = config.redis.events_stream;
  return withRedis(config, async (redis) => {
    // The newest entry before reading: following goes on from there at the
    // latest, so that no entry added meanwhile is missed, whatever its type.
    const head = values.follow ? await lastEntryId(redis, stream) : undefined;
    const events =
      values.from !== undefined
        ? await readEvents(redis, stream, values.from, count, types)
        : await readLastEvents(redis, stream, count, types);
    for (const e of events) ctx.stdout.write(JSON.stringify(e) + '\n');
    if (!values.follow) return EXIT.ok;
    const last = events.at(-1)?.id;
    // Reading from an id stopped at `count` events: the next ones follow.
    // Otherwise the read went to the end, and nothing up to `head` is due.
    let after = (values.from !== undefined && events.length === count ? last : laterId(head, last)) ?? '0-0';
    let stop = false;
    const onSignal = () => {
      stop = true;
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      while (!stop) {
        for (const e of await waitForEvents(redis, stream, after, 1000)) {
          if (types === undefined || types.has(e.type)) ctx.stdout.write(JSON.stringify(e) + '\n');
          after = e.id;
        }
      }
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    return EXIT.ok;
  });
}

/** The later of two stream entry ids (`<ms>-<seq>`). */
function laterId(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const [am, as] = a.split('-').map(BigInt) as [bigint, bigint];
  const [bm, bs] = b.split('-').map(BigInt) as [bigint, bigint];
  return am > bm || (am === bm && as > bs) ? a : b;
}

async function lastEntryId(redis: Redis, stream: string): Promise<string | undefined> {
  const last = (await redis.xrevrange(stream, '+', '-', 'COUNT', 1)) as Array<[string, string[]]>;
  return last[0]?.[0];
}
