/**
 * Report and review results: written once per revision, the latest moving
 * forward only, and validated against their schemas when read back.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ReportResult, ReviewVerification } from '../../src/contracts/results.js';
import { createReportStore } from '../../src/store/report-store.js';
import { createReviewStore } from '../../src/store/review-store.js';
import { deleteKeys, testRedis, uniqueName } from '../support/redis.js';

const redis = testRedis();
const prefixes: string[] = [];
afterAll(async () => {
  await deleteKeys(redis, ...prefixes);
  redis.disconnect();
});

function prefix(): string {
  const p = uniqueName('results');
  prefixes.push(p);
  return p;
}

function report(revision: number, text = `report r${revision}`): ReportResult {
  return {
    reportId: 'rep-1',
    revision,
    mode: 'redact',
    outcome: 'cleared',
    publishable: true,
    text,
    redactions: [],
    checkedAt: new Date(1_700_000_000_000 + revision).toISOString(),
  };
}

function review(revision: number): ReviewVerification {
  return {
    reviewId: 'r-1',
    hypothesisId: 'h-1',
    revision,
    skipped: false,
    results: [{ index: 0, url: 'https://example.org/', status: 'ok', excerptLen: 12, citation_unverified: false }],
    summary: { 'https://example.org/': { status: 'ok', excerpt_len: 12 } },
    counts: { ok: 1, unverified: 0, fetch_failed: 0 },
    verifiedAt: new Date(1_700_000_000_000 + revision).toISOString(),
  };
}

describe('report store', () => {
  it('keeps the latest at the newest revision when an older one is recorded late', async () => {
    const store = createReportStore(redis, prefix());
    await store.record(report(2));
    await store.record(report(1));
    expect((await store.get('rep-1'))?.revision).toBe(2);
    expect((await store.get('rep-1', 1))?.text).toBe('report r1');
    await store.record(report(3));
    expect((await store.get('rep-1'))?.revision).toBe(3);
  });

  it('returns the first result of a revision to a second writer', async () => {
    const store = createReportStore(redis, prefix());
    await store.record(report(1, 'first'));
    const again = await store.record(report(1, 'second'));
    expect(again.text).toBe('first');
    expect((await store.get('rep-1'))?.text).toBe('first');
  });

  it('refuses a stored value that does not match the result schema, naming the field', async () => {
    const p = prefix();
    const store = createReportStore(redis, p);
    await redis.set(`${p}:report:rep-1`, JSON.stringify({ ...report(1), publishable: 'yes' }));
    await expect(store.get('rep-1')).rejects.toThrow(/publishable/);
  });
});

describe('review store', () => {
  it('keeps the latest at the newest revision when an older one is recorded late', async () => {
    const store = createReviewStore(redis, prefix());
    await store.record(review(5));
    await store.record(review(4));
    expect((await store.get('r-1'))?.revision).toBe(5);
    expect((await store.get('r-1', 4))?.revision).toBe(4);
    const listed = await store.ofHypothesis('h-1');
    expect(listed.map((r) => r.revision)).toEqual([5]);
  });

  it('refuses a stored value that does not match the result schema', async () => {
    const p = prefix();
    const store = createReviewStore(redis, p);
    await redis.set(`${p}:review:r-1`, JSON.stringify({ ...review(1), counts: { ok: -1 } }));
    await expect(store.get('r-1')).rejects.toThrow(/counts/);
  });
});
