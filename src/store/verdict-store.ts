/**
 * The verdicts, kept in Redis and readable by id: per revision (written once:
 * the first verdict of a revision is the one its events carry, so a re-run of
 * its job reuses it instead of calling the model again) and the latest of each
 * hypothesis (for the report-time check and the review workflow).
 */
import type { Redis } from 'ioredis';
import { APPEND_EVENT_LUA, type EventBatch } from '../events/emitter.js';
import { VerdictSchema, type Verdict } from '../safety/classification/verdict.js';

/**
 * `recordVerdict(...)` writes the revision's verdict unless one exists; moves
 * "latest" forward only. For a hypothesis, keeps the review queue (a sorted
 * set of held ids) in step with the latest revision, and keeps the text of a
 * held revision for the person who reviews it. Returns whether it wrote the
 * verdict (1) or found one (0), and the stored verdict. One script, so a
 * crash never leaves the queue out of step.
 */
const RECORD_VERDICT_LUA = `
local function recordVerdict(revKey, latestKey, queueKey, subjectKey, revision, verdict, at, reviewed, action, held, score, id)
  local existing = redis.call('GET', revKey)
  if existing then return 0, existing end
  redis.call('SET', revKey, verdict)
  local current = redis.call('HGET', latestKey, 'revision')
  local isHeld = action == 'quarantine' or action == 'block'
  if isHeld and held ~= '' then redis.call('SET', subjectKey, held) end
  if (not current) or tonumber(revision) >= tonumber(current) then
    redis.call('HSET', latestKey, 'revision', revision, 'verdict', verdict, 'updatedAt', at)
    if reviewed == '1' then
      if isHeld then redis.call('ZADD', queueKey, score, id) else redis.call('ZREM', queueKey, id) end
    end
  end
  return 1, verdict
end
`;

const RECORD = `${RECORD_VERDICT_LUA}
local created, stored = recordVerdict(KEYS[1], KEYS[2], KEYS[3], KEYS[4], unpack(ARGV, 1, 8))
return {created, stored}
`;

/**
 * The same, with two more things in the one round trip. First, values that
 * belong with the verdict and are written whatever it finds (the
 * classifier's cache entries: KEYS after the dedupe keys, ARGV value and TTL
 * of each). Then, when it wrote the verdict, the events that announce it
 * (KEYS[5] the stream, KEYS[6..] their dedupe keys; type, id and data of
 * each). A verdict just written has no decision yet, so its events need no
 * other check; the verdict and its events exist together or not at all.
 * ARGV[9..12]: the dedupe TTL, the stream cap, the number of events and of
 * values. Returns {1, entry ids ('' for a duplicate)...} or {0, stored verdict}.
 */
const RECORD_AND_ANNOUNCE = `${RECORD_VERDICT_LUA}${APPEND_EVENT_LUA}
local events, writes = tonumber(ARGV[11]), tonumber(ARGV[12])
for i = 1, writes do
  local a = 12 + events * 3 + (i - 1) * 2
  redis.call('SET', KEYS[5 + events + i], ARGV[a + 1], 'EX', ARGV[a + 2])
end
local created, stored = recordVerdict(KEYS[1], KEYS[2], KEYS[3], KEYS[4], unpack(ARGV, 1, 8))
if created == 0 then return {0, stored} end
local out = {1}
for i = 1, events do
  local a = 12 + (i - 1) * 3
  local entry = appendEvent(KEYS[5], KEYS[5 + i], ARGV[9], ARGV[10], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3])
  out[#out + 1] = entry or ''
end
return out
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
  cosciRecordAndAnnounce(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<[number, ...string[]]>;
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

/** A value to write with a verdict, under a key of the store's slot (the classifier's cache entries). */
export interface KeyWrite {
  key: string;
  value: string;
  ttlSeconds: number;
}

export interface RecordExtras {
  /** For a hypothesis: its text, kept when the verdict holds it. */
  held?: HeldSubject | undefined;
  /** Events appended in the same script when (and only when) it writes the verdict. */
  announce?: EventBatch | undefined;
  /** Values written in the same script whatever it finds; only with `announce`. */
  writes?: KeyWrite[] | undefined;
}

export interface StoredVerdict {
  revision: number;
  verdict: Verdict;
  updatedAt: string;
}

export interface VerdictStore {
  /** Stores the verdict of a revision if it has none; returns the one stored. */
  record(subject: Subject, id: string, revision: number | string, verdict: Verdict): Promise<Verdict>;
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
    extras?: RecordExtras,
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
    redis.defineCommand('cosciRecordAndAnnounce', { lua: RECORD_AND_ANNOUNCE });
  }
  const keys = verdictKeys(keyPrefix);
  const latestKey = keys.latest;
  const revisionKey = keys.revision;
  return {
    async recordRevision(subject, id, revision, verdict, extras = {}) {
      const { held, announce, writes = [] } = extras;
      const at = now();
      const numeric = typeof revision === 'number' ? revision : 0;
      const keysOf = [
        revisionKey(subject, id, revision),
        latestKey(subject, id),
        keys.reviewQueue,
        keys.heldSubject(id, numeric),
      ] as const;
      const args = [
        numeric,
        JSON.stringify(verdict),
        at.toISOString(),
        subject === 'hypothesis' ? '1' : '0',
        verdict.action,
        held ? JSON.stringify(held) : '',
        at.getTime(),
        id,
      ] as const;
      if (!announce) {
        if (writes.length > 0) throw new Error('recordRevision: writes need announce');
        const [created, stored] = await redis.cosciRecordVerdict(...keysOf, ...args);
        return {
          verdict: created === 1 ? verdict : VerdictSchema.parse(JSON.parse(stored)),
          created: created === 1,
        };
      }
      const events = announce.events;
      const reply = await redis.cosciRecordAndAnnounce(
        5 + events.length + writes.length,
        ...keysOf,
        announce.stream,
        ...events.map((e) => e.seenKey),
        ...writes.map((w) => w.key),
        ...args,
        announce.dedupeTtlSeconds,
        announce.maxLen,
        events.length,
        writes.length,
        ...events.flatMap((e) => [e.type, e.eventId, e.data]),
        ...writes.flatMap((w) => [w.value, w.ttlSeconds]),
      );
      if (reply[0] !== 1) return { verdict: VerdictSchema.parse(JSON.parse(String(reply[1]))), created: false };
      announce.settle(reply.slice(1).map((entry) => (entry === '' ? undefined : String(entry))));
      // What was written is what this call was given.
      return { verdict, created: true };
    },
    async record(subject, id, revision, verdict) {
      return (await this.recordRevision(subject, id, revision, verdict)).verdict;
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
