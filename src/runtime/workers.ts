/**
 * One BullMQ worker per configured queue, each running its processor inside
 * the failure policy (src/processors/job-failure.ts), counted in the metrics.
 * Created stopped (`autorun: false`): startWorkerRuntime runs them once the
 * rest is up.
 */
import { hostname } from 'node:os';
import { MetricsTime, type ConnectionOptions, type Telemetry, type Worker, type WorkerOptions } from 'bullmq';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { RevisionConflictError } from '../errors.js';
import type { QueueName } from '../contracts/queues.js';
import type { RedisHealth } from '../logging/redis-health.js';
import type { Metrics } from '../metrics/metrics.js';
import { withheldData, withholdsText } from '../processors/completed-data.js';
import { withFailurePolicy, type Processor } from '../processors/job-failure.js';
import { JobWorker } from '../queues/job-worker.js';
import type { Connections } from './connections.js';

export function createQueueWorkers(
  config: Config,
  processors: Record<QueueName, Processor<unknown>>,
  parts: {
    connections: Connections;
    metrics: Metrics;
    logger: Logger;
    health: RedisHealth;
    overrides?: Partial<WorkerOptions> | undefined;
    /** False keeps the text of completed jobs: only for measuring what withholding it costs. */
    withholdText?: boolean | undefined;
    /** BullMQ's tracing (src/telemetry/tracing.ts): each job's processing continues its publisher's trace. */
    telemetry?: Telemetry | undefined;
  },
): Map<QueueName, Worker> {
  const { connections, metrics, logger, health } = parts;
  const w = config.worker;
  const workers = new Map<QueueName, Worker>();
  for (const queue of w.queues) {
    const processor = withFailurePolicy(processors[queue]);
    // A JobWorker fails a job whose data is not JSON, which BullMQ leaves active (job-worker.ts).
    const worker = new JobWorker(queue, processor, {
      connection: connections.open(`worker:${queue}`) as ConnectionOptions,
      prefix: config.redis.prefix,
      // Recorded on each job as processedBy: which pod handled it.
      name: `${hostname()}:${process.pid}`,
      concurrency: w.concurrency,
      lockDuration: w.lock_duration_ms,
      stalledInterval: w.stalled_interval_ms,
      removeOnComplete: { count: w.keep_completed },
      removeOnFail: { count: w.keep_failed },
      // The configured pace of the queue, shared by its workers through Redis
      // (https://docs.bullmq.io/guide/rate-limiting). A 429 does not touch it:
      // the job that met it waits, bounded, inside itself (src/classifier/retry.ts).
      ...(w.rate_limit_max ? { limiter: { max: w.rate_limit_max, duration: w.rate_limit_duration_ms } } : {}),
      // Completed and failed jobs per minute, for Bull Board and Taskforce: a
      // week of one-minute points per queue, counted by BullMQ's completion script.
      ...(w.bullmq_metrics ? { metrics: { maxDataPoints: MetricsTime.ONE_WEEK } } : {}),
      autorun: false,
      ...(parts.telemetry ? { telemetry: parts.telemetry } : {}),
      ...parts.overrides,
    });
    // With keep_completed = 0 BullMQ removes a job as it completes: nothing to withhold.
    const withhold = (parts.withholdText ?? true) && withholdsText(queue) && w.keep_completed > 0;
    worker.on('completed', (job) => {
      metrics.jobs.inc({ queue, outcome: 'completed' });
      if (job.processedOn && job.finishedOn)
        metrics.jobDuration.observe({ queue }, (job.finishedOn - job.processedOn) / 1000);
      // The result is stored: the job's copy of the text goes (src/processors/completed-data.ts).
      const kept = withhold ? withheldData(queue, job.data, new Date()) : undefined;
      if (kept)
        job
          .updateData(kept)
          .catch((err: unknown) =>
            logger.warn({ queue, jobId: job.id, err: String(err) }, "could not withhold a completed job's text"),
          );
    });
    worker.on('failed', (job, err) => {
      metrics.jobs.inc({ queue, outcome: 'failed' });
      logger.error({ queue, jobId: job?.id, attemptsMade: job?.attemptsMade, err: err.message }, 'job failed');
      // A hypothesis in revision conflict is kept for review in the verdict
      // store, and a retry fails the same way: the failed job's copy goes.
      const conflicted = queue === 'hypothesis.saved' && RevisionConflictError.isReason(err.message);
      const kept = job && withhold && conflicted ? withheldData(queue, job.data, new Date()) : undefined;
      if (job && kept)
        job
          .updateData(kept)
          .catch((e: unknown) =>
            logger.warn({ queue, jobId: job.id, err: String(e) }, "could not withhold a failed job's text"),
          );
    });
    // BullMQ forwards every error of its connections here, each failed
    // reconnect included: a lost connection is the outage's to tell, once.
    worker.on('error', (err) => {
      if (!health.report(`worker:${queue}`, err)) logger.error({ queue, err: err.message }, 'worker error');
    });
    workers.set(queue, worker);
  }
  return workers;
}
