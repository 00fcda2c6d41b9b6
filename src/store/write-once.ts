/**
 * Write-once results by revision: the first result of a revision is the one
 * its events carry, so a job that runs again reuses it and its events and
 * its stored result never disagree. One script sets the revision's key unless
 * it exists, moves the latest pointer, and (when a third key is given) adds a
 * member to an index set, atomically.
 */
import type { Redis } from 'ioredis';

const WRITE_ONCE = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[1])
if KEYS[3] then redis.call('SADD', KEYS[3], ARGV[2]) end
return ARGV[1]
`;

/** Stores `value` under `revisionKey` unless a value is there; returns the stored one (as JSON). */
export async function writeOnce(
  redis: Redis,
  revisionKey: string,
  latestKey: string,
  value: string,
  index?: { key: string; member: string },
): Promise<string> {
  const keys = index ? [revisionKey, latestKey, index.key] : [revisionKey, latestKey];
  return (await redis.eval(WRITE_ONCE, keys.length, ...keys, value, index?.member ?? '')) as string;
}
