/** A worker that cannot start (its metrics port is taken) fails at once and leaves nothing open behind it. */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startWorkerRuntime } from '../../src/runtime/worker-runtime.js';
import { testConfig } from '../support/config.js';
import { until } from '../support/poll.js';
import { testRedis } from '../support/redis.js';

const redis = testRedis();
afterAll(() => redis.disconnect());

/** TCP sockets this process holds open or is opening. */
const sockets = () =>
  process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap' || r === 'TCPConnectWrap').length;

describe('a worker whose metrics port is taken', () => {
  it('rejects with EADDRINUSE and closes every connection it opened', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      await redis.ping();
      const before = sockets();
      const config = testConfig(undefined, { metrics: { port, host: '127.0.0.1' } });
      await expect(startWorkerRuntime({ config, logger: pino({ level: 'silent' }) })).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
      // Its Redis connections were opening when the port was refused; each is closed, none left behind.
      await until('no socket left open', () => sockets() === before, { timeoutMs: 5000 });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
