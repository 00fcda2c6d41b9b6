import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEGRADED_REASONS } from '../../../src/safety/classification/verdict.js';
import { citationReasonText, degradedReasonText } from '../../../src/safety/review/reasons.js';

/** The reason codes docs/citations.md lists, from its table of statuses and reasons. */
function documentedReasons(): string[] {
  const doc = readFileSync(new URL('../../../docs/citations.md', import.meta.url), 'utf8');
  const rows = doc.split('\n').filter((l) => /^\| `(unverified|fetch_failed)`/.test(l));
  expect(rows).toHaveLength(2);
  return rows.flatMap((row) => [...row.split('|')[2]!.matchAll(/`([a-z0-9_<>]+)`/g)].map((m) => m[1]!));
}

describe('reasons in words', () => {
  it('has words for every citation reason the docs list', () => {
    const reasons = documentedReasons().filter((r) => r !== 'http_<status>');
    expect(reasons).toContain('excerpt_not_found');
    expect(reasons.length).toBeGreaterThan(15);
    for (const reason of reasons) {
      // A code without words of its own is shown in brackets after a generic phrase.
      expect(citationReasonText('unverified', reason), reason).not.toMatch(/^not verified \(/);
      expect(citationReasonText('fetch_failed', reason), reason).not.toMatch(/^page could not be fetched \(/);
    }
  });

  it('says what the reviewer needs to know', () => {
    expect(citationReasonText('unverified', 'excerpt_not_found')).toBe('excerpt not found on the page');
    expect(citationReasonText('fetch_failed', 'dns_error')).toBe(
      'page could not be fetched: DNS error (the host name did not resolve)',
    );
    expect(citationReasonText('fetch_failed', 'http_404')).toBe(
      'page could not be fetched: the server answered HTTP 404 (not found)',
    );
    expect(citationReasonText('fetch_failed', 'http_418')).toBe(
      'page could not be fetched: the server answered HTTP 418',
    );
    expect(citationReasonText('ok')).toBe('excerpt found on the page');
    // A code added later is still shown, not hidden.
    expect(citationReasonText('fetch_failed', 'brand_new')).toBe('page could not be fetched (brand_new)');
  });

  it('has words for every degraded reason', () => {
    for (const reason of DEGRADED_REASONS) {
      expect(degradedReasonText(reason), reason).not.toMatch(/^the classification failed/);
    }
    expect(degradedReasonText('timeout')).toBe('the classifier timed out');
    expect(degradedReasonText(undefined)).toBe('the classification failed');
  });
});
