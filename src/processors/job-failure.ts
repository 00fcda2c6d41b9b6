/**
 * Every processor runs inside withFailurePolicy: what it throws is turned,
 * by the outcome src/failure.ts gives the error's code, into what BullMQ
 * understands. A 429 becomes a rate limit of the queue for what retry-after
 * asked (the job returns to the queue without spending an attempt); an abort
 * at shutdown moves the job back to the queue at once; a bad payload fails
 * the job for good, with the message naming the field; anything else fails
 * the attempt, and BullMQ runs the job again after a backoff.
 */
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { failureOutcome } from '../failure.js';

export interface JobControl {
  /** The worker running the job, for rateLimit. */
  worker: () => Worker | undefined;
}

export type Processor<R> = (job: Job, token?: string) => Promise<R>;

export function withFailurePolicy<R>(processor: Processor<R>, control: JobControl): Processor<R> {
  return async (job, token) => {
    try {
      return await processor(job, token);
    } catch (err) {
      switch (failureOutcome(err)) {
        case 'rate_limited': {
          const worker = control.worker();
          if (!worker) throw err;
          const retryAfterMs = (err as { retryAfterMs?: number }).retryAfterMs ?? 1000;
          // The limit is shared by the queue's workers: a shorter retry-after
          // from another request must not cut short a longer one.
          const client = (await worker.client) as unknown as Pick<Redis, 'pttl'>;
          const current = await client.pttl(worker.keys.limiter!).catch(() => -1);
          if (retryAfterMs > current) await worker.rateLimit(retryAfterMs);
          throw Worker.RateLimitError();
        }
        case 'delay':
          if (!token) throw err;
          await job.moveToDelayed(Date.now(), token);
          throw new DelayedError();
        case 'unrecoverable':
          throw new UnrecoverableError((err as Error).message);
        default:
          throw err;
      }
    }
  };
}
