/**
 * Failures of one classifier request, by kind, each with its error code.
 * Which of them retry is decided by code in src/failure.ts.
 */
import { CosciError, type ErrorCode } from '../errors.js';
import type { Assessment } from '../safety/classification/assessment.js';
import type { DegradedReason } from '../safety/classification/verdict.js';

/** The kinds, which are also the `outcome` of `cosci_safety_classifier_requests_total` besides `ok` and `refusal`. */
export const CALL_FAILURE_KINDS = [
  'rate_limited',
  'overloaded',
  'server_error',
  'timeout',
  'connection_error',
  'invalid_response',
  'malformed_output',
  'multiple_assessments',
  'unexpected_stop',
  'bad_request',
  'auth_error',
  'aborted',
] as const;
export type CallFailureKind = (typeof CALL_FAILURE_KINDS)[number];

const CODES: Record<CallFailureKind, ErrorCode> = {
  rate_limited: 'CLASSIFIER_RATE_LIMITED',
  overloaded: 'CLASSIFIER_OVERLOADED',
  server_error: 'CLASSIFIER_SERVER_ERROR',
  timeout: 'CLASSIFIER_TIMEOUT',
  connection_error: 'CLASSIFIER_CONNECTION',
  invalid_response: 'CLASSIFIER_INVALID_RESPONSE',
  malformed_output: 'CLASSIFIER_MALFORMED_OUTPUT',
  multiple_assessments: 'CLASSIFIER_MULTIPLE_CALLS',
  unexpected_stop: 'CLASSIFIER_UNEXPECTED_STOP',
  bad_request: 'CLASSIFIER_BAD_REQUEST',
  auth_error: 'CLASSIFIER_AUTH',
  aborted: 'CLASSIFIER_ABORTED',
};

/**
 * `T`: what the tool's answers are (the classifier's Assessment by default;
 * the claim judge's ClaimJudgement).
 */
export class ClassifierCallError<T = Assessment> extends CosciError {
  override name = 'ClassifierCallError';
  /**
   * The most severe reading of the assessments an untrusted answer carried
   * (two calls, or one the answer did not end on): the verdict is degraded,
   * and its action is never below this.
   */
  readonly assessment: T | undefined;

  constructor(
    readonly kind: CallFailureKind,
    message: string,
    /** What the server asked us to wait, when it said. */
    readonly retryAfterMs?: number,
    options: { cause?: unknown; assessment?: T | undefined } = {},
  ) {
    super(CODES[kind], message, 'cause' in options ? { cause: options.cause } : undefined);
    this.assessment = options.assessment;
  }

  /** The degraded reason this failure gives when no retry is left. */
  get degradedReason(): DegradedReason {
    // An abort never gives a verdict (the job goes back to the queue); should one, it is the service's failure.
    return this.kind === 'aborted' ? 'server_error' : this.kind;
  }
}
