/**
 * Queue-depth gauges exported once per cluster: a lease in real Redis decides
 * which process exports them, and the others export nothing.
 */
import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '../../src/contracts/queues.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { createQueueDepth } from '../../src/metrics/queue-depth.js';
import { testConfig } from '../support/config.js';
import { until } from '../support/poll.js';
import { deleteKeys, testRedis, uniqueName } from '../support/redis.js';
import { startHarness } from '../support/pipeline.js';

const redis = testRedis();
const prefixes: string[] = [];
afterAll(async () => {
  await deleteKeys(redis, ...prefixes);
  redis.disconnect();
});

async function gauge(metrics: ReturnType<typeof createMetrics>, name: string) {
  const all = await metrics.registry.getMetricsAsJSON();
  return all.find((m) => m.name === name)!.values as Array<{ labels: Record<string, string>; value: number }>;
}

describe('queue depth', () => {
  it('is exported by the lease holder only, and by another process when the holder goes', async () => {
    const prefix = uniqueName('qd');
    prefixes.push(prefix);
    const a = createMetrics();
    const b = createMetrics();
    const common = { redis, prefix: `${prefix}-bull`, keyPrefix: `${prefix}-k`, mode: 'leader' as const, leaseMs: 300 };
    const depthA = createQueueDepth({ ...common, metrics: a, owner: 'a' });
    const depthB = createQueueDepth({ ...common, metrics: b, owner: 'b' });
    const queue = new Queue('hypothesis.saved', { connection: redis, prefix: `${prefix}-bull` });
    await queue.add('hypothesis.saved', { x: 1 });
    await queue.add('hypothesis.saved', { x: 2 });

    await depthA.refresh();
    await depthB.refresh();
    expect((await gauge(a, 'cosci_safety_queue_depth_exporter'))[0]!.value).toBe(1);
    expect((await gauge(b, 'cosci_safety_queue_depth_exporter'))[0]!.value).toBe(0);
    const waiting = (await gauge(a, 'cosci_safety_queue_jobs')).find(
      (v) => v.labels.queue === 'hypothesis.saved' && v.labels.state === 'waiting',
    );
    expect(waiting?.value).toBe(2);
    // Every queue of the cluster, whatever this process works on.
    expect(new Set((await gauge(a, 'cosci_safety_queue_jobs')).map((v) => v.labels.queue))).toEqual(
      new Set(QUEUE_NAMES),
    );
    expect(await gauge(b, 'cosci_safety_queue_jobs')).toEqual([]);

    // The holder renews at each scrape; without scrapes its lease (300 ms) runs out and the next process takes over.
    await until(
      'b takes the lease over',
      async () => {
        await depthB.refresh();
        return (await gauge(b, 'cosci_safety_queue_depth_exporter'))[0]!.value === 1;
      },
      { timeoutMs: 5000 },
    );
    await depthA.refresh();
    expect((await gauge(a, 'cosci_safety_queue_depth_exporter'))[0]!.value).toBe(0);
    expect(await gauge(a, 'cosci_safety_queue_jobs')).toEqual([]);

    // Closing releases the lease at once.
    await depthB.close();
    await depthA.refresh();
    expect((await gauge(a, 'cosci_safety_queue_depth_exporter'))[0]!.value).toBe(1);
    await depthA.close();
    await queue.close();
  });

  it('reports the age of the oldest waiting job', async () => {
    const prefix = uniqueName('qd');
    prefixes.push(prefix);
    const metrics = createMetrics();
    const queue = new Queue('goal.submitted', { connection: redis, prefix: `${prefix}-bull` });
    const first = await queue.add('goal.submitted', { x: 1 });
    // A minute newer, whatever the clock: the age must be the first job's.
    await queue.add('goal.submitted', { x: 2 }, { timestamp: first.timestamp + 60_000 });
    const at = first.timestamp + 90_000;
    const depth = createQueueDepth({
      redis,
      prefix: `${prefix}-bull`,
      keyPrefix: `${prefix}-k`,
      mode: 'always',
      metrics,
      owner: 'x',
      now: () => at,
    });
    await depth.refresh();
    const ages = await gauge(metrics, 'cosci_safety_queue_oldest_waiting_seconds');
    expect(ages.find((v) => v.labels.queue === 'goal.submitted')?.value).toBe(90);
    expect(ages.find((v) => v.labels.queue === 'hypothesis.saved')?.value).toBe(0);
    await depth.close();
    await queue.close();
  });

  it('says which queues are paused, whose jobs count as waiting', async () => {
    const prefix = uniqueName('qd');
    prefixes.push(prefix);
    const metrics = createMetrics();
    const queue = new Queue('review.recorded', { connection: redis, prefix: `${prefix}-bull` });
    await queue.add('review.recorded', { x: 1 });
    await queue.pause();
    const depth = createQueueDepth({
      redis,
      prefix: `${prefix}-bull`,
      keyPrefix: `${prefix}-k`,
      mode: 'always',
      metrics,
      owner: 'x',
    });
    await depth.refresh();
    const paused = await gauge(metrics, 'cosci_safety_queue_paused');
    expect(paused.find((v) => v.labels.queue === 'review.recorded')?.value).toBe(1);
    expect(paused.find((v) => v.labels.queue === 'goal.submitted')?.value).toBe(0);
    const jobs = await gauge(metrics, 'cosci_safety_queue_jobs');
    expect(jobs.find((v) => v.labels.queue === 'review.recorded' && v.labels.state === 'waiting')?.value).toBe(1);
    expect(jobs.some((v) => v.labels.state === 'paused')).toBe(false);
    await queue.resume();
    await depth.refresh();
    const resumed = await gauge(metrics, 'cosci_safety_queue_paused');
    expect(resumed.find((v) => v.labels.queue === 'review.recorded')?.value).toBe(0);
    await depth.close();
    await queue.close();
  });

  it('two workers of one cluster: exactly one exports the depth on /metrics', async () => {
    const config = testConfig(undefined);
    prefixes.push(config.redis.prefix, config.redis.key_prefix);
    const one = await startHarness(config);
    const two = await startHarness(config);
    try {
      const bodies = await Promise.all(
        [one, two].map(async (h) => (await fetch(`http://127.0.0.1:${h.runtime.http!.port}/metrics`)).text()),
      );
      const exporters = bodies.filter((b) => /^cosci_safety_queue_depth_exporter 1$/m.test(b));
      expect(exporters).toHaveLength(1);
      expect(bodies.filter((b) => /^cosci_safety_queue_jobs\{/m.test(b))).toHaveLength(1);
    } finally {
      await one.stop();
      await two.stop();
    }
  });
});
