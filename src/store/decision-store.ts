/**
 * People's decisions on held hypotheses, and the audit trail, in Redis.
 *
 * One script writes a decision: it checks that the revision exists, is held,
 * holds the content the person read and has no decision yet, stores the
 * decision, takes the hypothesis off the review queue when the revision is
 * the latest, and appends the audit entry to the audit stream and to the
 * hypothesis's own stream. Two reviewers who click at once cannot both win,
 * and a crash leaves nothing half done. Another confirms the other texts
 * published under a revision (its conflicts), one decision each.
 */
import type { Redis } from 'ioredis';
import { DecisionSchema, type Decision } from '../safety/review/decision.js';
import { defineScript } from './lua-script.js';
import { verdictKeys } from './verdict-store.js';
import type { ReviewAuditEntry } from '../contracts/review-api.js';

/**
 * The decision on a revision's verdict. A revision under which other
 * content waits for a person is refused (`conflict`): that is decided by
 * CONFIRM_CONFLICTS; one whose conflicts were confirmed is withheld for
 * good (`not_held`). The latest hash keeps the decision's kind beside the
 * verdict, for the scripts that ask whether the latest revision is withheld
 * (verdict-store.ts).
 */
const DECIDE = defineScript({
  keys: ['verdict', 'content', 'decision', 'latest', 'queue', 'audit', 'itemAudit', 'conflicts', 'openConflicts'],
  args: ['decision', 'kind', 'digest', 'id', 'revision', 'auditFields'],
  body: `
local verdict = redis.call('GET', KEY.verdict)
if not verdict then return {'not_found', ''} end
local existing = redis.call('GET', KEY.decision)
if existing then return {'decided', existing} end
if redis.call('SCARD', KEY.openConflicts) > 0 then return {'conflict', ''} end
local action = cjson.decode(verdict)['action']
if redis.call('HLEN', KEY.conflicts) > 0 then return {'not_held', 'confirmed'} end
if action ~= 'quarantine' and action ~= 'block' then return {'not_held', action} end
-- The person read the revision's content: a decision is on that content, or none.
if ARG.digest ~= '' and redis.call('GET', KEY.content) ~= ARG.digest then return {'not_found', ''} end
redis.call('SET', KEY.decision, ARG.decision)
if redis.call('HGET', KEY.latest, 'revision') == ARG.revision then
  redis.call('ZREM', KEY.queue, ARG.id)
  redis.call('HSET', KEY.latest, 'decision', ARG.kind)
end
local fields = cjson.decode(ARG.auditFields)
local entry = redis.call('XADD', KEY.audit, '*', unpack(fields))
redis.call('XADD', KEY.itemAudit, entry, unpack(fields))
return {'ok', entry}
`,
});

/**
 * A person's confirmation of the other texts published under a revision:
 * each one still open is closed with its own decision and audit entry; one a
 * reviewer closed meanwhile is skipped. Once none is open the hypothesis
 * leaves the review queue (the revision is withheld for good: confirmed).
 * Returns {digest, entry id}... for those it closed.
 */
const CONFIRM_CONFLICTS = defineScript({
  keys: ['open', 'decisions', 'latest', 'queue', 'audit', 'itemAudit'],
  args: ['id', 'revision'],
  argLists: { items: ['digest', 'decision', 'auditFields'] },
  body: `
local out = {}
for _, c in ipairs(ARG.items) do
  if redis.call('SREM', KEY.open, c.digest) == 1 then
    redis.call('HSET', KEY.decisions, c.digest, c.decision)
    local fields = cjson.decode(c.auditFields)
    local entry = redis.call('XADD', KEY.audit, '*', unpack(fields))
    redis.call('XADD', KEY.itemAudit, entry, unpack(fields))
    out[#out + 1] = c.digest
    out[#out + 1] = entry
  end
end
if redis.call('HGET', KEY.latest, 'revision') == ARG.revision then
  local open = redis.call('SCARD', KEY.open)
  redis.call('HSET', KEY.latest, 'openConflicts', open)
  if open == 0 then redis.call('ZREM', KEY.queue, ARG.id) end
end
return out
`,
});

type RedisWithDecide = Redis & {
  cosciDecide(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<[string, string]>;
  cosciConfirmConflicts(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<string[]>;
};

/** One entry of the audit trail: the contract's type (the review API serves it as it is). */
export type AuditEntry = ReviewAuditEntry;

export type DecideOutcome =
  | { outcome: 'ok'; decision: Decision; auditEntryId: string }
  | { outcome: 'decided'; decision: Decision }
  | { outcome: 'not_held'; action: string }
  | { outcome: 'conflict' }
  | { outcome: 'not_found' };

export interface DecisionStore {
  decide(decision: Decision): Promise<DecideOutcome>;
  /**
   * Confirms the other texts published under a revision, one decision each
   * (`decision.content` names the text); returns those it closed, with their
   * audit entry ids (none when a reviewer closed them first).
   */
  confirmConflicts(decisions: Decision[]): Promise<Array<{ decision: Decision; auditEntryId: string }>>;
  get(hypothesisId: string, revision: number): Promise<Decision | undefined>;
  /** Held hypothesis ids, oldest first. */
  held(limit: number): Promise<string[]>;
  /** The first `limit` held hypotheses in the order asked, each with when it was held (ms). */
  heldEntries(limit: number, order: 'oldest' | 'newest'): Promise<Array<{ hypothesisId: string; heldAt: number }>>;
  /** How many hypotheses are held. */
  heldCount(): Promise<number>;
  /** The audit trail of one hypothesis, oldest first. */
  history(hypothesisId: string, limit?: number): Promise<AuditEntry[]>;
  /** The whole audit trail, oldest first. */
  audit(limit?: number): Promise<AuditEntry[]>;
}

/** What every audit entry records: what was done to which revision, by whom, and the verdict it overrode. */
export type AuditRecord = Pick<
  ReviewAuditEntry,
  'type' | 'hypothesisId' | 'revision' | 'content' | 'by' | 'at' | 'note'
> & {
  overridden: { action: string; categories: readonly string[]; confidence: number };
};

/** An audit entry's fields, as XADD takes them (name, value, ...); `extra` after the common ones. */
export function auditEntryFields(r: AuditRecord, extra: Record<string, string | undefined> = {}): string[] {
  const fields: Record<string, string | undefined> = {
    type: r.type,
    hypothesisId: r.hypothesisId,
    revision: String(r.revision),
    content: r.content,
    by: r.by,
    at: r.at,
    note: r.note,
    overriddenAction: r.overridden.action,
    overriddenCategories: JSON.stringify(r.overridden.categories),
    overriddenConfidence: String(r.overridden.confidence),
    ...extra,
  };
  return Object.entries(fields).flatMap(([name, value]) => (value === undefined ? [] : [name, value]));
}

function auditFields(d: Decision): string[] {
  return auditEntryFields({ ...d, type: d.decision === 'released' ? 'hypothesis_released' : 'hypothesis_confirmed' });
}

/** ZRANGE's stop index for the first `limit` members, as a string: ioredis 6 declares the stop a string only. */
function zrangeStop(limit: number): string {
  return String(limit - 1);
}

function parseEntry([entryId, flat]: [string, string[]]): AuditEntry {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) f[flat[i]!] = flat[i + 1]!;
  return {
    entryId,
    type: f.type === 'hypothesis_confirmed' || f.type === 'hypothesis_reassessed' ? f.type : 'hypothesis_released',
    hypothesisId: f.hypothesisId ?? '',
    revision: Number(f.revision),
    ...(f.content === undefined ? {} : { content: f.content }),
    by: f.by ?? '',
    at: f.at ?? '',
    note: f.note ?? '',
    overriddenAction: f.overriddenAction ?? '',
    overriddenCategories: JSON.parse(f.overriddenCategories ?? '[]') as string[],
    overriddenConfidence: Number(f.overriddenConfidence),
    ...(f.overriddenReason === undefined ? {} : { overriddenReason: f.overriddenReason }),
    ...(f.action === undefined ? {} : { action: f.action }),
    ...(f.categories === undefined ? {} : { categories: JSON.parse(f.categories) as string[] }),
    ...(f.confidence === undefined ? {} : { confidence: Number(f.confidence) }),
  };
}

export function createDecisionStore(redisClient: Redis, keyPrefix: string): DecisionStore {
  const redis = redisClient as RedisWithDecide;
  if (typeof redis.cosciDecide !== 'function') {
    redis.defineCommand('cosciDecide', { lua: DECIDE.lua });
    redis.defineCommand('cosciConfirmConflicts', { lua: CONFIRM_CONFLICTS.lua });
  }
  const keys = verdictKeys(keyPrefix);
  return {
    async decide(decision) {
      const id = decision.hypothesisId;
      const rev = decision.revision;
      const [outcome, value] = await redis.cosciDecide(
        ...DECIDE.layout({
          keys: {
            verdict: keys.revision('hypothesis', id, rev),
            content: keys.content('hypothesis', id, rev),
            decision: keys.decision(id, rev),
            latest: keys.latest('hypothesis', id),
            queue: keys.reviewQueue,
            audit: keys.audit,
            itemAudit: keys.itemAudit(id),
            conflicts: keys.conflicts(id, rev),
            openConflicts: keys.openConflicts(id, rev),
          },
          args: {
            decision: JSON.stringify(decision),
            kind: decision.decision,
            digest: decision.content ?? '',
            id,
            revision: String(rev),
            auditFields: JSON.stringify(auditFields(decision)),
          },
        }),
      );
      if (outcome === 'ok') return { outcome, decision, auditEntryId: value };
      if (outcome === 'decided') return { outcome, decision: DecisionSchema.parse(JSON.parse(value)) };
      if (outcome === 'not_held') return { outcome, action: value };
      if (outcome === 'conflict') return { outcome };
      return { outcome: 'not_found' };
    },
    async confirmConflicts(decisions) {
      const [first] = decisions;
      if (!first) return [];
      const { hypothesisId: id, revision: rev } = first;
      const byDigest = new Map<string, Decision>();
      for (const d of decisions) {
        if (d.hypothesisId !== id || d.revision !== rev || d.content === undefined || d.decision !== 'confirmed') {
          throw new Error('confirmConflicts: confirmations of one revision, each naming its content');
        }
        byDigest.set(d.content, d);
      }
      const flat = await redis.cosciConfirmConflicts(
        ...CONFIRM_CONFLICTS.layout({
          keys: {
            open: keys.openConflicts(id, rev),
            decisions: keys.conflictDecisions(id, rev),
            latest: keys.latest('hypothesis', id),
            queue: keys.reviewQueue,
            audit: keys.audit,
            itemAudit: keys.itemAudit(id),
          },
          args: { id, revision: String(rev) },
          argLists: {
            items: [...byDigest.values()].map((d) => ({
              digest: d.content!,
              decision: JSON.stringify(d),
              auditFields: JSON.stringify(auditFields(d)),
            })),
          },
        }),
      );
      const out: Array<{ decision: Decision; auditEntryId: string }> = [];
      for (let i = 0; i + 1 < flat.length; i += 2)
        out.push({ decision: byDigest.get(flat[i]!)!, auditEntryId: flat[i + 1]! });
      return out;
    },
    async get(hypothesisId, revision) {
      const raw = await redis.get(keys.decision(hypothesisId, revision));
      return raw === null ? undefined : DecisionSchema.parse(JSON.parse(raw));
    },
    async held(limit) {
      return redis.zrange(keys.reviewQueue, 0, zrangeStop(limit));
    },
    async heldEntries(limit, order) {
      const flat =
        order === 'oldest'
          ? await redis.zrange(keys.reviewQueue, 0, zrangeStop(limit), 'WITHSCORES')
          : await redis.zrange(keys.reviewQueue, 0, zrangeStop(limit), 'REV', 'WITHSCORES');
      const out: Array<{ hypothesisId: string; heldAt: number }> = [];
      for (let i = 0; i + 1 < flat.length; i += 2) out.push({ hypothesisId: flat[i]!, heldAt: Number(flat[i + 1]) });
      return out;
    },
    async heldCount() {
      return redis.zcard(keys.reviewQueue);
    },
    async history(hypothesisId, limit = 1000) {
      const entries = (await redis.xrange(keys.itemAudit(hypothesisId), '-', '+', 'COUNT', limit)) as Array<
        [string, string[]]
      >;
      return entries.map(parseEntry);
    },
    async audit(limit = 1000) {
      const entries = (await redis.xrange(keys.audit, '-', '+', 'COUNT', limit)) as Array<[string, string[]]>;
      return entries.map(parseEntry);
    },
  };
}
