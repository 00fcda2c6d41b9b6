/**
 * The event consumer across a restart of its Redis (a private redis-server
 * with AOF): it goes on reading when Redis is back, and closes at once while
 * Redis is away.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventConsumer, type EventConsumerError } from '../../src/events/consumer.js';
import { startRedisServer, type RedisServer } from '../support/processes.js';

let server: RedisServer;
let producer: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  producer = new Redis(server.url, { maxRetriesPerRequest: null });
  producer.on('error', () => undefined);
});
afterAll(async () => {
  producer.disconnect();
  await server.destroy();
});

async function waitFor(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const goalEvent = (id: string) =>
  JSON.stringify({
    goalId: id,
    action: 'allow',
    categories: ['none'],
    confidence: 0.1,
    rationale: 'r',
    degraded: false,
    model: 'm',
    refusal: false,
    windowed: false,
  });

describe('EventConsumer across a Redis restart', () => {
  it('reads on once Redis is back, and closes at once while it is away', async () => {
    const stream = 'restart:events';
    const handled: string[] = [];
    const errors: EventConsumerError[] = [];
    const connection = new Redis(server.url);
    connection.on('error', () => undefined);
    const consumer = new EventConsumer({
      connection,
      stream,
      group: 'g',
      blockMs: 200,
      types: ['goal_assessed'],
      handle: (event) => void handled.push(event.data.goalId),
      onError: (err) => void errors.push(err),
    });
    await consumer.start();
    await producer.xadd(stream, '*', 'type', 'goal_assessed', 'eventId', 'e/1', 'data', goalEvent('g-1'));
    await waitFor('the first event', () => handled.length === 1);

    await server.stop();
    await new Promise((r) => setTimeout(r, 500));
    await server.start();
    await producer.xadd(stream, '*', 'type', 'goal_assessed', 'eventId', 'e/2', 'data', goalEvent('g-2'));
    await waitFor('the event added after the restart', () => handled.length === 2);
    expect(handled).toEqual(['g-1', 'g-2']);
    // Every failure on the way was reported as a read failure, none fatal.
    expect(errors.every((e) => e.code === 'EVENT_READ_FAILED')).toBe(true);

    await server.stop();
    const started = Date.now();
    await consumer.close();
    // Not the minutes of ioredis's reconnecting: the read is abandoned, the
    // group left as it is (the attempt to tidy it gives up after a second).
    expect(Date.now() - started).toBeLessThan(5000);
    expect(['end', 'reconnecting']).toContain(connection.status);
    await server.start();
  });
});
