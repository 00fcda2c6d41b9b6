/**
 * Fault: Redis stops (SHUTDOWN, which fsyncs the append-only file) while a
 * worker process has jobs queued and in flight, stays down for a few seconds,
 * and restarts on the same port and data folder. The test runs its own
 * redis-server; the shared one is never touched.
 *
 * Asserted: while Redis is down the worker process stays up and /readyz
 * answers 503, and publishing fails fast with PUBLISH_FAILED (from a
 * publisher connected before the outage, from one that connects during it,
 * and from `cosci-safety publish hypothesis`), accepting nothing; after the
 * restart the same process reconnects by itself (/readyz 200), the
 * publisher's connection publishes again, every job accepted before the
 * outage (kept by the AOF) completes, none fails, and each hypothesis's
 * events are in the stream exactly once.
 *
 * The steps of the first describe share one outage and run in order.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { CosciError } from '../../src/errors.js';
import { createFailFastConnection } from '../../src/queues/connection.js';
import { Publisher } from '../../src/queues/publisher.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import {
  exitWithin,
  killWorker,
  namesOf,
  spawnWorker,
  startRedisServer,
  streamEvents,
  tally,
  writeWorkerConfig,
  type RedisServer,
  type WorkerProcess,
  type WorkerSettings,
} from '../support/processes.js';
import { until } from '../support/poll.js';
import { uniqueName } from '../support/redis.js';

const JOBS = 40;
/** A publish against a Redis that is down must fail within this. */
const FAIL_FAST_MS = 5000;
/** The same for the CLI, which also has to start Node and load its modules. */
const CLI_FAIL_FAST_MS = 15_000;

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic(async (req, i) => ({ ...(markerHandler(req, i) as object), delayMs: 100 }));
});
afterAll(async () => {
  await fake.close();
});

function hypothesis(i: number) {
  return i % 2 === 0
    ? { hypothesisId: `r${i}`, text: `Assay ${i} @@dual_use_bio@0.9@@`, action: 'hypothesis_quarantined' }
    : { hypothesisId: `r${i}`, text: `Assay ${i} @@dual_use_bio@0.4@@`, action: 'hypothesis_flagged' };
}

/** Published after the restart, by the publisher that was connected before the outage. */
const AFTER = { hypothesisId: 'after', text: 'Assay after @@dual_use_bio@0.9@@', action: 'hypothesis_quarantined' };

async function readyz(port: number, timeoutMs = 5000): Promise<{ status: number; body: string }> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, body: await res.text() };
  } catch (err) {
    return { status: 0, body: String(err) };
  }
}

/** The promise's outcome, or 'timeout' after `ms`. */
async function within<T>(ms: number, promise: Promise<T>): Promise<{ value?: T; error?: unknown } | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)));
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The Publisher as `cosci-safety publish` builds it, on a fresh fail-fast connection. */
function cliStylePublisher(url: string, prefix: string) {
  const connection = createFailFastConnection(url);
  connection.on('error', () => undefined);
  return { connection, publisher: new Publisher({ connection, prefix }) };
}

// Redis stops at the end of beforeAll and restarts in the last step.
describe('a worker process across a Redis restart', () => {
  let server: RedisServer;
  let worker: WorkerProcess;
  let publisher: Publisher;
  let connection: Redis;
  let redis: Redis;
  let stoppedAt = 0;
  const id = uniqueName('restart');
  const { prefix, stream } = namesOf(id);

  beforeAll(async () => {
    server = await startRedisServer();
    const settings: WorkerSettings = {
      redisUrl: server.url,
      id,
      modelUrl: fake.url,
      // Two slots and 100 ms answers: 40 jobs take ~2 s, so most are still queued at the stop.
      worker: { queues: ['hypothesis.saved'], concurrency: 2, shutdown_timeout_ms: 5000 },
    };
    ({ connection, publisher } = cliStylePublisher(server.url, prefix));
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
    redis.on('error', () => undefined);
    worker = await spawnWorker(writeWorkerConfig(settings), settings);
    expect((await readyz(worker.port)).status).toBe(200);
    const queue = publisher.queue('hypothesis.saved');
    for (let i = 0; i < JOBS; i++) {
      const { hypothesisId, text } = hypothesis(i);
      expect((await publisher.publishHypothesisSaved({ hypothesisId, text })).created).toBe(true);
    }
    await until('a first job completed', async () => (await queue.getJobCountByTypes('completed')) >= 2, {
      timeoutMs: 20_000,
    });
    // The stop comes with work left, queued and in flight: the restart has something to prove.
    expect(await queue.getJobCountByTypes('wait')).toBeGreaterThan(0);
    await server.stop();
    stoppedAt = Date.now();
  }, 45_000);

  afterAll(async () => {
    await killWorker(worker);
    await within(2000, publisher.close());
    connection.disconnect();
    redis.disconnect();
    await server.destroy();
  });

  it('the worker process stays up while Redis is down', async () => {
    expect((await fetch(`http://127.0.0.1:${worker.port}/healthz`)).status).toBe(200);
    // Ride out a few seconds of outage, not exit.
    await until('Redis down for 3 s', () => Date.now() - stoppedAt > 3000, { timeoutMs: 20_000 });
    expect(worker.running()).toBe(true);
    expect((await fetch(`http://127.0.0.1:${worker.port}/healthz`)).status).toBe(200);
  });

  it('/readyz answers 503, naming Redis, while Redis is down', async () => {
    // Each probe gets 3 s, as the Kubernetes readiness probe does (deploy/kubernetes/base).
    const seen: string[] = [];
    let last = { status: 0, body: '' };
    await until(
      '/readyz answers 503',
      async () => {
        last = await readyz(worker.port, 3000);
        seen.push(`${last.status} ${last.body.trim()}`);
        return last.status === 503;
      },
      { timeoutMs: 8000 },
    ).catch(() => undefined);
    expect(last.status, `/readyz answers: ${seen.join(' | ')}`).toBe(503);
    expect(last.body).toMatch(/^not ready: .*redis/);
  }, 20_000);

  it('a publisher connected before the outage fails fast with PUBLISH_FAILED and accepts nothing', async () => {
    const started = Date.now();
    const outcome = await within(FAIL_FAST_MS, publisher.publishHypothesisSaved({ hypothesisId: 'during', text: 'x' }));
    expect(outcome, `publishHypothesisSaved still pending after ${FAIL_FAST_MS} ms`).not.toBe('timeout');
    const { error } = outcome as { error?: unknown };
    expect(error).toBeInstanceOf(CosciError);
    expect(error).toMatchObject({ code: 'PUBLISH_FAILED', message: /could not publish to hypothesis\.saved/ });
    expect(Date.now() - started).toBeLessThan(FAIL_FAST_MS);
  });

  it('after the restart the same process reconnects by itself and finishes every accepted job once', async () => {
    expect(worker.running()).toBe(true);
    const queue = publisher.queue('hypothesis.saved');
    await server.start();
    await until('/readyz answers 200 again', async () => (await readyz(worker.port)).status === 200, {
      timeoutMs: 30_000,
      everyMs: 200,
    });
    expect(worker.running()).toBe(true);
    // The publisher's own connection comes back too: publishing works again without a new one.
    await until(
      'the publisher publishes again',
      async () => {
        await publisher.publishHypothesisSaved({ hypothesisId: AFTER.hypothesisId, text: AFTER.text });
        return true;
      },
      { timeoutMs: 15_000, everyMs: 200 },
    );

    await until(
      `all ${JOBS + 1} accepted jobs completed`,
      async () => (await queue.getJobCountByTypes('completed')) === JOBS + 1,
      { timeoutMs: 30_000, everyMs: 100 },
    );
    expect(await queue.getJobCounts('failed', 'active', 'wait', 'delayed')).toEqual({
      failed: 0,
      active: 0,
      wait: 0,
      delayed: 0,
    });
    // The refused publish left no job behind.
    expect(await queue.getJob('hypothesis.during.r0')).toBeUndefined();

    const events = await streamEvents(redis, stream);
    const byEventId = tally(events.map((e) => e.eventId));
    expect([...byEventId.values()].filter((n) => n !== 1)).toEqual([]);
    expect(events).toHaveLength(2 * (JOBS + 1));
    for (const { hypothesisId, action } of [...Array.from({ length: JOBS }, (_, i) => hypothesis(i)), AFTER]) {
      const mine = events.filter((e) => (e.data as { hypothesisId?: string }).hypothesisId === hypothesisId);
      expect(mine.map((e) => e.type).sort(), hypothesisId).toEqual(['hypothesis_assessed', action].sort());
    }
    // It lived through the outage (it logged the lost connection) and still stops cleanly.
    expect(worker.log()).toContain('"msg":"redis connection lost"');
    expect(worker.log()).toContain('"msg":"redis connection back"');
    worker.child.kill('SIGTERM');
    expect(await exitWithin(worker, 15_000)).toBe(0);
  }, 45_000);
});

describe('publishing while Redis is down', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
    await server.stop();
  });
  afterAll(async () => {
    await server.destroy();
  });

  it('a publisher that connects during the outage fails fast with PUBLISH_FAILED', async () => {
    const { connection, publisher } = cliStylePublisher(server.url, uniqueName('down'));
    try {
      const started = Date.now();
      const outcome = await within(FAIL_FAST_MS, publisher.publishHypothesisSaved({ hypothesisId: 'h', text: 'x' }));
      expect(outcome, `publishHypothesisSaved still pending after ${FAIL_FAST_MS} ms`).not.toBe('timeout');
      const { error } = outcome as { error?: unknown };
      expect(error).toBeInstanceOf(CosciError);
      expect(error).toMatchObject({ code: 'PUBLISH_FAILED', message: /ECONNREFUSED/ });
      expect(Date.now() - started).toBeLessThan(FAIL_FAST_MS);
    } finally {
      connection.disconnect();
      await within(2000, publisher.close());
    }
  });

  it('cosci-safety publish hypothesis exits non-zero with a clear message', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cosci-down-')), 'cosci-safety.toml');
    writeFileSync(file, `[redis]\nprefix = "${uniqueName('down')}"\n[logging]\nlevel = "warn"\n`);
    const env = { ...process.env, COSCI_SAFETY_CONFIG: file, REDIS_URL: server.url };
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'publish', 'hypothesis'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.stdin.end(JSON.stringify({ hypothesisId: 'h', text: 'x' }));
    try {
      const outcome = await within(CLI_FAIL_FAST_MS, exited);
      expect(outcome, `the command was still running after ${CLI_FAIL_FAST_MS} ms`).not.toBe('timeout');
      expect((outcome as { value: number | null }).value).toBe(5);
      expect(stderr).toMatch(/^cosci-safety: REDIS_UNAVAILABLE: Redis at .* is unreachable: .*ECONNREFUSED/m);
      expect(stdout).toBe('');
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }
  }, 30_000);
});
