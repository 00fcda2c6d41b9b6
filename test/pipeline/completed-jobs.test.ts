/**
 * What finished jobs leave in Redis for Bull Board, Taskforce and anyone who
 * reads the queues: BullMQ's own metrics. Real Redis, real BullMQ workers,
 * the real SDK against a loopback Messages API server.
 */
import { describe, expect, it } from 'vitest';
import { pipelinesWithFakeModel } from '../support/pipeline.js';

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
