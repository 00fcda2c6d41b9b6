/**
 * A typed consumer of the event stream for downstream services, on a Redis
 * Streams consumer group (docs/contract.md#consuming-events).
 *
 * Delivery is at least once: an entry is acknowledged (XACK) only after its
 * handler resolves, so an entry whose handler failed, or whose consumer died,
 * stays pending in the group and is claimed (XAUTOCLAIM) by any consumer of
 * the group once it has been idle for `claimIdleMs`. Handlers should be
 * idempotent; `eventId` identifies an event across redeliveries.
 *
 * Entries of types the consumer does not handle are acknowledged and skipped.
 * An entry that does not match its event's schema is reported and then
 * acknowledged: it would be just as malformed on every redelivery, and it
 * stays in the stream for inspection (XRANGE by its id).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { SpanKind, type Telemetry } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  createConsumerConnection,
  givenClient,
  type ClientConnection,
  type RedisTarget,
} from '../queues/connection.js';
import {
  EVENT_SCHEMAS,
  EVENT_TYPES,
  TRACEPARENT_PATTERN,
  type EventDataOf,
  type EventType,
} from '../contracts/events.js';
import { formatIssuesInline } from '../contracts/issues.js';
import { CosciError } from '../errors.js';

/** One event as a handler receives it: its type and data matched, the data validated. */
export type ConsumedEvent<T extends EventType = EventType> = {
  [K in T]: {
    /** The stream entry id; the group acknowledges by it. */
    id: string;
    type: K;
    /** The event's deterministic id: the same on every delivery of the event. */
    eventId: string;
    data: EventDataOf<K>;
    /**
     * True when the entry was delivered before and not acknowledged: claimed
     * from a consumer that died or whose handler failed, or left pending by
     * this consumer's name in an earlier run.
     */
    redelivered: boolean;
    /**
     * The W3C trace context of the span that appended the event, when the
     * service traces (docs/tracing.md#continuing-from-an-event): a carrier
     * for `propagation.extract`, or what the `telemetry` option continues.
     */
    traceparent?: string;
    tracestate?: string;
  };
}[T];

/** A stream entry of a handled type that is not a valid event. */
export interface InvalidEntry {
  /** The stream entry id. */
  id: string;
  /** The entry's fields as they are in the stream. */
  fields: Record<string, string>;
  /** What is wrong, naming the field: `data: hypothesisId: Invalid input: expected string, received undefined`. */
  reason: string;
}

export type EventConsumerErrorCode =
  /** An entry of a handled type is not a valid event (reported here only without `onInvalid`). */
  | 'EVENT_INVALID'
  /** A handler threw; its entry stays pending and is delivered again after `claimIdleMs`. */
  | 'EVENT_HANDLER_FAILED'
  /** Reading, claiming or acknowledging failed (Redis away); the consumer tries again. */
  | 'EVENT_READ_FAILED';

/** What the consumer reports to `onError`; none of it stops the consumer. */
export class EventConsumerError extends CosciError {
  override name = 'EventConsumerError';
  constructor(
    code: EventConsumerErrorCode,
    message: string,
    /** The stream entry concerned, if one is. */
    readonly entryId?: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

export interface EventConsumerOptions<T extends EventType> {
  /**
   * A connection for this consumer alone: it blocks on it while it waits for
   * entries, and `close()` quits it. An ioredis connection (ioredis 5 or 6, a
   * `Redis` or a `Cluster`), or where to open one: a URL (`redis://` or
   * `rediss://`, with credentials and database), or `{ url, cluster: true }`
   * for a Redis Cluster.
   */
  connection: ClientConnection;
  /** The event stream (`redis.events_stream`). @defaultValue 'cosci:events' */
  stream?: string;
  /** The consumer group: consumers of one group share the stream, each entry going to one of them. */
  group: string;
  /**
   * This consumer's name in the group. A stable name (a pod's name) lets a
   * restarted consumer take up its own pending entries at once; with the
   * default they wait `claimIdleMs` for another consumer to claim them.
   * @defaultValue `<hostname>-<pid>-<8 random hex digits>`
   */
  consumer?: string;
  /** The event types to handle; entries of other types are acknowledged and skipped. @defaultValue every type */
  types?: readonly T[];
  /**
   * Handles one event. The entry is acknowledged when it resolves; when it
   * throws, the entry stays pending and is delivered again after
   * `claimIdleMs`. Events are handled one at a time, in stream order.
   */
  handle(event: ConsumedEvent<T>): void | Promise<void>;
  /**
   * Told of each entry of a handled type that is not a valid event; the entry
   * is then acknowledged. Without it, such entries go to `onError` as
   * `EVENT_INVALID`.
   */
  onInvalid?(entry: InvalidEntry): void | Promise<void>;
  /**
   * Told of failures that do not stop the consumer: a handler that threw, a
   * lost connection. @defaultValue `process.emitWarning`
   */
  onError?(error: EventConsumerError): void;
  /**
   * How long an entry stays pending, delivered and not acknowledged, before
   * another consumer may claim it. Keep it well above the time a batch takes
   * (`batchSize` times a handler's time): an entry still waiting its turn in
   * a slow batch could otherwise be claimed and handled twice.
   * @defaultValue 60000
   */
  claimIdleMs?: number;
  /** Entries read or claimed at a time. @defaultValue 10 */
  batchSize?: number;
  /** How long one read waits for new entries; pending entries are looked for between reads. @defaultValue 2000 */
  blockMs?: number;
  /**
   * Where a group that does not exist yet starts: `$` for entries added from
   * now on, `0` for everything the stream holds. An existing group keeps its
   * position. @defaultValue '$'
   */
  startId?: string;
  /**
   * Tracing, as BullMQ's queues and workers take it (`new BullMQOtel(...)`
   * from `bullmq-otel`, or any implementation of BullMQ's `Telemetry`): each
   * handled event runs inside a CONSUMER span, `process <type>`, that
   * continues the trace of the event (its `traceparent`), as a BullMQ worker
   * continues the trace of a job. Without it, nothing is traced here.
   * @see docs/tracing.md#continuing-from-an-event
   */
  telemetry?: Telemetry;
}

type RawEntry = [id: string, fields: string[] | null];

/** How long to wait before trying again after Redis failed. */
const RETRY_DELAY_MS = 1000;

/**
 * A connection of the consumer's own. A command fails after one reconnect,
 * so that an outage is reported (EVENT_READ_FAILED) rather than waited out in
 * silence; the connection itself reconnects until `close()`.
 */
function openOwn(target: RedisTarget | string): Redis {
  const connection = createConsumerConnection(target);
  // Reported where they matter: the read that failed goes to onError.
  connection.on('error', () => undefined);
  return connection;
}

function fieldMap(fields: string[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) map[fields[i]!] = fields[i + 1]!;
  return map;
}

type Parsed<T extends EventType> =
  { kind: 'event'; event: ConsumedEvent<T> } | { kind: 'skip' } | { kind: 'invalid'; entry: InvalidEntry };

/**
 * Consumes the event stream in a consumer group; see the module comment.
 *
 * ```ts
 * const consumer = new EventConsumer({ connection, group: 'notifier', types: ['hypothesis_quarantined'], handle });
 * await consumer.start();
 * // ...
 * await consumer.close();
 * ```
 */
export class EventConsumer<T extends EventType = EventType> {
  readonly stream: string;
  readonly group: string;
  readonly consumer: string;
  private readonly redis: Redis;
  private readonly types: ReadonlySet<string>;
  private readonly claimIdleMs: number;
  private readonly batchSize: number;
  private readonly blockMs: number;
  private loop: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private stopping = false;
  /** True while a batch is being handled: close waits for it, and abandons anything else. */
  private handling = false;
  private wake: (() => void) | undefined;

  constructor(private readonly options: EventConsumerOptions<T>) {
    this.redis = givenClient(options.connection) ?? openOwn(options.connection as RedisTarget | string);
    this.stream = options.stream ?? 'cosci:events';
    this.group = options.group;
    this.consumer = options.consumer ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
    const types = options.types ?? EVENT_TYPES;
    for (const type of types) {
      if (!Object.hasOwn(EVENT_SCHEMAS, type)) throw new TypeError(`unknown event type '${type}'`);
    }
    this.types = new Set(types);
    this.claimIdleMs = options.claimIdleMs ?? 60_000;
    this.batchSize = options.batchSize ?? 10;
    this.blockMs = options.blockMs ?? 2000;
  }

  /** Creates the group if it does not exist, then consumes until `close()`. */
  async start(): Promise<void> {
    if (this.loop || this.closing) throw new Error('the consumer was started already');
    await this.ensureGroup();
    this.loop = this.run();
  }

  /**
   * Stops reading, waits for the handler in flight and its acknowledgement,
   * and quits the connection. Entries read and not yet handled stay pending:
   * this consumer's name takes them up when it starts again, any other
   * consumer of the group after `claimIdleMs`. With `timeoutMs`, a handler
   * still running then, or a command waiting for Redis to come back, is
   * abandoned (its entry stays pending) and the connection dropped.
   */
  close(options: { timeoutMs?: number } = {}): Promise<void> {
    this.closing ??= this.shutDown(options.timeoutMs);
    return this.closing;
  }

  private async shutDown(timeoutMs: number | undefined): Promise<void> {
    this.stopping = true;
    this.wake?.();
    // Between batches the loop only reads, claims or waits. Dropping the
    // connection then loses nothing (an entry just delivered or claimed stays
    // pending), and spares waiting out a blocking read, or a command held
    // while Redis is away.
    const abandoned = this.loop !== undefined && !this.handling;
    if (abandoned) await this.drop();
    let finished = true;
    // Only a batch is waited for. A command abandoned while Redis is away
    // may never settle (ioredis keeps it for a connection that will not come).
    if (this.loop && !abandoned) {
      if (timeoutMs === undefined) {
        await this.loop;
      } else {
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
        finished = await Promise.race([this.loop.then(() => true), timedOut]);
        clearTimeout(timer);
      }
    }
    if (finished) {
      // Back for a moment to leave the group tidy, when Redis answers at once.
      if (abandoned) await this.reconnect(1000);
      if (this.redis.status === 'ready') {
        await this.forgetSelfIfIdle();
        await this.redis.quit().catch(() => undefined);
      }
    }
    await this.drop();
  }

  /** Disconnects, and waits (a second at most) for the connection to end. */
  private async drop(): Promise<void> {
    // ioredis announces the end of a connection it is not retrying; one
    // between retries just stays down.
    const ending = !['end', 'reconnecting', 'wait'].includes(this.redis.status);
    const abort = new AbortController();
    const ended = once(this.redis, 'end', { signal: abort.signal }).catch(() => undefined);
    this.redis.disconnect();
    if (!ending) abort.abort();
    const timer = setTimeout(() => abort.abort(), 1000);
    await ended;
    clearTimeout(timer);
  }

  private async reconnect(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.redis.connect().catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
  }

  /**
   * A consumer with a random name leaves an entry in the group at every run;
   * remove ours when it holds nothing. Deleting a consumer drops its pending
   * entries, so only one with none goes; after close nothing is delivered to it.
   */
  private async forgetSelfIfIdle(): Promise<void> {
    try {
      const pending = (await this.redis.xpending(this.stream, this.group, '-', '+', 1, this.consumer)) as unknown[];
      if (pending.length === 0) await this.redis.xgroup('DELCONSUMER', this.stream, this.group, this.consumer);
    } catch {
      // Tidiness only: a consumer left in the group costs nothing.
    }
  }

  private async ensureGroup(): Promise<void> {
    try {
      await this.redis.xgroup('CREATE', this.stream, this.group, this.options.startId ?? '$', 'MKSTREAM');
    } catch (err) {
      if (!/BUSYGROUP/.test((err as Error).message)) throw err;
    }
  }

  private async run(): Promise<void> {
    // First the entries this name was given and never acknowledged (a
    // restart with a stable name), then new ones, claiming idle entries of
    // any consumer in between.
    let ownPendingAfter: string | undefined = '0';
    let claimCursor = '0-0';
    let nextClaimAt = 0;
    while (!this.stopping) {
      try {
        if (ownPendingAfter !== undefined) {
          const entries = await this.read(ownPendingAfter, false);
          ownPendingAfter = entries.at(-1)?.[0];
          await this.handleBatch(entries, true);
          continue;
        }
        if (Date.now() >= nextClaimAt) {
          const [next, entries] = await this.claim(claimCursor);
          claimCursor = next;
          // A full pass over the pending entries; the next one after a while.
          if (next === '0-0') nextClaimAt = Date.now() + Math.max(100, Math.min(this.claimIdleMs / 2, 30_000));
          if (entries.length > 0) {
            await this.handleBatch(entries, true);
            continue;
          }
        }
        if (this.stopping) break;
        await this.handleBatch(await this.read('>', true), false);
      } catch (err) {
        if (this.stopping) break;
        const message = (err as Error).message;
        // The stream or the group was deleted: make them again and go on.
        if (/NOGROUP/.test(message)) await this.ensureGroup().catch(() => undefined);
        this.report(
          new EventConsumerError('EVENT_READ_FAILED', `reading ${this.stream}: ${message}`, undefined, { cause: err }),
        );
        await this.pause(RETRY_DELAY_MS);
      }
    }
  }

  private async read(after: string, block: boolean): Promise<RawEntry[]> {
    const args: Array<string | number> = ['GROUP', this.group, this.consumer, 'COUNT', this.batchSize];
    if (block) args.push('BLOCK', Math.min(this.blockMs, this.claimIdleMs));
    args.push('STREAMS', this.stream, after);
    const reply = (await (this.redis.xreadgroup as (...a: Array<string | number>) => Promise<unknown>)(
      ...args,
    )) as Array<[string, RawEntry[]]> | null;
    return reply?.[0]?.[1] ?? [];
  }

  /** Claims entries idle for claimIdleMs from any consumer of the group. */
  private async claim(cursor: string): Promise<[string, RawEntry[]]> {
    const reply = (await this.redis.xautoclaim(
      this.stream,
      this.group,
      this.consumer,
      this.claimIdleMs,
      cursor,
      'COUNT',
      this.batchSize,
    )) as [string, RawEntry[], string[]?];
    // Redis 7 drops entries deleted from the stream from the pending list
    // itself and lists them third; 6.2 returns them with no fields (handled as gone).
    return [reply[0], reply[1]];
  }

  private async handleBatch(entries: RawEntry[], redelivered: boolean): Promise<void> {
    // A handled entry is acknowledged at once, with the skipped and invalid
    // ones before it; those after the last handled one at the end.
    const done: string[] = [];
    this.handling = true;
    try {
      for (const [id, fields] of entries) {
        if (this.stopping) break;
        // An entry trimmed from the stream after delivery: nothing to handle.
        if (fields === null) {
          done.push(id);
          continue;
        }
        const parsed = this.parse(id, fieldMap(fields), redelivered);
        if (parsed.kind === 'skip') {
          done.push(id);
        } else if (parsed.kind === 'invalid') {
          await this.reportInvalid(parsed.entry);
          done.push(id);
        } else {
          try {
            await this.handleTraced(parsed.event);
          } catch (err) {
            this.report(
              new EventConsumerError(
                'EVENT_HANDLER_FAILED',
                `handler failed on ${parsed.event.type} ${parsed.event.eventId} (entry ${id}): ${(err as Error).message}`,
                id,
                { cause: err },
              ),
            );
            continue;
          }
          await this.redis.xack(this.stream, this.group, ...done.splice(0), id);
        }
      }
    } finally {
      try {
        if (done.length > 0 && this.redis.status === 'ready') await this.redis.xack(this.stream, this.group, ...done);
      } finally {
        this.handling = false;
      }
    }
  }

  /** The handler, inside the span that continues the event's trace when there is `telemetry`. */
  private async handleTraced(event: ConsumedEvent<T>): Promise<void> {
    const { telemetry } = this.options;
    if (!telemetry) return this.options.handle(event);
    const { tracer, contextManager } = telemetry;
    const active: unknown = contextManager.active();
    // BullMQ's metadata is the propagation carrier as JSON: the same as a job carries.
    const parent: unknown = event.traceparent
      ? contextManager.fromMetadata(
          active,
          JSON.stringify({ traceparent: event.traceparent, tracestate: event.tracestate }),
        )
      : active;
    const span = tracer.startSpan(`process ${event.type}`, { kind: SpanKind.CONSUMER }, parent);
    span.setAttributes({
      'messaging.operation.type': 'process',
      'messaging.destination.name': this.stream,
      'messaging.consumer.group.name': this.group,
      'messaging.message.id': event.eventId,
      'cosci.event.type': event.type,
    });
    try {
      await contextManager.with(span.setSpanOnContext(parent), () => this.options.handle(event));
    } catch (err) {
      span.recordException(err as Error);
      throw err;
    } finally {
      span.end();
    }
  }

  private parse(id: string, fields: Record<string, string>, redelivered: boolean): Parsed<T> {
    const invalid = (reason: string): Parsed<T> => ({ kind: 'invalid', entry: { id, fields, reason } });
    const { type, eventId, data } = fields;
    if (!type) return invalid('type: missing');
    // Other types, and types newer than this client, are not this consumer's.
    if (!this.types.has(type)) return { kind: 'skip' };
    if (!eventId) return invalid('eventId: missing');
    if (data === undefined) return invalid('data: missing');
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch (err) {
      return invalid(`data: not JSON: ${(err as Error).message}`);
    }
    const result = EVENT_SCHEMAS[type as EventType].safeParse(json);
    if (!result.success) return invalid(`data: ${formatIssuesInline(result.error)}`);
    // A trace context that is not one is dropped, never a reason to refuse the event.
    const { traceparent, tracestate } = fields;
    const trace =
      traceparent !== undefined && TRACEPARENT_PATTERN.test(traceparent)
        ? { traceparent, ...(tracestate ? { tracestate } : {}) }
        : {};
    const event = { id, type, eventId, data: result.data, redelivered, ...trace } as ConsumedEvent<T>;
    return { kind: 'event', event };
  }

  private async reportInvalid(entry: InvalidEntry): Promise<void> {
    const message = `invalid ${entry.fields.type ?? 'untyped'} entry ${entry.id}: ${entry.reason}`;
    if (!this.options.onInvalid) {
      this.report(new EventConsumerError('EVENT_INVALID', message, entry.id));
      return;
    }
    try {
      await this.options.onInvalid(entry);
    } catch (err) {
      this.report(
        new EventConsumerError('EVENT_INVALID', `${message}; onInvalid threw: ${(err as Error).message}`, entry.id),
      );
    }
  }

  private report(error: EventConsumerError): void {
    if (this.options.onError) {
      try {
        this.options.onError(error);
      } catch {
        // A reporting callback that throws must not stop the consumer.
      }
    } else {
      process.emitWarning(error);
    }
  }

  /** Waits `ms`, or less if the consumer is closed meanwhile. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
