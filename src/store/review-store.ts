/**
 * Review verifications, kept in Redis by review id. The first result of a
 * review revision is the one its events carry: a job that runs again reuses
 * it, so its events and its stored result never disagree. What is read back
 * is validated against the result's schema.
 */
import type { Redis } from 'ioredis';
import { ReviewVerificationSchema, type ReviewVerification } from '../contracts/results.js';
import { writeOnce } from './write-once.js';

export interface ReviewStore {
  record(result: ReviewVerification): Promise<ReviewVerification>;
  get(reviewId: string, revision?: number): Promise<ReviewVerification | undefined>;
  /** The latest verification of every review of a hypothesis. */
  ofHypothesis(hypothesisId: string): Promise<ReviewVerification[]>;
}

const parse = (raw: string): ReviewVerification => ReviewVerificationSchema.parse(JSON.parse(raw));

export function createReviewStore(redis: Redis, keyPrefix: string): ReviewStore {
  const latest = (id: string) => `${keyPrefix}:review:${encodeURIComponent(id)}`;
  const revisionKey = (id: string, revision: number) => `${latest(id)}:rev:${revision}`;
  const byHypothesis = (id: string) => `${keyPrefix}:hypothesis:${encodeURIComponent(id)}:reviews`;
  return {
    async record(result) {
      const target = {
        revisionKey: revisionKey(result.reviewId, result.revision),
        latestKey: latest(result.reviewId),
        revision: result.revision,
        // Listed under its hypothesis too, for the person reviewing that hypothesis.
        index: { key: byHypothesis(result.hypothesisId), member: result.reviewId },
      };
      const stored = await writeOnce(redis, target, JSON.stringify(result));
      return stored === undefined ? result : parse(stored);
    },
    async get(reviewId, revision) {
      const raw = await redis.get(revision === undefined ? latest(reviewId) : revisionKey(reviewId, revision));
      return raw === null ? undefined : parse(raw);
    },
    async ofHypothesis(hypothesisId) {
      const ids = (await redis.smembers(byHypothesis(hypothesisId))).sort().slice(0, 100);
      if (ids.length === 0) return [];
      const raws = await redis.mget(ids.map(latest));
      return raws.filter((r): r is string => r !== null).map(parse);
    },
  };
}
