/**
 * What finished jobs leave in Redis for Bull Board, Taskforce and anyone who
 * reads the queues: BullMQ's own metrics, and no text of a completed
 * classification job (docs/operations.md#completed-jobs). Real Redis, real
 * BullMQ workers, the real SDK against a loopback Messages API server.
 */
import { createHash } from 'node:crypto';
import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { QueueName } from '../../src/contracts/queues.js';
import { WITHHELD_TEXT } from '../../src/processors/completed-data.js';
import { createVerdictStore, verdictKeys } from '../../src/store/verdict-store.js';
import { eventually } from '../support/poll.js';
import { pipelinesWithFakeModel, type Harness } from '../support/pipeline.js';

const model = pipelinesWithFakeModel();
const harness = model.harness.bind(model);

describe("BullMQ's own metrics", () => {
  it('count completed and failed jobs per queue, as Bull Board reads them', async () => {
    const h = await harness();
    for (const id of ['m-1', 'm-2', 'm-3'])
      await h.publisher.publishHypothesisSaved({ hypothesisId: id, text: 'Kinase signalling in yeast.' });
    const queue = h.publisher.queue('hypothesis.saved');
    // A payload no worker accepts fails for good: one failed job.
    await queue.add('hypothesis.saved', { hypothesisId: 'm-bad', text: 7 }, { jobId: 'm-bad' });
    await h.waitForJob('hypothesis.saved', 'hypothesis.m-3.r0');
    await h.waitForJob('hypothesis.saved', 'm-bad', 'failed');

    const completed = await queue.getMetrics('completed');
    const failed = await queue.getMetrics('failed');
    expect(completed.meta.count).toBe(3);
    expect(failed.meta.count).toBe(1);
  });

  it('are off with worker.bullmq_metrics = false', async () => {
    const h = await harness({ worker: { bullmq_metrics: false } });
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'n-1', text: 'Kinase signalling in yeast.' });
    await h.waitForJob('hypothesis.saved', 'hypothesis.n-1.r0');
    expect((await h.publisher.queue('hypothesis.saved').getMetrics('completed')).meta.count).toBe(0);
  });
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The job once its text is withheld (a moment after it completes). */
async function withheld(h: Harness, queue: QueueName, jobId: string): Promise<Job> {
  await h.waitForJob(queue, jobId);
  return eventually(`${jobId} withheld`, async () => {
    const job = await h.publisher.queue(queue).getJob(jobId);
    return (job?.data as { withheldAt?: string } | undefined)?.withheldAt ? job : undefined;
  });
}

describe('a completed classification job', () => {
  const HAZARD = 'Route to weaponise agent X @@weapons@0.9@@';

  it('keeps no text of a blocked hypothesis: the review queue keeps it, and the job a digest', async () => {
    const h = await harness();
    await h.publisher.publishHypothesisSaved({
      hypothesisId: 'hb',
      title: 'Agent X title',
      text: HAZARD,
      revision: 3,
      goalId: 'g-1',
      runId: 'run-1',
    });
    const job = await withheld(h, 'hypothesis.saved', 'hypothesis.hb.r3');

    expect(JSON.stringify(job.data)).not.toContain('weaponise');
    expect(JSON.stringify(job.data)).not.toContain('Agent X title');
    expect(job.data).toMatchObject({
      hypothesisId: 'hb',
      revision: 3,
      goalId: 'g-1',
      runId: 'run-1',
      text: WITHHELD_TEXT,
      textSha256: sha256(HAZARD),
      title: WITHHELD_TEXT,
      titleSha256: sha256('Agent X title'),
    });
    // The return value never held text; it is as it was.
    expect(job.returnvalue).toMatchObject({ hypothesisId: 'hb', state: 'blocked', verdict: { action: 'block' } });
    // The one place that keeps it, for the person who reviews it.
    const store = createVerdictStore(h.redis, h.config.redis.key_prefix);
    expect(await store.getHeldSubject('hb', 3)).toMatchObject({ text: HAZARD, title: 'Agent X title' });
  });

  it('keeps no text of an allowed hypothesis either', async () => {
    const h = await harness();
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'ha', text: 'Kinase signalling in yeast.' });
    const job = await withheld(h, 'hypothesis.saved', 'hypothesis.ha.r0');
    expect(job.data).toMatchObject({ text: WITHHELD_TEXT, textSha256: sha256('Kinase signalling in yeast.') });
    expect(job.returnvalue).toMatchObject({ state: 'assessed', verdict: { action: 'allow' } });
  });

  it("keeps no text of a goal; the digest's first 16 hex digits are the goal's stored version", async () => {
    const h = await harness();
    const { jobId } = await h.publisher.submitGoal({ goalId: 'gb', text: HAZARD });
    const job = await withheld(h, 'goal.submitted', jobId);
    expect(job.data).toMatchObject({ goalId: 'gb', text: WITHHELD_TEXT, textSha256: sha256(HAZARD) });
    expect(job.returnvalue).toMatchObject({ goalId: 'gb', verdict: { action: 'block' } });
    const store = createVerdictStore(h.redis, h.config.redis.key_prefix);
    expect(await store.getRevision('goal', 'gb', sha256(HAZARD).slice(0, 16))).toMatchObject({ action: 'block' });
  });

  it('keeps no section text of a report; its result keeps the redacted text it was published for', async () => {
    const h = await harness();
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'h-held', text: 'Risky @@dual_use_bio@0.9@@' });
    await h.waitForJob('hypothesis.saved', 'hypothesis.h-held.r0');
    const sections = [{ text: 'Intro to kinases.' }, { text: 'HELD DETAILS of h-held', hypothesisId: 'h-held' }];
    const { jobId } = await h.publisher.finalizeReport({ reportId: 'rep', sections });
    const job = await withheld(h, 'report.finalized', jobId);
    expect(job.data).toMatchObject({
      reportId: 'rep',
      sections: [
        { text: WITHHELD_TEXT, textSha256: sha256('Intro to kinases.') },
        { text: WITHHELD_TEXT, textSha256: sha256('HELD DETAILS of h-held'), hypothesisId: 'h-held' },
      ],
    });
    expect(job.returnvalue).toMatchObject({ outcome: 'redacted', publishable: true });
    expect((job.returnvalue as { text: string }).text).toContain('Intro to kinases.');
    expect((job.returnvalue as { text: string }).text).not.toContain('HELD DETAILS');
  });

  it('keeps its text when it fails, for a retry', async () => {
    const h = await harness();
    const queue = h.publisher.queue('hypothesis.saved');
    // A client that does not validate: the payload fails for good.
    await queue.add('hypothesis.saved', { hypothesisId: 'hf', text: HAZARD, revision: -1 }, { jobId: 'hf' });
    await h.waitForJob('hypothesis.saved', 'hf', 'failed');
    expect((await queue.getJob('hf'))!.data).toEqual({ hypothesisId: 'hf', text: HAZARD, revision: -1 });
  });

  it('run again from a dashboard, re-announces from its stored result with no model call', async () => {
    const h = await harness();
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'hr', text: HAZARD });
    const { jobId } = await h.publisher.submitGoal({ goalId: 'gr', text: HAZARD });
    const jobs = [
      await withheld(h, 'hypothesis.saved', 'hypothesis.hr.r0'),
      await withheld(h, 'goal.submitted', jobId),
    ];
    const requests = model.fake.requests.length;
    const events = (await h.events()).length;

    for (const job of jobs) {
      const queue = job.queueName as QueueName;
      await job.retry('completed');
      await h.waitForJob(queue, job.id!);
      const again = (await h.publisher.queue(queue).getJob(job.id!))!;
      expect(again.attemptsMade).toBe(job.attemptsMade + 1);
      expect(again.returnvalue).toMatchObject({ verdict: { action: 'block' } });
      expect(again.data).toMatchObject({ text: WITHHELD_TEXT, textSha256: sha256(HAZARD) });
    }
    expect(model.fake.requests).toHaveLength(requests);
    // Every event is announced once: the dedupe memory still holds them.
    expect(await h.events()).toHaveLength(events);
  });

  it('run again once its stored result is gone, fails for good instead of classifying the marker', async () => {
    const h = await harness();
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'hg', text: HAZARD });
    const job = await withheld(h, 'hypothesis.saved', 'hypothesis.hg.r0');
    const requests = model.fake.requests.length;
    await h.redis.del(verdictKeys(h.config.redis.key_prefix).revision('hypothesis', 'hg', 0));

    await job.retry('completed');
    await h.waitForJob('hypothesis.saved', 'hypothesis.hg.r0', 'failed');
    const failed = (await h.publisher.queue('hypothesis.saved').getJob('hypothesis.hg.r0'))!;
    expect(failed.failedReason).toMatch(
      /^hypothesis\.saved job data was withheld when the job completed .* cannot run again without its text$/,
    );
    // Failed for good: one attempt more than the run that completed, no retries.
    expect(failed.attemptsMade).toBe(job.attemptsMade + 1);
    expect(model.fake.requests).toHaveLength(requests);
  });
});
