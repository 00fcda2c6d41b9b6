/** Starting the real worker runtime and a publisher against real Redis, and waiting for events. */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Config } from '../../src/config/schema.js';
import type { QueueName } from '../../src/contracts/queues.js';
import { readEvents, type StreamEvent } from '../../src/events/reader.js';
import { createLogger } from '../../src/logging/logger.js';
import { Publisher } from '../../src/queues/publisher.js';
import { startWorkerRuntime, type StartOptions, type WorkerRuntime } from '../../src/runtime/worker-runtime.js';
import { testConfig } from './config.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.js';
import { eventually, until } from './poll.js';
import { deleteKeys, testRedis } from './redis.js';

export interface Harness {
  config: Config;
  runtime: WorkerRuntime;
  publisher: Publisher;
  redis: Redis;
  events(): Promise<StreamEvent[]>;
  waitForEvents(predicate: (events: StreamEvent[]) => boolean, timeoutMs?: number): Promise<StreamEvent[]>;
  /** Waits until the job is in `state` (events are emitted just before a job completes). */
  waitForJob(queue: QueueName, jobId: string, state?: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startHarness(config: Config, overrides: Partial<StartOptions> = {}): Promise<Harness> {
  const logger = createLogger({ level: 'silent', format: 'json', isTty: false });
  const runtime = await startWorkerRuntime({ config, logger, ...overrides });
  const redis = testRedis();
  const connection = new Redis(config.redis.url, { maxRetriesPerRequest: 1 });
  const publisher = new Publisher({ connection, prefix: config.redis.prefix, keyPrefix: config.redis.key_prefix });
  const events = () => readEvents(redis, config.redis.events_stream, '-', 10_000);
  return {
    config,
    runtime,
    publisher,
    redis,
    events,
    async waitForEvents(predicate, timeoutMs = 10_000) {
      let seen: StreamEvent[] = [];
      return eventually(
        () => `the events awaited (have: ${seen.map((e) => `${e.type}:${e.eventId}`).join(', ')})`,
        async () => {
          seen = await events();
          return predicate(seen) ? seen : undefined;
        },
        { timeoutMs, everyMs: 25 },
      );
    },
    async waitForJob(queue, jobId, state = 'completed', timeoutMs = 10_000) {
      const q = publisher.queue(queue);
      let now = 'not looked up';
      await until(
        () => `job ${jobId} ${state} (it is ${now})`,
        async () => {
          const job = await q.getJob(jobId);
          now = job ? await job.getState() : 'missing';
          return now === state;
        },
        { timeoutMs, everyMs: 20 },
      );
    },
    async stop() {
      await runtime.shutdown('test');
      await publisher.close();
      connection.disconnect();
      await deleteKeys(redis, config.redis.prefix, config.redis.key_prefix);
      redis.disconnect();
    },
  };
}

/**
 * For a test file of pipelines against one fake Messages API server: starts
 * the server before its tests, and after each test stops the harnesses it
 * started and resets the server (its requests, the marker handler).
 */
export function pipelinesWithFakeModel() {
  let fake: FakeAnthropic | undefined;
  const harnesses: Harness[] = [];
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterEach(async () => {
    await Promise.all(harnesses.splice(0).map((h) => h.stop()));
    fake!.requests.length = 0;
    fake!.setHandler(markerHandler);
  });
  afterAll(async () => {
    await fake?.close();
  });
  return {
    get fake(): FakeAnthropic {
      if (!fake) throw new Error('the fake model server starts in beforeAll');
      return fake;
    },
    /** A harness against the server; `withKey: false` starts the worker with no API key. */
    async harness(overrides: Parameters<typeof testConfig>[1] = {}, withKey = true): Promise<Harness> {
      const h = await startHarness(testConfig(withKey ? this.fake.url : undefined, overrides));
      harnesses.push(h);
      return h;
    },
  };
}
