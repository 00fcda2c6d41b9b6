/**
 * Fault: one of two worker processes on a queue is killed with SIGKILL while
 * it holds jobs in flight (no shutdown, no lock release). The victim reaches
 * Redis through a proxy that freezes it at the worst moment first: one job
 * has stored its verdict and appended its events but its completion has not
 * reached Redis; its other jobs wait on the (slow) model.
 *
 * Asserted: the other process takes every one of the victim's jobs over once
 * their locks expire (BullMQ's stalled-job check), every job completes, none
 * fails, the half-finished job reuses its stored verdict instead of asking
 * the model again and appends no event a second time, and each hypothesis's
 * two events (hypothesis_assessed and its action event) are in the stream
 * exactly once, by eventId and by hypothesisId.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { Job } from 'bullmq';
import { Publisher } from '../../src/queues/publisher.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import {
  exitWithin,
  killWorker,
  namesOf,
  spawnWorker,
  startFreezingProxy,
  streamEvents,
  tally,
  writeWorkerConfig,
  type FreezingProxy,
  type WorkerProcess,
  type WorkerSettings,
} from '../support/processes.js';
import { StopPolling, until } from '../support/poll.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

const JOBS = 40;
const MODEL_DELAY_MS = 500;

let fake: FakeAnthropic;
beforeAll(async () => {
  // Slow answers keep every slot of both processes busy for a while.
  fake = await startFakeAnthropic(async (req, i) => ({
    ...(markerHandler(req, i) as object),
    delayMs: MODEL_DELAY_MS,
  }));
});
afterAll(async () => {
  await fake.close();
});

/** Even hypotheses are quarantined, odd ones flagged: each has exactly two events. */
function hypothesis(i: number) {
  return i % 2 === 0
    ? { hypothesisId: `k${i}`, text: `Assay ${i} @@dual_use_bio@0.9@@`, action: 'hypothesis_quarantined' }
    : { hypothesisId: `k${i}`, text: `Assay ${i} @@dual_use_bio@0.4@@`, action: 'hypothesis_flagged' };
}

const ofHypothesis = (id: string) => (e: { data: unknown }) =>
  (e.data as { hypothesisId?: string }).hypothesisId === id;

describe('a worker process killed with jobs in flight', () => {
  it('its jobs are finished by the other process after the stall interval, once each', async () => {
    const id = uniqueName('kill');
    const { prefix, stream } = namesOf(id);
    const settings: WorkerSettings = {
      redisUrl: REDIS_URL,
      id,
      modelUrl: fake.url,
      worker: {
        queues: ['hypothesis.saved'],
        concurrency: 4,
        // A lost worker's jobs are taken over after ~2 s instead of BullMQ's 30 s.
        lock_duration_ms: 2000,
        stalled_interval_ms: 1000,
        shutdown_timeout_ms: 5000,
      },
    };
    const redis = testRedis();
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const publisher = new Publisher({ connection, prefix });
    let proxy: FreezingProxy | undefined;
    let victim: WorkerProcess | undefined;
    let survivor: WorkerProcess | undefined;
    try {
      // Frozen when it sends its first completion: the job's return value, after its verdict and events.
      proxy = await startFreezingProxy(REDIS_URL, /"hypothesisId":"(k\d+)","revision":0,"verdict"/);
      const viaProxy = { ...settings, redisUrl: proxy.url };
      [victim, survivor] = await Promise.all([
        spawnWorker(writeWorkerConfig(viaProxy), viaProxy),
        spawnWorker(writeWorkerConfig(settings), settings),
      ]);
      const queue = publisher.queue('hypothesis.saved');
      for (let i = 0; i < JOBS; i++) {
        const { hypothesisId, text } = hypothesis(i);
        expect((await publisher.publishHypothesisSaved({ hypothesisId, text })).created).toBe(true);
      }

      const halfDone = await proxy.tripped;
      // Frozen: nothing of the victim's reaches Redis any more, so this is what it holds when it dies.
      const inFlight: Job[] = (await queue.getJobs(['active'])).filter((j) => j.processedBy === victim!.name);
      const atKill = await streamEvents(redis, stream);
      victim.child.kill('SIGKILL');
      await victim.exited;
      const killedAt = Date.now();

      expect(inFlight.map((j) => j.id)).toContain(`hypothesis.${halfDone}.r0`);
      expect(inFlight.length).toBeGreaterThan(1);
      expect(
        atKill
          .filter(ofHypothesis(halfDone))
          .map((e) => e.type)
          .sort(),
      ).toEqual(['hypothesis_assessed', hypothesis(Number(halfDone.slice(1))).action].sort());

      await until(
        `all ${JOBS} jobs completed`,
        async () => {
          const { completed, failed } = await queue.getJobCounts('completed', 'failed');
          if (failed) throw new StopPolling(`${failed} jobs failed`);
          return completed === JOBS;
        },
        { timeoutMs: 40_000, everyMs: 100 },
      );
      expect(await queue.getJobCounts('failed', 'active', 'wait', 'delayed', 'prioritized')).toEqual({
        failed: 0,
        active: 0,
        wait: 0,
        delayed: 0,
        prioritized: 0,
      });

      // Every job the victim held was moved back by the stalled check and run by the survivor.
      for (const held of inFlight) {
        const job = (await queue.getJob(held.id!))!;
        expect(await job.getState(), job.id).toBe('completed');
        expect(job.processedBy, job.id).toBe(survivor.name);
        // Restarted after the kill, counted as stalled once, and no attempt spent on the lost run.
        expect(job.processedOn, job.id).toBeGreaterThan(killedAt);
        expect(job.stalledCounter, job.id).toBe(1);
        expect(job.attemptsMade, job.id).toBe(1);
      }
      // The half-finished job kept the verdict it had stored: one model call for it in all.
      const halfDoneText = hypothesis(Number(halfDone.slice(1))).text;
      expect(fake.requests.filter((r) => r.text.includes(halfDoneText))).toHaveLength(1);

      // Each hypothesis: exactly its two events, each once.
      const events = await streamEvents(redis, stream);
      const byEventId = tally(events.map((e) => e.eventId));
      expect([...byEventId.entries()].filter(([, n]) => n !== 1)).toEqual([]);
      expect(events).toHaveLength(2 * JOBS);
      for (let i = 0; i < JOBS; i++) {
        const { hypothesisId, action } = hypothesis(i);
        const mine = events.filter(ofHypothesis(hypothesisId));
        expect(mine.map((e) => e.type).sort(), hypothesisId).toEqual(['hypothesis_assessed', action].sort());
      }

      // The survivor is unharmed and still stops cleanly.
      expect(survivor.running()).toBe(true);
      survivor.child.kill('SIGTERM');
      expect(await exitWithin(survivor, 15_000)).toBe(0);
    } finally {
      await killWorker(victim);
      await killWorker(survivor);
      await proxy?.close();
      await publisher.close();
      connection.disconnect();
      await deleteKeys(redis, id);
      redis.disconnect();
    }
  }, 60_000);
});
