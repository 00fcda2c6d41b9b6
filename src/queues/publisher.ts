/**
 * The typed publisher: validates a payload before adding it, and gives each
 * job a deterministic id, so publishing the same hypothesis revision (or goal)
 * twice makes one job. `submitGoal` can wait for the verdict, since goal-parse
 * time is a blocking check.
 */
import { Queue, QueueEvents, type ConnectionOptions, type JobsOptions } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import {
  goalJobId,
  hypothesisJobId,
  reportJobId,
  reviewJobId,
  type GoalSubmittedInput,
  type HypothesisSavedInput,
  type ReportFinalizedInput,
  type ReviewRecordedInput,
} from '../contracts/payloads.js';
import { CosciError } from '../errors.js';
import type { GoalResult, ReportResult } from '../contracts/results.js';
import { parsePayload, type QueueName } from '../contracts/queues.js';
import { JOB_RETRY } from '../failure.js';

/** Job options every publisher should use; other languages: see docs/contract.md. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  // Retries cover infrastructure failures (a Redis blip while emitting);
  // src/failure.ts decides which failures retry at all.
  attempts: JOB_RETRY.attempts,
  backoff: { ...JOB_RETRY.backoff },
};

export interface PublisherOptions {
  connection: Redis;
  /** BullMQ key prefix. @defaultValue 'bull' */
  prefix?: string;
  /** A connection factory for the QueueEvents that waiting needs (a blocking one). */
  blockingConnection?: () => Redis;
}

export interface Published {
  jobId: string;
  /** False when a job with this id already existed (a duplicate publish). */
  created: boolean;
}

/** How `submitGoal` and `finalizeReport` wait for their result. */
export interface WaitOptions {
  wait: true;
  /** Bound on the whole call, publishing included. @defaultValue 60 000 ms */
  timeoutMs?: number;
  /** Called once the job is in the queue, before the wait for its result: a caller stopped while waiting can tell the job. */
  onPublished?: (published: Published) => void;
}

/** A connection like `connection` that waits out reconnects, as BullMQ's QueueEvents needs. */
function duplicateForBlocking(connection: Redis): Redis {
  const maybeCluster = connection as unknown as Partial<Cluster>;
  if (maybeCluster.isCluster) {
    return (connection as unknown as Cluster).duplicate([], {
      enableOfflineQueue: true,
      redisOptions: { maxRetriesPerRequest: null },
    }) as unknown as Redis;
  }
  return connection.duplicate({ maxRetriesPerRequest: null, enableOfflineQueue: true });
}

/**
 * BullMQ re-emits its connection's errors on the queue, and prints them when
 * nobody listens. Here they are heard where they matter: the call that
 * needed Redis rejects with them.
 */
function ignoreEmitted(): void {}

/** `work`, or the error of `onTimeout` once `deadline` (ms since the epoch) has passed. */
async function beforeDeadline<T>(work: Promise<T>, deadline: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

export class Publisher {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly queueEvents = new Map<QueueName, QueueEvents>();
  private readonly eventsConnections: Redis[] = [];
  private readonly prefix: string;

  constructor(private readonly options: PublisherOptions) {
    this.prefix = options.prefix ?? 'bull';
  }

  queue(name: QueueName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.options.connection as ConnectionOptions, prefix: this.prefix });
      q.on('error', ignoreEmitted);
      this.queues.set(name, q);
    }
    return q;
  }

  private async add(name: QueueName, jobId: string, data: object): Promise<Published> {
    const queue = this.queue(name);
    let job;
    try {
      // Ask first only to report `created`; add with the same id is a no-op either way.
      const existing = await queue.getJob(jobId);
      if (existing) return { jobId, created: false };
      job = await queue.add(name, data, { ...DEFAULT_JOB_OPTIONS, jobId });
    } catch (err) {
      throw new CosciError('PUBLISH_FAILED', `could not publish to ${name}: ${(err as Error).message}`, { cause: err });
    }
    return { jobId: job.id ?? jobId, created: true };
  }

  /** Publishes `hypothesis.saved`. */
  async publishHypothesisSaved(payload: HypothesisSavedInput): Promise<Published> {
    const p = parsePayload('hypothesis.saved', payload);
    return this.add('hypothesis.saved', hypothesisJobId(p.hypothesisId, p.revision), p);
  }

  /** Publishes `review.recorded`; its citations are verified. */
  async publishReviewRecorded(payload: ReviewRecordedInput): Promise<Published> {
    const p = parsePayload('review.recorded', payload);
    return this.add('review.recorded', reviewJobId(p.reviewId, p.revision), p);
  }

  /**
   * Submits `goal.submitted`; with `wait`, resolves to the verdict, or
   * rejects with WAIT_TIMEOUT once `timeoutMs` (default 60 s) has passed,
   * whatever it was waiting for (Redis, a worker).
   */
  async submitGoal(payload: GoalSubmittedInput, options: WaitOptions): Promise<Published & GoalResult>;
  async submitGoal(payload: GoalSubmittedInput, options?: { wait?: false }): Promise<Published>;
  async submitGoal(
    payload: GoalSubmittedInput,
    options: WaitOptions | { wait?: false } = {},
  ): Promise<Published | (Published & GoalResult)> {
    const p = parsePayload('goal.submitted', payload);
    const jobId = goalJobId(p.goalId);
    if (!options.wait) return this.add('goal.submitted', jobId, p);
    return this.addAndWait<GoalResult>('goal.submitted', jobId, p, `goal ${p.goalId}`, options);
  }

  /**
   * Publishes `report.finalized`; with `wait`, resolves to the check's result
   * (publication waits on it: publish `text` only when `publishable`), or
   * rejects with WAIT_TIMEOUT as `submitGoal` does.
   */
  async finalizeReport(payload: ReportFinalizedInput, options: WaitOptions): Promise<Published & ReportResult>;
  async finalizeReport(payload: ReportFinalizedInput, options?: { wait?: false }): Promise<Published>;
  async finalizeReport(
    payload: ReportFinalizedInput,
    options: WaitOptions | { wait?: false } = {},
  ): Promise<Published | (Published & ReportResult)> {
    const p = parsePayload('report.finalized', payload);
    const jobId = reportJobId(p.reportId, p.revision);
    if (!options.wait) return this.add('report.finalized', jobId, p);
    return this.addAndWait<ReportResult>('report.finalized', jobId, p, `report ${p.reportId}`, options);
  }

  private async addAndWait<R>(
    name: QueueName,
    jobId: string,
    data: object,
    what: string,
    { timeoutMs = 60_000, onPublished }: WaitOptions,
  ): Promise<Published & R> {
    // The bound covers the whole call: with Redis out of reach, connecting
    // and adding would otherwise wait for it without end.
    const deadline = Date.now() + timeoutMs;
    const { events, published, job } = await beforeDeadline(
      (async () => {
        // Listen before adding, so a fast worker cannot finish the job unseen.
        const events = await this.events(name);
        const published = await this.add(name, jobId, data);
        onPublished?.(published);
        const job = await this.queue(name).getJob(jobId);
        if (!job) throw new CosciError('PUBLISH_FAILED', `job ${jobId} vanished after publishing`);
        return { events, published, job };
      })(),
      deadline,
      () => new CosciError('WAIT_TIMEOUT', `could not publish ${what} within ${timeoutMs} ms: Redis did not answer`),
    );
    try {
      const result = (await job.waitUntilFinished(events, Math.max(1, deadline - Date.now()))) as R;
      return { ...published, ...result };
    } catch (err) {
      const message = (err as Error).message;
      if (/timed out/i.test(message)) {
        throw new CosciError('WAIT_TIMEOUT', `no result for ${what} within ${timeoutMs} ms; is a worker running?`);
      }
      throw new CosciError('PUBLISH_FAILED', `${what} failed: ${message}`, { cause: err });
    }
  }

  private async events(name: QueueName): Promise<QueueEvents> {
    let events = this.queueEvents.get(name);
    if (!events) {
      const connection = this.options.blockingConnection?.() ?? duplicateForBlocking(this.options.connection);
      this.eventsConnections.push(connection);
      events = new QueueEvents(name, { connection: connection as ConnectionOptions, prefix: this.prefix });
      events.on('error', ignoreEmitted);
      this.queueEvents.set(name, events);
      await events.waitUntilReady();
    }
    return events;
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await Promise.all([...this.queueEvents.values()].map((e) => e.close()));
    // BullMQ leaves connections it was given open; these are ours.
    for (const connection of this.eventsConnections) connection.disconnect();
  }
}
