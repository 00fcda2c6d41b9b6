/**
 * The one retry layer of classifier requests: exponential backoff with full
 * jitter for the failures src/failure.ts retries (429 included), the server's
 * retry-after when it gives one, and a fixed budget. Every wait is bounded by
 * `maxDelayMs` (anthropic.retry_max_delay_ms), whatever the server asked: a
 * 503 with `retry-after: 999999` or a 429 with `retry-after: 3600` slows its
 * own job by the bound at most, and then the request is tried again (as the
 * Anthropic SDK does with a retry-after it finds unreasonable). The wait is
 * inside the job, so one answer never holds up the rest of the queue.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { failureOutcome } from '../failure.js';
import { ClassifierCallError } from './errors.js';

export interface RetryOptions {
  maxRetries: number;
  baseDelayMs: number;
  /** The longest wait before a retry, retry-after included. */
  maxDelayMs: number;
  signal?: AbortSignal | undefined;
  /** Random source in [0, 1), for tests. */
  random?: () => number;
  /** Called before each wait, for logs. */
  onRetry?: (error: ClassifierCallError, attempt: number, delayMs: number) => void;
}

/**
 * Full jitter: uniform in [0, min(max, base * 2^attempt)], but never less than
 * what the server asked, up to the bound.
 */
export function backoffDelay(attempt: number, options: RetryOptions, retryAfterMs?: number): number {
  const cap = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  const jittered = Math.floor((options.random ?? Math.random)() * cap);
  return Math.min(options.maxDelayMs, Math.max(jittered, retryAfterMs ?? 0));
}

/**
 * One attempt, timed and reported by outcome: `ok` or `refusal` for an
 * answer, the failure's kind (`error` for anything else) for a throw.
 */
export async function timedAttempt<T extends { kind: string }>(
  attempt: () => Promise<T>,
  report: ((outcome: string, seconds: number) => void) | undefined,
): Promise<T> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const result = await attempt();
    report?.(result.kind === 'refusal' ? 'refusal' : 'ok', seconds());
    return result;
  } catch (err) {
    report?.(err instanceof ClassifierCallError ? err.kind : 'error', seconds());
    throw err;
  }
}

export async function withRetry<T>(call: () => Promise<T>, options: RetryOptions): Promise<T> {
  const { signal } = options;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof ClassifierCallError)) throw err;
      if (failureOutcome(err) !== 'retry_request' || attempt >= options.maxRetries || signal?.aborted) throw err;
      const delay = backoffDelay(attempt, options, err.retryAfterMs);
      options.onRetry?.(err, attempt + 1, delay);
      try {
        await sleep(delay, undefined, signal ? { signal } : undefined);
      } catch (aborted) {
        // Shutdown reached its bound during the wait: the job goes back to the queue.
        throw new ClassifierCallError('aborted', 'request aborted while waiting to retry', undefined, {
          cause: aborted,
        });
      }
    }
  }
}
