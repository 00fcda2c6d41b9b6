/**
 * A degraded verdict replaced by a new assessment of the same revision
 * (src/safety/review/reassessment.ts), in Redis.
 *
 * One script does all of it: it checks that the revision's verdict is still
 * degraded, that no person has decided it and that no other text waits
 * under it, and that it is the hypothesis's latest revision; then it writes
 * the new verdict on the revision and as the latest, takes the hypothesis
 * off the review queue when the new verdict does not hold it, appends the
 * audit entry (to the audit stream and the hypothesis's own) and the
 * events. So two runs at once cannot both write, a run after the first finds
 * nothing degraded and appends nothing, and a crash leaves nothing half done.
 */
import type { Redis } from 'ioredis';
import { APPEND_EVENT_LUA, type EventBatch } from '../events/emitter.js';
import { withEventSpans, type EventTrace } from '../events/event-spans.js';
import type { Verdict } from '../safety/classification/verdict.js';
import type { Reassessment } from '../safety/review/reassessment.js';
import { auditEntryFields } from './decision-store.js';
import { defineScript } from './lua-script.js';
import { verdictKeys } from './verdict-store.js';

/**
 * Returns {'ok', audit entry id, event entry ids ('' for a duplicate)...},
 * or {why} for a revision it leaves as it is: 'not_found', 'not_degraded'
 * (reassessed already, by this run's twin or an earlier run), 'decided',
 * 'conflict', 'not_latest'.
 */
const REASSESS = defineScript({
  keys: ['revision', 'latest', 'queue', 'decision', 'openConflicts', 'audit', 'itemAudit', 'stream'],
  keyLists: ['seen'],
  args: ['verdict', 'action', 'revision', 'id', 'at', 'auditFields', 'dedupeTtl', 'maxLen'],
  argLists: { events: ['type', 'id', 'data', 'traceparent', 'tracestate'] },
  body: `${APPEND_EVENT_LUA}
local stored = redis.call('GET', KEY.revision)
if not stored then return {'not_found'} end
local ok, v = pcall(cjson.decode, stored)
if not ok or type(v) ~= 'table' or v.degraded ~= true then return {'not_degraded'} end
if redis.call('EXISTS', KEY.decision) == 1 then return {'decided'} end
if redis.call('SCARD', KEY.openConflicts) > 0 then return {'conflict'} end
if redis.call('HGET', KEY.latest, 'revision') ~= ARG.revision then return {'not_latest'} end
redis.call('SET', KEY.revision, ARG.verdict)
redis.call('HSET', KEY.latest, 'verdict', ARG.verdict, 'updatedAt', ARG.at)
if ARG.action ~= 'quarantine' and ARG.action ~= 'block' then redis.call('ZREM', KEY.queue, ARG.id) end
local fields = cjson.decode(ARG.auditFields)
local entry = redis.call('XADD', KEY.audit, '*', unpack(fields))
redis.call('XADD', KEY.itemAudit, entry, unpack(fields))
local out = {'ok', entry}
for i, e in ipairs(ARG.events) do
  out[#out + 1] = appendEvent(KEY.stream, KEY.seen[i], ARG.dedupeTtl, ARG.maxLen, e.type, e.id, e.data, e.traceparent, e.tracestate) or ''
end
return out
`,
});

type RedisWithReassess = Redis & {
  cosciReassess(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<string[]>;
};

export type ReassessWriteOutcome =
  | { outcome: 'ok'; auditEntryId: string }
  | { outcome: 'not_found' | 'not_degraded' | 'decided' | 'conflict' | 'not_latest' };

export interface ReassessmentStore {
  /** Writes `verdict` over the revision's degraded one, with its audit entry and `announce`'s events. */
  reassess(reassessment: Reassessment, verdict: Verdict, announce: EventBatch): Promise<ReassessWriteOutcome>;
}

/** The audit entry's fields: the previous verdict as the one overridden, the new one beside it. */
function auditFields(r: Reassessment, verdict: Verdict): string[] {
  return auditEntryFields(
    { ...r, type: 'hypothesis_reassessed', overridden: r.previous },
    {
      overriddenReason: r.previous.reason,
      action: verdict.action,
      categories: JSON.stringify(verdict.categories),
      confidence: String(verdict.confidence),
    },
  );
}

const OUTCOMES = new Set(['not_found', 'not_degraded', 'decided', 'conflict', 'not_latest']);

export function createReassessmentStore(redisClient: Redis, keyPrefix: string): ReassessmentStore {
  const redis = redisClient as RedisWithReassess;
  if (typeof redis.cosciReassess !== 'function') redis.defineCommand('cosciReassess', { lua: REASSESS.lua });
  const keys = verdictKeys(keyPrefix);
  return {
    async reassess(r, verdict, announce) {
      const id = r.hypothesisId;
      const rev = r.revision;
      const call = (traces: EventTrace[]) =>
        redis.cosciReassess(
          ...REASSESS.layout({
            keys: {
              revision: keys.revision('hypothesis', id, rev),
              latest: keys.latest('hypothesis', id),
              queue: keys.reviewQueue,
              decision: keys.decision(id, rev),
              openConflicts: keys.openConflicts(id, rev),
              audit: keys.audit,
              itemAudit: keys.itemAudit(id),
              stream: announce.stream,
            },
            keyLists: { seen: announce.events.map((e) => e.seenKey) },
            args: {
              verdict: JSON.stringify(verdict),
              action: verdict.action,
              revision: String(rev),
              id,
              at: r.at,
              auditFields: JSON.stringify(auditFields(r, verdict)),
              dedupeTtl: announce.dedupeTtlSeconds,
              maxLen: announce.maxLen,
            },
            argLists: {
              events: announce.events.map((e, i) => ({
                type: e.type,
                id: e.eventId,
                data: e.data,
                ...traces[i]!,
              })),
            },
          }),
        );
      const reply = await withEventSpans(announce.stream, announce.events, call, (reply) =>
        announce.events.map((_, i) => reply[0] === 'ok' && !!reply[i + 2]),
      );
      const [outcome, entry] = reply;
      if (outcome === 'ok') {
        announce.settle(reply.slice(2).map((e) => (e === '' ? undefined : String(e))));
        return { outcome: 'ok', auditEntryId: String(entry) };
      }
      if (outcome !== undefined && OUTCOMES.has(outcome)) {
        return { outcome: outcome as Exclude<ReassessWriteOutcome['outcome'], 'ok'> };
      }
      throw new Error(`reassess: unexpected reply ${JSON.stringify(reply)}`);
    },
  };
}
