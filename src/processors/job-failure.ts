/**
 * Every processor runs inside withFailurePolicy: what it throws is turned,
 * by the outcome src/failure.ts gives the error's code, into what BullMQ
 * understands. An abort at shutdown moves the job back to the queue at once;
 * a bad payload fails the job for good, with the message naming the field;
 * anything else fails the attempt, and BullMQ runs the job again after a
 * backoff. The classifier's failures, a 429 included, never reach here: they
 * are retried inside the job, within a budget, and then give a degraded
 * verdict (src/classifier/retry.ts).
 */
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { failureOutcome } from '../failure.js';

export type Processor<R> = (job: Job, token?: string) => Promise<R>;

export function withFailurePolicy<R>(processor: Processor<R>): Processor<R> {
  return async (job, token) => {
    try {
      return await processor(job, token);
    } catch (err) {
      switch (failureOutcome(err)) {
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
