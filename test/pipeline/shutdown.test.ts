/** Graceful shutdown with jobs in flight, in process and as a real worker process with SIGTERM. */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { assessment, markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { testConfig } from '../support/config.js';
import { startPageServer } from '../support/page-server.js';
import { startHarness } from '../support/pipeline.js';
import { until } from '../support/poll.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
});

describe('graceful shutdown', () => {
  it('lets a job in flight finish within the bound', async () => {
    fake.setHandler(async () => ({ ...(assessment(['none'], 0.9) as object), delayMs: 800 }));
    const h = await startHarness(testConfig(fake.url, { worker: { shutdown_timeout_ms: 5000 } }));
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'slow', text: 'x' });
    await until('the model call in flight', () => fake.requests.length === 1, { everyMs: 20 });
    const started = Date.now();
    await h.runtime.shutdown('test');
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await h.events()).map((e) => e.type)).toEqual(['hypothesis_assessed']);
    await h.stop();
    fake.requests.length = 0;
  });

  it('aborts a job that outlives the bound and returns it to the queue, where the next worker finishes it', async () => {
    fake.setHandler(() => 'hang');
    const config = testConfig(fake.url, { worker: { shutdown_timeout_ms: 300 }, anthropic: { timeout_ms: 30_000 } });
    const h = await startHarness(config);
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'stuck', text: 'x' });
    await until('the model call in flight', () => fake.requests.length === 1, { everyMs: 20 });
    const started = Date.now();
    await h.runtime.shutdown('test');
    expect(Date.now() - started).toBeLessThan(3000);
    const queue = new Queue('hypothesis.saved', { connection: h.redis.duplicate(), prefix: config.redis.prefix });
    const job = await queue.getJob('hypothesis.stuck.r0');
    expect(['delayed', 'waiting']).toContain(await job!.getState());
    expect(await h.events()).toEqual([]);

    fake.setHandler(markerHandler);
    const next = await startHarness(config);
    await next.waitForEvents((e) => e.length === 1);
    await next.waitForJob('hypothesis.saved', 'hypothesis.stuck.r0');
    await queue.close();
    await next.stop();
    await h.stop();
    fake.requests.length = 0;
  });
});

describe('graceful shutdown of a citation check', () => {
  it('cuts a slow page short at the bound and returns the review to the queue, spending no attempt and caching nothing', async () => {
    const pages = await startPageServer();
    // Headers at once, then a body that never ends: only the shutdown can stop it.
    pages.route('/slow', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<p>The quoted sentence');
    });
    pages.page('/fast', '<p>The quoted sentence is here.</p>');
    const config = testConfig(fake.url, {
      worker: { shutdown_timeout_ms: 300 },
      citations: {
        allow_private_hosts: [`localhost:${pages.port}`],
        body_timeout_ms: 60_000,
        total_timeout_ms: 60_000,
      },
    });
    const h = await startHarness(config);
    try {
      await h.publisher.publishReviewRecorded({
        reviewId: 'rv',
        hypothesisId: 'h',
        evidence: [{ claim: 'c', url: `${pages.base}/slow`, excerpt: 'The quoted sentence' }],
      });
      await until('the page fetch in flight', () => pages.hits.get('/slow') === 1, { everyMs: 20 });
      const started = Date.now();
      await h.runtime.shutdown('test');
      // The bound (300 ms) and the time to close, far below the page's own 60 s limits.
      expect(Date.now() - started).toBeLessThan(3000);
      const job = await h.publisher.queue('review.recorded').getJob('review.rv.r0');
      expect(['delayed', 'waiting']).toContain(await job!.getState());
      expect(job!.attemptsMade).toBe(0);
      expect(await h.events()).toEqual([]);
      expect(await h.redis.keys(`${config.redis.key_prefix}:page:*`)).toEqual([]);
    } finally {
      await h.stop();
      await pages.close();
    }
  });
});

describe('a review deadline during shutdown', () => {
  it('ends the review at its deadline within the grace period: recorded with the citation cut, not sent back', async () => {
    const pages = await startPageServer();
    // Only the deadline can stop it: every time bound of the fetch is longer.
    pages.route('/stalled', () => undefined);
    const config = testConfig(fake.url, {
      worker: { shutdown_timeout_ms: 20_000 },
      citations: {
        allow_private_hosts: [`localhost:${pages.port}`],
        headers_timeout_ms: 60_000,
        total_timeout_ms: 60_000,
        review_deadline_ms: 1000,
      },
    });
    const h = await startHarness(config);
    try {
      await h.publisher.publishReviewRecorded({
        reviewId: 'rd',
        hypothesisId: 'h',
        evidence: [{ claim: 'c', url: `${pages.base}/stalled`, excerpt: 'The quoted sentence' }],
      });
      await until('the page fetch in flight', () => pages.hits.get('/stalled') === 1, { everyMs: 20 });
      const started = Date.now();
      await h.runtime.shutdown('test');
      // Closed once the review ended at its deadline, long before the grace period's end.
      expect(Date.now() - started).toBeLessThan(15_000);
      const job = await h.publisher.queue('review.recorded').getJob('review.rd.r0');
      expect(await job!.getState()).toBe('completed');
      const events = await h.events();
      expect(events.map((e) => [e.type, (e.data as { reason?: string }).reason])).toEqual([
        ['citation_unverified', 'review_deadline'],
        ['review_verified', undefined],
      ]);
    } finally {
      await h.stop();
      await pages.close();
    }
  });
});

describe('worker processes', () => {
  it('two processes share one queue; each job is done once; SIGTERM stops them cleanly', async () => {
    fake.setHandler(async (req, i) => ({ ...(markerHandler(req, i) as object), delayMs: 20 }));
    const id = uniqueName('procs');
    const dir = mkdtempSync(join(tmpdir(), 'cosci-procs-'));
    const configFile = join(dir, 'cosci-safety.toml');
    writeFileSync(
      configFile,
      `[redis]
url = "${REDIS_URL}"
prefix = "${id}-bull"
key_prefix = "${id}-k"
events_stream = "${id}-k:events"
[worker]
concurrency = 4
shutdown_timeout_ms = 5000
[metrics]
port = 0
host = "127.0.0.1"
[anthropic]
base_url = "${fake.url}"
[logging]
level = "info"
format = "json"
`,
    );
    const env = { ...process.env, COSCI_SAFETY_CONFIG: configFile, ANTHROPIC_API_KEY: 'sk-proc-secret-1234' };
    const procs = [0, 1].map(() =>
      spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'worker'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    const logs = procs.map(() => ({ text: '' }));
    procs.forEach((p, i) => p.stderr.on('data', (d: Buffer) => (logs[i]!.text += d.toString())));
    const redis = testRedis();
    try {
      await until('both workers started', () => logs.every((l) => l.text.includes('worker started')), {
        timeoutMs: 20_000,
        everyMs: 20,
      });
      const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      const { Publisher } = await import('../../src/queues/publisher.js');
      const publisher = new Publisher({ connection, prefix: `${id}-bull` });
      for (let i = 0; i < 40; i++)
        await publisher.publishHypothesisSaved({
          hypothesisId: `p${i}`,
          text: i % 4 === 0 ? '@@dual_use_bio@0.9@@' : 'ok',
        });
      await until('50 events in the stream', async () => (await redis.xlen(`${id}-k:events`)) >= 50, {
        timeoutMs: 20_000,
        everyMs: 20,
      });
      const entries = (await redis.xrange(`${id}-k:events`, '-', '+')) as Array<[string, string[]]>;
      const eventIds = entries.map(([, f]) => f[f.indexOf('eventId') + 1]);
      expect(eventIds).toHaveLength(50);
      expect(new Set(eventIds).size).toBe(50);
      const queue = publisher.queue('hypothesis.saved');
      // Events are emitted just before a job is marked completed.
      await until('40 jobs completed', async () => (await queue.getJobCountByTypes('completed')) === 40, {
        everyMs: 20,
      });
      const completed = await queue.getJobs(['completed'], 0, 100);
      expect(completed).toHaveLength(40);
      const by = new Set(completed.map((j) => j.processedBy));
      expect(by.size).toBe(2);
      await publisher.close();
      connection.disconnect();

      const exits = procs.map((p) => new Promise<number | null>((r) => p.on('exit', (code) => r(code))));
      for (const p of procs) p.kill('SIGTERM');
      expect(await Promise.all(exits)).toEqual([0, 0]);
      for (const l of logs) {
        expect(l.text).toContain('"msg":"shut down"');
        // The API key never reaches the logs.
        expect(l.text).not.toContain('sk-proc-secret-1234');
      }
    } finally {
      for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
      await deleteKeys(redis, id);
      redis.disconnect();
      fake.setHandler(markerHandler);
    }
  }, 60_000);
});
