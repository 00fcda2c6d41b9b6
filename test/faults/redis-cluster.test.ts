/**
 * The whole pipeline on a Redis Cluster: three masters on loopback, started
 * by the test, and hash-tagged prefixes. Hypotheses, a goal, a review with
 * citations, a person's decision and a final report all go through real
 * workers, and every event lands once in the stream.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema, type Config } from '../../src/config/schema.js';
import { readEvents } from '../../src/events/reader.js';
import { createLogger } from '../../src/logging/logger.js';
import { createBlockingConnection, createFailFastConnection } from '../../src/queues/connection.js';
import { Publisher } from '../../src/queues/publisher.js';
import { buildReviewService } from '../../src/runtime/builders.js';
import { startWorkerRuntime, type WorkerRuntime } from '../../src/runtime/worker-runtime.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { startPageServer, type PageServer } from '../support/page-server.js';
import { until } from '../support/poll.js';
import { freePort } from '../support/processes.js';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

const nodes: ChildProcess[] = [];
let dir: string;
let ports: number[];
let fake: FakeAnthropic;
let pages: PageServer;
let runtime: WorkerRuntime;
let publisher: Publisher;
let config: Config;

/** Nodes starting, the cluster forming and its first jobs each take seconds on a loaded machine. */
const CLUSTER_WAIT = { timeoutMs: 20_000, everyMs: 100 };

beforeAll(async () => {
  if (!hasRedis) return;
  dir = mkdtempSync(join(tmpdir(), 'cosci-cluster-'));
  ports = [await freePort(), await freePort(), await freePort()];
  for (const port of ports) {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    );
    nodes.push(child);
  }
  for (const port of ports) {
    await until(
      `redis on ${port}`,
      () =>
        spawnSync('redis-cli', ['-p', String(port), 'ping'])
          .stdout?.toString()
          .trim() === 'PONG',
      CLUSTER_WAIT,
    );
  }
  const create = spawnSync(
    'redis-cli',
    ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'],
    { encoding: 'utf8' },
  );
  if (create.status !== 0) throw new Error(`cluster create failed: ${create.stdout}${create.stderr}`);
  await until(
    'cluster_state:ok',
    () =>
      ports.every((p) =>
        spawnSync('redis-cli', ['-p', String(p), 'cluster', 'info'], { encoding: 'utf8' }).stdout.includes(
          'cluster_state:ok',
        ),
      ),
    CLUSTER_WAIT,
  );

  fake = await startFakeAnthropic(markerHandler);
  pages = await startPageServer();
  pages.page('/paper', '<html><body><p>Kinase X phosphorylates protein Y in budding yeast.</p></body></html>');
  config = ConfigSchema.parse({
    redis: {
      url: ports.map((p) => `redis://127.0.0.1:${p}`).join(','),
      cluster: true,
      prefix: '{bull}',
      key_prefix: '{cosci}',
      events_stream: '{cosci}:events',
    },
    worker: { concurrency: 8, shutdown_timeout_ms: 3000 },
    metrics: { port: 0, host: '127.0.0.1' },
    anthropic: { api_key: 'sk-cluster-test', base_url: fake.url, timeout_ms: 5000 },
    citations: { allow_private_hosts: [`localhost:${pages.port}`] },
    logging: { level: 'silent' },
  });
  runtime = await startWorkerRuntime({
    config,
    logger: createLogger({ level: 'silent', format: 'json', isTty: false }),
  });
  publisher = new Publisher({
    connection: createFailFastConnection(config.redis),
    prefix: config.redis.prefix,
    blockingConnection: () => createBlockingConnection(config.redis),
  });
}, 60_000);

afterAll(async () => {
  await publisher?.close();
  await runtime?.shutdown('test');
  await fake?.close();
  await pages?.close();
  for (const child of nodes) child.kill('SIGTERM');
  await Promise.all(nodes.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe.skipIf(!hasRedis)('Redis Cluster', () => {
  it('runs the whole pipeline with hash-tagged prefixes, each event once', async () => {
    const reader = createBlockingConnection(config.redis, { maxRetriesPerRequest: 3 });
    try {
      await publisher.publishHypothesisSaved({ hypothesisId: 'c-allow', text: 'Kinase X in yeast.', revision: 1 });
      await publisher.publishHypothesisSaved({
        hypothesisId: 'c-held',
        text: 'Risky @@dual_use_bio@0.9@@',
        revision: 1,
      });
      const goal = await publisher.submitGoal(
        { goalId: 'c-goal', text: 'Map kinase networks.' },
        { wait: true, timeoutMs: 20_000 },
      );
      expect(goal.verdict.action).toBe('allow');
      await publisher.publishReviewRecorded({
        reviewId: 'c-review',
        hypothesisId: 'c-allow',
        evidence: [
          { claim: 'X acts on Y', url: `${pages.base}/paper`, excerpt: 'Kinase X phosphorylates protein Y' },
          { claim: 'made up', url: `${pages.base}/paper`, excerpt: 'Kinase X cures every disease' },
        ],
      });

      const stream = config.redis.events_stream;
      await until(
        'hypothesis and review events',
        async () => {
          const types = (await readEvents(reader, stream, '-', 1000)).map((e) => e.type);
          return types.filter((t) => t === 'hypothesis_assessed').length === 2 && types.includes('review_verified');
        },
        CLUSTER_WAIT,
      );

      const review = buildReviewService(config, reader);
      expect((await review.list()).map((i) => i.hypothesisId)).toEqual(['c-held']);
      await review.decide('released', { hypothesisId: 'c-held', by: 'Dr Cluster', note: 'checked by hand' });

      const report = await publisher.finalizeReport(
        {
          reportId: 'c-report',
          sections: [
            { text: 'Findings on c-allow.', hypothesisId: 'c-allow' },
            { text: 'Findings on c-held.', hypothesisId: 'c-held' },
          ],
        },
        { wait: true, timeoutMs: 20_000 },
      );
      expect(report).toMatchObject({ outcome: 'cleared', publishable: true, redactions: [] });

      const events = await readEvents(reader, stream, '-', 1000);
      const ids = events.map((e) => e.eventId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(events.map((e) => e.type).sort()).toEqual(
        [
          'citation_unverified',
          'goal_assessed',
          'hypothesis_assessed',
          'hypothesis_assessed',
          'hypothesis_quarantined',
          'hypothesis_released',
          'report_cleared',
          'review_verified',
        ].sort(),
      );
      const verified = events.find((e) => e.type === 'review_verified')!.data as { counts: Record<string, number> };
      expect(verified.counts).toEqual({ ok: 1, unverified: 1, fetch_failed: 0 });
      // The keys really are spread over the cluster's masters: BullMQ's under one slot, ours under another.
      const slots = ['{bull}', '{cosci}'].map((tag) =>
        Number(
          spawnSync('redis-cli', ['-p', String(ports[0]), 'cluster', 'keyslot', tag], {
            encoding: 'utf8',
          }).stdout.trim(),
        ),
      );
      expect(slots[0]).not.toBe(slots[1]);
    } finally {
      reader.disconnect();
    }
  }, 60_000);
});
