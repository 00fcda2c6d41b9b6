/**
 * The worker's graph of parts: config -> clients and stores -> the processor
 * of each queue. No queue is worked and no port is opened here; that is
 * startWorkerRuntime's. Every processor shares one abort signal, which
 * shutdown fires past its bound.
 */
import type { Logger } from 'pino';
import type { ParsePool } from '../citations/parse-pool.js';
import { attributedTo } from '../classifier/classifier.js';
import type { Config } from '../config/schema.js';
import type { QueueName } from '../contracts/queues.js';
import { createEventEmitter } from '../events/emitter.js';
import type { Metrics } from '../metrics/metrics.js';
import { createGoalProcessor } from '../processors/goal-processor.js';
import { createHypothesisProcessor, type ProcessorDeps } from '../processors/hypothesis-processor.js';
import type { Processor } from '../processors/job-failure.js';
import { createReportProcessor } from '../processors/report-processor.js';
import { createReviewProcessor } from '../processors/review-processor.js';
import { createDecisionStore } from '../store/decision-store.js';
import { createReportStore } from '../store/report-store.js';
import { createReviewStore } from '../store/review-store.js';
import { createVerdictStore } from '../store/verdict-store.js';
import { buildClaimSupport, buildClassifier, buildParsePool, buildVerifier } from './builders.js';
import type { Connections } from './connections.js';

export interface WorkerGraph {
  processors: Record<QueueName, Processor<unknown>>;
  /** Parses cited documents off the event loop; closed after the jobs. */
  parsePool: ParsePool;
}

export function buildWorkerGraph(
  config: Config,
  parts: { logger: Logger; metrics: Metrics; connections: Connections; signal: AbortSignal },
): WorkerGraph {
  const { logger, metrics, connections, signal } = parts;
  const prefix = config.redis.key_prefix;
  const redis = connections.open('service');
  // A verdict is written after its model call, on a connection that batches
  // commands (ioredis auto-pipelining): under load the writes of many jobs
  // share one socket write and one read in Redis, which on a small machine
  // is much of their cost (docs/benchmarks.md). The verdict-cache lookup
  // stays on the service connection (see VerdictStoreOptions.lookup).
  const writes = connections.open('writes', { enableAutoPipelining: true });

  const classifier = buildClassifier(config, { logger, redis, metrics, signal });
  const verdicts = createVerdictStore(writes, prefix, { lookup: redis });
  const decisions = createDecisionStore(redis, prefix);
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

  const classifying = (queue: QueueName): ProcessorDeps => ({
    // The model's tokens are counted by the queue whose job asked for them.
    classifier: attributedTo(classifier, queue),
    store: verdicts,
    decisions,
    emitter,
    metrics,
    logger: logger.child({ queue }),
    signal,
  });
  const processors: WorkerGraph['processors'] = {
    'hypothesis.saved': createHypothesisProcessor(classifying('hypothesis.saved')),
    'goal.submitted': createGoalProcessor(classifying('goal.submitted')),
    'review.recorded': createReviewProcessor({
      verifier: buildVerifier(config, {
        reader: parsePool,
        redis,
        metrics,
        claimSupport: config.citations.claim_support
          ? buildClaimSupport(config, { logger: logger.child({ queue: 'review.recorded' }), redis, metrics, signal })
          : undefined,
      }),
      store: createReviewStore(redis, prefix),
      emitter,
      enabled: config.safety.enable_citation_verifier,
      metrics,
      logger: logger.child({ queue: 'review.recorded' }),
      signal,
    }),
    'report.finalized': createReportProcessor({
      mode: config.safety.final_report_check,
      classifier: attributedTo(classifier, 'report.finalized'),
      verdicts,
      decisions,
      reports: createReportStore(redis, prefix),
      emitter,
      metrics,
      logger: logger.child({ queue: 'report.finalized' }),
      signal,
    }),
  };
  return { processors, parsePool };
}
