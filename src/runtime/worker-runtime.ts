/**
 * The composition root of the worker: config -> clients -> processors ->
 * workers, plus the HTTP endpoint and graceful shutdown. Nothing else opens a
 * Redis connection or builds the Anthropic client for the service. The parts
 * are built in graph.ts (the processors), workers.ts (the BullMQ workers),
 * readiness.ts and shutdown.ts; this file only wires them and starts them.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type { Worker, WorkerOptions } from 'bullmq';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import type { QueueName } from '../contracts/queues.js';
import { databaseSelected } from '../queues/connection.js';
import { blockingConnectionOf } from '../queues/job-worker.js';
import { startHttpServer, type RunningHttpServer } from '../http/server.js';
import { redactUrl } from '../logging/logger.js';
import { createRedisHealth } from '../logging/redis-health.js';
import { createMetrics, type Metrics } from '../metrics/metrics.js';
import { createQueueDepth } from '../metrics/queue-depth.js';
import { REVIEW_CONNECTION_OPTIONS } from '../review/availability.js';
import { createReviewFeed, type ReviewFeed } from '../review/review-feed.js';
import type { Tracing } from '../telemetry/tracing.js';
import { buildReviewService } from './builders.js';
import { createConnections } from './connections.js';
import { buildWorkerGraph } from './graph.js';
import { createReadiness } from './readiness.js';
import { createShutdown } from './shutdown.js';
import { createQueueWorkers } from './workers.js';

export interface WorkerRuntime {
  metrics: Metrics;
  http: RunningHttpServer | undefined;
  workers: Map<QueueName, Worker>;
  /** Stops taking jobs, lets in-flight ones finish within the bound, then aborts them back to the queue. */
  shutdown(reason?: string): Promise<void>;
  readonly closed: Promise<void>;
}

export interface StartOptions {
  config: Config;
  logger: Logger;
  /** Extra BullMQ worker options for tests (e.g. a short stalled interval). */
  workerOverrides?: Partial<WorkerOptions>;
  /**
   * False keeps the text of completed jobs (src/processors/completed-data.ts),
   * for the benchmark that measures what withholding it costs; nothing else
   * sets it. @defaultValue true
   */
  withholdCompletedText?: boolean;
  /**
   * Tracing, started by the caller (src/telemetry/tracing.ts): its BullMQ
   * telemetry goes to the workers, and it is shut down last, once the
   * spans of the jobs and their events have ended. @defaultValue no tracing
   */
  tracing?: Tracing | undefined;
}

function warnOfMissingClassifier(config: Config, logger: Logger): void {
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
}

export async function startWorkerRuntime(options: StartOptions): Promise<WorkerRuntime> {
  const { config, logger } = options;
  const metrics = createMetrics();
  // One account of the Redis connections for the log: an outage is a few lines, not one per failed reconnect.
  const health = createRedisHealth({ logger });
  const connections = createConnections(config, health);
  // Aborted at shutdown, past its bound: jobs in flight return to the queue.
  // Every page fetch and retry wait in flight listens on this one signal
  // (jobs × evidence of every queue), far more than Node's default warning
  // threshold of 10.
  const abort = new AbortController();
  setMaxListeners(0, abort.signal);

  const { processors, parsePool } = buildWorkerGraph(config, { logger, metrics, connections, signal: abort.signal });
  // Filled once the HTTP port is ours (below).
  const workers = new Map<QueueName, Worker>();
  const service = connections.all.get('service')!;
  // Queue depth, read at scrape time from Redis by one process per cluster.
  const { queue_depth: depthSetting } = config.metrics;
  const queueDepth = createQueueDepth({
    redis: service,
    prefix: config.redis.prefix,
    keyPrefix: config.redis.key_prefix,
    mode: depthSetting === 'leader' ? 'leader' : depthSetting ? 'always' : 'never',
    metrics,
    owner: `${hostname()}:${process.pid}:${randomUUID()}`,
  });

  let stopping = false;
  let http: RunningHttpServer | undefined;
  // The review page's live queue: a blocking reader of the event stream, on
  // a connection of its own that connects only when a page first listens.
  const feed: ReviewFeed | undefined = config.review.api_token
    ? createReviewFeed({
        redis: connections.open('review-feed', { lazyConnect: true }),
        stream: config.redis.events_stream,
        logger: logger.child({ component: 'review-feed' }),
      })
    : undefined;
  const { shutdown, closed } = createShutdown({
    logger,
    timeoutMs: config.worker.shutdown_timeout_ms,
    workers: () => workers.values(),
    abort,
    afterJobs: [
      // After the jobs: a document still being parsed belongs to a job given up above.
      () => parsePool.close(),
      () => queueDepth.close(),
      async () => {
        // Its blocking read is dropped, not waited out, and the pages' streams end with the server.
        feed?.close();
        await http?.close();
      },
      () => connections.closeAll(),
      // Last: the spans still buffered are exported before the process ends.
      async () => options.tracing?.shutdown(),
    ],
  });
  const stop = (reason?: string, options?: { quiet?: boolean }) => {
    stopping = true;
    // Connections closed from here on are closed on purpose.
    health.stop();
    return shutdown(reason, options);
  };

  try {
    http = config.metrics.enabled
      ? await startHttpServer({
          host: config.metrics.host,
          port: config.metrics.port,
          registry: metrics.registry,
          readiness: createReadiness({
            connections: [
              ['redis', service],
              ['redis (writes)', connections.all.get('writes')!],
            ],
            workers,
            stopping: () => stopping,
          }),
          beforeScrape: () => queueDepth.refresh(),
          review: config.review.api_token
            ? {
                // Its own connection, which fails a command at once while Redis is away
                // (the service connection waits for Redis): the API answers 503 within 1 s.
                service: buildReviewService(
                  config,
                  connections.open('review', REVIEW_CONNECTION_OPTIONS),
                  metrics,
                  logger.child({ component: 'review' }),
                ),
                token: config.review.api_token,
                metrics,
                logger: logger.child({ component: 'review-api' }),
                feed,
              }
            : undefined,
        })
      : undefined;
    // And after the database is known to be the URL's: a worker whose
    // connection ioredis left in database 0 would take another deployment's
    // jobs (src/queues/connection.ts). With Redis away, this waits for it,
    // as connecting the workers would.
    await databaseSelected(service);
    // The BullMQ workers come after the port: one closed while it is still
    // connecting (the port taken) emits an error after it has dropped its
    // listeners, which ends the process with a stack instead of one line.
    const created = createQueueWorkers(config, processors, {
      connections,
      metrics,
      logger,
      health,
      overrides: options.workerOverrides,
      withholdText: options.withholdCompletedText,
      telemetry: options.tracing?.telemetry,
    });
    for (const [queue, worker] of created) workers.set(queue, worker);
    for (const [queue, worker] of workers) {
      worker.run().catch((err: unknown) => logger.error({ queue, err: String(err) }, 'worker stopped'));
    }
    // Started means connected: a shutdown that comes right after the start
    // then never races the workers' own connection set-up. Each worker's
    // blocking connection, which BullMQ opens itself, is followed too.
    await Promise.all(
      [...workers].map(async ([queue, worker]) =>
        health.watch(`worker:${queue}:blocking`, await blockingConnectionOf(worker)),
      ),
    );
  } catch (err) {
    // A start that fails (the metrics port taken) leaves nothing open behind
    // it, and says nothing more than its error: the command line prints that
    // as its one line.
    await stop('start-up failed', { quiet: true });
    throw err;
  }
  // Once started: a start that fails says only why.
  warnOfMissingClassifier(config, logger);
  logger.info(
    {
      queues: config.worker.queues,
      concurrency: config.worker.concurrency,
      redis: redactUrl(config.redis.url),
      prefix: config.redis.prefix,
      stream: config.redis.events_stream,
      model: config.models.classifier,
      metricsPort: http?.port,
      ...(options.tracing
        ? { tracing: { endpoint: options.tracing.settings.endpoint, protocol: options.tracing.settings.protocol } }
        : {}),
    },
    'worker started',
  );
  return { metrics, http, workers, shutdown: stop, closed };
}
