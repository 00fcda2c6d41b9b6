/**
 * Idempotent emission to the Redis Stream. Each event has a deterministic
 * eventId; a Lua script appends it only if that id was not seen (SET NX with a
 * TTL, then XADD, atomically), so a job that runs twice (retry, stalled
 * worker, redelivery) never appends a second copy.
 *
 * A store can append events in the same script as its own writes (one round
 * trip, and the events exist exactly when the writes do): `prepare` validates
 * them and names their keys, `APPEND_EVENT_LUA` is the append, and the batch's
 * `settle` counts what the script appended.
 *
 * On Redis Cluster the stream key and the dedupe keys must share a slot: give
 * the stream a hash tag (`{cosci}:events`); the dedupe keys extend its name.
 *
 * With tracing on, each event is appended inside a span of its own, whose W3C
 * trace context the entry carries in its `traceparent` and `tracestate`
 * fields (event-spans.ts), so that a consumer continues the trace.
 */
import type { Redis } from 'ioredis';
import { EVENT_SCHEMAS, type EventDataOf, type EventType } from '../contracts/events.js';
import { withEventSpans, type EventTrace } from './event-spans.js';

/**
 * `appendEvent(stream, seen, ttl, maxLen, type, eventId, data, traceparent,
 * tracestate)`: the stream entry id, or false when the event's id was seen
 * before. The trace context fields are added only when given (not ''): an
 * entry without tracing is what it always was.
 */
export const APPEND_EVENT_LUA = `
local function appendEvent(stream, seen, ttl, maxLen, type, eventId, data, traceparent, tracestate)
  if not redis.call('SET', seen, '1', 'NX', 'EX', ttl) then return false end
  local fields = {'type', type, 'eventId', eventId, 'data', data}
  if traceparent ~= '' then
    fields[#fields + 1] = 'traceparent'
    fields[#fields + 1] = traceparent
    if tracestate ~= '' then
      fields[#fields + 1] = 'tracestate'
      fields[#fields + 1] = tracestate
    end
  end
  if tonumber(maxLen) > 0 then
    return redis.call('XADD', stream, 'MAXLEN', '~', maxLen, '*', unpack(fields))
  end
  return redis.call('XADD', stream, '*', unpack(fields))
end
`;

const EMIT = `${APPEND_EVENT_LUA}
return appendEvent(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])
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
    traceparent: string,
    tracestate: string,
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

/** An event validated and serialised, with its dedupe key: what a script appends. */
export interface PreparedEvent {
  type: EventType;
  eventId: string;
  /** The key that remembers the event's id (KEYS of the script). */
  seenKey: string;
  data: string;
}

/** Events to append in another module's script, with where and how. */
export interface EventBatch {
  stream: string;
  dedupeTtlSeconds: number;
  maxLen: number;
  events: PreparedEvent[];
  /** Reports what the script appended: `ids[i]` is events[i]'s entry id, or undefined for a duplicate. */
  settle(ids: Array<string | undefined>): void;
}

/**
 * Events a script appends with data it completes from a value it reads in
 * Redis (see VerdictStore.recordCached): each event's data is one JSON
 * object whose members are `before`, the members the script reads, then
 * `after`. Members are whole `"name":value` pairs, serialised one by one
 * (see jsonMembers), so the script joins them and adds the braces; it never
 * cuts a serialised object apart. Only the events the script picks are
 * appended.
 */
export interface EventTemplates {
  stream: string;
  dedupeTtlSeconds: number;
  maxLen: number;
  events: Array<{ type: EventType; eventId: string; seenKey: string }>;
  /** Members that come first in every event's data (may be empty). */
  before: string;
  /** Members that come last (may be empty). */
  after: string;
  /** Reports what the script appended. */
  settle(appended: EventType[]): void;
}

/**
 * The members of a JSON object, without its braces: `"a":1,"b":"x"`. Each
 * pair is serialised on its own; undefined values are left out, as
 * JSON.stringify leaves them out of an object.
 */
export function jsonMembers(fields: Record<string, unknown>): string {
  const out: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) out.push(`${JSON.stringify(name)}:${JSON.stringify(value)}`);
  }
  return out.join(',');
}

/**
 * `joinMembers(parts)`: a JSON object from member lists, the empty ones
 * skipped (the Lua twin of jsonMembers).
 */
export const JOIN_MEMBERS_LUA = `
local function joinMembers(parts)
  local present = {}
  for _, p in ipairs(parts) do if p ~= '' then present[#present + 1] = p end end
  return '{' .. table.concat(present, ',') .. '}'
end
`;

/** One event, its type and data matched. */
export type EventToEmit = { [T in EventType]: { type: T; eventId: string; data: EventDataOf<T> } }[EventType];

export interface EventEmitter {
  /** Appends the event unless its id was emitted before; returns the stream entry id, or undefined for a duplicate. */
  emit<T extends EventType>(type: T, eventId: string, data: EventDataOf<T>): Promise<string | undefined>;
  /** Emits each in turn (see emit); returns their entry ids. */
  emitAll(events: EventToEmit[]): Promise<Array<string | undefined>>;
  /** Validates events for a script that appends them with its own writes (see APPEND_EVENT_LUA). */
  prepare(events: EventToEmit[]): EventBatch;
  /** Names the keys of events whose data a script completes between the subject's fields `before` and `after`. */
  templates(
    events: Array<{ type: EventType; eventId: string }>,
    subject: { before: Record<string, unknown>; after: Record<string, unknown> },
  ): EventTemplates;
}

export function createEventEmitter(options: EmitterOptions): EventEmitter {
  const redis = options.redis as RedisWithEmit;
  if (typeof redis.cosciEmit !== 'function') redis.defineCommand('cosciEmit', { numberOfKeys: 2, lua: EMIT });
  const seenKey = (eventId: string) => `${options.stream}:seen:${eventId}`;
  // Validate what we write: a consumer in another language relies on the schema.
  const serialise = <T extends EventType>(type: T, data: EventDataOf<T>) =>
    JSON.stringify(EVENT_SCHEMAS[type].parse(data));
  return {
    async emit(type, eventId, data) {
      const json = serialise(type, data);
      const id = await withEventSpans(
        options.stream,
        [{ type, eventId }],
        async ([trace]: EventTrace[]) =>
          redis.cosciEmit(
            options.stream,
            seenKey(eventId),
            options.dedupeTtlSeconds,
            options.maxLen,
            type,
            eventId,
            json,
            trace!.traceparent,
            trace!.tracestate,
          ),
        (entry) => [entry !== null],
      );
      if (id === null) return undefined;
      options.onEmitted?.(type);
      return id;
    },
    async emitAll(events) {
      const ids: Array<string | undefined> = [];
      // A union of matched pairs: TypeScript cannot see that e.data fits e.type.
      for (const e of events) ids.push(await this.emit(e.type, e.eventId, e.data as never));
      return ids;
    },
    prepare(events) {
      const prepared = events.map(({ type, eventId, data }) => ({
        type,
        eventId,
        seenKey: seenKey(eventId),
        data: serialise(type, data as never),
      }));
      return {
        stream: options.stream,
        dedupeTtlSeconds: options.dedupeTtlSeconds,
        maxLen: options.maxLen,
        events: prepared,
        settle(ids) {
          prepared.forEach((e, i) => {
            if (ids[i] !== undefined) options.onEmitted?.(e.type);
          });
        },
      };
    },
    templates(events, subject) {
      return {
        stream: options.stream,
        dedupeTtlSeconds: options.dedupeTtlSeconds,
        maxLen: options.maxLen,
        events: events.map(({ type, eventId }) => ({ type, eventId, seenKey: seenKey(eventId) })),
        before: jsonMembers(subject.before),
        after: jsonMembers(subject.after),
        settle(appended) {
          for (const type of appended) options.onEmitted?.(type);
        },
      };
    },
  };
}
