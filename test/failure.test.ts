/** One decision per error code; what is not ours fails the attempt and is run again. */
import { describe, expect, it } from 'vitest';
import { ClassifierCallError } from '../src/classifier/errors.js';
import { CosciError, PayloadError } from '../src/errors.js';
import { failureOutcome } from '../src/failure.js';
import { ParsePoolClosedError } from '../src/citations/parse-pool.js';
import { FetcherError } from '../src/fetcher/errors.js';
import { CitationTextError } from '../src/safety/citations/errors.js';
import { QuotingError } from '../src/safety/quoting/errors.js';

describe('failureOutcome', () => {
  it('retries the passing failures of a model request, and degrades on those that repeat or break the contract', () => {
    const passing = [
      'rate_limited',
      'overloaded',
      'server_error',
      'timeout',
      'connection_error',
      'invalid_response',
      'malformed_output',
    ] as const;
    for (const kind of passing) expect(failureOutcome(new ClassifierCallError(kind, 'x'))).toBe('retry_request');
    for (const kind of ['bad_request', 'auth_error', 'multiple_assessments', 'unexpected_stop'] as const)
      expect(failureOutcome(new ClassifierCallError(kind, 'x'))).toBe('degrade');
  });

  it('returns a job stopped by shutdown to the queue, and fails a bad payload for good', () => {
    expect(failureOutcome(new ClassifierCallError('aborted', 'x'))).toBe('delay');
    expect(failureOutcome(new CosciError('JOB_ABORTED', 'x'))).toBe('delay');
    expect(failureOutcome(new PayloadError('bad', ['text']))).toBe('unrecoverable');
  });

  it('fails the attempt of anything without a code of ours, so the job runs again', () => {
    expect(failureOutcome(new Error('Connection is closed.'))).toBe('retry_job');
    expect(failureOutcome('a string')).toBe('retry_job');
    expect(failureOutcome(undefined)).toBe('retry_job');
  });

  it('knows the errors of every layer as one hierarchy, each with its code', () => {
    const errors = [
      new CitationTextError('PDF_TOO_LARGE', 'x'),
      new QuotingError('QUOTING_BAD_ID', 'x'),
      new FetcherError('CITATION_BAD_OPTIONS', 'x'),
      new ParsePoolClosedError(),
    ];
    for (const err of errors) expect(err).toBeInstanceOf(CosciError);
    expect(errors.map((e) => [e.code, failureOutcome(e)])).toEqual([
      ['PDF_TOO_LARGE', 'unrecoverable'],
      ['QUOTING_BAD_ID', 'unrecoverable'],
      ['CITATION_BAD_OPTIONS', 'unrecoverable'],
      ['PARSE_POOL_CLOSED', 'delay'],
    ]);
  });
});
