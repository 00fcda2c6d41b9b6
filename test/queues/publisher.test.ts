/** The Publisher's wait: `timeoutMs` bounds the whole call, a Redis that does not answer included. */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CosciError } from '../../src/errors.js';
import { Publisher } from '../../src/queues/publisher.js';
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
