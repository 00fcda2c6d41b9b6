/**
 * The review service over a Redis that may be out of reach. A person at the
 * review page, or a script, must hear at once that the queue cannot be read
 * now (REVIEW_UNAVAILABLE, which the API answers as 503 within 1 s), not
 * wait out a reconnect: a connection that queues commands while it is away,
 * as the workers' do, answered nothing for 15 s and more.
 *
 * Two parts make the bound hold. The connection the review API uses fails a
 * command at once while it is not connected and bounds every command
 * ({@link REVIEW_CONNECTION_OPTIONS}); a Redis that is frozen, or a network
 * that drops packets, leaves the socket open, and only that bound notices.
 * And {@link failFastWhenUnreachable} turns those failures, which ioredis
 * gives no code, into REVIEW_UNAVAILABLE.
 *
 * A decision that fails this way may still have been recorded (a frozen
 * Redis runs the command when it wakes): asking again then answers
 * REVIEW_ALREADY_DECIDED and emits the decision's event if it is missing.
 */
import type { Redis, RedisOptions } from 'ioredis';
import { ReviewError } from '../errors.js';
import type { ReviewService } from './review-service.js';

/** The longest a review request waits for one Redis command. */
export const REVIEW_COMMAND_TIMEOUT_MS = 500;

/** Options of the review API's own Redis connection (the workers' connections wait for Redis instead). */
export const REVIEW_CONNECTION_OPTIONS: RedisOptions = {
  // Not connected: fail the command now instead of queueing it until Redis is back.
  enableOfflineQueue: false,
  // Commands in flight when the connection drops fail at once too.
  maxRetriesPerRequest: 0,
  commandTimeout: REVIEW_COMMAND_TIMEOUT_MS,
};

// Connection states in which no command can be answered. A connection that
// is still connecting is not among them: a command-line client's first
// command waits for it (its own options bound the wait).
const DOWN = new Set(['reconnecting', 'close', 'end']);

// How ioredis fails a command it could not send or got no answer to. It
// gives them no code, so they are known by name and message.
const UNREACHABLE = [
  /enableOfflineQueue options is false/, // not connected, and the command was not queued
  /^Command timed out$/, // commandTimeout
  /^Connection is closed\.$/,
];
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** True when `err` says Redis could not be reached, as opposed to Redis refusing a command or a bug. */
export function isUnreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'MaxRetriesPerRequestError') return true;
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
  return UNREACHABLE.some((pattern) => pattern.test(err.message));
}

function unavailable(why: string): ReviewError {
  return new ReviewError('REVIEW_UNAVAILABLE', `Redis is unreachable (${why}); try again shortly`);
}

/**
 * The service, failing with REVIEW_UNAVAILABLE at once when the connection
 * is down, and when a call fails because Redis could not be reached.
 */
export function failFastWhenUnreachable(service: ReviewService, redis: Pick<Redis, 'status'>): ReviewService {
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (DOWN.has(redis.status)) throw unavailable(`connection ${redis.status}`);
      try {
        return await call(...args);
      } catch (err) {
        if (err instanceof ReviewError) throw err;
        if (isUnreachable(err)) throw unavailable((err as Error).message);
        if (DOWN.has(redis.status)) throw unavailable(`connection ${redis.status}`);
        throw err;
      }
    };
  return {
    list: guard((limit?: number) => service.list(limit)),
    queue: guard((query?: Parameters<ReviewService['queue']>[0]) => service.queue(query)),
    show: guard((hypothesisId: string) => service.show(hypothesisId)),
    decide: guard((kind: Parameters<ReviewService['decide']>[0], input: Parameters<ReviewService['decide']>[1]) =>
      service.decide(kind, input),
    ),
    claim: guard((id: string, input: Parameters<ReviewService['claim']>[1]) => service.claim(id, input)),
    unclaim: guard((id: string, input: Parameters<ReviewService['unclaim']>[1]) => service.unclaim(id, input)),
    decideMany: guard(
      (kind: Parameters<ReviewService['decideMany']>[0], input: Parameters<ReviewService['decideMany']>[1]) =>
        service.decideMany(kind, input),
    ),
    reclassify: guard((input: Parameters<ReviewService['reclassify']>[0]) => service.reclassify(input)),
  };
}
