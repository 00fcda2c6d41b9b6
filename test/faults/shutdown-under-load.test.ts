/**
 * Fault: SIGTERM to a worker process while every concurrency slot is busy,
 * half of them on model calls that answer within the shutdown bound and half
 * on calls that never answer.
 *
 * Asserted: the process exits with code 0 within the bound plus a few
 * seconds, by the graceful path (no forced close); afterwards no job is
 * active and no job lock is left; the jobs that finished have their events;
 * the aborted ones are back in the queue (delayed or waiting) with no attempt
 * spent and no event; nothing failed. A second worker process then finishes
 * every job, and each hypothesis's events are in the stream exactly once
 * across both processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { Publisher } from '../../src/queues/publisher.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic, type Handler } from '../support/fake-anthropic.js';
import {
  exitWithin,
  killWorker,
  namesOf,
  scanKeys,
  spawnWorker,
  streamEvents,
  tally,
  writeWorkerConfig,
  type WorkerProcess,
  type WorkerSettings,
} from '../support/processes.js';
import { until } from '../support/poll.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

const CONCURRENCY = 4;
const JOBS = 12;
const SHUTDOWN_MS = 2500;
/** Within the bound, with a second to spare on a slow machine. */
const SLOW_MS = 1500;
/** Exit after SIGTERM: the bound plus a few seconds (the forced close comes at bound + 5 s). */
const EXIT_WITHIN_MS = SHUTDOWN_MS + 4000;

/** Hypotheses alternate: "slow" ones answer within the bound, "hang" ones never. */
function hypothesis(i: number) {
  return i % 2 === 0
    ? { hypothesisId: `s${i}`, text: `slow assay ${i} @@dual_use_bio@0.9@@`, action: 'hypothesis_quarantined' }
    : { hypothesisId: `s${i}`, text: `hang assay ${i} @@dual_use_bio@0.4@@`, action: 'hypothesis_flagged' };
}

const underLoad: Handler = async (req, i) =>
  req.text.includes('hang assay') ? 'hang' : { ...(markerHandler(req, i) as object), delayMs: SLOW_MS };

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic(underLoad);
});
afterAll(async () => {
  await fake.close();
});

describe('SIGTERM with every slot busy', () => {
  it('exits within the bound, leaves no job active or locked, and a second worker finishes the rest once', async () => {
    const id = uniqueName('drain');
    const { prefix, stream } = namesOf(id);
    const settings: WorkerSettings = {
      redisUrl: REDIS_URL,
      id,
      modelUrl: fake.url,
      worker: { queues: ['hypothesis.saved'], concurrency: CONCURRENCY, shutdown_timeout_ms: SHUTDOWN_MS },
      // Longer than the test: only the shutdown abort ends a hanging call.
      modelTimeoutMs: 120_000,
    };
    const configFile = writeWorkerConfig(settings);
    const redis = testRedis();
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const publisher = new Publisher({ connection, prefix });
    const queue = publisher.queue('hypothesis.saved');
    let first: WorkerProcess | undefined;
    let second: WorkerProcess | undefined;
    try {
      first = await spawnWorker(configFile, settings);
      for (let i = 0; i < JOBS; i++) {
        const { hypothesisId, text } = hypothesis(i);
        await publisher.publishHypothesisSaved({ hypothesisId, text });
      }
      await until(
        'every slot busy on a model call',
        async () => (await queue.getJobCountByTypes('active')) === CONCURRENCY && fake.requests.length === CONCURRENCY,
        { timeoutMs: 20_000 },
      );
      const inFlight = (await queue.getJobs(['active'])).map((j) => j.id!);
      expect(inFlight).toHaveLength(CONCURRENCY);

      const signalled = Date.now();
      first.child.kill('SIGTERM');
      // Waited on a little past the limit, so a late exit still shows its time.
      const code = await exitWithin(first, EXIT_WITHIN_MS + 5000);
      const exitMs = Date.now() - signalled;
      expect(code).toBe(0);
      expect(exitMs).toBeLessThan(EXIT_WITHIN_MS);
      // The hanging calls outlived the bound: they were aborted, not force-closed.
      expect(exitMs).toBeGreaterThanOrEqual(SHUTDOWN_MS);
      expect(first.log()).toContain('shutdown bound reached');
      expect(first.log()).not.toContain('closing workers by force');
      expect(first.log()).toContain('"msg":"shut down"');

      // Nothing active, nothing locked, nothing failed.
      expect(await queue.getJobCounts('active', 'failed')).toEqual({ active: 0, failed: 0 });
      expect(await scanKeys(redis, `${prefix}:*:lock`)).toEqual([]);

      const afterFirst = await streamEvents(redis, stream);
      const completedFirst: string[] = [];
      for (let i = 0; i < JOBS; i++) {
        const { hypothesisId, text, action } = hypothesis(i);
        const job = (await queue.getJob(`hypothesis.${hypothesisId}.r0`))!;
        const state = await job.getState();
        const mine = afterFirst.filter((e) => (e.data as { hypothesisId?: string }).hypothesisId === hypothesisId);
        const wasInFlight = inFlight.includes(job.id!);
        if (state === 'completed') {
          completedFirst.push(hypothesisId);
          expect(mine.map((e) => e.type).sort(), hypothesisId).toEqual(['hypothesis_assessed', action].sort());
          expect(job.attemptsMade).toBe(1);
        } else {
          // Aborted or never started: back in the queue, no event, no attempt spent.
          expect(['delayed', 'waiting'], hypothesisId).toContain(state);
          expect(mine, hypothesisId).toEqual([]);
          expect(job.attemptsMade, hypothesisId).toBe(0);
          expect(job.attemptsStarted, hypothesisId).toBe(wasInFlight ? 1 : 0);
        }
        // In flight at the signal: the slow ones finished within the bound, the hanging ones were aborted.
        if (wasInFlight) expect(state, hypothesisId).toBe(text.startsWith('slow') ? 'completed' : 'delayed');
        // Not started: the closing worker took no new job.
        else expect(state, hypothesisId).toBe('waiting');
      }
      expect(completedFirst).toHaveLength(CONCURRENCY / 2);

      // A second worker, with a model that answers, finishes everything.
      fake.setHandler(markerHandler);
      second = await spawnWorker(configFile, settings);
      await until(`all ${JOBS} jobs completed`, async () => (await queue.getJobCountByTypes('completed')) === JOBS, {
        timeoutMs: 30_000,
        everyMs: 100,
      });
      expect(await queue.getJobCounts('failed', 'active', 'wait', 'delayed')).toEqual({
        failed: 0,
        active: 0,
        wait: 0,
        delayed: 0,
      });
      for (const jobId of inFlight) {
        const job = (await queue.getJob(jobId))!;
        // Odd ones hang (hypothesis(i)); the text itself is withheld once a job completes.
        const hang = Number((job.data as { hypothesisId: string }).hypothesisId.slice(1)) % 2 === 1;
        // An aborted run costs no attempt: the one that succeeded is the only one counted.
        expect(job.attemptsMade, jobId).toBe(1);
        expect(job.attemptsStarted, jobId).toBe(hang ? 2 : 1);
        expect(job.processedBy, jobId).toBe(hang ? second.name : first.name);
      }

      const events = await streamEvents(redis, stream);
      const byEventId = tally(events.map((e) => e.eventId));
      expect([...byEventId.values()].filter((n) => n !== 1)).toEqual([]);
      expect(events).toHaveLength(2 * JOBS);
      for (let i = 0; i < JOBS; i++) {
        const { hypothesisId, action } = hypothesis(i);
        const mine = events.filter((e) => (e.data as { hypothesisId?: string }).hypothesisId === hypothesisId);
        expect(mine.map((e) => e.type).sort(), hypothesisId).toEqual(['hypothesis_assessed', action].sort());
      }
      // The events written before the signal are still the first ones: nothing was rewritten.
      expect(events.slice(0, afterFirst.length)).toEqual(afterFirst);

      second.child.kill('SIGTERM');
      expect(await exitWithin(second, EXIT_WITHIN_MS)).toBe(0);
      expect(await scanKeys(redis, `${prefix}:*:lock`)).toEqual([]);
    } finally {
      await killWorker(first);
      await killWorker(second);
      fake.setHandler(underLoad);
      await publisher.close();
      connection.disconnect();
      await deleteKeys(redis, id);
      redis.disconnect();
    }
  }, 60_000);
});
