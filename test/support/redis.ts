/** Real Redis for tests: unique names per test, cleanup by prefix, never FLUSHALL. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export function uniqueName(tag = 't'): string {
  return `${tag}-${randomUUID().slice(0, 8)}`;
}

export function testRedis(): Redis {
  return new Redis(REDIS_URL, { maxRetriesPerRequest: null });
}

/** Deletes every key that starts with one of the prefixes. */
export async function deleteKeys(redis: Redis, ...prefixes: string[]): Promise<void> {
  for (const prefix of prefixes) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  }
}
