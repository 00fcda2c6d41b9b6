/**
 * Fault: Redis stops under a running worker while Prometheus scrapes it. The
 * test runs its own redis-server; the shared one is never touched.
 *
 * Asserted: /metrics answers while Redis is down (it used to wait for Redis
 * without end, so the worker looked gone exactly during the outage), with
 * the queue-depth gauges it last read, `cosci_safety_queue_depth_stale` 1
 * and the time of the last read unchanged; scrapes that come while a read
 * is stuck start no other; once Redis is back the gauges are read again and
 * are no longer stale.
 */
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/logger.js';
import { startWorkerRuntime, type WorkerRuntime } from '../../src/runtime/worker-runtime.js';
import { testConfig } from '../support/config.js';
import { until } from '../support/poll.js';
import { startRedisServer, type RedisServer } from '../support/processes.js';

/**
 * The bound is 1 s (the scrape waits 500 ms for Redis); this one
 * leaves room for a busy machine. Before the fix no answer ever came.
 */
const ANSWER_BOUND_MS = 5000;

let server: RedisServer;
let runtime: WorkerRuntime;
let url: string;
let stopped = false;

beforeAll(async () => {
  server = await startRedisServer();
  const config = testConfig(undefined, {
    redis: { url: server.url },
    worker: { queues: ['goal.submitted'] },
    // This process exports the depth whatever the lease says.
    metrics: { queue_depth: true },
  });
  runtime = await startWorkerRuntime({
    config,
    logger: createLogger({ level: 'silent', format: 'json', isTty: false }),
  });
  url = `http://127.0.0.1:${runtime.http!.port}/metrics`;
  // Two jobs in a queue nobody works, so that the depth has something to count.
  const queue = new Queue('hypothesis.saved', { connection: { url: server.url }, prefix: config.redis.prefix });
  await queue.add('hypothesis.saved', { n: 1 });
  await queue.add('hypothesis.saved', { n: 2 });
  await queue.close();
}, 60_000);

afterAll(async () => {
  // The runtime shuts down cleanly only with Redis there.
  if (stopped) await server.start();
  await runtime?.shutdown('test');
  await server?.destroy();
});

interface Scrape {
  status: number;
  ms: number;
  /** Each sample line's value, by series (`name{labels}`). */
  samples: Map<string, number>;
}

/** One scrape; one that has no answer within the bound is status 0. */
async function scrape(): Promise<Scrape> {
  const started = performance.now();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
    const body = await res.text();
    const samples = new Map<string, number>();
    for (const line of body.split('\n')) {
      const m = /^(cosci_safety_queue_\S+) (\S+)$/.exec(line);
      if (m) samples.set(m[1]!, Number(m[2]));
    }
    return { status: res.status, ms: performance.now() - started, samples };
  } catch {
    return { status: 0, ms: performance.now() - started, samples: new Map() };
  }
}

const WAITING = 'cosci_safety_queue_jobs{queue="hypothesis.saved",state="waiting"}';
const STALE = 'cosci_safety_queue_depth_stale';
const LAST_READ = 'cosci_safety_queue_depth_last_read_timestamp_seconds';

describe('/metrics with Redis down', () => {
  it('answers with the last values read, marked stale, and reads again once Redis is back', async () => {
    const before = await scrape();
    expect(before.status).toBe(200);
    expect(before.samples.get(WAITING)).toBe(2);
    expect(before.samples.get(STALE)).toBe(0);
    const lastRead = before.samples.get(LAST_READ)!;
    expect(lastRead).toBeGreaterThan(Date.now() / 1000 - 60);

    await server.stop();
    stopped = true;
    // Several scrapes while the read they started waits for Redis: each answers.
    for (let i = 0; i < 3; i++) {
      const during = await scrape();
      expect(during.status, `scrape ${i} during the outage (${Math.round(during.ms)} ms)`).toBe(200);
      expect(during.ms).toBeLessThan(ANSWER_BOUND_MS);
      expect(during.samples.get(STALE)).toBe(1);
      expect(during.samples.get(WAITING)).toBe(2);
      expect(during.samples.get(LAST_READ)).toBe(lastRead);
    }

    await server.start();
    stopped = false;
    let after: Scrape | undefined;
    await until(
      () => `the depth read again after Redis came back (last scrape: ${JSON.stringify([...(after?.samples ?? [])])})`,
      async () => {
        after = await scrape();
        return after.samples.get(STALE) === 0;
      },
      { timeoutMs: 30_000, everyMs: 200 },
    );
    expect(after!.samples.get(WAITING)).toBe(2);
    expect(after!.samples.get(LAST_READ)).toBeGreaterThan(lastRead);
  });
});
