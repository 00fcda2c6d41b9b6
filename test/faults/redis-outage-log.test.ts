/**
 * Fault: Redis stops for a few seconds under a running worker. The log tells
 * the outage in a few lines (lost, reconnecting, back), not one line per
 * connection per failed reconnect, while /readyz reports it as before. Each
 * test runs its own redis-server; the shared one is never touched.
 */
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisHealth } from '../../src/logging/redis-health.js';
import { startWorkerRuntime, type WorkerRuntime } from '../../src/runtime/worker-runtime.js';
import { testConfig } from '../support/config.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { until } from '../support/poll.js';
import { startRedisServer, type RedisServer } from '../support/processes.js';

const OUTAGE_MS = 3000;

interface Line {
  level: number;
  time: number;
  msg: string;
  connections?: string[];
  attempts?: number;
  downSeconds?: number;
  err?: string;
}

/** A pino logger at info that keeps its JSON lines. */
function bufferLogger() {
  const lines: Line[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Line);
      cb();
    },
  });
  return { logger: pino({ level: 'info' }, destination), lines };
}

async function readyz(port: number): Promise<number> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(3000) })).status;
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let fake: FakeAnthropic;
let server: RedisServer;
beforeAll(async () => {
  fake = await startFakeAnthropic(markerHandler);
  server = await startRedisServer();
});
afterAll(async () => {
  await fake.close();
  await server.destroy();
});

describe('a worker while Redis is down for a few seconds', () => {
  let runtime: WorkerRuntime | undefined;
  afterEach(async () => {
    await runtime?.shutdown('test');
  });

  it('logs the outage once and its end once, while /readyz answers 503 and then 200', async () => {
    const { logger, lines } = bufferLogger();
    // Every queue: two connections each, plus the service and writes connections.
    const config = testConfig(fake.url, { redis: { url: server.url } });
    runtime = await startWorkerRuntime({ config, logger });
    const port = runtime.http!.port;
    expect(await readyz(port)).toBe(200);
    const from = lines.length;

    await server.stop();
    const stoppedAt = Date.now();
    await until('/readyz answers 503', async () => (await readyz(port)) === 503, { timeoutMs: 5000 });
    await sleep(Math.max(0, OUTAGE_MS - (Date.now() - stoppedAt)));
    const during = lines.slice(from);
    await server.start();
    await until('/readyz answers 200 again', async () => (await readyz(port)) === 200, { timeoutMs: 20_000 });
    await until('the log says Redis is back', () => lines.some((l) => l.msg === 'redis connection back'), {
      timeoutMs: 5000,
    });
    const outage = lines.slice(from);

    // Before: ~36 lines a second here (each connection's error and each worker's forwarded ones).
    expect(
      during.map((l) => l.msg),
      JSON.stringify(during),
    ).toEqual(['redis connection lost']);
    expect(outage.map((l) => l.msg)).toEqual(['redis connection lost', 'redis connection back']);
    const [lost, back] = outage as [Line, Line];
    expect(lost.level).toBe(40);
    expect(lost.err).toMatch(/ECONNREFUSED/);
    // It names every connection the outage took: the worker's own and BullMQ's blocking ones.
    expect([...lost.connections!].sort()).toEqual(
      ['service', 'writes', ...config.worker.queues.flatMap((q) => [`worker:${q}`, `worker:${q}:blocking`])].sort(),
    );
    expect(back.level).toBe(30);
    expect(back.downSeconds).toBeGreaterThanOrEqual(OUTAGE_MS / 1000 - 1);
    expect(back.downSeconds).toBeLessThan(30);
  }, 60_000);
});

describe('the Redis health of a process', () => {
  it('repeats "reconnecting" with the attempts at most every reminder, and says when it is back', async () => {
    const { logger, lines } = bufferLogger();
    const health = createRedisHealth({ logger, settleMs: 200, reminderMs: 1000 });
    const a = new Redis(server.url, { maxRetriesPerRequest: null });
    const b = new Redis(server.url, { maxRetriesPerRequest: null });
    try {
      health.watch('a', a);
      health.watch('b', b);
      await Promise.all([a.ping(), b.ping()]);
      await server.stop();
      await until('the outage is announced', () => lines.length > 0, { timeoutMs: 5000 });
      await sleep(3500);
      expect(health.degraded).toBe(true);
      await server.start();
      await until('back', () => lines.some((l) => l.msg === 'redis connection back'), { timeoutMs: 10_000 });
      expect(health.degraded).toBe(false);

      const msgs = lines.map((l) => l.msg);
      expect(msgs[0]).toBe('redis connection lost');
      expect(msgs.at(-1)).toBe('redis connection back');
      const reminders = lines.filter((l) => l.msg === 'redis reconnecting');
      // ~3.5 s at one line a second at most: never one per attempt of each connection.
      expect(reminders.length).toBeGreaterThanOrEqual(1);
      expect(reminders.length).toBeLessThanOrEqual(4);
      for (const [prev, next] of reminders.slice(1).map((r, i) => [reminders[i]!, r] as const)) {
        expect(next.time - prev.time).toBeGreaterThanOrEqual(1000);
        expect(next.attempts!).toBeGreaterThan(prev.attempts!);
      }
      expect(reminders[0]!.connections!.sort()).toEqual(['a', 'b']);
      expect(lines).toHaveLength(reminders.length + 2);
    } finally {
      health.stop();
      a.disconnect();
      b.disconnect();
    }
  }, 30_000);

  it('says nothing when its connections are closed on purpose', async () => {
    const { logger, lines } = bufferLogger();
    const health = createRedisHealth({ logger, settleMs: 50 });
    const a = new Redis(server.url, { maxRetriesPerRequest: null });
    health.watch('a', a);
    await a.ping();
    health.stop();
    await a.quit();
    await sleep(200);
    expect(lines).toEqual([]);
  });
});
