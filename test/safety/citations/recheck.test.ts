/** What became of a citation between its verification and a recheck. */
import { describe, expect, it } from 'vitest';
import { pageTextDigest, recheckOutcome, type CheckedCitation } from '../../../src/safety/citations/index.js';

const A = pageTextDigest('kinase x phosphorylates y.');
const B = pageTextDigest('kinase x phosphorylates z.');
const ok = (textSha256?: string, textVersion = 7): CheckedCitation => ({ status: 'ok', textSha256, textVersion });
const notFound = (textSha256: string): CheckedCitation => ({
  status: 'unverified',
  reason: 'excerpt_not_found',
  textSha256,
  textVersion: 7,
});
const failed = (reason: string): CheckedCitation => ({ status: 'fetch_failed', reason });

describe('recheckOutcome', () => {
  it('unchanged: the same text, whatever was found in it', () => {
    expect(recheckOutcome(ok(A), ok(A))).toBe('unchanged');
    expect(recheckOutcome(notFound(A), notFound(A))).toBe('unchanged');
  });

  it('unchanged: no text either time, for the same reason', () => {
    expect(recheckOutcome(failed('http_404'), failed('http_404'))).toBe('unchanged');
    const unseen: CheckedCitation = { status: 'unverified', reason: 'url_not_seen' };
    expect(recheckOutcome(unseen, unseen)).toBe('unchanged');
    expect(recheckOutcome(failed('http_404'), failed('timeout'))).toBe('gone');
  });

  it('changed_present: another text, the excerpt still on it; or a page that could not be had, and now can', () => {
    expect(recheckOutcome(ok(A), ok(B))).toBe('changed_present');
    expect(recheckOutcome(notFound(A), ok(B))).toBe('changed_present');
    expect(recheckOutcome(failed('http_404'), ok(B))).toBe('changed_present');
  });

  it('gone: not on the page now, or the page no longer to be had', () => {
    expect(recheckOutcome(ok(A), notFound(B))).toBe('gone');
    expect(recheckOutcome(ok(A), failed('http_404'))).toBe('gone');
    expect(recheckOutcome(ok(A), failed('timeout'))).toBe('gone');
    expect(recheckOutcome(notFound(A), notFound(B))).toBe('gone');
  });

  it('present: found now, with no digest of the page as verified to compare, or one of another text version', () => {
    expect(recheckOutcome(ok(undefined), ok(A))).toBe('present');
    expect(recheckOutcome(ok(A, 6), ok(A, 7))).toBe('present');
    expect(recheckOutcome(notFound(A), { ...ok(B), textVersion: 8 })).toBe('present');
    expect(recheckOutcome(ok(undefined), notFound(A))).toBe('gone');
  });

  it('digests the visible text and the script text apart: moving text from one to the other is a change', () => {
    expect(pageTextDigest('a b')).toMatch(/^[0-9a-f]{64}$/);
    expect(pageTextDigest('a', 'b')).not.toBe(pageTextDigest('a b'));
    expect(pageTextDigest('a', 'b')).not.toBe(pageTextDigest('a'));
    expect(pageTextDigest('a b', '')).not.toBe(pageTextDigest('a', ' b'));
  });
});
