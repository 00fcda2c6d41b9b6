/**
 * Cache of assessments in Redis, shared by every worker: identical text (same
 * model, same prompt version, same label and window) reuses the assessment
 * instead of a second API call. Only assessments and refusals are cached,
 * never failures. The action is not cached: it is recomputed from the current
 * policy, so a change of category lists applies at once.
 */
import { hash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { AssessmentSchema } from '../safety/classification/assessment.js';
import type { AssessOutcome } from './anthropic-assessor.js';

const CachedSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('assessment'), assessment: AssessmentSchema }),
  z.object({ kind: z.literal('refusal'), text: z.string() }),
]);

/** A cache entry to be written by someone else's script, under a key of the service's slot. */
export interface CacheWrite {
  key: string;
  value: string;
  ttlSeconds: number;
}

export interface AssessmentCache {
  get(key: string): Promise<AssessOutcome | undefined>;
  set(key: string, outcome: AssessOutcome): Promise<void>;
  /** The write `set` would send, for a caller that sends it with its own writes. */
  entry(key: string, outcome: AssessOutcome): CacheWrite;
  /** The Redis key of an assessment, for a caller that reads it in its own script. */
  redisKey(key: string): string;
  /** What `get` makes of a value read by someone else (null: not there). */
  parse(raw: string | null): AssessOutcome | undefined;
  /** The Redis key of a whole text's verdict under one policy (see Classifier.verdictCache). */
  verdictKey(key: string): string;
  readonly ttlSeconds: number;
}

export function cacheKey(parts: {
  model: string;
  promptVersion: string;
  label: string;
  window: string;
  text: string;
}): string {
  // One-shot: a Hash object per key costs more than hashing the text.
  return hash(
    'sha256',
    `${parts.model}\0${parts.promptVersion}\0${parts.label}\0${parts.window}\0${parts.text}`,
    'hex',
  );
}

export function createRedisAssessmentCache(redis: Redis, keyPrefix: string, ttlSeconds: number): AssessmentCache {
  const key = (k: string) => `${keyPrefix}:assessment:${k}`;
  return {
    ttlSeconds,
    redisKey: key,
    verdictKey: (k) => `${keyPrefix}:verdict-cache:${k}`,
    parse(raw) {
      if (raw === null) return undefined;
      // A value that no longer parses (an older format) is a miss, not an error.
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return undefined;
      }
      const parsed = CachedSchema.safeParse(json);
      return parsed.success ? parsed.data : undefined;
    },
    async get(k) {
      return this.parse(await redis.get(key(k)));
    },
    async set(k, outcome) {
      const { key: full, value } = this.entry(k, outcome);
      await redis.set(full, value, 'EX', ttlSeconds);
    },
    entry(k, outcome) {
      return { key: key(k), value: JSON.stringify(outcome), ttlSeconds };
    },
  };
}
