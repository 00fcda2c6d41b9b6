/**
 * Review verifications, kept in Redis by review id. The first result of a
 * review revision is the one its events carry: a job that runs again reuses
 * it, so its events and its stored result never disagree. What is read back
 * is validated against the result's schema.
 */
import type { Redis } from 'ioredis';
import { ReviewVerificationSchema, type ReviewVerification } from '../contracts/results.js';
import { contentKeyOf, writeOnce } from './write-once.js';

/** A revision's stored result, and the content digest it was recorded with (absent when none was). */
export interface StoredReview {
  result: ReviewVerification;
  content?: string | undefined;
}

export interface ReviewStore {
  record(result: ReviewVerification): Promise<ReviewVerification>;
  /**
   * Stores the result of a review revision with the content digest of its
   * payload, unless the revision has one; `conflict` when the one it has is
   * of other content (docs/contract.md#a-revision-is-its-content).
   */
  recordRevision(
    result: ReviewVerification,
    content?: string,
  ): Promise<{ result: ReviewVerification; conflict: boolean }>;
  get(reviewId: string, revision?: number): Promise<ReviewVerification | undefined>;
  /** A revision's result with its content digest. */
  getRecord(reviewId: string, revision: number): Promise<StoredReview | undefined>;
  /** The latest verification of every review of a hypothesis. */
  ofHypothesis(hypothesisId: string): Promise<ReviewVerification[]>;
}

const parse = (raw: string): ReviewVerification => ReviewVerificationSchema.parse(JSON.parse(raw));

/** Redis keys of the review store (publishers read the content digest to refuse a conflict early). */
export function reviewKeys(keyPrefix: string) {
  const latest = (id: string) => `${keyPrefix}:review:${encodeURIComponent(id)}`;
  const revision = (id: string, rev: number) => `${latest(id)}:rev:${rev}`;
  return {
    latest,
    revision,
    content: (id: string, rev: number) => contentKeyOf(revision(id, rev)),
    byHypothesis: (id: string) => `${keyPrefix}:hypothesis:${encodeURIComponent(id)}:reviews`,
  };
}

export function createReviewStore(redis: Redis, keyPrefix: string): ReviewStore {
  const keys = reviewKeys(keyPrefix);
  const { latest, byHypothesis } = keys;
  const revisionKey = keys.revision;
  return {
    async record(result) {
      return (await this.recordRevision(result)).result;
    },
    async recordRevision(result, content) {
      const target = {
        revisionKey: revisionKey(result.reviewId, result.revision),
        latestKey: latest(result.reviewId),
        revision: result.revision,
        // Listed under its hypothesis too, for the person reviewing that hypothesis.
        index: { key: byHypothesis(result.hypothesisId), member: result.reviewId },
      };
      const found = await writeOnce(redis, target, JSON.stringify(result), content);
      if (found === undefined) return { result, conflict: false };
      return { result: parse(found.value), conflict: content !== undefined && found.content !== content };
    },
    async getRecord(reviewId, revision) {
      const [raw, content] = await redis.mget(revisionKey(reviewId, revision), keys.content(reviewId, revision));
      if (raw === null || raw === undefined) return undefined;
      return { result: parse(raw), ...(content ? { content } : {}) };
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
