/**
 * What the hypothesis and goal processors share: validating the payload,
 * handing a 429 to BullMQ as a rate limit, and returning a job to the queue
 * when shutdown aborts it.
 */
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import { formatIssuesInline } from '../contracts/issues.js';
import { ClassifierCallError, RateLimitedError } from '../classifier/errors.js';
import type { Verdict } from '../safety/classification/verdict.js';

/** Parses a payload; a bad one fails the job for good, with a message naming the field. */
export function parsePayload<S extends z.ZodType>(schema: S, queue: string, data: unknown): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new UnrecoverableError(`invalid ${queue} payload: ${formatIssuesInline(parsed.error)}`);
  }
  return parsed.data;
}

export interface JobControl {
  /** The worker running the job, for rateLimit. */
  worker: () => Worker | undefined;
}

/**
 * Runs a classification step. A 429 becomes a BullMQ rate limit for what
 * retry-after asked (the job returns to the queue without spending an
 * attempt); an abort at shutdown moves the job back to the queue at once.
 */
export async function guardClassification<T>(
  job: Job,
  token: string | undefined,
  control: JobControl,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof RateLimitedError) {
      const worker = control.worker();
      if (worker) {
        // The limit is shared by the queue's workers: a shorter retry-after
        // from another request must not cut short a longer one.
        const client = (await worker.client) as unknown as Pick<Redis, 'pttl'>;
        const current = await client.pttl(worker.keys.limiter!).catch(() => -1);
        if (err.retryAfterMs > current) await worker.rateLimit(err.retryAfterMs);
        throw Worker.RateLimitError();
      }
      throw err;
    }
    if (err instanceof ClassifierCallError && err.kind === 'aborted' && token) {
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    throw err;
  }
}

/** The verdict fields that every hypothesis and goal event carries. */
export function verdictFields(verdict: Verdict) {
  return {
    action: verdict.action,
    categories: verdict.categories,
    confidence: verdict.confidence,
    rationale: verdict.rationale,
    degraded: verdict.degraded,
    ...(verdict.reason ? { reason: verdict.reason } : {}),
    model: verdict.model,
    refusal: verdict.refusal,
    windowed: verdict.windowed,
  };
}
