/**
 * Review verifications, kept in Redis by review id. The first result of a
 * review revision is the one its events carry: a job that runs again reuses
 * it, so its events and its stored result never disagree.
 */
import type { Redis } from 'ioredis';
import type { CitationResult, UrlSummary } from '../citations/verifier.js';
import type { CitationStatus } from '../contracts/events.js';
import { writeOnce } from './write-once.js';

export interface ReviewVerification {
  reviewId: string;
  hypothesisId: string;
  revision: number;
  /** Verification disabled in the configuration. */
  skipped: boolean;
  results: CitationResult[];
  /** The research system's shape: `{url: {status, excerpt_len}}`. */
  summary: Record<string, UrlSummary>;
  counts: Record<CitationStatus, number>;
  verifiedAt: string;
}

export interface ReviewStore {
  record(result: ReviewVerification): Promise<ReviewVerification>;
  get(reviewId: string, revision?: number): Promise<ReviewVerification | undefined>;
  /** The latest verification of every review of a hypothesis. */
  ofHypothesis(hypothesisId: string): Promise<ReviewVerification[]>;
}

export function createReviewStore(redis: Redis, keyPrefix: string): ReviewStore {
  const latest = (id: string) => `${keyPrefix}:review:${encodeURIComponent(id)}`;
  const revisionKey = (id: string, revision: number) => `${latest(id)}:rev:${revision}`;
  const byHypothesis = (id: string) => `${keyPrefix}:hypothesis:${encodeURIComponent(id)}:reviews`;
  return {
    async record(result) {
      // Listed under its hypothesis too, for the person reviewing that hypothesis.
      const stored = await writeOnce(
        redis,
        revisionKey(result.reviewId, result.revision),
        latest(result.reviewId),
        JSON.stringify(result),
        { key: byHypothesis(result.hypothesisId), member: result.reviewId },
      );
      return stored === undefined ? result : (JSON.parse(stored) as ReviewVerification);
    },
    async get(reviewId, revision) {
      const raw = await redis.get(revision === undefined ? latest(reviewId) : revisionKey(reviewId, revision));
      return raw === null ? undefined : (JSON.parse(raw) as ReviewVerification);
    },
    async ofHypothesis(hypothesisId) {
      const ids = (await redis.smembers(byHypothesis(hypothesisId))).sort().slice(0, 100);
      if (ids.length === 0) return [];
      const raws = await redis.mget(ids.map(latest));
      return raws.filter((r): r is string => r !== null).map((r) => JSON.parse(r) as ReviewVerification);
    },
  };
}
