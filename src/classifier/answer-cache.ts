/**
 * A cache of model answers in Redis, shared by every worker: the same
 * question (same model, prompt version and text) reuses the answer instead
 * of a second API call. Only answers are cached, never failures: what a
 * caller stores is what its schema reads back, and a value that no longer
 * parses (an older format) is a miss, not an error. The classifier's
 * assessments (assessment-cache.ts) and the claim judge's judgements
 * (src/citations/claim-support.ts) are kept this way, each under a name of
 * its own.
 */
import type { Redis } from 'ioredis';
import type { z } from 'zod';

/** A cache entry to be written by someone else's script, under a key of the service's slot. */
export interface CacheWrite {
  key: string;
  value: string;
  ttlSeconds: number;
}

export interface AnswerCache<T> {
  get(key: string): Promise<T | undefined>;
  set(key: string, value: T): Promise<void>;
  /** The write `set` would send, for a caller that sends it with its own writes. */
  entry(key: string, value: T): CacheWrite;
  /** The Redis key of an answer, for a caller that reads it in its own script. */
  redisKey(key: string): string;
  /** What `get` makes of a value read by someone else (null: not there). */
  parse(raw: string | null): T | undefined;
  readonly ttlSeconds: number;
}

/** Answers kept under `<keyPrefix>:<name>:<key>` for `ttlSeconds`. */
export function createRedisAnswerCache<T>(
  redis: Redis,
  keyPrefix: string,
  name: string,
  schema: z.ZodType<T>,
  ttlSeconds: number,
): AnswerCache<T> {
  const key = (k: string) => `${keyPrefix}:${name}:${k}`;
  return {
    ttlSeconds,
    redisKey: key,
    parse(raw) {
      if (raw === null) return undefined;
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return undefined;
      }
      const parsed = schema.safeParse(json);
      return parsed.success ? parsed.data : undefined;
    },
    async get(k) {
      return this.parse(await redis.get(key(k)));
    },
    async set(k, value) {
      const { key: full, value: raw } = this.entry(k, value);
      await redis.set(full, raw, 'EX', ttlSeconds);
    },
    entry(k, value) {
      return { key: key(k), value: JSON.stringify(value), ttlSeconds };
    },
  };
}
