/** Reading the event stream: for `cosci-safety events tail` and for tests. */
import type { Redis } from 'ioredis';

export interface StreamEvent {
  /** The stream entry id. */
  id: string;
  type: string;
  eventId: string;
  data: unknown;
}

function toEvent([id, fields]: [string, string[]]): StreamEvent {
  const map: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) map[fields[i]!] = fields[i + 1]!;
  let data: unknown = map.data;
  try {
    data = JSON.parse(map.data ?? 'null');
  } catch {
    // Leave a non-JSON payload as the string it is.
  }
  return { id, type: map.type ?? '', eventId: map.eventId ?? '', data };
}

/** Every entry from `start` (inclusive) on, up to `count`. */
export async function readEvents(redis: Redis, stream: string, start = '-', count = 1000): Promise<StreamEvent[]> {
  const entries = (await redis.xrange(stream, start, '+', 'COUNT', count)) as Array<[string, string[]]>;
  return entries.map(toEvent);
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
