/**
 * The one retry layer of classifier requests: exponential backoff with full
 * jitter for the failures src/failure.ts retries, the server's retry-after when it
 * gives one, and a fixed budget. A 429 either goes up to the processor (which
 * hands the wait to BullMQ as a rate limit, spending no attempt) or, in the
 * one-off CLI, is waited out here.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { failureOutcome } from '../failure.js';
import { ClassifierCallError, RateLimitedError } from './errors.js';

export interface RetryOptions {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** `throw`: a 429 raises RateLimitedError; `wait`: it is waited out and counts against the budget. */
  onRateLimit: 'throw' | 'wait';
  signal?: AbortSignal | undefined;
  /** Random source in [0, 1), for tests. */
  random?: () => number;
  /** Called before each wait, for logs. */
  onRetry?: (error: ClassifierCallError, attempt: number, delayMs: number) => void;
}

/** Full jitter: uniform in [0, min(max, base * 2^attempt)], but never less than what the server asked. */
export function backoffDelay(attempt: number, options: RetryOptions, retryAfterMs?: number): number {
  const cap = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  const jittered = Math.floor((options.random ?? Math.random)() * cap);
  return Math.max(jittered, retryAfterMs ?? 0);
}

export async function withRetry<T>(call: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof ClassifierCallError)) throw err;
      if (err.kind === 'rate_limited') {
        const wait = err.retryAfterMs ?? backoffDelay(attempt, options);
        if (options.onRateLimit === 'throw') throw new RateLimitedError(Math.max(wait, 1));
        if (attempt >= options.maxRetries) throw err;
        options.onRetry?.(err, attempt + 1, wait);
        await sleep(wait, undefined, options.signal ? { signal: options.signal } : undefined);
        continue;
      }
      if (failureOutcome(err) !== 'retry_request' || attempt >= options.maxRetries || options.signal?.aborted)
        throw err;
      const delay = backoffDelay(attempt, options, err.retryAfterMs);
      options.onRetry?.(err, attempt + 1, delay);
      await sleep(delay, undefined, options.signal ? { signal: options.signal } : undefined);
    }
  }
}
