/**
 * The service's error hierarchy. Every error has a stable `code` that callers
 * match instead of parsing messages (docs/errors.md lists them); what each
 * failure leads to (a retry, a delay, a degraded verdict, a failed job) is
 * decided once, by code, in src/failure.ts.
 */
export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_NOT_FOUND'
  | 'PAYLOAD_INVALID'
  | 'JOB_ABORTED'
  | 'CLASSIFIER_RATE_LIMITED'
  | 'CLASSIFIER_OVERLOADED'
  | 'CLASSIFIER_SERVER_ERROR'
  | 'CLASSIFIER_TIMEOUT'
  | 'CLASSIFIER_CONNECTION'
  | 'CLASSIFIER_BAD_REQUEST'
  | 'CLASSIFIER_AUTH'
  | 'CLASSIFIER_INVALID_RESPONSE'
  | 'CLASSIFIER_MALFORMED_OUTPUT'
  | 'CLASSIFIER_MULTIPLE_CALLS'
  | 'CLASSIFIER_UNEXPECTED_STOP'
  | 'CLASSIFIER_ABORTED'
  | 'PUBLISH_FAILED'
  | 'REVISION_CONFLICT'
  | 'WAIT_TIMEOUT'
  | 'REVIEW_INVALID'
  | 'REVIEW_NOT_FOUND'
  | 'REVIEW_NOT_HELD'
  | 'REVIEW_ALREADY_DECIDED'
  | 'REVIEW_CLAIMED'
  | 'REVIEW_UNAVAILABLE'
  | 'EVENT_INVALID'
  | 'EVENT_HANDLER_FAILED'
  | 'EVENT_READ_FAILED'
  // The web fetcher (src/fetcher/errors.ts).
  | 'CITATION_BLOCKED_ADDRESS'
  | 'CITATION_BAD_OPTIONS'
  // Page and PDF text (src/safety/citations/errors.ts) and its parsing threads.
  | 'PDF_INVALID'
  | 'PDF_TOO_LARGE'
  | 'HTML_TOO_DEEP'
  | 'TEXT_TOO_LONG'
  | 'BAD_OPTION'
  | 'PARSE_POOL_CLOSED'
  // Injection quoting (src/safety/quoting/errors.ts).
  | 'QUOTING_BAD_ID'
  | 'QUOTING_BAD_KEY'
  | 'QUOTING_BAD_INPUT'
  // The command line (src/cli/).
  | 'USAGE'
  | 'INPUT_UNREADABLE'
  | 'INPUT_EMPTY'
  | 'NO_API_KEY'
  | 'INTERRUPTED'
  | 'REDIS_UNAVAILABLE'
  | 'PORT_UNAVAILABLE'
  // `cosci-safety dev` (src/cli/dev/).
  | 'REDIS_SERVER_MISSING'
  // The injection detector's model (src/safety/injection/model.ts).
  | 'INJECTION_MODEL_MISMATCH'
  | 'INTERNAL';

export class CosciError extends Error {
  override name = 'CosciError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The configuration is invalid; the message names the key and the expected form. */
export class ConfigError extends CosciError {
  override name = 'ConfigError';
  constructor(message: string, code: 'CONFIG_INVALID' | 'CONFIG_NOT_FOUND' = 'CONFIG_INVALID') {
    super(code, message);
  }
}

/** A job payload does not match its schema; the message names the field. Never retried. */
export class PayloadError extends CosciError {
  override name = 'PayloadError';
  constructor(
    message: string,
    readonly fields: string[],
  ) {
    super('PAYLOAD_INVALID', message);
  }
}

export type ReviewErrorCode =
  | 'REVIEW_INVALID'
  | 'REVIEW_NOT_FOUND'
  | 'REVIEW_NOT_HELD'
  | 'REVIEW_ALREADY_DECIDED'
  | 'REVIEW_CLAIMED'
  | 'REVIEW_UNAVAILABLE'
  | 'REVISION_CONFLICT';

/**
 * A review request that cannot be carried out: bad input (`REVIEW_INVALID`,
 * naming the field), no such hypothesis or revision (`REVIEW_NOT_FOUND`), a
 * revision that is not held (`REVIEW_NOT_HELD`), one a person has already
 * decided (`REVIEW_ALREADY_DECIDED`: a decision is final for its revision),
 * one another reviewer has claimed, without `confirm` (`REVIEW_CLAIMED`),
 * a release of a revision in conflict (`REVISION_CONFLICT`: its other text
 * was never classified), or Redis out of reach (`REVIEW_UNAVAILABLE`: try
 * again later).
 */
export class ReviewError extends CosciError {
  override name = 'ReviewError';
  constructor(code: ReviewErrorCode, message: string) {
    super(code, message);
  }
}

/** How the message of every revision conflict starts, so that a job's failedReason says what it was. */
const REVISION_CONFLICT_START = 'revision conflict: ';

/**
 * Content published under an id and revision that already name other
 * content (docs/contract.md#a-revision-is-its-content): the publisher's
 * answer, and the failure of a job that carries it. Never retried: the same
 * content fails the same way. Publish the new content as a new revision.
 */
export class RevisionConflictError extends CosciError {
  override name = 'RevisionConflictError';
  constructor(what: string) {
    super('REVISION_CONFLICT', `${REVISION_CONFLICT_START}${what}`);
  }

  /** Whether a failed job's reason is a revision conflict's message. */
  static isReason(reason: string | undefined): boolean {
    return reason?.startsWith(REVISION_CONFLICT_START) ?? false;
  }

  /** The error again, from a failed job's reason (see isReason). */
  static fromReason(reason: string): RevisionConflictError {
    return new RevisionConflictError(reason.slice(REVISION_CONFLICT_START.length));
  }
}
