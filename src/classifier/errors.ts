/**
 * Failures of one classifier request, by kind, each with its error code.
 * Which of them retry is decided by code in src/failure.ts.
 */
import { CosciError, type ErrorCode } from '../errors.js';
import type { DegradedReason } from '../safety/classification/verdict.js';

export type CallFailureKind =
  | 'rate_limited'
  | 'overloaded'
  | 'server_error'
  | 'timeout'
  | 'connection_error'
  | 'malformed_output'
  | 'bad_request'
  | 'auth_error'
  | 'aborted';

const CODES: Record<CallFailureKind, ErrorCode> = {
  rate_limited: 'CLASSIFIER_RATE_LIMITED',
  overloaded: 'CLASSIFIER_OVERLOADED',
  server_error: 'CLASSIFIER_SERVER_ERROR',
  timeout: 'CLASSIFIER_TIMEOUT',
  connection_error: 'CLASSIFIER_CONNECTION',
  malformed_output: 'CLASSIFIER_MALFORMED_OUTPUT',
  bad_request: 'CLASSIFIER_BAD_REQUEST',
  auth_error: 'CLASSIFIER_AUTH',
  aborted: 'CLASSIFIER_ABORTED',
};

export class ClassifierCallError extends CosciError {
  override name = 'ClassifierCallError';
  constructor(
    readonly kind: CallFailureKind,
    message: string,
    /** What the server asked us to wait, when it said. */
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(CODES[kind], message, options);
  }

  /** The degraded reason this failure gives when no retry is left. */
  get degradedReason(): DegradedReason {
    return this.kind === 'rate_limited' || this.kind === 'aborted' ? 'server_error' : this.kind;
  }
}

/**
 * Raised to the processor on a 429: the job goes back to the queue as a BullMQ
 * rate limit for `retryAfterMs`, without spending an attempt.
 */
export class RateLimitedError extends CosciError {
  override name = 'RateLimitedError';
  constructor(readonly retryAfterMs: number) {
    super('CLASSIFIER_RATE_LIMITED', `classifier rate limited; retry after ${retryAfterMs} ms`);
  }
}
