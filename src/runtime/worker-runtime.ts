/**
 * The composition root of the worker: config -> clients -> processors ->
 * workers, plus the HTTP endpoint and graceful shutdown. Nothing else opens a
 * Redis connection or builds the Anthropic client for the service.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type { ConnectionOptions, Job, Worker } from 'bullmq';
import type { Redis, RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { createAnthropicAssessor, createAnthropicClient } from '../classifier/anthropic-assessor.js';
import { createRedisAssessmentCache } from '../classifier/assessment-cache.js';
import { createClassifier, type Classifier } from '../classifier/classifier.js';
import type { Config } from '../config/schema.js';
import type { QueueName } from '../contracts/queues.js';
import { createEventEmitter } from '../events/emitter.js';
import { startHttpServer, type RunningHttpServer } from '../http/server.js';
import { redactUrl } from '../logging/logger.js';
import { createMetrics, type Metrics } from '../metrics/metrics.js';
import { createQueueDepth } from '../metrics/queue-depth.js';
import { createGoalProcessor } from '../processors/goal-processor.js';
import { createHypothesisProcessor, type ProcessorDeps } from '../processors/hypothesis-processor.js';
import { createBlockingConnection } from '../queues/connection.js';
import { JobWorker } from '../queues/job-worker.js';
import { createDecisionStore } from '../store/decision-store.js';
import { createVerdictStore } from '../store/verdict-store.js';
import { buildParsePool, buildVerifier } from '../citations/build.js';
import { withFailurePolicy } from '../processors/job-failure.js';
import { createReviewProcessor } from '../processors/review-processor.js';
import { createReviewStore } from '../store/review-store.js';
import { REVIEW_CONNECTION_OPTIONS } from '../review/availability.js';
import { buildReviewService } from '../review/build.js';
import { createReportProcessor } from '../processors/report-processor.js';
import { createReportStore } from '../store/report-store.js';

export interface WorkerRuntime {
  metrics: Metrics;
  http: RunningHttpServer | undefined;
  workers: Map<QueueName, Worker>;
  /** Stops taking jobs, lets in-flight ones finish within the bound, then aborts them back to the queue. */
  shutdown(reason?: string): Promise<void>;
  readonly closed: Promise<void>;
}

/** A limiter max that never binds (jobs per rate_limit_duration_ms). */
const UNBOUND_RATE = 1_000_000_000;

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
      neutralised(report) {
        // Injection attempts in text under classification: counted, never silent.
        if (report.tagsRemoved) m?.quotingNeutralised.inc({ what: 'tags' }, report.tagsRemoved);
        if (report.invisibleRemoved) m?.quotingNeutralised.inc({ what: 'invisible' }, report.invisibleRemoved);
        if (report.prefixesMarked) m?.quotingNeutralised.inc({ what: 'prefixes' }, report.prefixesMarked);
      },
    },
  });
}

export interface StartOptions {
  config: Config;
  logger: Logger;
  /** Extra BullMQ worker options for tests (e.g. a short stalled interval). */
  workerOverrides?: Partial<ConstructorParameters<typeof Worker>[2]>;
}

export async function startWorkerRuntime(options: StartOptions): Promise<WorkerRuntime> {
  const { config, logger } = options;
  const metrics = createMetrics();
  const connections: Redis[] = [];
  const connect = (role: string, extra: RedisOptions = {}) => {
    // Named with the host and pid, so CLIENT LIST tells which process holds which connection.
    const c = createBlockingConnection(config.redis, {
      connectionName: `cosci-safety:${role}:${hostname()}:${process.pid}`,
      ...extra,
    });
    c.on('error', (err) => logger.warn({ role, err: err.message }, 'redis connection error'));
    connections.push(c);
    return c;
  };
  const redis = connect('service');

  if (!config.anthropic.api_key && config.safety.enable_classifier) {
    logger.error(
      { onError: config.safety.classifier_on_error },
      `NO ANTHROPIC API KEY: nothing will be classified; every verdict is degraded (no_api_key) and its action is "${config.safety.classifier_on_error}". Set ANTHROPIC_API_KEY.`,
    );
  }
  if (!config.safety.enable_classifier) {
    logger.warn(
      'the classifier is disabled (safety.enable_classifier = false): every verdict is degraded (classifier_disabled)',
    );
  }

  // Aborted at shutdown, past its bound: jobs in flight return to the queue.
  const abort = new AbortController();
  // Every page fetch and retry wait in flight listens on this one signal
  // (jobs × evidence of every queue), far more than Node's default warning
  // threshold of 10.
  setMaxListeners(0, abort.signal);
  const classifier = buildClassifier(config, { logger, redis, metrics, signal: abort.signal });
  // A verdict is written after its model call, on a connection that batches
  // commands (ioredis auto-pipelining): under load the writes of many jobs
  // share one socket write and one read in Redis, which on a small machine
  // is much of their cost (docs/benchmarks.md). The verdict-cache lookup
  // stays on the service connection (see VerdictStoreOptions.lookup).
  const writes = connect('writes', { enableAutoPipelining: true });
  const store = createVerdictStore(writes, config.redis.key_prefix, { lookup: redis });
  const decisions = createDecisionStore(redis, config.redis.key_prefix);
  const emitter = createEventEmitter({
    redis,
    stream: config.redis.events_stream,
    dedupeTtlSeconds: config.redis.event_dedupe_ttl_seconds,
    maxLen: config.redis.events_max_len,
    onEmitted: (type) => metrics.events.inc({ type }),
  });

  // Cited documents are parsed in threads, never on this event loop
  // (docs/citations.md#isolation). Threads start with the first document.
  const parsePool = buildParsePool(config, { metrics });

  const workers = new Map<QueueName, Worker>();
  const deps = (queue: QueueName): ProcessorDeps => ({
    classifier,
    store,
    decisions,
    emitter,
    metrics,
    logger: logger.child({ queue }),
    signal: abort.signal,
  });
  const processors: Record<QueueName, (job: Job, token?: string) => Promise<unknown>> = {
    'hypothesis.saved': createHypothesisProcessor(deps('hypothesis.saved')),
    'goal.submitted': createGoalProcessor(deps('goal.submitted')),
    'review.recorded': createReviewProcessor({
      verifier: buildVerifier(config, { reader: parsePool, redis, metrics }),
      store: createReviewStore(redis, config.redis.key_prefix),
      emitter,
      enabled: config.safety.enable_citation_verifier,
      metrics,
      logger: logger.child({ queue: 'review.recorded' }),
      signal: abort.signal,
    }),
    'report.finalized': createReportProcessor({
      mode: config.safety.final_report_check,
      classifier,
      verdicts: store,
      decisions,
      reports: createReportStore(redis, config.redis.key_prefix),
      emitter,
      metrics,
      logger: logger.child({ queue: 'report.finalized' }),
      signal: abort.signal,
    }),
  };

  const { worker: w } = config;
  for (const queue of w.queues) {
    // A JobWorker fails a job whose data is not JSON, which BullMQ leaves active (job-worker.ts).
    const worker = new JobWorker(queue, withFailurePolicy(processors[queue], { worker: () => workers.get(queue) }), {
      connection: connect(`worker:${queue}`) as ConnectionOptions,
      prefix: config.redis.prefix,
      // Recorded on each job as processedBy: which pod handled it.
      name: `${hostname()}:${process.pid}`,
      concurrency: w.concurrency,
      lockDuration: w.lock_duration_ms,
      stalledInterval: w.stalled_interval_ms,
      removeOnComplete: { count: w.keep_completed },
      removeOnFail: { count: w.keep_failed },
      // BullMQ honours worker.rateLimit() (our answer to a 429) only when a
      // limiter is set; with no configured limit, one too high to bind.
      // https://docs.bullmq.io/guide/rate-limiting#manual-rate-limit
      limiter: { max: w.rate_limit_max ?? UNBOUND_RATE, duration: w.rate_limit_duration_ms },
      autorun: false,
      ...options.workerOverrides,
    });
    worker.on('completed', (job) => {
      metrics.jobs.inc({ queue, outcome: 'completed' });
      if (job.processedOn && job.finishedOn)
        metrics.jobDuration.observe({ queue }, (job.finishedOn - job.processedOn) / 1000);
    });
    worker.on('failed', (job, err) => {
      metrics.jobs.inc({ queue, outcome: 'failed' });
      logger.error({ queue, jobId: job?.id, attemptsMade: job?.attemptsMade, err: err.message }, 'job failed');
    });
    worker.on('error', (err) => logger.error({ queue, err: err.message }, 'worker error'));
    workers.set(queue, worker);
  }

  // Queue depth, read at scrape time from Redis by one process per cluster.
  const { queue_depth: depthSetting } = config.metrics;
  const queueDepth = createQueueDepth({
    redis,
    prefix: config.redis.prefix,
    keyPrefix: config.redis.key_prefix,
    mode: depthSetting === 'leader' ? 'leader' : depthSetting ? 'always' : 'never',
    metrics,
    owner: `${hostname()}:${process.pid}:${randomUUID()}`,
  });
  const refreshDepth = () => queueDepth.refresh();

  let stopping = false;
  const readiness = async () => {
    const problems: string[] = [];
    if (stopping) problems.push('shutting down');
    // This connection waits out a reconnect instead of failing, so a ping
    // while Redis is away would hang the probe: ask only a ready connection,
    // and bound even that.
    for (const [name, c] of [
      ['redis', redis],
      ['redis (writes)', writes],
    ] as const) {
      if (c.status !== 'ready') {
        problems.push(`${name} ${c.status}`);
        continue;
      }
      try {
        await Promise.race([
          c.ping(),
          new Promise((_, reject) => setTimeout(() => reject(new Error('no answer to PING within 2 s')), 2000).unref()),
        ]);
      } catch (err) {
        problems.push(`${name}: ${(err as Error).message}`);
      }
    }
    for (const [queue, worker] of workers) if (!worker.isRunning()) problems.push(`worker ${queue} not running`);
    return problems;
  };

  const http = config.metrics.enabled
    ? await startHttpServer({
        host: config.metrics.host,
        port: config.metrics.port,
        registry: metrics.registry,
        readiness,
        beforeScrape: refreshDepth,
        review: config.review.api_token
          ? {
              // Its own connection, which fails a command at once while Redis is away
              // (the service connection waits for Redis): the API answers 503 within 1 s.
              service: buildReviewService(config, connect('review', REVIEW_CONNECTION_OPTIONS), metrics),
              token: config.review.api_token,
              metrics,
              logger: logger.child({ component: 'review-api' }),
            }
          : undefined,
      })
    : undefined;

  for (const [queue, worker] of workers) {
    worker.run().catch((err: unknown) => logger.error({ queue, err: String(err) }, 'worker stopped'));
  }
  // Started means connected: a shutdown that comes right after the start
  // then never races the workers' own connection set-up.
  await Promise.all([...workers.values()].map((worker) => worker.waitUntilReady()));
  logger.info(
    {
      queues: w.queues,
      concurrency: w.concurrency,
      redis: redactUrl(config.redis.url),
      prefix: config.redis.prefix,
      stream: config.redis.events_stream,
      model: config.models.classifier,
      metricsPort: http?.port,
    },
    'worker started',
  );

  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let shuttingDown: Promise<void> | undefined;

  const shutdown = (reason = 'shutdown') => {
    shuttingDown ??= (async () => {
      stopping = true;
      logger.info({ reason, timeoutMs: w.shutdown_timeout_ms }, 'shutting down: finishing jobs in flight');
      const closing = Promise.all([...workers.values()].map((wk) => wk.close()));
      const timer = setTimeout(() => {
        logger.warn('shutdown bound reached: aborting jobs in flight; they return to the queue');
        abort.abort();
      }, w.shutdown_timeout_ms);
      // Last resort: a job stuck on something that ignores the abort.
      const force = setTimeout(() => {
        logger.error('jobs still running after the abort: closing workers by force; their locks will expire');
        void Promise.all([...workers.values()].map((wk) => wk.close(true)));
      }, w.shutdown_timeout_ms + 5000);
      await closing;
      clearTimeout(timer);
      clearTimeout(force);
      // After the jobs: a document still being parsed belongs to a job given up above.
      await parsePool.close();
      await queueDepth.close();
      await http?.close();
      await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
      logger.info('shut down');
      resolveClosed();
    })();
    return shuttingDown;
  };

  return { metrics, http, workers, shutdown, closed };
}
