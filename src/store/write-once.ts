/**
 * Write-once results by revision: the first result of a revision is the one
 * its events carry, so a job that runs again reuses it and its events and
 * its stored result never disagree. One script sets the revision's key unless
 * it exists, moves the latest pointer, and (when a third key is given) adds a
 * member to an index set, atomically.
 */
import type { Redis } from 'ioredis';

const WRITE_ONCE = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then return redis.call('GET', KEYS[1]) end
redis.call('SET', KEYS[2], ARGV[1])
if KEYS[3] then redis.call('SADD', KEYS[3], ARGV[2]) end
return false
`;

type RedisWithWriteOnce = Redis & {
  cosciWriteOnce(numberOfKeys: number, ...keysAndArgs: string[]): Promise<string | null>;
};

/**
 * Stores `value` (JSON) under `revisionKey` unless a value is there. Returns
 * the value found, or undefined when this call stored `value`: the caller
 * then keeps the object it serialised instead of parsing it back.
 */
export async function writeOnce(
  redisClient: Redis,
  revisionKey: string,
  latestKey: string,
  value: string,
  index?: { key: string; member: string },
): Promise<string | undefined> {
  const redis = redisClient as RedisWithWriteOnce;
  // EVALSHA: the script is sent once per connection, not with every call.
  if (typeof redis.cosciWriteOnce !== 'function') redis.defineCommand('cosciWriteOnce', { lua: WRITE_ONCE });
  const keys = index ? [revisionKey, latestKey, index.key] : [revisionKey, latestKey];
  return (await redis.cosciWriteOnce(keys.length, ...keys, value, index?.member ?? '')) ?? undefined;
}
