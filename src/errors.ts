/**
 * The service's error hierarchy. Every error has a stable `code` that callers
 * match instead of parsing messages; the decision of which failures retry is
 * made once, in src/classifier/retry-policy.ts.
 */
export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_NOT_FOUND'
  | 'PAYLOAD_INVALID'
  | 'CLASSIFIER_RATE_LIMITED'
  | 'CLASSIFIER_OVERLOADED'
  | 'CLASSIFIER_SERVER_ERROR'
  | 'CLASSIFIER_TIMEOUT'
  | 'CLASSIFIER_CONNECTION'
  | 'CLASSIFIER_BAD_REQUEST'
  | 'CLASSIFIER_AUTH'
  | 'CLASSIFIER_MALFORMED_OUTPUT'
  | 'CLASSIFIER_ABORTED'
  | 'PUBLISH_FAILED'
  | 'WAIT_TIMEOUT';

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
