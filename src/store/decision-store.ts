/**
 * People's decisions on held hypotheses, and the audit trail, in Redis.
 *
 * One script writes a decision: it checks that the revision exists, is held
 * and has no decision yet, stores the decision, takes the hypothesis off the
 * review queue when the revision is the latest, and appends the audit entry
 * to the audit stream and to the hypothesis's own stream. Two reviewers who
 * click at once cannot both win, and a crash leaves nothing half done.
 */
import type { Redis } from 'ioredis';
import { DecisionSchema, type Decision } from '../safety/review/decision.js';
import { verdictKeys } from './verdict-store.js';
import type { ReviewAuditEntry } from '../contracts/review-api.js';

const DECIDE = `
local verdict = redis.call('GET', KEYS[1])
if not verdict then return {'not_found', ''} end
local existing = redis.call('GET', KEYS[2])
if existing then return {'decided', existing} end
local action = cjson.decode(verdict)['action']
if action ~= 'quarantine' and action ~= 'block' then return {'not_held', action} end
redis.call('SET', KEYS[2], ARGV[1])
if redis.call('HGET', KEYS[3], 'revision') == ARGV[3] then redis.call('ZREM', KEYS[4], ARGV[2]) end
local fields = cjson.decode(ARGV[4])
local entry = redis.call('XADD', KEYS[5], '*', unpack(fields))
redis.call('XADD', KEYS[6], entry, unpack(fields))
return {'ok', entry}
`;

type RedisWithDecide = Redis & {
  cosciDecide(
    verdictKey: string,
    decisionKey: string,
    latestKey: string,
    queueKey: string,
    auditKey: string,
    itemAuditKey: string,
    decision: string,
    id: string,
    revision: string,
    auditFields: string,
  ): Promise<[string, string]>;
};

/** One entry of the audit trail: the contract's type (the review API serves it as it is). */
export type AuditEntry = ReviewAuditEntry;

export type DecideOutcome =
  | { outcome: 'ok'; decision: Decision; auditEntryId: string }
  | { outcome: 'decided'; decision: Decision }
  | { outcome: 'not_held'; action: string }
  | { outcome: 'not_found' };

export interface DecisionStore {
  decide(decision: Decision): Promise<DecideOutcome>;
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

function auditFields(d: Decision): string[] {
  return [
    'type',
    d.decision === 'released' ? 'hypothesis_released' : 'hypothesis_confirmed',
    'hypothesisId',
    d.hypothesisId,
    'revision',
    String(d.revision),
    'by',
    d.by,
    'at',
    d.at,
    'note',
    d.note,
    'overriddenAction',
    d.overridden.action,
    'overriddenCategories',
    JSON.stringify(d.overridden.categories),
    'overriddenConfidence',
    String(d.overridden.confidence),
  ];
}

function parseEntry([entryId, flat]: [string, string[]]): AuditEntry {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) f[flat[i]!] = flat[i + 1]!;
  return {
    entryId,
    type: f.type === 'hypothesis_confirmed' ? 'hypothesis_confirmed' : 'hypothesis_released',
    hypothesisId: f.hypothesisId ?? '',
    revision: Number(f.revision),
    by: f.by ?? '',
    at: f.at ?? '',
    note: f.note ?? '',
    overriddenAction: f.overriddenAction ?? '',
    overriddenCategories: JSON.parse(f.overriddenCategories ?? '[]') as string[],
    overriddenConfidence: Number(f.overriddenConfidence),
  };
}

export function createDecisionStore(redisClient: Redis, keyPrefix: string): DecisionStore {
  const redis = redisClient as RedisWithDecide;
  if (typeof redis.cosciDecide !== 'function') redis.defineCommand('cosciDecide', { numberOfKeys: 6, lua: DECIDE });
  const keys = verdictKeys(keyPrefix);
  return {
    async decide(decision) {
      const id = decision.hypothesisId;
      const [outcome, value] = await redis.cosciDecide(
        keys.revision('hypothesis', id, decision.revision),
        keys.decision(id, decision.revision),
        keys.latest('hypothesis', id),
        keys.reviewQueue,
        keys.audit,
        keys.itemAudit(id),
        JSON.stringify(decision),
        id,
        String(decision.revision),
        JSON.stringify(auditFields(decision)),
      );
      if (outcome === 'ok') return { outcome, decision, auditEntryId: value };
      if (outcome === 'decided') return { outcome, decision: DecisionSchema.parse(JSON.parse(value)) };
      if (outcome === 'not_held') return { outcome, action: value };
      return { outcome: 'not_found' };
    },
    async get(hypothesisId, revision) {
      const raw = await redis.get(keys.decision(hypothesisId, revision));
      return raw === null ? undefined : DecisionSchema.parse(JSON.parse(raw));
    },
    async held(limit) {
      return redis.zrange(keys.reviewQueue, 0, limit - 1);
    },
    async heldEntries(limit, order) {
      const flat =
        order === 'oldest'
          ? await redis.zrange(keys.reviewQueue, 0, limit - 1, 'WITHSCORES')
          : await redis.zrange(keys.reviewQueue, 0, limit - 1, 'REV', 'WITHSCORES');
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
