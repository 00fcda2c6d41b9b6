/**
 * The BullMQ Worker of every queue, with one change: a job whose stored data
 * is not JSON fails at once, for good, with the reason "job data is not
 * JSON", instead of being left active.
 *
 * BullMQ (6.7.0, and 5.81.5 alike) reads a job it has just moved to active
 * with Job.fromJSON, which calls JSON.parse on the `data` field
 * (dist/esm/classes/job.js, `static fromJSON`). When that throws, the
 * SyntaxError leaves Worker.nextJobFromJobData (worker.js, through
 * `createJob`); the main loop's retryIfFailed emits it as a worker 'error'
 * and drops it. The job stays active under a lock no one renews. The
 * stalled check (commands/moveStalledJobsToWait-9.lua) moves it back to
 * wait, and past the stalled limit only marks it to fail (the `defa` field
 * of the job hash): the failing is left to the next worker that reads it,
 * which cannot. So it goes round, active and stalled, and never fails. A
 * publisher that writes the job hash itself, or builds its JSON by hand,
 * can leave such a job (docs/operations.md has a reproduction). No
 * processor can refuse it: BullMQ never hands it over.
 *
 * BullMQ has no public option for a job it cannot read (neither 5 nor 6:
 * no deserialiser, no hook on fromJSON). `createJob` is its hook for
 * reading a job: protected, meant for subclasses, and the same in 5 and 6
 * but for its argument: BullMQ 5 hands it the job hash as stored
 * (`JobJsonRaw`, the deferred failure in `defa`), BullMQ 6 the hash decoded
 * by its Redis backend (`JobJson`, the deferred failure in
 * `deferredFailure`); `data` is the stored text in both. Here it reads an
 * unreadable job with its text as the data and a deferred failure, the
 * field BullMQ itself checks before calling the processor
 * (`getUnrecoverableErrorMessage`): processJob then fails the job with an
 * UnrecoverableError under the job's own lock, through Job.moveToFailed, as
 * it fails any job. Before that, the text is stored back as a JSON string,
 * so that every BullMQ client (getJob, getFailed, dashboards) can read the
 * failed job, with the text exactly as written.
 *
 * Resting on a protected method, this is tested on the BullMQ versions the
 * package allows at both ends (test/client/peer-range.test.ts) besides the
 * one it is built with (test/queues/job-worker.test.ts, whose first test
 * pins BullMQ's own behaviour: when it fails, BullMQ has changed).
 */
import { Worker, type Job, type JobJson } from 'bullmq';
import type { Redis } from 'ioredis';

/** The start of the failedReason of a job whose data is not JSON. */
export const DATA_NOT_JSON = 'job data is not JSON';

// The parser's message quotes the start of the text, which is untrusted and
// goes to the failed job and the logs: keep it short.
const MAX_DETAIL = 200;

/** Why `text` is not JSON; undefined when it is. */
function jsonProblem(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return message.length > MAX_DETAIL ? `${message.slice(0, MAX_DETAIL)}...` : message;
  }
}

export class JobWorker<DataType = unknown, ResultType = unknown, NameType extends string = string> extends Worker<
  DataType,
  ResultType,
  NameType
> {
  // Jobs read by the fallback below: their data is the stored text.
  private readonly unreadable = new WeakSet<Job>();

  protected override createJob(json: JobJson, jobId: string): Job<DataType, ResultType, NameType> {
    try {
      return super.createJob(json, jobId);
    } catch (err) {
      // BullMQ reads a missing or empty `data` as {}: only a text can fail here.
      const problem = typeof json.data === 'string' ? jsonProblem(json.data) : undefined;
      // Another field that does not parse is not ours to judge: BullMQ's own behaviour.
      if (problem === undefined) throw err;
      const reason = `${DATA_NOT_JSON}: ${problem}`;
      // The deferred failure under both names: `deferredFailure` for BullMQ 6, `defa` for BullMQ 5.
      const readable: JobJson & { defa: string } = {
        ...json,
        data: JSON.stringify(json.data),
        deferredFailure: reason,
        defa: reason,
      };
      const job = super.createJob(readable, jobId);
      this.unreadable.add(job);
      return job;
    }
  }

  protected override async handleFailed(
    err: Error,
    job: Job<DataType, ResultType, NameType>,
    token: string,
    fetchNextCallback?: () => boolean,
    span?: Parameters<Worker['handleFailed']>[4],
  ): Promise<Job<DataType, ResultType, NameType>> {
    if (this.unreadable.has(job)) {
      try {
        // HSET of `data` to the text as a JSON string (Job.updateData).
        await job.updateData(job.data);
      } catch {
        // The job still fails below; a connection error there retries this too.
      }
    }
    return super.handleFailed(err, job, token, fetchNextCallback, span);
  }
}

/**
 * The connection BullMQ opened for a worker's blocking reads, once it is
 * ready, under BullMQ 5 or 6: BullMQ 5's `waitUntilReady` resolves to it;
 * BullMQ 6's to nothing, its Redis backend holding it instead, behind a
 * proxy that forwards the ioredis members (events, status) to it.
 */
export async function blockingConnectionOf(worker: Worker): Promise<Redis> {
  const ready: unknown = await worker.waitUntilReady();
  return (ready ?? (await worker.getBackend().blockingClient)) as Redis;
}
