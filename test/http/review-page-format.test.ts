/** The review page's words and numbers (src/http/review-page/format.ts), which run in Node as in the browser. */
import { describe, expect, it } from 'vitest';
import { categoriesView, exactTime, relativeTime } from '../../src/http/review-page/format.js';

const NOW = Date.UTC(2026, 0, 31, 12, 0, 0);
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('the review page format', () => {
  it('says how long ago in the unit a queue is read by, and the exact time in UTC', () => {
    expect(relativeTime(ago(20_000), NOW)).toBe('just now');
    expect(relativeTime(ago(4 * 60_000 + 59_000), NOW)).toBe('4 min ago');
    expect(relativeTime(ago(3 * 3600_000), NOW)).toBe('3 h ago');
    expect(relativeTime(ago(36 * 3600_000), NOW)).toBe('1 day ago');
    expect(relativeTime(ago(9 * 86_400_000), NOW)).toBe('9 days ago');
    expect(relativeTime('not a time', NOW)).toBe('not a time');
    expect(exactTime('2026-01-31T12:00:05.123Z')).toBe('2026-01-31 12:00:05 UTC');
  });

  it('labels a verdict never classified "unclassified" with the reason, never "none"', () => {
    expect(categoriesView({ categories: [], degraded: true, reason: 'timeout' })).toEqual({
      label: 'unclassified',
      unclassified: true,
      degradedWhy: 'the classifier timed out',
    });
    // Partly classified (a text too long): its categories, and why it is degraded.
    expect(categoriesView({ categories: ['cbrn'], degraded: true, reason: 'text_too_long' })).toMatchObject({
      label: 'cbrn',
      unclassified: false,
      degradedWhy: expect.stringContaining('only its first part'),
    });
    expect(categoriesView({ categories: ['none'], degraded: false })).toEqual({
      label: 'none',
      unclassified: false,
      degradedWhy: '',
    });
  });
});
