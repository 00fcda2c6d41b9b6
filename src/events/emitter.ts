/**
 * Idempotent emission to the Redis Stream. Each event has a deterministic
 * eventId; a Lua script appends it only if that id was not seen (SET NX with a
 * TTL, then XADD, atomically), so a job that runs twice (retry, stalled
 * worker, redelivery) never appends a second copy.
 *
 * On Redis Cluster the stream key and the dedupe keys must share a slot: give
 * the stream a hash tag (`{cosci}:events`); the dedupe keys extend its name.
 */
import type { Redis } from 'ioredis';
import { EVENT_SCHEMAS, type EventDataOf, type EventType } from '../contracts/events.js';

const EMIT = `
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[1]) then
  if tonumber(ARGV[2]) > 0 then
    return redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'type', ARGV[3], 'eventId', ARGV[4], 'data', ARGV[5])
  end
  return redis.call('XADD', KEYS[1], '*', 'type', ARGV[3], 'eventId', ARGV[4], 'data', ARGV[5])
end
return false
`;

type RedisWithEmit = Redis & {
  cosciEmit(
    stream: string,
    seen: string,
    ttl: number,
    maxLen: number,
    type: string,
    eventId: string,
    data: string,
  ): Promise<string | null>;
};

export interface EmitterOptions {
  redis: Redis;
  stream: string;
  dedupeTtlSeconds: number;
  maxLen: number;
  /** Called once per event actually appended. */
  onEmitted?: (type: EventType) => void;
}

export interface EventEmitter {
  /** Appends the event unless its id was emitted before; returns the stream entry id, or undefined for a duplicate. */
  emit<T extends EventType>(type: T, eventId: string, data: EventDataOf<T>): Promise<string | undefined>;
}

export function createEventEmitter(options: EmitterOptions): EventEmitter {
  const redis = options.redis as RedisWithEmit;
  if (typeof redis.cosciEmit !== 'function') redis.defineCommand('cosciEmit', { numberOfKeys: 2, lua: EMIT });
  return {
    async emit(type, eventId, data) {
      // Validate what we write: a consumer in another language relies on the schema.
      const valid = EVENT_SCHEMAS[type].parse(data);
      const id = await redis.cosciEmit(
        options.stream,
        `${options.stream}:seen:${eventId}`,
        options.dedupeTtlSeconds,
        options.maxLen,
        type,
        eventId,
        JSON.stringify(valid),
      );
      if (id === null) return undefined;
      options.onEmitted?.(type);
      return id;
    },
  };
}
