/**
 * The verdicts, kept in Redis and readable by id: per revision (written once:
 * the first verdict of a revision is the one its events carry, so a re-run of
 * its job reuses it instead of calling the model again) and the latest of each
 * hypothesis (for the report-time check and the review workflow).
 */
import type { Redis } from 'ioredis';
import { VerdictSchema, type Verdict } from '../safety/classification/verdict.js';

/** Writes the revision's verdict unless one exists; moves "latest" forward only. Returns the stored verdict. */
const RECORD = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[2])
local current = redis.call('HGET', KEYS[2], 'revision')
if (not current) or tonumber(ARGV[1]) >= tonumber(current) then
  redis.call('HSET', KEYS[2], 'revision', ARGV[1], 'verdict', ARGV[2], 'updatedAt', ARGV[3])
end
return ARGV[2]
`;

type RedisWithRecord = Redis & {
  cosciRecordVerdict(
    revisionKey: string,
    latestKey: string,
    revision: number,
    verdict: string,
    at: string,
  ): Promise<string>;
};

export type Subject = 'hypothesis' | 'goal';

export interface StoredVerdict {
  revision: number;
  verdict: Verdict;
  updatedAt: string;
}

export interface VerdictStore {
  /** Stores the verdict of a revision if it has none; returns the one stored. */
  record(subject: Subject, id: string, revision: number | string, verdict: Verdict): Promise<Verdict>;
  getRevision(subject: Subject, id: string, revision: number | string): Promise<Verdict | undefined>;
  getLatest(subject: Subject, id: string): Promise<StoredVerdict | undefined>;
}

export function createVerdictStore(
  redisClient: Redis,
  keyPrefix: string,
  now: () => Date = () => new Date(),
): VerdictStore {
  const redis = redisClient as RedisWithRecord;
  if (typeof redis.cosciRecordVerdict !== 'function') {
    redis.defineCommand('cosciRecordVerdict', { numberOfKeys: 2, lua: RECORD });
  }
  const latestKey = (subject: Subject, id: string) => `${keyPrefix}:${subject}:${encodeURIComponent(id)}`;
  const revisionKey = (subject: Subject, id: string, revision: number | string) =>
    `${latestKey(subject, id)}:rev:${revision}`;
  return {
    async record(subject, id, revision, verdict) {
      const stored = await redis.cosciRecordVerdict(
        revisionKey(subject, id, revision),
        latestKey(subject, id),
        typeof revision === 'number' ? revision : 0,
        JSON.stringify(verdict),
        now().toISOString(),
      );
      return VerdictSchema.parse(JSON.parse(stored));
    },
    async getRevision(subject, id, revision) {
      const raw = await redis.get(revisionKey(subject, id, revision));
      return raw === null ? undefined : VerdictSchema.parse(JSON.parse(raw));
    },
    async getLatest(subject, id) {
      const fields = await redis.hgetall(latestKey(subject, id));
      if (!fields.verdict) return undefined;
      return {
        revision: Number(fields.revision),
        verdict: VerdictSchema.parse(JSON.parse(fields.verdict)),
        updatedAt: fields.updatedAt ?? '',
      };
    },
  };
}
