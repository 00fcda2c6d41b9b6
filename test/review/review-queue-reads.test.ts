/**
 * How the review service reads a long queue from real Redis: the verdicts in
 * batches, so that no read waits behind thousands of others and passes the
 * review connection's bound on a command (which answered 503 on a queue of
 * 10,000 in bench:review), and the held text of the page's entries only.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createEventEmitter } from '../../src/events/emitter.js';
import { createReviewService } from '../../src/review/review-service.js';
import type { Verdict } from '../../src/safety/classification/verdict.js';
import { pino } from 'pino';
import { buildClassifier } from '../../src/runtime/builders.js';
import { createDecisionStore } from '../../src/store/decision-store.js';
import { createReassessmentStore } from '../../src/store/reassessment-store.js';
import { createClaimStore } from '../../src/store/claim-store.js';
import { testConfig } from '../support/config.js';
import { createReviewStore } from '../../src/store/review-store.js';
import { createVerdictStore, type VerdictStore } from '../../src/store/verdict-store.js';
import { deleteKeys, testRedis } from '../support/redis.js';

const redis = testRedis();
const prefix = `rq-${randomUUID().slice(0, 8)}`;
afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

const verdict: Verdict = {
  action: 'quarantine',
  categories: ['dual_use_bio'],
  confidence: 0.9,
  rationale: 'r',
  degraded: false,
  refusal: false,
  model: 'm',
  promptVersion: 'p',
  windows: 1,
  windowed: false,
  cached: false,
};

/** The real store, counting the reads in flight at once. */
function counting(store: VerdictStore) {
  const seen = { inFlight: 0, most: 0, subjects: 0 };
  const wrapped: VerdictStore = {
    ...store,
    async getLatest(...args) {
      seen.inFlight++;
      seen.most = Math.max(seen.most, seen.inFlight);
      try {
        return await store.getLatest(...args);
      } finally {
        seen.inFlight--;
      }
    },
    async getHeldSubject(...args) {
      seen.subjects++;
      return store.getHeldSubject(...args);
    },
  };
  return { wrapped, seen };
}

describe('reading a long queue', () => {
  it('reads the verdicts at most 500 at a time, and the text of the page only', async () => {
    const store = createVerdictStore(redis, prefix);
    for (let start = 0; start < 1200; start += 300) {
      await Promise.all(
        Array.from({ length: 300 }, (_, k) =>
          store.recordRevision('hypothesis', `h-${start + k}`, 1, verdict, { held: { text: `text ${start + k}` } }),
        ),
      );
    }
    const { wrapped, seen } = counting(store);
    const service = createReviewService({
      verdicts: wrapped,
      decisions: createDecisionStore(redis, prefix),
      reviews: createReviewStore(redis, prefix),
      emitter: createEventEmitter({ redis, stream: `${prefix}:events`, dedupeTtlSeconds: 60, maxLen: 0 }),
      classifier: buildClassifier(testConfig(undefined), { logger: pino({ enabled: false }) }),
      reassessments: createReassessmentStore(redis, prefix),
      claims: createClaimStore(redis, prefix),
      claimTtlMs: 60_000,
    });
    const page = await service.queue({ limit: 50 });
    expect(page.counts.all).toBe(1200);
    expect(page.items).toHaveLength(50);
    expect(page.items[0]!.preview).toBe('text 0');
    expect(seen.most).toBeGreaterThan(1);
    expect(seen.most).toBeLessThanOrEqual(500);
    expect(seen.subjects).toBe(50);
  });
});
