/**
 * Builds the review service from the configuration and a Redis connection:
 * for the CLI and the HTTP review API. It fails with REVIEW_UNAVAILABLE when
 * Redis is out of reach (availability.ts); the HTTP API gives it a
 * connection with REVIEW_CONNECTION_OPTIONS, so that this happens at once.
 */
import type { Redis } from 'ioredis';
import type { Config } from '../config/schema.js';
import { createEventEmitter } from '../events/emitter.js';
import type { Metrics } from '../metrics/metrics.js';
import { createDecisionStore } from '../store/decision-store.js';
import { createReviewStore } from '../store/review-store.js';
import { createVerdictStore } from '../store/verdict-store.js';
import { failFastWhenUnreachable } from './availability.js';
import { createReviewService, type ReviewService } from './review-service.js';

export function buildReviewService(config: Config, redis: Redis, metrics?: Metrics): ReviewService {
  const prefix = config.redis.key_prefix;
  const service = createReviewService({
    verdicts: createVerdictStore(redis, prefix),
    decisions: createDecisionStore(redis, prefix),
    reviews: createReviewStore(redis, prefix),
    emitter: createEventEmitter({
      redis,
      stream: config.redis.events_stream,
      dedupeTtlSeconds: config.redis.event_dedupe_ttl_seconds,
      maxLen: config.redis.events_max_len,
      ...(metrics ? { onEmitted: (type) => metrics.events.inc({ type }) } : {}),
    }),
    metrics,
  });
  return failFastWhenUnreachable(service, redis);
}
