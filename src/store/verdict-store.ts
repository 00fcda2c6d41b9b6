/**
 * The verdicts, kept in Redis and readable by id: per revision (written once:
 * the first verdict of a revision is the one its events carry, so a re-run of
 * its job reuses it instead of calling the model again) and the latest of each
 * hypothesis (for the report-time check and the review workflow).
 */
import type { Redis } from 'ioredis';
import { VerdictSchema, type Verdict } from '../safety/classification/verdict.js';

/**
 * Writes the revision's verdict unless one exists; moves "latest" forward
 * only. For a hypothesis, keeps the review queue (a sorted set of held ids,
 * KEYS[3]) in step with the latest revision, and keeps the text of a held
 * revision (KEYS[4]) for the person who reviews it. Returns whether it
 * wrote the verdict (1) or found one (0), and the stored verdict. One script,
 * so a crash never leaves the queue out of step.
 */
const RECORD = `
local existing = redis.call('GET', KEYS[1])
if existing then return {0, existing} end
redis.call('SET', KEYS[1], ARGV[2])
local current = redis.call('HGET', KEYS[2], 'revision')
local held = ARGV[5] == 'quarantine' or ARGV[5] == 'block'
if held and ARGV[6] ~= '' then redis.call('SET', KEYS[4], ARGV[6]) end
if (not current) or tonumber(ARGV[1]) >= tonumber(current) then
  redis.call('HSET', KEYS[2], 'revision', ARGV[1], 'verdict', ARGV[2], 'updatedAt', ARGV[3])
  if ARGV[4] == '1' then
    if held then redis.call('ZADD', KEYS[3], ARGV[7], ARGV[8]) else redis.call('ZREM', KEYS[3], ARGV[8]) end
  end
end
return {1, ARGV[2]}
`;

type RedisWithRecord = Redis & {
  cosciRecordVerdict(
    revisionKey: string,
    latestKey: string,
    queueKey: string,
    subjectKey: string,
    revision: number,
    verdict: string,
    at: string,
    reviewed: '1' | '0',
    action: string,
    subject: string,
    score: number,
    id: string,
  ): Promise<[number, string]>;
};

/** What a person reviewing a held hypothesis reads besides the verdict. */
export interface HeldSubject {
  title?: string | undefined;
  text: string;
  goalId?: string | undefined;
  runId?: string | undefined;
  agent?: string | undefined;
}

export type Subject = 'hypothesis' | 'goal';

export interface StoredVerdict {
  revision: number;
  verdict: Verdict;
  updatedAt: string;
}

export interface VerdictStore {
  /**
   * Stores the verdict of a revision if it has none; returns the one stored.
   * For a hypothesis, `held` is its text, kept when the verdict holds it.
   */
  record(
    subject: Subject,
    id: string,
    revision: number | string,
    verdict: Verdict,
    held?: HeldSubject,
  ): Promise<Verdict>;
  /**
   * The same, saying whether this call wrote the verdict: a person can only
   * decide on a verdict that exists, so a revision whose verdict was just
   * written has no decision yet.
   */
  recordRevision(
    subject: Subject,
    id: string,
    revision: number | string,
    verdict: Verdict,
    held?: HeldSubject,
  ): Promise<{ verdict: Verdict; created: boolean }>;
  getRevision(subject: Subject, id: string, revision: number | string): Promise<Verdict | undefined>;
  getLatest(subject: Subject, id: string): Promise<StoredVerdict | undefined>;
  /** The text kept for a held hypothesis revision. */
  getHeldSubject(id: string, revision: number): Promise<HeldSubject | undefined>;
}

/** Redis keys of the verdict store, shared with the decision store (one hash tag, for Redis Cluster). */
export function verdictKeys(keyPrefix: string) {
  const latest = (subject: Subject, id: string) => `${keyPrefix}:${subject}:${encodeURIComponent(id)}`;
  const revision = (subject: Subject, id: string, rev: number | string) => `${latest(subject, id)}:rev:${rev}`;
  return {
    latest,
    revision,
    heldSubject: (id: string, rev: number) => `${revision('hypothesis', id, rev)}:subject`,
    decision: (id: string, rev: number) => `${revision('hypothesis', id, rev)}:decision`,
    /** Held hypotheses, scored by when they were held (ms). */
    reviewQueue: `${keyPrefix}:review:held`,
    audit: `${keyPrefix}:audit`,
    itemAudit: (id: string) => `${keyPrefix}:audit:hypothesis:${encodeURIComponent(id)}`,
  };
}

export function createVerdictStore(
  redisClient: Redis,
  keyPrefix: string,
  now: () => Date = () => new Date(),
): VerdictStore {
  const redis = redisClient as RedisWithRecord;
  if (typeof redis.cosciRecordVerdict !== 'function') {
    redis.defineCommand('cosciRecordVerdict', { numberOfKeys: 4, lua: RECORD });
  }
  const keys = verdictKeys(keyPrefix);
  const latestKey = keys.latest;
  const revisionKey = keys.revision;
  return {
    async recordRevision(subject, id, revision, verdict, held) {
      const at = now();
      const numeric = typeof revision === 'number' ? revision : 0;
      const [created, stored] = await redis.cosciRecordVerdict(
        revisionKey(subject, id, revision),
        latestKey(subject, id),
        keys.reviewQueue,
        keys.heldSubject(id, numeric),
        numeric,
        JSON.stringify(verdict),
        at.toISOString(),
        subject === 'hypothesis' ? '1' : '0',
        verdict.action,
        held ? JSON.stringify(held) : '',
        at.getTime(),
        id,
      );
      return { verdict: VerdictSchema.parse(JSON.parse(stored)), created: created === 1 };
    },
    async record(subject, id, revision, verdict, held) {
      return (await this.recordRevision(subject, id, revision, verdict, held)).verdict;
    },
    async getHeldSubject(id, revision) {
      const raw = await redis.get(keys.heldSubject(id, revision));
      return raw === null ? undefined : (JSON.parse(raw) as HeldSubject);
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
