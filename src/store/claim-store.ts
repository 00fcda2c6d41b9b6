/**
 * Reviewers' claims on held items (src/safety/review/claim.ts), in Redis:
 * one key per hypothesis, with the claim's time to live as the key's, so
 * that a claim lapses without anyone removing it.
 */
import type { Redis } from 'ioredis';
import { ClaimSchema, type Claim } from '../safety/review/claim.js';
import { defineScript } from './lua-script.js';

/**
 * Takes the claim unless another reviewer holds it (`take` '1' takes it
 * from them). Returns {'ok', claim} or {'taken', their claim}.
 */
const CLAIM = defineScript({
  keys: ['claim'],
  args: ['by', 'claim', 'ttlMs', 'take'],
  body: `
local current = redis.call('GET', KEY.claim)
if current and ARG.take ~= '1' then
  local ok, c = pcall(cjson.decode, current)
  if ok and type(c) == 'table' and type(c.by) == 'string' and string.lower(c.by) ~= string.lower(ARG.by) then
    return {'taken', current}
  end
end
redis.call('SET', KEY.claim, ARG.claim, 'PX', ARG.ttlMs)
return {'ok', ARG.claim}
`,
});

/** Drops the claim when `by` holds it. Returns 1 when it did. */
const UNCLAIM = defineScript({
  keys: ['claim'],
  args: ['by'],
  body: `
local current = redis.call('GET', KEY.claim)
if not current then return 0 end
local ok, c = pcall(cjson.decode, current)
if ok and type(c) == 'table' and type(c.by) == 'string' and string.lower(c.by) ~= string.lower(ARG.by) then return 0 end
redis.call('DEL', KEY.claim)
return 1
`,
});

type RedisWithClaims = Redis & {
  cosciClaim(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<[string, string]>;
  cosciUnclaim(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<number>;
};

export type ClaimOutcome = { outcome: 'ok'; claim: Claim } | { outcome: 'taken'; claim: Claim };

export interface ClaimStore {
  claim(hypothesisId: string, claim: Claim, ttlMs: number, take: boolean): Promise<ClaimOutcome>;
  unclaim(hypothesisId: string, by: string): Promise<boolean>;
  get(hypothesisId: string): Promise<Claim | undefined>;
}

function parse(raw: string | null): Claim | undefined {
  if (raw === null) return undefined;
  const parsed = ClaimSchema.safeParse(JSON.parse(raw));
  return parsed.success ? parsed.data : undefined;
}

export function createClaimStore(redisClient: Redis, keyPrefix: string): ClaimStore {
  const redis = redisClient as RedisWithClaims;
  if (typeof redis.cosciClaim !== 'function') {
    redis.defineCommand('cosciClaim', { lua: CLAIM.lua });
    redis.defineCommand('cosciUnclaim', { lua: UNCLAIM.lua });
  }
  const key = (id: string) => `${keyPrefix}:claim:hypothesis:${encodeURIComponent(id)}`;
  return {
    async claim(id, claim, ttlMs, take) {
      const [outcome, raw] = await redis.cosciClaim(
        ...CLAIM.layout({
          keys: { claim: key(id) },
          args: { by: claim.by, claim: JSON.stringify(claim), ttlMs, take: take ? '1' : '0' },
        }),
      );
      const stored = parse(raw);
      if (!stored) throw new Error(`claim of ${id}: unreadable claim in Redis`);
      return { outcome: outcome === 'taken' ? 'taken' : 'ok', claim: stored };
    },
    async unclaim(id, by) {
      return (await redis.cosciUnclaim(...UNCLAIM.layout({ keys: { claim: key(id) }, args: { by } }))) === 1;
    },
    async get(id) {
      return parse(await redis.get(key(id)));
    },
  };
}
