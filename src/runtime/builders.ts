/**
 * From the configuration to one part: the classifier, the verifier and its
 * parsing pool, the review service. The worker's graph (graph.ts) and the
 * one-off commands (classify, verify, quarantine) build their parts here, so
 * a part is configured the same way wherever it runs.
 */
import type { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { createAnthropicAssessor, createAnthropicClient, TOKEN_KINDS } from '../classifier/anthropic-assessor.js';
import { createRedisAnswerCache } from '../classifier/answer-cache.js';
import { createRedisAssessmentCache } from '../classifier/assessment-cache.js';
import { createToolCaller } from '../classifier/tool-call.js';
import {
  CachedJudgementSchema,
  createClaimSupportChecker,
  type ClaimSupportChecker,
} from '../citations/claim-support.js';
import { CLAIM_SYSTEM_PROMPT, CLAIM_TOOL, ClaimJudgementSchema } from '../safety/claims/index.js';
import type { QuotingReport } from '../safety/quoting/index.js';
import { createClassifier, type Classifier } from '../classifier/classifier.js';
import { createEventEmitter } from '../events/emitter.js';
import { failFastWhenUnreachable } from '../review/availability.js';
import { createReviewService, type ReviewService } from '../review/review-service.js';
import { createDecisionStore } from '../store/decision-store.js';
import { createReassessmentStore } from '../store/reassessment-store.js';
import { createClaimStore } from '../store/claim-store.js';
import { createReviewStore } from '../store/review-store.js';
import { createVerdictStore } from '../store/verdict-store.js';
import type { Config } from '../config/schema.js';
import { createFetchAgent, HostLimiter, type FetchOptions } from '../fetcher/fetch-page.js';
import { staticHostsLookup } from '../fetcher/static-hosts.js';
import type { Metrics } from '../metrics/metrics.js';
import { createPageCache, type PageCache } from '../citations/page-cache.js';
import type { DocumentReader } from '../citations/page-text.js';
import { CLOCK_FACTOR, ParsePool } from '../citations/parse-pool.js';
import { createVerifier, type Verifier } from '../citations/verifier.js';
import { createRechecker, type Rechecker } from '../citations/rechecker.js';
import { createRunPageCache } from '../citations/run-page-cache.js';

export function fetchOptionsFrom(config: Config): FetchOptions {
  const c = config.citations;
  const base = {
    policy: { allowPrivateHosts: c.allow_private_hosts },
    connectTimeoutMs: c.connect_timeout_ms,
    headersTimeoutMs: c.headers_timeout_ms,
    bodyTimeoutMs: c.body_timeout_ms,
    totalTimeoutMs: c.total_timeout_ms,
    maxBytes: c.max_bytes,
    maxDecodedBytes: c.max_decoded_bytes,
    maxRedirects: c.max_redirects,
    userAgent: c.user_agent,
    lookup: Object.keys(c.hosts).length > 0 ? staticHostsLookup(c.hosts) : undefined,
  };
  return { ...base, dispatcher: createFetchAgent(base) };
}

/** The pool of threads that parse cited documents. Its owner closes it. */
export function buildParsePool(config: Config, deps: { metrics?: Metrics | undefined } = {}): ParsePool {
  const c = config.citations;
  const m = deps.metrics;
  return new ParsePool({
    threads: c.parse_threads,
    timeoutMs: c.parse_timeout_ms,
    maxHeapMb: c.parse_max_heap_mb,
    limits: {
      pdfMaxPages: c.pdf_max_pages,
      pdfMaxDecodedBytes: c.pdf_max_decoded_bytes,
      maxTextChars: c.max_decoded_bytes,
    },
    observer: m && {
      task: (outcome) => m.parseTasks.inc({ outcome }),
      waited: (seconds) => m.parseQueueWait.observe(seconds),
      killed: (reason) => m.parseKills.inc({ reason }),
      threads(busy, idle) {
        m.parseThreads.set({ state: 'busy' }, busy);
        m.parseThreads.set({ state: 'idle' }, idle);
      },
    },
  });
}

export function buildVerifier(
  config: Config,
  deps: {
    reader: DocumentReader;
    redis?: Redis | undefined;
    metrics?: Metrics | undefined;
    /** A cache of its own (a recheck's, which reads every page afresh), without `redis`: not the shared one. */
    cache?: PageCache | undefined;
    /** The claim-support judge (buildClaimSupport), when `citations.claim_support` is on. */
    claimSupport?: ClaimSupportChecker | undefined;
  },
): Verifier {
  const c = config.citations;
  const m = deps.metrics;
  return createVerifier({
    fetchOptions: fetchOptionsFrom(config),
    reader: deps.reader,
    hostLimiter: new HostLimiter(c.per_host_concurrency),
    concurrency: c.review_concurrency,
    deadlineMs: c.review_deadline_ms,
    prefixChars: c.prefix_chars,
    injectionThreshold: config.safety.injection_threshold,
    cache: deps.redis
      ? createPageCache({
          redis: deps.redis,
          keyPrefix: config.redis.key_prefix,
          ttlSeconds: c.cache_ttl_seconds,
          failureTtlSeconds: c.failure_cache_ttl_seconds,
          // The fetch, the text extraction, then the injection scan (each bounded by
          // parse_timeout_ms of CPU time, and CLOCK_FACTOR times that on the clock);
          // waiting for a parsing thread is not bounded by any.
          lockMs: c.total_timeout_ms + 2 * CLOCK_FACTOR * c.parse_timeout_ms + 5000,
          onResult: (result) => m?.fetchCache.inc({ result }),
        })
      : undefined,
    ...(deps.cache !== undefined ? { cache: deps.cache } : {}),
    claimSupport: deps.claimSupport,
    onFetch(page, seconds) {
      m?.fetchDuration.observe({ outcome: page.ok ? 'ok' : page.reason }, seconds);
      if (page.ok) m?.fetchBytes.inc(page.wireBytes);
    },
  });
}

/**
 * The claim-support judge (docs/citations.md#claim-support): the model call
 * of `models.claim_support` through a client of its own, the classifier's
 * retry settings, and an answer cache in Redis. Its tokens are counted with
 * the classifier's under the queue review.recorded, so the model spend
 * panels price them.
 */
export function buildClaimSupport(
  config: Config,
  deps: { logger: Logger; redis?: Redis | undefined; metrics?: Metrics | undefined; signal?: AbortSignal | undefined },
): ClaimSupportChecker {
  const { anthropic, citations: c } = config;
  const model = config.models.claim_support;
  const judge = anthropic.api_key
    ? createToolCaller(
        {
          client: createAnthropicClient({
            apiKey: anthropic.api_key,
            baseURL: anthropic.base_url,
            timeoutMs: anthropic.timeout_ms,
            signal: deps.signal,
          }),
          model,
          maxTokens: anthropic.max_tokens,
          signal: deps.signal,
        },
        // No merge: two judgements in one answer are not one, and carry nothing (unclear).
        { system: CLAIM_SYSTEM_PROMPT, tool: CLAIM_TOOL, schema: ClaimJudgementSchema, caller: 'claim-support judge' },
      )
    : undefined;
  const m = deps.metrics;
  return createClaimSupportChecker({
    judge,
    model,
    cache: deps.redis
      ? createRedisAnswerCache(
          deps.redis,
          config.redis.key_prefix,
          'claim-support',
          CachedJudgementSchema,
          c.claim_support_cache_ttl_seconds,
        )
      : undefined,
    retry: {
      maxRetries: anthropic.max_retries,
      baseDelayMs: anthropic.retry_base_delay_ms,
      maxDelayMs: anthropic.retry_max_delay_ms,
    },
    windowChars: c.claim_support_window_chars,
    maxSentences: c.claim_support_max_sentences,
    observer: {
      request: (outcome) => m?.claimSupportRequests.inc({ outcome }),
      cache: (result) => m?.claimSupportCache.inc({ result }),
      retry(error, attempt, delayMs) {
        deps.logger.info({ code: error.code, attempt, delayMs }, 'retrying claim-support request');
      },
      tokens(usage) {
        for (const kind of TOKEN_KINDS) m?.classifierTokens.inc({ kind, queue: 'review.recorded' }, usage[kind]);
      },
      neutralised: (report) => countNeutralised(m, report),
    },
  });
}

/** Injection attempts in text sent to a model: counted, never silent. */
function countNeutralised(m: Metrics | undefined, report: QuotingReport): void {
  if (report.tagsRemoved) m?.quotingNeutralised.inc({ what: 'tags' }, report.tagsRemoved);
  if (report.invisibleRemoved) m?.quotingNeutralised.inc({ what: 'invisible' }, report.invisibleRemoved);
  if (report.prefixesMarked) m?.quotingNeutralised.inc({ what: 'prefixes' }, report.prefixesMarked);
}

/** Builds the classifier from the configuration; shared by the worker and the one-off CLI. */
export function buildClassifier(
  config: Config,
  deps: {
    logger: Logger;
    redis?: Redis;
    metrics?: Metrics;
    /** Ends every model request in flight when it aborts (the worker's shutdown bound). */
    signal?: AbortSignal;
  },
): Classifier {
  const { anthropic, safety } = config;
  const assessor = anthropic.api_key
    ? createAnthropicAssessor({
        client: createAnthropicClient({
          apiKey: anthropic.api_key,
          baseURL: anthropic.base_url,
          timeoutMs: anthropic.timeout_ms,
          signal: deps.signal,
        }),
        model: config.models.classifier,
        maxTokens: anthropic.max_tokens,
        signal: deps.signal,
      })
    : undefined;
  const m = deps.metrics;
  return createClassifier({
    enabled: safety.enable_classifier,
    assessor,
    model: config.models.classifier,
    cache: deps.redis
      ? createRedisAssessmentCache(deps.redis, config.redis.key_prefix, safety.classifier_cache_ttl_seconds)
      : undefined,
    policy: {
      blockCategories: safety.classifier_block_categories,
      warnCategories: safety.classifier_warn_categories,
      quarantineThreshold: safety.classifier_quarantine_threshold,
      onError: safety.classifier_on_error,
    },
    windowChars: safety.classifier_window_chars,
    windowOverlapChars: safety.classifier_window_overlap_chars,
    maxWindows: safety.classifier_max_windows,
    windowConcurrency: anthropic.window_concurrency,
    retry: {
      maxRetries: anthropic.max_retries,
      baseDelayMs: anthropic.retry_base_delay_ms,
      maxDelayMs: anthropic.retry_max_delay_ms,
    },
    observer: {
      request(outcome, seconds) {
        m?.classifierRequests.inc({ outcome });
        m?.classifierRequestDuration.observe({ outcome }, seconds);
      },
      cache(result) {
        m?.classifierCache.inc({ result });
      },
      degraded(reason) {
        m?.classifierDegraded.inc({ reason });
      },
      retry(error, attempt, delayMs) {
        deps.logger.info({ code: error.code, attempt, delayMs }, 'retrying classifier request');
      },
      tokens(usage, source) {
        // Every kind, 0 included, so a cost panel finds each series once the model has answered.
        for (const kind of TOKEN_KINDS) m?.classifierTokens.inc({ kind, queue: source ?? 'cli' }, usage[kind]);
      },
      neutralised: (report) => countNeutralised(m, report),
    },
  });
}

/**
 * The recheck of a review's evidence (`verify --recheck`): the stored result
 * from Redis, the pages fetched afresh (a cache of the run's own, never the
 * worker's page cache), and the events on the event stream.
 */
export function buildRechecker(config: Config, redis: Redis, reader: DocumentReader): Rechecker {
  return createRechecker({
    reviews: createReviewStore(redis, config.redis.key_prefix),
    verifier: buildVerifier(config, { reader, cache: createRunPageCache() }),
    emitter: eventEmitterOf(config, redis),
  });
}

function eventEmitterOf(config: Config, redis: Redis, metrics?: Metrics) {
  return createEventEmitter({
    redis,
    stream: config.redis.events_stream,
    dedupeTtlSeconds: config.redis.event_dedupe_ttl_seconds,
    maxLen: config.redis.events_max_len,
    ...(metrics ? { onEmitted: (type) => metrics.events.inc({ type }) } : {}),
  });
}

/**
 * The review service over a Redis connection: for the CLI and the HTTP review
 * API. It fails with REVIEW_UNAVAILABLE when Redis is out of reach
 * (src/review/availability.ts); the HTTP API gives it a connection with
 * REVIEW_CONNECTION_OPTIONS, so that this happens at once.
 */
export function buildReviewService(config: Config, redis: Redis, metrics?: Metrics, logger?: Logger): ReviewService {
  const prefix = config.redis.key_prefix;
  const service = createReviewService({
    // Its own classifier on the review connection: `reclassify` asks the model with the configured key.
    classifier: buildClassifier(config, {
      logger: logger ?? pino({ enabled: false }),
      redis,
      ...(metrics ? { metrics } : {}),
    }),
    reassessments: createReassessmentStore(redis, prefix),
    claims: createClaimStore(redis, prefix),
    claimTtlMs: config.review.claim_ttl_seconds * 1000,
    verdicts: createVerdictStore(redis, prefix),
    decisions: createDecisionStore(redis, prefix),
    reviews: createReviewStore(redis, prefix),
    emitter: eventEmitterOf(config, redis, metrics),
    metrics,
  });
  return failFastWhenUnreachable(service, redis);
}
