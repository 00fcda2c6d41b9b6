/** The event consumer against real Redis: sharing, recovery, validation, filtering, closing. */
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { EventType, HypothesisEventData } from '../../src/contracts/events.js';
import {
  EventConsumer,
  type ConsumedEvent,
  type EventConsumerError,
  type EventConsumerOptions,
  type InvalidEntry,
} from '../../src/events/consumer.js';
import { createEventEmitter, type EventEmitter } from '../../src/events/emitter.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

const redis = testRedis();
const streams: string[] = [];
const consumers: Array<EventConsumer<EventType>> = [];

afterEach(async () => {
  await Promise.all(consumers.splice(0).map((c) => c.close({ timeoutMs: 1000 })));
});
afterAll(async () => {
  await deleteKeys(redis, ...streams);
  redis.disconnect();
});

function newStream(): { stream: string; emitter: EventEmitter } {
  const stream = uniqueName('consumer-events');
  streams.push(stream);
  return { stream, emitter: createEventEmitter({ redis, stream, dedupeTtlSeconds: 600, maxLen: 0 }) };
}

function hypothesis(id: string, action: HypothesisEventData['action'] = 'quarantine'): HypothesisEventData {
  return {
    hypothesisId: id,
    revision: 1,
    action,
    categories: ['dual_use_bio'],
    confidence: 0.9,
    rationale: 'r',
    degraded: false,
    model: 'm',
    refusal: false,
    windowed: false,
  };
}

async function emitQuarantined(emitter: EventEmitter, ids: string[]): Promise<string[]> {
  const entries: string[] = [];
  for (const id of ids) entries.push((await emitter.emit('hypothesis_quarantined', `q/${id}`, hypothesis(id)))!);
  return entries;
}

/** Starts a consumer on its own connection, closed after the test. */
async function startConsumer<T extends EventType>(
  options: Omit<EventConsumerOptions<T>, 'connection'>,
): Promise<{ consumer: EventConsumer<T>; connection: Redis }> {
  const connection = new Redis(REDIS_URL);
  const consumer = new EventConsumer<T>({ connection, ...options });
  consumers.push(consumer as unknown as EventConsumer<EventType>);
  await consumer.start();
  return { consumer, connection };
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function pendingCount(stream: string, group: string): Promise<number> {
  const [count] = (await redis.xpending(stream, group)) as [number];
  return count;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('EventConsumer', () => {
  it('shares a stream between two consumers of a group: each event handled once, all acknowledged', async () => {
    const { stream, emitter } = newStream();
    const seen: Record<string, string[]> = { a: [], b: [] };
    for (const name of ['a', 'b']) {
      await startConsumer({
        stream,
        group: 'g',
        consumer: name,
        batchSize: 5,
        blockMs: 200,
        async handle(event) {
          seen[name]!.push(event.eventId);
          await sleep(5);
        },
      });
    }
    const ids = Array.from({ length: 60 }, (_, i) => `h-${i}`);
    await emitQuarantined(emitter, ids);
    await waitFor('every event handled', () => seen.a!.length + seen.b!.length >= ids.length);
    await sleep(300); // time for a duplicate to show up, were there one
    const all = [...seen.a!, ...seen.b!];
    expect(all.sort()).toEqual(ids.map((id) => `q/${id}`).sort());
    expect(seen.a!.length).toBeGreaterThan(0);
    expect(seen.b!.length).toBeGreaterThan(0);
    await waitFor('every entry acknowledged', async () => (await pendingCount(stream, 'g')) === 0);
  });

  it('a consumer killed mid-batch leaves its entries to another, which claims them after the idle time', async () => {
    const { stream, emitter } = newStream();
    const claimIdleMs = 500;
    let deliveredAt = 0;
    const ids = ['k-1', 'k-2', 'k-3', 'k-4'];
    await emitQuarantined(emitter, ids);
    // Started after the entries, from the stream's start, so that they come as one batch.
    const beforeDelivery = Date.now();
    const dead = await startConsumer({
      stream,
      group: 'g',
      startId: '0',
      consumer: 'dead',
      batchSize: 10,
      blockMs: 100,
      // Its handler never finishes: the process hangs, then dies.
      handle: () => {
        deliveredAt ||= Date.now();
        return new Promise<void>(() => undefined);
      },
    });
    await waitFor('the batch delivered to the dying consumer', () => deliveredAt > 0);
    dead.connection.disconnect();
    expect(await pendingCount(stream, 'g')).toBe(ids.length);

    const handled: Array<{ eventId: string; redelivered: boolean; at: number }> = [];
    await startConsumer({
      stream,
      group: 'g',
      consumer: 'survivor',
      claimIdleMs,
      blockMs: 100,
      handle(event) {
        handled.push({ eventId: event.eventId, redelivered: event.redelivered, at: Date.now() });
      },
    });
    await waitFor('the survivor handled every entry', () => handled.length >= ids.length);
    expect(handled.map((h) => h.eventId)).toEqual(ids.map((id) => `q/${id}`));
    expect(handled.every((h) => h.redelivered)).toBe(true);
    // Not before the entries were idle that long.
    expect(handled[0]!.at - beforeDelivery).toBeGreaterThanOrEqual(claimIdleMs);
    await waitFor('all acknowledged', async () => (await pendingCount(stream, 'g')) === 0);
    // Closing the dead consumer with a bound returns although its handler never will.
    const started = Date.now();
    await dead.consumer.close({ timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reports a malformed entry and goes on: the entry is acknowledged, the next event handled', async () => {
    const { stream, emitter } = newStream();
    const handled: string[] = [];
    const invalid: InvalidEntry[] = [];
    await startConsumer({
      stream,
      group: 'g',
      blockMs: 100,
      handle: (event) => void handled.push(event.eventId),
      onInvalid: (entry) => void invalid.push(entry),
    });
    await emitQuarantined(emitter, ['m-1']);
    const notJson = await redis.xadd(stream, '*', 'type', 'hypothesis_quarantined', 'eventId', 'x/1', 'data', '{oops');
    const wrongShape = await redis.xadd(
      stream,
      '*',
      'type',
      'citation_unverified',
      'eventId',
      'x/2',
      'data',
      JSON.stringify({ reviewId: 'r', index: -1 }),
    );
    const noEventId = await redis.xadd(stream, '*', 'type', 'goal_assessed', 'data', '{}');
    const noType = await redis.xadd(stream, '*', 'eventId', 'x/4', 'data', '{}');
    await emitQuarantined(emitter, ['m-2']);
    await waitFor('both valid events handled', () => handled.length >= 2);
    expect(handled).toEqual(['q/m-1', 'q/m-2']);
    expect(invalid.map((e) => e.id)).toEqual([notJson, wrongShape, noEventId, noType]);
    expect(invalid[0]!.reason).toMatch(/^data: not JSON: /);
    expect(invalid[0]!.fields).toMatchObject({ type: 'hypothesis_quarantined', data: '{oops' });
    expect(invalid[1]!.reason).toMatch(/^data: .*hypothesisId: .*index: /);
    expect(invalid[2]!.reason).toBe('eventId: missing');
    expect(invalid[3]!.reason).toBe('type: missing');
    await waitFor('every entry acknowledged', async () => (await pendingCount(stream, 'g')) === 0);
  });

  it('without onInvalid, a malformed entry goes to onError as EVENT_INVALID', async () => {
    const { stream, emitter } = newStream();
    const errors: EventConsumerError[] = [];
    const handled: string[] = [];
    await startConsumer({
      stream,
      group: 'g',
      blockMs: 100,
      handle: (event) => void handled.push(event.eventId),
      onError: (err) => void errors.push(err),
    });
    const bad = await redis.xadd(stream, '*', 'type', 'review_verified', 'eventId', 'x/1', 'data', '[]');
    await emitQuarantined(emitter, ['e-1']);
    await waitFor('the valid event handled', () => handled.length === 1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'EVENT_INVALID', entryId: bad });
    expect(errors[0]!.message).toContain(`invalid review_verified entry ${bad}: data: `);
  });

  it('hands over only the types asked for, typed; others are acknowledged and skipped', async () => {
    const { stream, emitter } = newStream();
    const handled: Array<ConsumedEvent<'citation_unverified' | 'hypothesis_blocked'>> = [];
    await startConsumer({
      stream,
      group: 'g',
      blockMs: 100,
      types: ['citation_unverified', 'hypothesis_blocked'],
      handle(event) {
        // The data's type follows the event's type.
        if (event.type === 'citation_unverified') expect(typeof event.data.url).toBe('string');
        else expect(event.data.hypothesisId).toMatch(/^f-/);
        handled.push(event);
      },
    });
    await emitter.emit('hypothesis_assessed', 'a/f-1', hypothesis('f-1', 'block'));
    await emitter.emit('hypothesis_blocked', 'b/f-1', hypothesis('f-1', 'block'));
    await emitter.emit('citation_unverified', 'c/r-1/0', {
      reviewId: 'r-1',
      hypothesisId: 'f-1',
      revision: 0,
      index: 0,
      url: 'https://example.org/p',
      status: 'unverified',
      reason: 'excerpt_not_found',
      excerptLen: 12,
    });
    // A type newer than this client is not its business either.
    await redis.xadd(stream, '*', 'type', 'hypothesis_renamed', 'eventId', 'n/1', 'data', '{}');
    await emitter.emit('hypothesis_quarantined', 'q/f-2', hypothesis('f-2'));
    await emitter.emit('hypothesis_blocked', 'b/f-3', hypothesis('f-3', 'block'));
    await waitFor('the wanted events', () => handled.length >= 3);
    await sleep(200);
    expect(handled.map((e) => [e.type, e.eventId])).toEqual([
      ['hypothesis_blocked', 'b/f-1'],
      ['citation_unverified', 'c/r-1/0'],
      ['hypothesis_blocked', 'b/f-3'],
    ]);
    await waitFor('every entry acknowledged', async () => (await pendingCount(stream, 'g')) === 0);
    expect(
      () => new EventConsumer({ connection: redis, group: 'g', types: ['nope' as EventType], handle() {} }),
    ).toThrow("unknown event type 'nope'");
  });

  it('a handler that throws leaves its entry pending; it is delivered again after the idle time', async () => {
    const { stream, emitter } = newStream();
    const attempts: boolean[] = [];
    const errors: EventConsumerError[] = [];
    await startConsumer({
      stream,
      group: 'g',
      claimIdleMs: 300,
      blockMs: 100,
      handle(event) {
        attempts.push(event.redelivered);
        if (attempts.length === 1) throw new Error('downstream is away');
      },
      onError: (err) => void errors.push(err),
    });
    const [entry] = await emitQuarantined(emitter, ['t-1']);
    await waitFor('the second attempt', () => attempts.length >= 2);
    expect(attempts).toEqual([false, true]);
    expect(errors[0]).toMatchObject({ code: 'EVENT_HANDLER_FAILED', entryId: entry });
    expect(errors[0]!.message).toContain('downstream is away');
    await waitFor('acknowledged after the second attempt', async () => (await pendingCount(stream, 'g')) === 0);
  });

  it('a restarted consumer with the same name takes up its own pending entries at once', async () => {
    const { stream, emitter } = newStream();
    let delivered = false;
    const first = await startConsumer({
      stream,
      group: 'g',
      consumer: 'pod-0',
      blockMs: 100,
      handle: () => {
        delivered = true;
        return new Promise<void>(() => undefined);
      },
    });
    await emitQuarantined(emitter, ['s-1', 's-2']);
    await waitFor('delivered to the first run', () => delivered);
    first.connection.disconnect();
    const handled: string[] = [];
    // claimIdleMs is long: only the name brings the entries back this soon.
    await startConsumer({
      stream,
      group: 'g',
      consumer: 'pod-0',
      blockMs: 100,
      handle: (event) => void handled.push(event.eventId),
    });
    await waitFor('the pending entries handled', () => handled.length >= 2, 3000);
    expect(handled).toEqual(['q/s-1', 'q/s-2']);
  });

  it('close returns promptly from a blocking read, waits for the handler in flight, and quits', async () => {
    const { stream, emitter } = newStream();
    const idle = await startConsumer({ stream, group: 'idle', blockMs: 10_000, handle() {} });
    await sleep(100); // let it block
    let started = Date.now();
    await idle.consumer.close();
    expect(Date.now() - started).toBeLessThan(1500);
    expect(idle.connection.status).toBe('end');
    // A consumer that holds nothing leaves the group.
    expect(await redis.xinfo('CONSUMERS', stream, 'idle')).toEqual([]);

    let inHandler = false;
    let finished = false;
    // Both entries are in the stream before the group reads from its start, so that one read takes
    // both: emitted while it blocks, a busy machine may let it read the first alone.
    await emitQuarantined(emitter, ['c-1', 'c-2']);
    const busy = await startConsumer({
      stream,
      group: 'busy',
      consumer: 'busy-1',
      blockMs: 100,
      startId: '0',
      async handle() {
        inHandler = true;
        await sleep(400);
        finished = true;
      },
    });
    await waitFor('the handler running', () => inHandler);
    started = Date.now();
    await busy.consumer.close();
    expect(finished).toBe(true);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(busy.connection.status).toBe('end');
    // The first entry was acknowledged; the second, not handled, stays pending for the group.
    const pending = (await redis.xpending(stream, 'busy', '-', '+', 10)) as Array<[string, string]>;
    expect(pending.map(([, consumer]) => consumer)).toEqual(['busy-1']);
    expect(pending).toHaveLength(1);
    // One that holds an entry stays, so that the entry is not dropped with it.
    expect(((await redis.xinfo('CONSUMERS', stream, 'busy')) as unknown[]).length).toBe(1);
  });
});
