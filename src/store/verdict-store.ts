/**
 * The verdicts, kept in Redis and readable by id: per revision (written once:
 * the first verdict of a revision is the one its events carry, so a re-run of
 * its job reuses it instead of calling the model again) and the latest of each
 * hypothesis (for the report-time check and the review workflow).
 */
import type { Redis } from 'ioredis';
import type { EventType } from '../contracts/events.js';
import {
  APPEND_EVENT_LUA,
  JOIN_MEMBERS_LUA,
  jsonMembers,
  type EventBatch,
  type EventTemplates,
} from '../events/emitter.js';
import { VerdictSchema, type Verdict } from '../safety/classification/verdict.js';
import { defineScript } from './lua-script.js';

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

/** The keys and arguments of recordVerdict, which every script here takes. */
const VERDICT_KEYS = ['revision', 'latest', 'queue', 'subject'] as const;
const VERDICT_ARGS = ['revision', 'verdict', 'at', 'reviewed', 'action', 'held', 'score', 'id'] as const;
const RECORD_VERDICT_CALL =
  'recordVerdict(KEY.revision, KEY.latest, KEY.queue, KEY.subject, ARG.revision, ARG.verdict, ARG.at, ARG.reviewed, ARG.action, ARG.held, ARG.score, ARG.id)';

const RECORD = defineScript({
  keys: VERDICT_KEYS,
  args: VERDICT_ARGS,
  body: `${RECORD_VERDICT_LUA}
local created, stored = ${RECORD_VERDICT_CALL}
return {created, stored}
`,
});

/**
 * The same, with two more things in the one round trip. First, values that
 * belong with the verdict and are written whatever it finds (the
 * classifier's cache entries). Then, when it wrote the verdict, the events
 * that announce it. A verdict just written has no decision yet, so its events
 * need no other check; the verdict and its events exist together or not at
 * all. Returns {1, entry ids ('' for a duplicate)...} or {0, stored verdict}.
 */
const RECORD_AND_ANNOUNCE = defineScript({
  keys: [...VERDICT_KEYS, 'stream'],
  keyLists: ['seen', 'writeKeys'],
  args: [...VERDICT_ARGS, 'dedupeTtl', 'maxLen'],
  argLists: { events: ['type', 'id', 'data'], writes: ['value', 'ttl'] },
  body: `${RECORD_VERDICT_LUA}${APPEND_EVENT_LUA}
for i, w in ipairs(ARG.writes) do redis.call('SET', KEY.writeKeys[i], w.value, 'EX', w.ttl) end
local created, stored = ${RECORD_VERDICT_CALL}
if created == 0 then return {0, stored} end
local out = {1}
for i, e in ipairs(ARG.events) do
  out[#out + 1] = appendEvent(KEY.stream, KEY.seen[i], ARG.dedupeTtl, ARG.maxLen, e.type, e.id, e.data) or ''
end
return out
`,
});

/**
 * The verdict cache's value for a verdict (written by cachedVerdictEntry, read
 * by RECORD_CACHED), a JSON object:
 * `{"format":1, "action", "events": [types a new verdict of it announces],
 * "verdict": the verdict as a cached one (JSON text), "members": its fields of
 * the events' data (JSON members, see jsonMembers)}`. The verdict and the
 * members are carried as strings so that the script passes them on byte for
 * byte: Redis's cjson would re-encode numbers to 14 digits and an empty array
 * as an object. A value of another format is a miss, and is replaced.
 */
const CACHED_VALUE_FORMAT = 1;

/**
 * A revision's verdict from the verdict cache, stored and announced in one
 * round trip. Each candidate event is announced if the cached value names
 * its type; its data joins the subject's members before and after the
 * cached members. Returns {1, verdict JSON, (type, entry id or '')...} when
 * it wrote the verdict, {2, stored verdict} when the revision had one, and
 * {0, window assessments...} when there is no cached verdict it can use.
 */
const RECORD_CACHED = defineScript({
  keys: ['cached', ...VERDICT_KEYS, 'stream'],
  keyLists: ['seen', 'windows'],
  args: ['revision', 'at', 'held', 'score', 'id', 'dedupeTtl', 'maxLen', 'before', 'after'],
  argLists: { candidates: ['type', 'id'] },
  body: `${RECORD_VERDICT_LUA}${APPEND_EVENT_LUA}${JOIN_MEMBERS_LUA}
local function miss()
  local out = {0}
  for i, key in ipairs(KEY.windows) do out[i + 1] = redis.call('GET', key) end
  return out
end
local raw = redis.call('GET', KEY.cached)
if not raw then return miss() end
local ok, cached = pcall(cjson.decode, raw)
if not ok or type(cached) ~= 'table' or cached.format ~= ${CACHED_VALUE_FORMAT} or type(cached.action) ~= 'string'
  or type(cached.events) ~= 'table' or type(cached.verdict) ~= 'string' or type(cached.members) ~= 'string' then
  return miss()
end
local picked = {}
for _, t in ipairs(cached.events) do
  local found
  for i, c in ipairs(ARG.candidates) do if c.type == t then found = i end end
  -- A type this caller does not announce (a value of another version): not usable.
  if not found then return miss() end
  picked[#picked + 1] = found
end
local created, stored = recordVerdict(KEY.revision, KEY.latest, KEY.queue, KEY.subject, ARG.revision, cached.verdict,
  ARG.at, '1', cached.action, ARG.held, ARG.score, ARG.id)
if created == 0 then return {2, stored} end
local data = joinMembers({ARG.before, cached.members, ARG.after})
local out = {1, cached.verdict}
for _, i in ipairs(picked) do
  local c = ARG.candidates[i]
  out[#out + 1] = c.type
  out[#out + 1] = appendEvent(KEY.stream, KEY.seen[i], ARG.dedupeTtl, ARG.maxLen, c.type, c.id, data) or ''
end
return out
`,
});

type RedisWithRecord = Redis & {
  cosciRecordVerdict(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<[number, string]>;
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

/** The verdict cache's value for a verdict (see CACHED_VALUE_FORMAT). */
export function cachedVerdictEntry(
  lookup: CachedVerdictLookup,
  verdict: Verdict,
  eventTypes: EventType[],
  eventFields: Record<string, unknown>,
): KeyWrite {
  const value = JSON.stringify({
    format: CACHED_VALUE_FORMAT,
    action: verdict.action,
    events: eventTypes,
    verdict: JSON.stringify({ ...verdict, cached: true }),
    members: jsonMembers(eventFields),
  });
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
  redis.defineCommand('cosciRecordVerdict', { lua: RECORD.lua });
  redis.defineCommand('cosciRecordAndAnnounce', { lua: RECORD_AND_ANNOUNCE.lua });
  redis.defineCommand('cosciRecordCached', { lua: RECORD_CACHED.lua });
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
      const verdictKeys = {
        revision: revisionKey(subject, id, revision),
        latest: latestKey(subject, id),
        queue: keys.reviewQueue,
        subject: keys.heldSubject(id, numeric),
      };
      const verdictArgs = {
        revision: numeric,
        verdict: JSON.stringify(verdict),
        at: at.toISOString(),
        reviewed: subject === 'hypothesis' ? '1' : '0',
        action: verdict.action,
        held: held ? JSON.stringify(held) : '',
        score: at.getTime(),
        id,
      };
      if (!announce) {
        if (writes.length > 0) throw new Error('recordRevision: writes need announce');
        const [created, stored] = await redis.cosciRecordVerdict(
          ...RECORD.layout({ keys: verdictKeys, args: verdictArgs }),
        );
        return {
          verdict: created === 1 ? verdict : VerdictSchema.parse(JSON.parse(stored)),
          created: created === 1,
        };
      }
      const reply = await redis.cosciRecordAndAnnounce(
        ...RECORD_AND_ANNOUNCE.layout({
          keys: { ...verdictKeys, stream: announce.stream },
          keyLists: { seen: announce.events.map((e) => e.seenKey), writeKeys: writes.map((w) => w.key) },
          args: { ...verdictArgs, dedupeTtl: announce.dedupeTtlSeconds, maxLen: announce.maxLen },
          argLists: {
            events: announce.events.map((e) => ({ type: e.type, id: e.eventId, data: e.data })),
            writes: writes.map((w) => ({ value: w.value, ttl: w.ttlSeconds })),
          },
        }),
      );
      if (reply[0] !== 1) return { verdict: VerdictSchema.parse(JSON.parse(String(reply[1]))), created: false };
      announce.settle(reply.slice(1).map((entry) => (entry === '' ? undefined : String(entry))));
      // What was written is what this call was given.
      return { verdict, created: true };
    },
    async recordCached(id, revision, lookup, { held, announce }) {
      const at = now();
      const reply = await lookupRedis.cosciRecordCached(
        ...RECORD_CACHED.layout({
          keys: {
            cached: lookup.key,
            revision: revisionKey('hypothesis', id, revision),
            latest: latestKey('hypothesis', id),
            queue: keys.reviewQueue,
            subject: keys.heldSubject(id, revision),
            stream: announce.stream,
          },
          keyLists: { seen: announce.events.map((e) => e.seenKey), windows: lookup.windowKeys },
          args: {
            revision,
            at: at.toISOString(),
            held: JSON.stringify(held),
            score: at.getTime(),
            id,
            dedupeTtl: announce.dedupeTtlSeconds,
            maxLen: announce.maxLen,
            before: announce.before,
            after: announce.after,
          },
          argLists: { candidates: announce.events.map((e) => ({ type: e.type, id: e.eventId })) },
        }),
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
