/**
 * A job whose stored data is not JSON, against BullMQ's Worker and against
 * JobWorker, on a real Redis. The first test pins what BullMQ itself does
 * (the reason JobWorker exists); when it fails, BullMQ has changed and
 * src/queues/job-worker.ts may no longer be needed.
 */
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { DATA_NOT_JSON, JobWorker } from '../../src/queues/job-worker.js';
import { until } from '../support/poll.js';
import { deleteKeys, testRedis, uniqueName } from '../support/redis.js';

let redis: Redis;
const prefix = uniqueName('jw');
const closers: Array<() => Promise<unknown>> = [];

beforeAll(() => {
  redis = testRedis();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

/** A paused queue holding `jobs`, each with its data stored as the exact text given. */
async function queueWith(jobs: Array<[id: string, text: string]>): Promise<Queue> {
  const queue = new Queue(uniqueName('q'), { connection: testRedis(), prefix });
  closers.push(() => queue.close());
  await queue.pause();
  for (const [id, text] of jobs) {
    await queue.add('job', {}, { jobId: id, attempts: 3 });
    // What a publisher writing the job hash itself can leave there.
    await redis.hset(`${prefix}:${queue.name}:${id}`, 'data', text);
  }
  return queue;
}

function start<W extends Worker>(worker: W): { worker: W; errors: Error[]; processed: string[] } {
  const errors: Error[] = [];
  worker.on('error', (err) => errors.push(err));
  closers.push(() => worker.close(true));
  return { worker, errors, processed: [] };
}

/** Each wait here is for a job or two on an otherwise idle queue. */
const SOON = { timeoutMs: 5000, everyMs: 25 };

it("BullMQ's Worker leaves a job whose data is not JSON active, and reports a worker error", async () => {
  const queue = await queueWith([['bad', '{not json']]);
  const processed: string[] = [];
  const { errors } = start(
    new Worker(queue.name, async (job: Job) => void processed.push(job.id!), {
      connection: testRedis(),
      prefix,
      lockDuration: 60_000,
    }),
  );
  await queue.resume();
  await until('a worker error', () => errors.length > 0, SOON);
  expect(errors[0]).toBeInstanceOf(SyntaxError);
  expect(await queue.getJobState('bad')).toBe('active');
  expect(processed).toEqual([]);
  // And no client can read it: Job.fromJSON parses the data.
  await expect(queue.getJob('bad')).rejects.toBeInstanceOf(SyntaxError);
});

it('JobWorker fails it at once, for good, and keeps its text readable', async () => {
  const queue = await queueWith([
    ['bad', '{not json'],
    ['good', '{"n":1}'],
  ]);
  const processed: string[] = [];
  const { errors } = start(
    new JobWorker(queue.name, async (job: Job) => void processed.push(job.id!), {
      connection: testRedis(),
      prefix,
    }),
  );
  await queue.resume();
  await until('the bad job failed', async () => (await queue.getJobState('bad')) === 'failed', SOON);
  await until('the good job completed', async () => (await queue.getJobState('good')) === 'completed', SOON);
  const job = await queue.getJob('bad');
  expect(job!.data).toBe('{not json');
  expect(job!.failedReason).toMatch(new RegExp(`^${DATA_NOT_JSON}: `));
  // Not retried, though it allowed three attempts.
  expect(job!.attemptsMade).toBe(1);
  expect(processed).toEqual(['good']);
  expect(errors).toEqual([]);
});

it('JobWorker fails it when the job before it hands it over on completion', async () => {
  // One job at a time: finishing "first", the worker is given the next job
  // by the same script call (moveToFinished with fetchNext).
  const queue = await queueWith([
    ['first', '{"n":1}'],
    ['bad', '{"n":'],
    ['last', '{"n":3}'],
  ]);
  const processed: string[] = [];
  const handedOver: string[] = [];
  // Records the job BullMQ hands over on completion, to show this path is the one taken.
  class Recording extends JobWorker {
    protected override async handleCompleted(...args: Parameters<JobWorker['handleCompleted']>) {
      const next = await super.handleCompleted(...args);
      if (next) handedOver.push(next.id!);
      return next;
    }
  }
  const { errors } = start(
    new Recording(queue.name, async (job: Job) => void processed.push(job.id!), {
      connection: testRedis(),
      prefix,
      concurrency: 1,
    }),
  );
  await queue.resume();
  await until('the last job completed', async () => (await queue.getJobState('last')) === 'completed', SOON);
  expect(await queue.getJobState('first')).toBe('completed');
  expect(await queue.getJobState('bad')).toBe('failed');
  expect(processed).toEqual(['first', 'last']);
  expect(errors).toEqual([]);
  expect(handedOver).toContain('bad');
});
