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
import { createRedisAnswerCache, type AnswerCache } from './answer-cache.js';

const CachedSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('assessment'), assessment: AssessmentSchema }),
  z.object({ kind: z.literal('refusal'), text: z.string() }),
]);

export type { CacheWrite } from './answer-cache.js';

export interface AssessmentCache extends AnswerCache<AssessOutcome> {
  /** The Redis key of a whole text's verdict under one policy (see Classifier.verdictCache). */
  verdictKey(key: string): string;
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
  return {
    ...createRedisAnswerCache(redis, keyPrefix, 'assessment', CachedSchema, ttlSeconds),
    verdictKey: (k) => `${keyPrefix}:verdict-cache:${k}`,
  };
}
