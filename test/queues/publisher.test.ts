/** The Publisher's wait: `timeoutMs` bounds the whole call, a Redis that does not answer included. */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CosciError } from '../../src/errors.js';
import { Publisher } from '../../src/queues/publisher.js';
import { until } from '../support/poll.js';
import { startRedisServer, type RedisServer } from '../support/processes.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';
import { startSilentServer, type SilentServer } from '../support/silent-server.js';

const redis = testRedis();
const prefix = uniqueName('pub');
let silent: SilentServer;
let silentUrl: string;

beforeAll(async () => {
  silent = await startSilentServer();
  silentUrl = silent.url;
});
afterAll(async () => {
  await silent.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('Publisher with wait', () => {
  it('rejects with WAIT_TIMEOUT within timeoutMs when the connection it waits on never becomes ready', async () => {
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const publisher = new Publisher({
      connection,
      prefix,
      blockingConnection: () => {
        const c = new Redis(silentUrl, { maxRetriesPerRequest: null, retryStrategy: () => null });
        c.on('error', () => undefined);
        return c;
      },
    });
    const started = Date.now();
    const error = await publisher
      .submitGoal({ goalId: 'g-1', text: 'Map kinase networks' }, { wait: true, timeoutMs: 1000 })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(CosciError);
    expect(error).toMatchObject({
      code: 'WAIT_TIMEOUT',
      message: 'could not publish goal g-1 within 1000 ms: Redis did not answer',
    });
    // The bound, and room for a busy machine; before, the call waited for the connection without end.
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(5000);
    // Nothing was published.
    expect(await publisher.queue('goal.submitted').getJob('goal.g-1')).toBeUndefined();
    // The silent server closing its side ends the waiting connection, and with it the close.
    silent.dropConnections();
    await publisher.close();
    connection.disconnect();
  });
});

describe('Publisher of its own connection, from a URL', () => {
  let server: RedisServer;
  let admin: Redis;

  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url, { maxRetriesPerRequest: null });
    admin.on('error', () => undefined);
  });
  afterAll(async () => {
    admin.disconnect();
    await server.destroy();
  });

  /** The clients connected to the private server besides `admin`. */
  async function others(): Promise<number> {
    const list = (await admin.client('LIST')) as string;
    return list.trim().split('\n').length - 1;
  }

  it('publishes, waits, and on close() closes every connection it opened', async () => {
    const publisher = new Publisher({ connection: server.url, prefix });
    expect(await publisher.publishHypothesisSaved({ hypothesisId: 'h-own', text: 'x' })).toEqual({
      jobId: 'hypothesis.h-own.r0',
      created: true,
    });
    // Waiting opens BullMQ's QueueEvents on a connection of its own; no worker answers here.
    await expect(
      publisher.submitGoal({ goalId: 'g-own', text: 'Map kinase networks' }, { wait: true, timeoutMs: 500 }),
    ).rejects.toMatchObject({ code: 'WAIT_TIMEOUT' });
    expect(await others()).toBeGreaterThanOrEqual(2);
    await publisher.close();
    // Nothing left to keep a process alive.
    let open = 0;
    await until(
      () => `the publisher's connections closed (${open} still open)`,
      async () => (open = await others()) === 0,
    );
  });

  it('fails with PUBLISH_FAILED while Redis is away, and publishes once it is back, without a new publisher', async () => {
    await server.stop();
    const publisher = new Publisher({ connection: server.url, prefix });
    try {
      const started = Date.now();
      await expect(publisher.publishHypothesisSaved({ hypothesisId: 'h-away', text: 'x' })).rejects.toMatchObject({
        code: 'PUBLISH_FAILED',
      });
      // A few tries, not ioredis's reconnecting without end.
      expect(Date.now() - started).toBeLessThan(10_000);
      await server.start();
      expect(await publisher.publishHypothesisSaved({ hypothesisId: 'h-away', text: 'x' })).toEqual({
        jobId: 'hypothesis.h-away.r0',
        created: true,
      });
    } finally {
      await publisher.close();
    }
  }, 30_000);
});
