/**
 * Write-once results by revision: the first result of a revision is the one
 * its events carry, so a job that runs again reuses it and its events and
 * its stored result never disagree. One script sets the revision's key unless
 * it exists, with the content digest of what the result is about beside it
 * (`<revision key>:content`: a revision is its content, docs/contract.md),
 * moves the latest pointer forward only (a late job of an older revision
 * leaves a newer latest in place, as the verdict store does), and (when an
 * index is given) adds a member to an index set, atomically.
 *
 * The latest result is a copy under its own key, read with one GET; beside it,
 * `<latest>:latest-revision` holds its revision number, so the script compares
 * numbers instead of parsing a result that may be megabytes of JSON. A latest
 * key written before that companion existed has none, and the next result
 * replaces it, as before.
 */
import type { Redis } from 'ioredis';

const WRITE_ONCE = `
local revKey, contentKey, latestKey, latestRevKey, indexKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local value, revision, member, content = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4]
if not redis.call('SET', revKey, value, 'NX') then
  return {redis.call('GET', revKey), redis.call('GET', contentKey) or ''}
end
if content ~= '' then redis.call('SET', contentKey, content) end
local current = tonumber(redis.call('GET', latestRevKey))
if current == nil or current <= revision then
  redis.call('SET', latestKey, value)
  redis.call('SET', latestRevKey, revision)
end
if indexKey then redis.call('SADD', indexKey, member) end
return false
`;

type RedisWithWriteOnce = Redis & {
  cosciWriteOnce(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<[string, string] | null>;
};

export interface WriteOnceTarget {
  /** The key of this revision's result. */
  revisionKey: string;
  /** The key of the latest revision's result. */
  latestKey: string;
  revision: number;
  /** A set that lists the result's id (e.g. the reviews of a hypothesis). */
  index?: { key: string; member: string } | undefined;
}

/** The key of the content digest a revision's result was recorded with. */
export const contentKeyOf = (revisionKey: string): string => `${revisionKey}:content`;

/** What a revision had already: its result (JSON) and content digest (undefined when none was recorded). */
export interface FoundResult {
  value: string;
  content: string | undefined;
}

/**
 * Stores `value` (JSON) as the result of `target.revision`, with `content`
 * (its content digest) beside it, unless that revision has one. Returns what
 * was found, or undefined when this call stored `value`: the caller then
 * keeps the object it serialised instead of parsing it back.
 */
export async function writeOnce(
  redisClient: Redis,
  target: WriteOnceTarget,
  value: string,
  content = '',
): Promise<FoundResult | undefined> {
  const redis = redisClient as RedisWithWriteOnce;
  // EVALSHA: the script is sent once per connection, not with every call.
  if (typeof redis.cosciWriteOnce !== 'function') redis.defineCommand('cosciWriteOnce', { lua: WRITE_ONCE });
  const keys = [
    target.revisionKey,
    contentKeyOf(target.revisionKey),
    target.latestKey,
    `${target.latestKey}:latest-revision`,
  ];
  if (target.index) keys.push(target.index.key);
  const reply = await redis.cosciWriteOnce(
    keys.length,
    ...keys,
    value,
    target.revision,
    target.index?.member ?? '',
    content,
  );
  if (!reply) return undefined;
  return { value: reply[0], content: reply[1] === '' ? undefined : reply[1] };
}
