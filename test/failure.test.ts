/** One decision per error code; what is not ours fails the attempt and is run again. */
import { describe, expect, it } from 'vitest';
import { ClassifierCallError, RateLimitedError } from '../src/classifier/errors.js';
import { CosciError, PayloadError } from '../src/errors.js';
import { failureOutcome } from '../src/failure.js';

describe('failureOutcome', () => {
  it('retries the passing failures of a model request, and degrades on those that repeat', () => {
    for (const kind of ['overloaded', 'server_error', 'timeout', 'connection_error', 'malformed_output'] as const)
      expect(failureOutcome(new ClassifierCallError(kind, 'x'))).toBe('retry_request');
    for (const kind of ['bad_request', 'auth_error'] as const)
      expect(failureOutcome(new ClassifierCallError(kind, 'x'))).toBe('degrade');
  });

  it('waits out a 429, returns a job stopped by shutdown to the queue, and fails a bad payload for good', () => {
    expect(failureOutcome(new RateLimitedError(500))).toBe('rate_limited');
    expect(failureOutcome(new ClassifierCallError('aborted', 'x'))).toBe('delay');
    expect(failureOutcome(new CosciError('JOB_ABORTED', 'x'))).toBe('delay');
    expect(failureOutcome(new PayloadError('bad', ['text']))).toBe('unrecoverable');
  });

  it('fails the attempt of anything without a code of ours, so the job runs again', () => {
    expect(failureOutcome(new Error('Connection is closed.'))).toBe('retry_job');
    expect(failureOutcome('a string')).toBe('retry_job');
    expect(failureOutcome(undefined)).toBe('retry_job');
  });
});
