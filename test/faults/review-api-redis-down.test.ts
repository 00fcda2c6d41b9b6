/**
 * Fault: Redis goes away under the review API. The test runs its own
 * redis-server; the shared one is never touched.
 *
 * Asserted: while Redis is stopped, and while it is frozen (SIGSTOP: the
 * connection stays open and nothing answers), every API route answers 503
 * with the code REVIEW_UNAVAILABLE within 1 s, the bound of the issue, while
 * the page (which needs no Redis) still answers; after Redis is back, the
 * same process answers 200 again with the data it had.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/logger.js';
import { Publisher } from '../../src/queues/publisher.js';
import { startWorkerRuntime, type WorkerRuntime } from '../../src/runtime/worker-runtime.js';
import { testConfig } from '../support/config.js';
import { startRedisServer, type RedisServer } from '../support/processes.js';
import { until } from '../support/poll.js';
import { REVIEW_TOKEN } from '../support/review-http.js';

/** The bound on an answer while Redis is unreachable. */
const BOUND_MS = 1000;

let server: RedisServer;
let runtime: WorkerRuntime;
let publisher: Publisher;
let base: string;
let stopped = false;

beforeAll(async () => {
  server = await startRedisServer();
  // No API key: every hypothesis is quarantined (degraded), which gives the review queue an item.
  const config = testConfig(undefined, {
    redis: { url: server.url },
    worker: { queues: ['hypothesis.saved'] },
    metrics: { queue_depth: false },
    review: { api_token: REVIEW_TOKEN },
  });
  runtime = await startWorkerRuntime({
    config,
    logger: createLogger({ level: 'silent', format: 'json', isTty: false }),
  });
  base = `http://127.0.0.1:${runtime.http!.port}`;
  const connection = new Redis(server.url, { maxRetriesPerRequest: 1 });
  connection.on('error', () => undefined);
  publisher = new Publisher({ connection, prefix: config.redis.prefix });
  await publisher.publishHypothesisSaved({ hypothesisId: 'held-1', text: 'Anything at all.' });
  await until('held-1 is in the review queue', async () => (await items()).status === 200 && held().length === 1, {
    timeoutMs: 20_000,
  });
}, 30_000);

afterAll(async () => {
  // A failed step may have left Redis stopped: the runtime shuts down cleanly only with it.
  if (stopped) await server.start();
  await runtime?.shutdown('test');
  await publisher?.close().catch(() => undefined);
  await server?.destroy();
});

interface Answer {
  status: number;
  code?: string | undefined;
  body: Record<string, unknown>;
  ms: number;
  retryAfter: string | null;
}

let last: Answer | undefined;
const held = () => (last?.body.items as Array<{ hypothesisId: string }> | undefined) ?? [];

/** One request; a request with no answer within 5 s is status 0. */
async function ask(method: string, path: string, body?: unknown): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(base + path, {
      method,
      headers: {
        authorization: `Bearer ${REVIEW_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });
    const text = await res.text();
    const parsed = (res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : {}) as {
      error?: { code?: string };
    } & Record<string, unknown>;
    last = {
      status: res.status,
      code: parsed.error?.code,
      body: parsed,
      ms: performance.now() - started,
      retryAfter: res.headers.get('retry-after'),
    };
  } catch {
    last = { status: 0, body: {}, ms: performance.now() - started, retryAfter: null };
  }
  return last;
}

const items = () => ask('GET', '/review/api/items');

/** Every API route, each answering 503 REVIEW_UNAVAILABLE within the bound. */
async function expectUnavailable(): Promise<void> {
  const answers = {
    list: await items(),
    show: await ask('GET', '/review/api/items/held-1'),
    release: await ask('POST', '/review/api/items/held-1/release', { by: 'ana', note: 'fine' }),
    missing: await ask('GET', '/review/api/items/no-such-item'),
  };
  for (const [route, answer] of Object.entries(answers)) {
    expect({ route, status: answer.status, code: answer.code }).toEqual({
      route,
      status: 503,
      code: 'REVIEW_UNAVAILABLE',
    });
    expect(answer.ms, route).toBeLessThan(BOUND_MS);
    expect(answer.retryAfter, route).toMatch(/^\d+$/);
  }
  // The page is a static shell: it does not need Redis.
  const page = await fetch(`${base}/review/`);
  expect(page.status).toBe(200);
}

async function expectBack(): Promise<void> {
  await until('the review API answers 200 again', async () => (await items()).status === 200, { timeoutMs: 20_000 });
  expect(held().map((i) => i.hypothesisId)).toEqual(['held-1']);
  const show = await ask('GET', '/review/api/items/held-1');
  expect(show.status).toBe(200);
  expect(show.body.item).toMatchObject({ hypothesisId: 'held-1', state: 'quarantined' });
}

describe('the review API while Redis is unreachable', () => {
  it('answers 503 REVIEW_UNAVAILABLE within 1 s while Redis is stopped, and 200 once it is back', async () => {
    expect((await items()).status).toBe(200);
    expect((await ask('GET', '/review/api/items/no-such-item')).code).toBe('REVIEW_NOT_FOUND');
    await server.stop();
    stopped = true;
    await expectUnavailable();
    // Still unavailable a few seconds on, with the connection retrying. The
    // pause is the point (time passing while Redis stays down), not a wait for a state.
    await new Promise((r) => setTimeout(r, 2000));
    await expectUnavailable();
    await server.start();
    stopped = false;
    await expectBack();
  }, 60_000);

  it('answers 503 REVIEW_UNAVAILABLE within 1 s while Redis is frozen, and 200 once it answers again', async () => {
    // A frozen server keeps the connection open: only a bound on each command notices.
    const probe = new Redis(server.url, { maxRetriesPerRequest: 1 });
    const pid = Number(/process_id:(\d+)/.exec(await probe.info('server'))![1]);
    probe.disconnect();
    process.kill(pid, 'SIGSTOP');
    try {
      await expectUnavailable();
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await expectBack();
  }, 60_000);
});
