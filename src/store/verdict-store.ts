/**
 * The verdicts, kept in Redis and readable by id: per revision (written once:
 * the first verdict of a revision is the one its events carry, so a re-run of
 * its job reuses it instead of calling the model again) and the latest of each
 * hypothesis (for the report-time check and the review workflow).
 *
 * A revision is its content (docs/contract.md#a-revision-is-its-content): the
 * content digest it was first recorded with is kept beside its verdict, and a
 * job that brings other content under it is a conflict (recordConflict),
 * never a re-run that inherits the verdict or a person's decision.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { EventType } from '../contracts/events.js';
import type { ReviewConflict } from '../contracts/review-api.js';
import {
  APPEND_EVENT_LUA,
  JOIN_MEMBERS_LUA,
  jsonMembers,
  type EventBatch,
  type EventTemplates,
} from '../events/emitter.js';
import { withEventSpans, type EventTrace } from '../events/event-spans.js';
import { inSpan, type Attributes } from '../telemetry/spans.js';
import { VerdictSchema, type Verdict } from '../safety/classification/verdict.js';
import { DecisionSchema, type ConflictCounts } from '../safety/review/decision.js';
import { defineScript } from './lua-script.js';

/**
 * `latestWithheld(latestKey)`: whether the hypothesis's latest revision is
 * kept from readers: held (quarantine or block) and not released, or with
 * other content published under it. The latest hash carries what this needs
 * (`decision` is written there by the decision store, `conflicts` by
 * recordConflict); an unreadable verdict counts as withheld.
 */
const LATEST_WITHHELD_LUA = `
local function latestWithheld(latestKey)
  local f = redis.call('HMGET', latestKey, 'verdict', 'decision', 'conflicts')
  if tonumber(f[3] or '0') > 0 then return true end
  if not f[1] then return false end
  local ok, v = pcall(cjson.decode, f[1])
  if not ok or type(v) ~= 'table' then return true end
  if v.action ~= 'quarantine' and v.action ~= 'block' then return false end
  return f[2] ~= 'released'
end
`;

/**
 * `recordVerdict(...)` writes the revision's verdict and content digest
 * unless the revision has a verdict; moves "latest" forward only. For a
 * hypothesis, keeps the review queue (a sorted set of held ids) in step with
 * the latest revision, and keeps the text of a held revision for the person
 * who reviews it. Returns three values: 1 when it wrote the verdict, 0 when
 * the revision had one for the same content, 2 when it had one for other
 * content (or none recorded: a revision stored before digests were kept
 * names no content, so it matches none); the stored verdict; and whether the
 * new verdict may be announced. An older revision recorded after a newer
 * one does not announce a pass (allow or warn) while the newer one is
 * withheld: the hypothesis is what its latest revision is. One script, so a
 * crash never leaves the queue out of step. A goal's version is its text's
 * digest already: it passes no content ('').
 */
const RECORD_VERDICT_LUA = `${LATEST_WITHHELD_LUA}
local function recordVerdict(revKey, contentKey, latestKey, queueKey, subjectKey, revision, content, verdict, at, reviewed, action, held, score, id)
  if not redis.call('SET', revKey, verdict, 'NX') then
    local stored = redis.call('GET', revKey)
    if content ~= '' and redis.call('GET', contentKey) ~= content then return 2, stored, false end
    return 0, stored, false
  end
  if content ~= '' then redis.call('SET', contentKey, content) end
  local current = redis.call('HGET', latestKey, 'revision')
  local isHeld = action == 'quarantine' or action == 'block'
  if isHeld and held ~= '' then redis.call('SET', subjectKey, held) end
  if (not current) or tonumber(revision) >= tonumber(current) then
    -- A newer revision has no decision and no conflict of its own yet.
    if current and tonumber(revision) > tonumber(current) then
      redis.call('HDEL', latestKey, 'decision', 'conflicts', 'openConflicts')
    end
    redis.call('HSET', latestKey, 'revision', revision, 'verdict', verdict, 'updatedAt', at)
    if content ~= '' then redis.call('HSET', latestKey, 'content', content) end
    if reviewed == '1' then
      -- Only a hypothesis with an earlier verdict can be in the queue.
      if isHeld then redis.call('ZADD', queueKey, score, id) elseif current then redis.call('ZREM', queueKey, id) end
    end
    return 1, verdict, true
  end
  local pass = action == 'allow' or action == 'warn'
  return 1, verdict, not (reviewed == '1' and pass and latestWithheld(latestKey))
end
`;

/** An event of a script's list: what appendEvent takes of it, its trace context included (event-spans.ts). */
const EVENT_FIELDS = ['type', 'id', 'data', 'traceparent', 'tracestate'] as const;

/** The keys and arguments of recordVerdict, which every script here takes. */
const VERDICT_KEYS = ['revision', 'content', 'latest', 'queue', 'subject'] as const;
const VERDICT_ARGS = ['revision', 'digest', 'verdict', 'at', 'reviewed', 'action', 'held', 'score', 'id'] as const;
const RECORD_VERDICT_CALL =
  'recordVerdict(KEY.revision, KEY.content, KEY.latest, KEY.queue, KEY.subject, ARG.revision, ARG.digest, ARG.verdict, ARG.at, ARG.reviewed, ARG.action, ARG.held, ARG.score, ARG.id)';

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
 * all. Returns {1, entry ids ('' for a duplicate, or for an event not
 * announced)...}, {0, stored verdict}, or {2, stored verdict} for a
 * revision of other content (see recordVerdict).
 */
const RECORD_AND_ANNOUNCE = defineScript({
  keys: [...VERDICT_KEYS, 'stream'],
  keyLists: ['seen', 'writeKeys'],
  args: [...VERDICT_ARGS, 'dedupeTtl', 'maxLen'],
  argLists: { events: EVENT_FIELDS, writes: ['value', 'ttl'] },
  body: `${RECORD_VERDICT_LUA}${APPEND_EVENT_LUA}
for i, w in ipairs(ARG.writes) do redis.call('SET', KEY.writeKeys[i], w.value, 'EX', w.ttl) end
local created, stored, announce = ${RECORD_VERDICT_CALL}
if created ~= 1 then return {created, stored} end
local out = {1}
for i, e in ipairs(ARG.events) do
  out[#out + 1] = announce and appendEvent(KEY.stream, KEY.seen[i], ARG.dedupeTtl, ARG.maxLen, e.type, e.id, e.data, e.traceparent, e.tracestate) or ''
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
 * it wrote the verdict (no pairs when it may not be announced), {2, stored
 * verdict} when the revision had one for the same content, {3, stored
 * verdict} when it had one for other content, and {0, window
 * assessments...} when there is no cached verdict it can use.
 */
const RECORD_CACHED = defineScript({
  keys: ['cached', ...VERDICT_KEYS, 'stream'],
  keyLists: ['seen', 'windows'],
  args: ['revision', 'digest', 'at', 'held', 'score', 'id', 'dedupeTtl', 'maxLen', 'before', 'after'],
  argLists: { candidates: ['type', 'id', 'traceparent', 'tracestate'] },
  body: `${RECORD_VERDICT_LUA}${APPEND_EVENT_LUA}${JOIN_MEMBERS_LUA}
local function miss()
  local out = {0}
  for i, key in ipairs(KEY.windows) do out[i + 1] = redis.call('GET', key) end
  return out
end
-- A revision that has a verdict keeps it, whatever the cache holds: found
-- before any model call, and other content under it with it.
local stored = redis.call('GET', KEY.revision)
if stored then
  if ARG.digest ~= '' and redis.call('GET', KEY.content) ~= ARG.digest then return {3, stored} end
  return {2, stored}
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
local created, stored, announce = recordVerdict(KEY.revision, KEY.content, KEY.latest, KEY.queue, KEY.subject,
  ARG.revision, ARG.digest, cached.verdict, ARG.at, '1', cached.action, ARG.held, ARG.score, ARG.id)
if created == 0 then return {2, stored} end
if created == 2 then return {3, stored} end
local out = {1, cached.verdict}
if not announce then return out end
local data = joinMembers({ARG.before, cached.members, ARG.after})
for _, i in ipairs(picked) do
  local c = ARG.candidates[i]
  out[#out + 1] = c.type
  out[#out + 1] = appendEvent(KEY.stream, KEY.seen[i], ARG.dedupeTtl, ARG.maxLen, c.type, c.id, data, c.traceparent, c.tracestate) or ''
end
return out
`,
});

/**
 * The events of a verdict a revision already has (a job run again),
 * appended unless they would announce a pass of an older revision while a
 * newer one is withheld (see recordVerdict). Returns {0} when nothing may be
 * announced, else {1, entry ids ('' for a duplicate)...}.
 */
const ANNOUNCE = defineScript({
  keys: ['latest', 'stream'],
  keyLists: ['seen'],
  args: ['revision', 'action', 'dedupeTtl', 'maxLen'],
  argLists: { events: EVENT_FIELDS },
  body: `${LATEST_WITHHELD_LUA}${APPEND_EVENT_LUA}
local current = redis.call('HGET', KEY.latest, 'revision')
local pass = ARG.action == 'allow' or ARG.action == 'warn'
if pass and current and tonumber(ARG.revision) < tonumber(current) and latestWithheld(KEY.latest) then return {0} end
local out = {1}
for i, e in ipairs(ARG.events) do
  out[#out + 1] = appendEvent(KEY.stream, KEY.seen[i], ARG.dedupeTtl, ARG.maxLen, e.type, e.id, e.data, e.traceparent, e.tracestate) or ''
end
return out
`,
});

/**
 * Other content published under a revision that has a verdict: kept (its
 * text for the person who reviews it, once per content), the revision's
 * conflicts counted, the hypothesis held in the review queue when the
 * revision is its latest, and the revision_conflict event appended, in one
 * script. Returns {'conflict', entry id or ''}; {'same', ''} when the
 * revision's content is this one after all, {'absent', ''} when the revision
 * has no verdict (both only if the keys changed under the caller).
 */
const RECORD_CONFLICT = defineScript({
  keys: ['revision', 'content', 'latest', 'queue', 'conflicts', 'open', 'index', 'stream', 'seen'],
  args: [
    'revision',
    'digest',
    'record',
    'score',
    'id',
    'dedupeTtl',
    'maxLen',
    'type',
    'eventId',
    'data',
    'traceparent',
    'tracestate',
  ],
  body: `${APPEND_EVENT_LUA}
if redis.call('EXISTS', KEY.revision) == 0 then return {'absent', ''} end
if redis.call('GET', KEY.content) == ARG.digest then return {'same', ''} end
if redis.call('HSETNX', KEY.conflicts, ARG.digest, ARG.record) == 1 then
  redis.call('SADD', KEY.open, ARG.digest)
  redis.call('SADD', KEY.index, ARG.revision)
  if redis.call('HGET', KEY.latest, 'revision') == ARG.revision then
    redis.call('HINCRBY', KEY.latest, 'conflicts', 1)
    redis.call('HINCRBY', KEY.latest, 'openConflicts', 1)
    redis.call('ZADD', KEY.queue, 'NX', ARG.score, ARG.id)
  end
end
local entry = appendEvent(KEY.stream, KEY.seen, ARG.dedupeTtl, ARG.maxLen, ARG.type, ARG.eventId, ARG.data,
  ARG.traceparent, ARG.tracestate)
return {'conflict', entry or ''}
`,
});

type RedisWithRecord = Redis & {
  cosciRecordVerdict(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<[number, string]>;
  cosciRecordAndAnnounce(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<[number, ...string[]]>;
  cosciRecordCached(
    numberOfKeys: number,
    ...keysAndArgs: Array<string | number>
  ): Promise<[number, ...Array<string | null>]>;
  cosciAnnounce(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<[number, ...string[]]>;
  cosciRecordConflict(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<[string, string]>;
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
  /**
   * The content digest of what the verdict is about (src/contracts/content.ts),
   * kept with it and compared with a stored one. A goal's version is its
   * digest already, and passes none.
   */
  content?: string | undefined;
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
  /** The revision had a verdict for this content: nothing written or announced. */
  | { kind: 'exists'; verdict: Verdict }
  /** The revision had a verdict for other content: nothing written or announced (see recordConflict). */
  | { kind: 'conflict'; verdict: Verdict }
  /** No usable cached verdict: the window assessments as read (null where none), for the classifier. */
  | { kind: 'miss'; windows: Array<string | null> };

export interface StoredVerdict {
  revision: number;
  verdict: Verdict;
  updatedAt: string;
  /** The content digest of the revision; absent for a revision recorded before digests were kept. */
  content?: string | undefined;
  /** Other content published under this revision (a hypothesis's). */
  conflicts: ConflictCounts;
}

/** A revision's verdict with the content digest it was recorded with. */
export interface RevisionRecord {
  verdict: Verdict;
  content?: string | undefined;
}

/** Other content published under a hypothesis revision, as recordConflict keeps it. */
export interface ConflictInput {
  content: string;
  storedContent?: string | undefined;
  /** The new text, for the person who reviews it; absent when the job no longer had it (withheld). */
  held?: HeldSubject | undefined;
}

/** What a conflict's record holds (validated when read). */
const ConflictRecordSchema = z.object({
  content: z.string(),
  storedContent: z.string().optional(),
  at: z.string(),
  subject: z
    .object({
      title: z.string().optional(),
      text: z.string(),
      goalId: z.string().optional(),
      runId: z.string().optional(),
      agent: z.string().optional(),
    })
    .optional(),
});

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
  ): Promise<{ verdict: Verdict; created: boolean; conflict: boolean }>;
  /**
   * A hypothesis revision's verdict from the verdict cache, stored and
   * announced in one round trip (see RECORD_CACHED); on a miss, the text's
   * window assessments instead.
   */
  recordCached(
    id: string,
    revision: number,
    lookup: CachedVerdictLookup,
    extras: { held: HeldSubject; announce: EventTemplates; content?: string | undefined },
  ): Promise<CachedRecord>;
  /**
   * Appends a hypothesis revision's events (a job run again), unless they
   * would announce a pass of an older revision while a newer one is
   * withheld; returns whether they could be announced.
   */
  announce(id: string, revision: number, action: Verdict['action'], batch: EventBatch): Promise<boolean>;
  /**
   * Keeps other content published under a hypothesis revision, holds the
   * hypothesis when the revision is its latest, and appends the event of
   * `announce` (its revision_conflict), in one script (see RECORD_CONFLICT).
   */
  recordConflict(
    id: string,
    revision: number,
    conflict: ConflictInput,
    announce: EventBatch,
  ): Promise<'conflict' | 'same' | 'absent'>;
  /** Other content published under one hypothesis revision: how much, and how much waits for a person. */
  conflictCounts(id: string, revision: number): Promise<ConflictCounts>;
  /** Every conflict of a hypothesis, oldest revision first. */
  conflicts(id: string): Promise<ReviewConflict[]>;
  getRevision(subject: Subject, id: string, revision: number | string): Promise<Verdict | undefined>;
  /** A revision's verdict and the content digest it was recorded with. */
  getRevisionRecord(subject: Subject, id: string, revision: number | string): Promise<RevisionRecord | undefined>;
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
    /** The content digest a revision was recorded with. */
    content: (subject: Subject, id: string, rev: number | string) => `${revision(subject, id, rev)}:content`,
    heldSubject: (id: string, rev: number) => `${revision('hypothesis', id, rev)}:subject`,
    decision: (id: string, rev: number) => `${revision('hypothesis', id, rev)}:decision`,
    /** Other content published under a revision: a hash from its digest to its record. */
    conflicts: (id: string, rev: number) => `${revision('hypothesis', id, rev)}:conflicts`,
    /** The digests of those that wait for a person. */
    openConflicts: (id: string, rev: number) => `${revision('hypothesis', id, rev)}:conflicts:open`,
    /** People's decisions on them, by digest. */
    conflictDecisions: (id: string, rev: number) => `${revision('hypothesis', id, rev)}:conflicts:decisions`,
    /** The revisions of a hypothesis that have conflicts. */
    conflictIndex: (id: string) => `${latest('hypothesis', id)}:conflicts`,
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
  redis.defineCommand('cosciAnnounce', { lua: ANNOUNCE.lua });
  redis.defineCommand('cosciRecordConflict', { lua: RECORD_CONFLICT.lua });
}

/** A script's list of events (EVENT_FIELDS), each with the trace context its span gave it. */
function eventRecords(events: EventBatch['events'], traces: EventTrace[]) {
  return events.map((e, i) => ({ type: e.type, id: e.eventId, data: e.data, ...traces[i]! }));
}

/**
 * The span of a verdict write (its script appends the verdict's events,
 * whose spans are its children): `write verdict`, or `write cached verdict`
 * for one that writes the verdict cache's verdict, if it has one. With what
 * the write found: `created`, `exists` (the revision had its verdict: a job
 * run again), `conflict`, or `miss` (no cached verdict to write).
 */
function writeSpan<R>(
  name: 'write verdict' | 'write cached verdict',
  subject: Subject,
  attributes: Attributes,
  outcome: (result: R) => string,
  write: () => Promise<R>,
): Promise<R> {
  return inSpan(
    name,
    { attributes: { 'db.system.name': 'redis', 'cosci.subject': subject, ...attributes } },
    async (span) => {
      const result = await write();
      span.setAttribute('cosci.verdict.outcome', outcome(result));
      return result;
    },
  );
}

const revisionOutcome = (r: { created: boolean; conflict: boolean }) =>
  r.created ? 'created' : r.conflict ? 'conflict' : 'exists';

const count = (value: string | undefined | null): number => {
  const n = Number(value ?? 0);
  return Number.isInteger(n) && n > 0 ? n : 0;
};

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
        content: keys.content(subject, id, revision),
        latest: latestKey(subject, id),
        queue: keys.reviewQueue,
        subject: keys.heldSubject(id, numeric),
      };
      const verdictArgs = {
        revision: numeric,
        digest: extras.content ?? '',
        verdict: JSON.stringify(verdict),
        at: at.toISOString(),
        reviewed: subject === 'hypothesis' ? '1' : '0',
        action: verdict.action,
        held: held ? JSON.stringify(held) : '',
        score: at.getTime(),
        id,
      };
      if (!announce && writes.length > 0) throw new Error('recordRevision: writes need announce');
      return writeSpan(
        'write verdict',
        subject,
        { 'cosci.verdict.action': verdict.action },
        revisionOutcome,
        async () => {
          if (!announce) {
            const [created, stored] = await redis.cosciRecordVerdict(
              ...RECORD.layout({ keys: verdictKeys, args: verdictArgs }),
            );
            return {
              verdict: created === 1 ? verdict : VerdictSchema.parse(JSON.parse(stored)),
              created: created === 1,
              conflict: created === 2,
            };
          }
          const reply = await withEventSpans(
            announce.stream,
            announce.events,
            (traces) =>
              redis.cosciRecordAndAnnounce(
                ...RECORD_AND_ANNOUNCE.layout({
                  keys: { ...verdictKeys, stream: announce.stream },
                  keyLists: { seen: announce.events.map((e) => e.seenKey), writeKeys: writes.map((w) => w.key) },
                  args: { ...verdictArgs, dedupeTtl: announce.dedupeTtlSeconds, maxLen: announce.maxLen },
                  argLists: {
                    events: eventRecords(announce.events, traces),
                    writes: writes.map((w) => ({ value: w.value, ttl: w.ttlSeconds })),
                  },
                }),
              ),
            (reply) => announce.events.map((_, i) => reply[0] === 1 && !!reply[i + 1]),
          );
          if (reply[0] !== 1) {
            return {
              verdict: VerdictSchema.parse(JSON.parse(String(reply[1]))),
              created: false,
              conflict: reply[0] === 2,
            };
          }
          announce.settle(reply.slice(1).map((entry) => (entry === '' ? undefined : String(entry))));
          // What was written is what this call was given.
          return { verdict, created: true, conflict: false };
        },
      );
    },
    async recordCached(id, revision, lookup, { held, announce, content }) {
      const at = now();
      const call = (traces: EventTrace[]) =>
        lookupRedis.cosciRecordCached(
          ...RECORD_CACHED.layout({
            keys: {
              cached: lookup.key,
              revision: revisionKey('hypothesis', id, revision),
              content: keys.content('hypothesis', id, revision),
              latest: latestKey('hypothesis', id),
              queue: keys.reviewQueue,
              subject: keys.heldSubject(id, revision),
              stream: announce.stream,
            },
            keyLists: { seen: announce.events.map((e) => e.seenKey), windows: lookup.windowKeys },
            args: {
              revision,
              digest: content ?? '',
              at: at.toISOString(),
              held: JSON.stringify(held),
              score: at.getTime(),
              id,
              dedupeTtl: announce.dedupeTtlSeconds,
              maxLen: announce.maxLen,
              before: announce.before,
              after: announce.after,
            },
            argLists: {
              candidates: announce.events.map((e, i) => ({ type: e.type, id: e.eventId, ...traces[i]! })),
            },
          }),
        );
      // The types the script appended, each once: a reply of {1, verdict, (type, entry id or '')...}.
      const appendedOf = (reply: Awaited<ReturnType<typeof call>>): EventType[] => {
        const appended: EventType[] = [];
        if (reply[0] !== 1) return appended;
        for (let i = 2; i < reply.length; i += 2) if (reply[i + 1] !== '') appended.push(reply[i] as EventType);
        return appended;
      };
      return writeSpan(
        'write cached verdict',
        'hypothesis',
        {},
        (r) => r.kind,
        async () => {
          const reply = await withEventSpans(announce.stream, announce.events, call, (reply) => {
            const appended = appendedOf(reply);
            return announce.events.map((e) => appended.includes(e.type));
          });
          if (reply[0] === 0) return { kind: 'miss', windows: reply.slice(1) as Array<string | null> };
          const verdict = VerdictSchema.parse(JSON.parse(String(reply[1])));
          if (reply[0] === 2) return { kind: 'exists', verdict };
          if (reply[0] === 3) return { kind: 'conflict', verdict };
          announce.settle(appendedOf(reply));
          return { kind: 'created', verdict };
        },
      );
    },
    async announce(id, revision, action, batch) {
      const reply = await withEventSpans(
        batch.stream,
        batch.events,
        (traces) =>
          redis.cosciAnnounce(
            ...ANNOUNCE.layout({
              keys: { latest: latestKey('hypothesis', id), stream: batch.stream },
              keyLists: { seen: batch.events.map((e) => e.seenKey) },
              args: { revision, action, dedupeTtl: batch.dedupeTtlSeconds, maxLen: batch.maxLen },
              argLists: { events: eventRecords(batch.events, traces) },
            }),
          ),
        (reply) => batch.events.map((_, i) => reply[0] === 1 && !!reply[i + 1]),
      );
      if (reply[0] !== 1) return false;
      batch.settle(reply.slice(1).map((entry) => (entry === '' ? undefined : String(entry))));
      return true;
    },
    async recordConflict(id, revision, conflict, announce) {
      const [event] = announce.events;
      if (!event || announce.events.length !== 1) throw new Error('recordConflict: announce one event');
      const at = now();
      const record = {
        content: conflict.content,
        ...(conflict.storedContent === undefined ? {} : { storedContent: conflict.storedContent }),
        at: at.toISOString(),
        ...(conflict.held ? { subject: conflict.held } : {}),
      };
      const [outcome, entry] = await withEventSpans(
        announce.stream,
        announce.events,
        ([trace]) =>
          redis.cosciRecordConflict(
            ...RECORD_CONFLICT.layout({
              keys: {
                revision: revisionKey('hypothesis', id, revision),
                content: keys.content('hypothesis', id, revision),
                latest: latestKey('hypothesis', id),
                queue: keys.reviewQueue,
                conflicts: keys.conflicts(id, revision),
                open: keys.openConflicts(id, revision),
                index: keys.conflictIndex(id),
                stream: announce.stream,
                seen: event.seenKey,
              },
              args: {
                revision,
                digest: conflict.content,
                record: JSON.stringify(record),
                score: at.getTime(),
                id,
                dedupeTtl: announce.dedupeTtlSeconds,
                maxLen: announce.maxLen,
                type: event.type,
                eventId: event.eventId,
                data: event.data,
                ...trace!,
              },
            }),
          ),
        ([, appended]) => [!!appended],
      );
      if (outcome === 'conflict') announce.settle([entry === '' ? undefined : entry]);
      return outcome === 'conflict' || outcome === 'same' ? outcome : 'absent';
    },
    async conflictCounts(id, revision) {
      const [total, open] = await Promise.all([
        redis.hlen(keys.conflicts(id, revision)),
        redis.scard(keys.openConflicts(id, revision)),
      ]);
      return { total, open };
    },
    async conflicts(id) {
      const revisions = (await redis.smembers(keys.conflictIndex(id))).map(Number).filter(Number.isInteger);
      revisions.sort((a, b) => a - b);
      const perRevision = await Promise.all(
        revisions.map(async (revision) => {
          const [records, open, decisions] = await Promise.all([
            redis.hgetall(keys.conflicts(id, revision)),
            redis.smembers(keys.openConflicts(id, revision)),
            redis.hgetall(keys.conflictDecisions(id, revision)),
          ]);
          const isOpen = new Set(open);
          return Object.values(records)
            .map((raw) => ConflictRecordSchema.parse(JSON.parse(raw)))
            .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
            .map((r): ReviewConflict => {
              const decided = decisions[r.content];
              return {
                revision,
                ...r,
                open: isOpen.has(r.content),
                ...(decided === undefined ? {} : { decision: DecisionSchema.parse(JSON.parse(decided)) }),
              };
            });
        }),
      );
      return perRevision.flat();
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
    async getRevisionRecord(subject, id, revision) {
      const [raw, content] = await redis.mget(revisionKey(subject, id, revision), keys.content(subject, id, revision));
      if (raw === null || raw === undefined) return undefined;
      return { verdict: VerdictSchema.parse(JSON.parse(raw)), ...(content ? { content } : {}) };
    },
    async getLatest(subject, id) {
      const fields = await redis.hgetall(latestKey(subject, id));
      if (!fields.verdict) return undefined;
      return {
        revision: Number(fields.revision),
        verdict: VerdictSchema.parse(JSON.parse(fields.verdict)),
        updatedAt: fields.updatedAt ?? '',
        ...(fields.content ? { content: fields.content } : {}),
        conflicts: { total: count(fields.conflicts), open: count(fields.openConflicts) },
      };
    },
  };
}
