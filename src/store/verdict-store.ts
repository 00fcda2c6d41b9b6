/**
 * The verdicts, kept in Redis and readable by id: per revision (written once:
 * the first verdict of a revision is the one its events carry, so a re-run of
 * its job reuses it instead of calling the model again) and the latest of each
 * hypothesis (for the report-time check and the review workflow).
 */
import type { Redis } from 'ioredis';
import type { EventType } from '../contracts/events.js';
import { APPEND_EVENT_LUA, type EventBatch, type EventTemplates } from '../events/emitter.js';
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
  if not redis.call('SET', revKey, verdict, 'NX') then return 0, redis.call('GET', revKey) end
  local current = redis.call('HGET', latestKey, 'revision')
  local isHeld = action == 'quarantine' or action == 'block'
  if isHeld and held ~= '' then redis.call('SET', subjectKey, held) end
  if (not current) or tonumber(revision) >= tonumber(current) then
    redis.call('HSET', latestKey, 'revision', revision, 'verdict', verdict, 'updatedAt', at)
    if reviewed == '1' then
      -- Only a hypothesis with an earlier verdict can be in the queue.
      if isHeld then redis.call('ZADD', queueKey, score, id) elseif current then redis.call('ZREM', queueKey, id) end
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

/**
 * A revision's verdict from the verdict cache (what `cachedVerdictEntry`
 * wrote for the same text under the same settings), stored and announced in
 * one round trip. The cached value is `action \n event types \n verdict JSON \n
 * event fields`: the event fields are the verdict's part of each event's
 * data, which the script puts between the head and the tail it is given (the
 * subject's part). KEYS: the cached verdict, the four of recordVerdict, the
 * stream, the candidate events' dedupe keys, then the window assessment keys.
 * ARGV: recordVerdict's revision, at, reviewed, held, score and id; the
 * dedupe TTL, the stream cap, the numbers of candidates and of windows, the
 * data head and tail, then type and id of each candidate.
 * Returns {1, verdict JSON, (type, entry id or '')...} when it wrote the
 * verdict, {2, stored verdict} when the revision had one, and {0, window
 * assessments...} when there is no cached verdict it can use.
 */
const RECORD_CACHED = `${RECORD_VERDICT_LUA}${APPEND_EVENT_LUA}
local candidates, windows = tonumber(ARGV[9]), tonumber(ARGV[10])
local function miss()
  local out = {0}
  for i = 1, windows do out[i + 1] = redis.call('GET', KEYS[6 + candidates + i]) end
  return out
end
local cached = redis.call('GET', KEYS[1])
if not cached then return miss() end
local a = string.find(cached, '\\n', 1, true)
local b = a and string.find(cached, '\\n', a + 1, true)
local c = b and string.find(cached, '\\n', b + 1, true)
if not c then return miss() end
local action, verdict, fields = string.sub(cached, 1, a - 1), string.sub(cached, b + 1, c - 1), string.sub(cached, c + 1)
local picked = {}
for t in string.gmatch(string.sub(cached, a + 1, b - 1), '[^,]+') do
  local found
  for i = 1, candidates do
    if ARGV[11 + i * 2] == t then found = i end
  end
  -- A type this caller does not announce (a value of another version): not usable.
  if not found then return miss() end
  picked[#picked + 1] = found
end
local created, stored = recordVerdict(KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[1], verdict, ARGV[2], ARGV[3], action, ARGV[4], ARGV[5], ARGV[6])
if created == 0 then return {2, stored} end
local out = {1, verdict}
for _, i in ipairs(picked) do
  local type, id = ARGV[11 + i * 2], ARGV[12 + i * 2]
  out[#out + 1] = type
  out[#out + 1] = appendEvent(KEYS[6], KEYS[6 + i], ARGV[7], ARGV[8], type, id, ARGV[11] .. fields .. ARGV[12]) or ''
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
  cosciRecordCached(
    numberOfKeys: number,
    ...keysAndArgs: Array<string | number>
  ): Promise<[number, ...Array<string | null>]>;
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

/** Where a text's verdict is cached and where its window assessments are (VerdictCacheLookup). */
export interface CachedVerdictLookup {
  key: string;
  windowKeys: string[];
  ttlSeconds: number;
}

export type CachedRecord =
  /** The cached verdict was written as the revision's verdict and announced. */
  | { kind: 'created'; verdict: Verdict }
  /** The revision had a verdict: nothing written or announced. */
  | { kind: 'exists'; verdict: Verdict }
  /** No usable cached verdict: the window assessments as read (null where none), for the classifier. */
  | { kind: 'miss'; windows: Array<string | null> };

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
  /**
   * A hypothesis revision's verdict from the verdict cache, stored and
   * announced in one round trip (see RECORD_CACHED); on a miss, the text's
   * window assessments instead.
   */
  recordCached(
    id: string,
    revision: number,
    lookup: CachedVerdictLookup,
    extras: { held: HeldSubject; announce: EventTemplates },
  ): Promise<CachedRecord>;
  getRevision(subject: Subject, id: string, revision: number | string): Promise<Verdict | undefined>;
  getLatest(subject: Subject, id: string): Promise<StoredVerdict | undefined>;
  /** The text kept for a held hypothesis revision. */
  getHeldSubject(id: string, revision: number): Promise<HeldSubject | undefined>;
}

/**
 * The verdict cache's value for a verdict (read by RECORD_CACHED): its action,
 * the events a new verdict of it announces, the verdict as a cached one, and
 * its fields of the events' data as JSON members (`"action":...,...`).
 */
export function cachedVerdictEntry(
  lookup: CachedVerdictLookup,
  verdict: Verdict,
  eventTypes: EventType[],
  eventFields: Record<string, unknown>,
): KeyWrite {
  const value = [
    verdict.action,
    eventTypes.join(','),
    JSON.stringify({ ...verdict, cached: true }),
    JSON.stringify(eventFields).slice(1, -1),
  ].join('\n');
  return { key: lookup.key, value, ttlSeconds: lookup.ttlSeconds };
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

export interface VerdictStoreOptions {
  /**
   * The connection recordCached uses, when it is not the store's own. A job
   * answered from the verdict cache is that one call, so it should go out at
   * once: on a connection that batches commands (ioredis auto-pipelining) it
   * waits for the batch before it to return, which cost about a fifth of the
   * rate of cached verdicts in the pipeline benchmark.
   */
  lookup?: Redis | undefined;
  now?: () => Date;
}

function defineScripts(redis: RedisWithRecord): void {
  if (typeof redis.cosciRecordVerdict === 'function') return;
  redis.defineCommand('cosciRecordVerdict', { numberOfKeys: 4, lua: RECORD });
  redis.defineCommand('cosciRecordAndAnnounce', { lua: RECORD_AND_ANNOUNCE });
  redis.defineCommand('cosciRecordCached', { lua: RECORD_CACHED });
}

export function createVerdictStore(
  redisClient: Redis,
  keyPrefix: string,
  options: VerdictStoreOptions = {},
): VerdictStore {
  const redis = redisClient as RedisWithRecord;
  const lookupRedis = (options.lookup ?? redisClient) as RedisWithRecord;
  defineScripts(redis);
  defineScripts(lookupRedis);
  const now = options.now ?? (() => new Date());
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
    async recordCached(id, revision, lookup, { held, announce }) {
      const at = now();
      const events = announce.events;
      const reply = await lookupRedis.cosciRecordCached(
        6 + events.length + lookup.windowKeys.length,
        lookup.key,
        revisionKey('hypothesis', id, revision),
        latestKey('hypothesis', id),
        keys.reviewQueue,
        keys.heldSubject(id, revision),
        announce.stream,
        ...events.map((e) => e.seenKey),
        ...lookup.windowKeys,
        revision,
        at.toISOString(),
        '1',
        JSON.stringify(held),
        at.getTime(),
        id,
        announce.dedupeTtlSeconds,
        announce.maxLen,
        events.length,
        lookup.windowKeys.length,
        announce.head,
        announce.tail,
        ...events.flatMap((e) => [e.type, e.eventId]),
      );
      if (reply[0] === 0) return { kind: 'miss', windows: reply.slice(1) as Array<string | null> };
      const verdict = VerdictSchema.parse(JSON.parse(String(reply[1])));
      if (reply[0] === 2) return { kind: 'exists', verdict };
      const appended: EventType[] = [];
      for (let i = 2; i < reply.length; i += 2) if (reply[i + 1] !== '') appended.push(reply[i] as EventType);
      announce.settle(appended);
      return { kind: 'created', verdict };
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
