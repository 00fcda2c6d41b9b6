/** The exit code of `verify --recheck` (docs/cli.md#verify): whether the evidence that was verified still holds. */
import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeOfRecheck } from '../../src/cli/exit-codes.js';
import type { CitationRecheck } from '../../src/contracts/recheck.js';

const citation = (r: Partial<CitationRecheck>): CitationRecheck => ({
  index: 0,
  url: 'https://example.org/paper',
  outcome: 'unchanged',
  was: 'ok',
  status: 'ok',
  ...r,
});
const code = (...results: Array<Partial<CitationRecheck>>) => exitCodeOfRecheck({ results: results.map(citation) });

describe('exitCodeOfRecheck', () => {
  it('0 while every excerpt that was on its page still is, changed or not', () => {
    expect(code()).toBe(EXIT.ok);
    expect(code({}, { outcome: 'changed_present' }, { outcome: 'present' })).toBe(EXIT.ok);
  });

  it('does not count citations that were not ok when verified', () => {
    const stillMissing = {
      outcome: 'gone',
      was: 'unverified',
      status: 'unverified',
      reason: 'excerpt_not_found',
    } as const;
    expect(
      code(stillMissing, { outcome: 'gone', was: 'fetch_failed', status: 'fetch_failed', reason: 'timeout' }),
    ).toBe(EXIT.ok);
  });

  it('4 when an excerpt is gone from a page that answered', () => {
    expect(code({ outcome: 'gone', status: 'unverified', reason: 'excerpt_not_found' })).toBe(EXIT.held);
    expect(code({ outcome: 'gone', status: 'fetch_failed', reason: 'http_404' })).toBe(EXIT.held);
    expect(code({ outcome: 'gone', status: 'fetch_failed', reason: 'unsupported_content_type' })).toBe(EXIT.held);
  });

  it('5 when the only ones gone are on pages not reached now; 4 wins over 5', () => {
    for (const reason of ['timeout', 'connection_error', 'dns_error', 'http_503', 'http_429', 'review_deadline']) {
      expect([reason, code({ outcome: 'gone', status: 'fetch_failed', reason })]).toEqual([reason, EXIT.unavailable]);
    }
    const unreached = { outcome: 'gone', status: 'fetch_failed', reason: 'timeout' } as const;
    expect(code(unreached, { outcome: 'gone', status: 'fetch_failed', reason: 'http_410' })).toBe(EXIT.held);
  });
});
