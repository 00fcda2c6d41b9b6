/**
 * What a failure leads to, decided once, by error code, for every queue and
 * the classifier's requests. Processors and adapters throw errors with codes
 * (src/errors.ts); the classifier's retry loop asks this module whether to
 * retry a request, and the job wrapper (src/processors/job-failure.ts) turns
 * the outcome into what BullMQ understands. docs/errors.md has the table.
 */
import { CosciError, type ErrorCode } from './errors.js';

export type FailureOutcome =
  /** Retry the request at once, with backoff, inside the job (the classifier's calls). */
  | 'retry_request'
  /** No retry can help the request: the verdict is degraded (never a pass). */
  | 'degrade'
  /** Back to the queue at once, no attempt spent: the worker is shutting down. */
  | 'delay'
  /** Fail the job for good, with the error's message: running it again gives the same. */
  | 'unrecoverable'
  /** Fail this attempt; BullMQ runs the job again after a backoff (JOB_RETRY). */
  | 'retry_job';

/**
 * Every code, decided. A new code does not compile until it is placed here.
 * Codes that are never raised inside a job (configuration, the publisher, the
 * review API) are `unrecoverable` should one ever reach a job.
 */
const BY_CODE: Record<ErrorCode, FailureOutcome> = {
  // The classifier's requests: a model's next answer may well be valid, and
  // 5xx, 529, timeouts, lost connections and a body that is not a message
  // (a proxy's page) pass. A 429 is waited out inside the job, as the others
  // are: what retry-after asks, up to anthropic.retry_max_delay_ms, so one
  // answer slows its own job and never holds up the queue (docs/classifier.md).
  CLASSIFIER_RATE_LIMITED: 'retry_request',
  CLASSIFIER_OVERLOADED: 'retry_request',
  CLASSIFIER_SERVER_ERROR: 'retry_request',
  CLASSIFIER_TIMEOUT: 'retry_request',
  CLASSIFIER_CONNECTION: 'retry_request',
  CLASSIFIER_INVALID_RESPONSE: 'retry_request',
  CLASSIFIER_MALFORMED_OUTPUT: 'retry_request',
  // The same request fails the same way.
  CLASSIFIER_BAD_REQUEST: 'degrade',
  CLASSIFIER_AUTH: 'degrade',
  // An answer that breaks the request's contract is not asked again: the
  // model did answer, and asking until an answer passes would let a text
  // that draws a flagged call beside a benign one (or past max_tokens) pass
  // on a later try. The verdict is degraded, never below what it carried.
  CLASSIFIER_MULTIPLE_CALLS: 'degrade',
  CLASSIFIER_UNEXPECTED_STOP: 'degrade',
  CLASSIFIER_ABORTED: 'delay',
  JOB_ABORTED: 'delay',
  PAYLOAD_INVALID: 'unrecoverable',
  // Other content under a used revision: running the job again finds the same.
  REVISION_CONFLICT: 'unrecoverable',
  CONFIG_INVALID: 'unrecoverable',
  CONFIG_NOT_FOUND: 'unrecoverable',
  PUBLISH_FAILED: 'unrecoverable',
  WAIT_TIMEOUT: 'unrecoverable',
  REVIEW_INVALID: 'unrecoverable',
  REVIEW_NOT_FOUND: 'unrecoverable',
  REVIEW_NOT_HELD: 'unrecoverable',
  REVIEW_ALREADY_DECIDED: 'unrecoverable',
  REVIEW_CLAIMED: 'unrecoverable',
  // The event consumer's (src/events/consumer.ts), which reports them and goes on.
  EVENT_INVALID: 'unrecoverable',
  EVENT_HANDLER_FAILED: 'unrecoverable',
  EVENT_READ_FAILED: 'unrecoverable',
  // The worker is going away: the job returns to the queue for another.
  PARSE_POOL_CLOSED: 'delay',
  // Properties of a document or of an option, handled where they arise (a
  // citation's status); one that reaches a job is a bug, and a rerun repeats it.
  PDF_INVALID: 'unrecoverable',
  PDF_TOO_LARGE: 'unrecoverable',
  HTML_TOO_DEEP: 'unrecoverable',
  TEXT_TOO_LONG: 'unrecoverable',
  BAD_OPTION: 'unrecoverable',
  CITATION_BLOCKED_ADDRESS: 'unrecoverable',
  CITATION_BAD_OPTIONS: 'unrecoverable',
  QUOTING_BAD_ID: 'unrecoverable',
  QUOTING_BAD_KEY: 'unrecoverable',
  QUOTING_BAD_INPUT: 'unrecoverable',
  // The command line's own: a command's usage, its input, its port, a signal, a bug.
  USAGE: 'unrecoverable',
  INPUT_UNREADABLE: 'unrecoverable',
  INPUT_EMPTY: 'unrecoverable',
  NO_API_KEY: 'unrecoverable',
  INTERRUPTED: 'unrecoverable',
  PORT_UNAVAILABLE: 'unrecoverable',
  REDIS_SERVER_MISSING: 'unrecoverable',
  INJECTION_MODEL_MISMATCH: 'unrecoverable',
  INTERNAL: 'unrecoverable',
  // Redis did not answer in time: it may well answer the next attempt.
  REVIEW_UNAVAILABLE: 'retry_job',
  REDIS_UNAVAILABLE: 'retry_job',
};

/**
 * The outcome of any error. An error without a code of ours (a Redis blip
 * while storing or emitting, a bug) fails the attempt, and the job runs
 * again: every write of a job is idempotent, so a second run repeats nothing.
 */
export function failureOutcome(err: unknown): FailureOutcome {
  return err instanceof CosciError ? BY_CODE[err.code] : 'retry_job';
}

/**
 * How often, and after how long, BullMQ runs a job again whose attempt
 * failed (`retry_job`). Publishers add every job with these options. The
 * classifier's own retries happen inside one attempt.
 */
export const JOB_RETRY = { attempts: 5, backoff: { type: 'exponential', delay: 1000 } } as const;
