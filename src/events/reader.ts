/** Reading the event stream: for `cosci-safety events tail` and for tests. */
import type { Redis } from 'ioredis';

export interface StreamEvent {
  /** The stream entry id. */
  id: string;
  type: string;
  eventId: string;
  data: unknown;
  /** The entry's W3C trace context, when the service traced the event (docs/tracing.md). */
  traceparent?: string;
  tracestate?: string;
}

/** The event types to keep; undefined keeps every entry. */
export type TypeFilter = ReadonlySet<string> | undefined;

/** Entries read per round trip while looking for events of some types. */
const PAGE = 1000;

function toEvent([id, fields]: [string, string[]]): StreamEvent {
  const map: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) map[fields[i]!] = fields[i + 1]!;
  let data: unknown = map.data;
  try {
    data = JSON.parse(map.data ?? 'null');
  } catch {
    // Leave a non-JSON payload as the string it is.
  }
  const { traceparent, tracestate } = map;
  return {
    id,
    type: map.type ?? '',
    eventId: map.eventId ?? '',
    data,
    ...(traceparent !== undefined ? { traceparent } : {}),
    ...(tracestate !== undefined ? { tracestate } : {}),
  };
}

const kept = (types: TypeFilter) => (e: StreamEvent) => types === undefined || types.has(e.type);

/**
 * The first `count` events from `start` (inclusive) on, of the given types.
 * With a filter, reads on page by page until it has `count` or reaches the end.
 */
export async function readEvents(
  redis: Redis,
  stream: string,
  start = '-',
  count = 1000,
  types?: TypeFilter,
  pageSize = PAGE,
): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  const size = types === undefined ? count : pageSize;
  let from = start;
  for (;;) {
    const entries = (await redis.xrange(stream, from, '+', 'COUNT', size)) as Array<[string, string[]]>;
    out.push(...entries.map(toEvent).filter(kept(types)));
    if (out.length >= count || entries.length < size) return out.slice(0, count);
    from = `(${entries.at(-1)![0]}`;
  }
}

/**
 * The last `count` events of the given types, oldest first. With a filter,
 * reads back page by page until it has `count` or reaches the start.
 */
export async function readLastEvents(
  redis: Redis,
  stream: string,
  count: number,
  types?: TypeFilter,
  pageSize = PAGE,
): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  const size = types === undefined ? count : pageSize;
  let end = '+';
  for (;;) {
    const entries = (await redis.xrevrange(stream, end, '-', 'COUNT', size)) as Array<[string, string[]]>;
    out.push(...entries.map(toEvent).filter(kept(types)));
    if (out.length >= count || entries.length < size) return out.slice(0, count).reverse();
    end = `(${entries.at(-1)![0]}`;
  }
}

/** Blocks up to `blockMs` for entries after `after` (`$` for only new ones). */
export async function waitForEvents(
  redis: Redis,
  stream: string,
  after: string,
  blockMs: number,
): Promise<StreamEvent[]> {
  const result = (await redis.xread('COUNT', 100, 'BLOCK', blockMs, 'STREAMS', stream, after)) as Array<
    [string, Array<[string, string[]]>]
  > | null;
  return result?.[0]?.[1].map(toEvent) ?? [];
}
