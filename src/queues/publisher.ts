/**
 * The typed publisher: validates a payload before adding it, and gives each
 * job a deterministic id, so publishing the same hypothesis revision (or goal)
 * twice makes one job. A job id names content: publishing other content under
 * it is refused with REVISION_CONFLICT, instead of being dropped as a
 * duplicate while the first content's verdict stands for it
 * (docs/contract.md#a-revision-is-its-content). `submitGoal` can wait for the
 * verdict, since goal-parse time is a blocking check.
 */
import { Queue, QueueEvents, type ConnectionOptions, type JobsOptions, type Telemetry } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import {
  createBlockingConnection,
  createFailFastConnection,
  givenClient,
  type ClientConnection,
  type RedisClient,
  type RedisTarget,
} from './connection.js';
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
import { contentDigest } from '../contracts/content.js';
import { CosciError, RevisionConflictError } from '../errors.js';
import type { GoalResult, ReportResult } from '../contracts/results.js';
import { QUEUES, parsePayload, type PayloadOf, type QueueName } from '../contracts/queues.js';
import { JOB_RETRY } from '../failure.js';
import { reportKeys } from '../store/report-store.js';
import { reviewKeys } from '../store/review-store.js';
import { verdictKeys } from '../store/verdict-store.js';

/** Job options every publisher should use; other languages: see docs/contract.md. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  // Retries cover infrastructure failures (a Redis blip while emitting);
  // src/failure.ts decides which failures retry at all.
  attempts: JOB_RETRY.attempts,
  backoff: { ...JOB_RETRY.backoff },
};

export interface PublisherOptions {
  /**
   * Where to publish. An ioredis connection (ioredis 5 or 6, a `Redis` or a
   * `Cluster`), which `close()` leaves open. Or where to connect, for a
   * connection of the publisher's own, which `close()` closes: a URL
   * (`redis://` or `rediss://`, with credentials and database), or
   * `{ url, cluster: true }` for a Redis Cluster (node URLs separated by
   * commas). The publisher's own connection fails a call at once, with
   * PUBLISH_FAILED, while Redis is away; one that never reached Redis gives
   * up after a few tries, and the next call opens a new one.
   */
  connection: ClientConnection;
  /** BullMQ key prefix. @defaultValue 'bull' */
  prefix?: string;
  /**
   * The service's key prefix (`redis.key_prefix`), under which the stores
   * keep the content digest of each revision's result: with it, other
   * content under a revision whose job is gone is refused here too, not
   * only by the worker, which refuses it whatever this says.
   * @defaultValue 'cosci'
   */
  keyPrefix?: string;
  /** A connection factory for the QueueEvents that waiting needs (a blocking one). */
  blockingConnection?: () => RedisClient;
  /**
   * Tracing, as BullMQ's queues take it: `new BullMQOtel(...)` from
   * `bullmq-otel`, or any implementation of BullMQ's `Telemetry`. Each job
   * added is then published inside a PRODUCER span (`add <queue>.<queue>`), a
   * child of the caller's active span, and carries its trace context, which
   * the worker continues: the job's trace runs from here through the
   * processor to the events. Without it, nothing is traced and a job is
   * what it always was.
   * @see docs/tracing.md
   */
  telemetry?: Telemetry;
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

/** A job's data as stored; undefined when it is not JSON (a hand-written job). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The content digest of a job's data as stored; undefined when it is not a valid payload of its queue. */
function contentOfJob(name: QueueName, data: unknown): string | undefined {
  const parsed = QUEUES[name].payload.safeParse(data);
  return parsed.success ? contentDigest(name, parsed.data as PayloadOf<typeof name>, data) : undefined;
}

/** What a job id names, in words, and where the stores keep the content digest of its result. */
interface Subject {
  what: string;
  storedContentKey?: string | undefined;
}

export class Publisher {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly queueEvents = new Map<QueueName, QueueEvents>();
  private readonly eventsConnections: Redis[] = [];
  private readonly prefix: string;
  /** Where the publisher's own connection goes; undefined when it was given one. */
  private readonly target: RedisTarget | string | undefined;
  private connection: Redis;
  private closed = false;
  private readonly keyPrefix: string;

  constructor(private readonly options: PublisherOptions) {
    this.prefix = options.prefix ?? 'bull';
    this.keyPrefix = options.keyPrefix ?? 'cosci';
    const given = givenClient(options.connection);
    this.target = given ? undefined : (options.connection as RedisTarget | string);
    this.connection = given ?? this.open();
  }

  /** A connection of the publisher's own, as `cosci-safety publish` has. */
  private open(): Redis {
    const connection = createFailFastConnection(this.target!);
    // ioredis prints errors nobody listens to; the call that needed Redis rejects with them.
    connection.on('error', ignoreEmitted);
    return connection;
  }

  /**
   * The connection to publish on. An own connection that gave up (it never
   * reached Redis) is replaced, and the queues on it with it: BullMQ never
   * retries a connection that failed before it was ready.
   */
  private current(): Redis {
    if (this.target !== undefined && !this.closed && this.connection.status === 'end') {
      for (const q of this.queues.values()) void q.close().catch(ignoreEmitted);
      this.queues.clear();
      this.connection = this.open();
    }
    return this.connection;
  }

  queue(name: QueueName): Queue {
    const connection = this.current();
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, {
        connection: connection as ConnectionOptions,
        prefix: this.prefix,
        ...(this.options.telemetry ? { telemetry: this.options.telemetry } : {}),
      });
      q.on('error', ignoreEmitted);
      this.queues.set(name, q);
    }
    return q;
  }

  /**
   * Adds the job unless one with its id exists. The id names content: an
   * existing job, or a stored result, of other content under it is a
   * conflict. So is losing a race to a publisher that added other content
   * under the id between the look and the add: BullMQ keeps the first.
   */
  private async add<Q extends QueueName>(
    name: Q,
    jobId: string,
    data: PayloadOf<Q>,
    subject: Subject,
  ): Promise<Published> {
    const queue = this.queue(name);
    // The queue's connection: queue() has just made sure it is the current one.
    const client = this.connection;
    const content = contentDigest(name, data);
    const conflict = () =>
      new RevisionConflictError(
        `${subject.what} was published before with other content (job ${jobId}); ` +
          'a revision names one content: publish the new content as a new revision',
      );
    try {
      // Once it is ready: a connection may be handed over connecting. (The
      // queue's own client is this connection; BullMQ 6 keeps it on its
      // backend, where BullMQ 5 had `queue.client`.)
      await queue.waitUntilReady();
      const [existing, stored] = await Promise.all([
        queue.getJob(jobId),
        subject.storedContentKey ? client.get(subject.storedContentKey) : null,
      ]);
      if (existing) {
        if (contentOfJob(name, existing.data) !== content) throw conflict();
        return { jobId, created: false };
      }
      if (stored !== null && stored !== content) throw conflict();
      const job = await queue.add(name, data, { ...DEFAULT_JOB_OPTIONS, jobId });
      // Read back what the id holds now: another publisher's content, if it came first.
      const kept = await client.hget(queue.toKey(jobId), 'data');
      if (kept !== null && contentOfJob(name, parseJson(kept)) !== content) throw conflict();
      return { jobId: job.id ?? jobId, created: true };
    } catch (err) {
      if (err instanceof RevisionConflictError) throw err;
      throw new CosciError('PUBLISH_FAILED', `could not publish to ${name}: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Publishes `hypothesis.saved`. */
  async publishHypothesisSaved(payload: HypothesisSavedInput): Promise<Published> {
    const p = parsePayload('hypothesis.saved', payload);
    return this.add('hypothesis.saved', hypothesisJobId(p.hypothesisId, p.revision), p, {
      what: `hypothesis ${p.hypothesisId} revision ${p.revision}`,
      storedContentKey: verdictKeys(this.keyPrefix).content('hypothesis', p.hypothesisId, p.revision),
    });
  }

  /** Publishes `review.recorded`; its citations are verified. */
  async publishReviewRecorded(payload: ReviewRecordedInput): Promise<Published> {
    const p = parsePayload('review.recorded', payload);
    return this.add('review.recorded', reviewJobId(p.reviewId, p.revision), p, {
      what: `review ${p.reviewId} revision ${p.revision}`,
      storedContentKey: reviewKeys(this.keyPrefix).content(p.reviewId, p.revision),
    });
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
    // A goal's verdict is stored by its text's digest: no stored result names other text.
    const subject = { what: `goal ${p.goalId}` };
    if (!options.wait) return this.add('goal.submitted', jobId, p, subject);
    return this.addAndWait<'goal.submitted', GoalResult>('goal.submitted', jobId, p, subject, options);
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
    const subject = {
      what: `report ${p.reportId} revision ${p.revision}`,
      storedContentKey: reportKeys(this.keyPrefix).content(p.reportId, p.revision),
    };
    if (!options.wait) return this.add('report.finalized', jobId, p, subject);
    return this.addAndWait<'report.finalized', ReportResult>('report.finalized', jobId, p, subject, options);
  }

  private async addAndWait<Q extends QueueName, R>(
    name: Q,
    jobId: string,
    data: PayloadOf<Q>,
    subject: Subject,
    { timeoutMs = 60_000, onPublished }: WaitOptions,
  ): Promise<Published & R> {
    const { what } = subject;
    // The bound covers the whole call: with Redis out of reach, connecting
    // and adding would otherwise wait for it without end.
    const deadline = Date.now() + timeoutMs;
    const { events, published, job } = await beforeDeadline(
      (async () => {
        // Listen before adding, so a fast worker cannot finish the job unseen.
        const events = await this.events(name);
        const published = await this.add(name, jobId, data, subject);
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
      // The worker found that the revision holds other content (the publisher's look came too early to see it).
      if (RevisionConflictError.isReason(message)) throw RevisionConflictError.fromReason(message);
      if (/timed out/i.test(message)) {
        throw new CosciError('WAIT_TIMEOUT', `no result for ${what} within ${timeoutMs} ms; is a worker running?`);
      }
      throw new CosciError('PUBLISH_FAILED', `${what} failed: ${message}`, { cause: err });
    }
  }

  private async events(name: QueueName): Promise<QueueEvents> {
    let events = this.queueEvents.get(name);
    if (!events) {
      const connection = (this.options.blockingConnection?.() as Redis | undefined) ?? this.openBlocking();
      this.eventsConnections.push(connection);
      events = new QueueEvents(name, { connection: connection as ConnectionOptions, prefix: this.prefix });
      events.on('error', ignoreEmitted);
      this.queueEvents.set(name, events);
      await events.waitUntilReady();
    }
    return events;
  }

  /**
   * A connection for QueueEvents, which connects a duplicate of it: lazy for
   * the publisher's own target (it never opens a socket itself), else like
   * the connection given.
   */
  private openBlocking(): Redis {
    if (this.target === undefined) return duplicateForBlocking(this.connection);
    const connection = createBlockingConnection(this.target, { lazyConnect: true });
    connection.on('error', ignoreEmitted);
    return connection;
  }

  /**
   * Closes the queues and the event listeners the publisher opened, and its
   * own connection; a connection it was given stays open.
   */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await Promise.all([...this.queueEvents.values()].map((e) => e.close()));
    // BullMQ leaves connections it was given open; these are ours.
    for (const connection of this.eventsConnections) connection.disconnect();
    if (this.target !== undefined) this.connection.disconnect();
  }
}
