/**
 * Review verifications, kept in Redis by review id. The first result of a
 * review revision is the one its events carry: a job that runs again reuses
 * it, so its events and its stored result never disagree.
 */
import type { Redis } from 'ioredis';
import type { CitationResult, UrlSummary } from '../citations/verifier.js';
import type { CitationStatus } from '../contracts/events.js';

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

/**
 * Sets the revision's result unless one exists, and the latest pointer, and
 * lists the review under its hypothesis (KEYS[3], for the person reviewing
 * it); returns the stored result.
 */
const RECORD = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[2])
return ARGV[1]
`;

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
      const stored = (await redis.eval(
        RECORD,
        3,
        revisionKey(result.reviewId, result.revision),
        latest(result.reviewId),
        byHypothesis(result.hypothesisId),
        JSON.stringify(result),
        result.reviewId,
      )) as string;
      return JSON.parse(stored) as ReviewVerification;
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
