/**
 * Queue-depth gauges, read from Redis at scrape time and exported by one
 * process per cluster. Every pod can read the same counts, so if each one
 * exported them a `sum()` on a dashboard would multiply the backlog by the
 * number of pods. In `leader` mode the pods share a lease in Redis: the
 * holder renews it at each scrape and exports; the others export nothing (and
 * drop what they exported while they held it). If the holder stops, its lease
 * runs out and the next pod scraped takes over.
 */
import { Queue, type ConnectionOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAMES } from '../contracts/queues.js';
import type { Metrics } from './metrics.js';

/** BullMQ's job states as getJobCounts names them. */
export const QUEUE_STATES = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'failed',
  'completed',
  'paused',
] as const;

/** Takes or renews the lease: 1 when `owner` holds it afterwards. */
const LEASE = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

export type DepthMode = 'leader' | 'always' | 'never';

export interface QueueDepthOptions {
  redis: Redis;
  /** BullMQ's key prefix. */
  prefix: string;
  /** The service's key prefix; the lease lives under it. */
  keyPrefix: string;
  mode: DepthMode;
  metrics: Metrics;
  /** Unique per process. */
  owner: string;
  /** Lease length; several scrape intervals. @defaultValue 60 s */
  leaseMs?: number;
  now?: () => number;
}

export interface QueueDepth {
  /** Called before each scrape. */
  refresh(): Promise<void>;
  /** Releases the lease if held. */
  close(): Promise<void>;
}

export function createQueueDepth(options: QueueDepthOptions): QueueDepth {
  const { redis, prefix, metrics, mode } = options;
  const leaseKey = `${options.keyPrefix}:metrics:queue-depth-exporter`;
  const leaseMs = options.leaseMs ?? 60_000;
  const now = options.now ?? Date.now;
  // Every queue of the cluster, not only this process's: roles split by
  // --queues still see one backlog. Made at the first scrape, not at start:
  // a process that is never scraped opens nothing for them.
  let queues: Queue[] | undefined;
  const depthQueues = (): Queue[] =>
    (queues ??= QUEUE_NAMES.map((name) => new Queue(name, { connection: redis as ConnectionOptions, prefix })));
  let exporting = false;

  function stopExporting(): void {
    metrics.queueJobs.reset();
    metrics.queueOldestWaiting.reset();
    exporting = false;
  }

  /** Age of the oldest job in the wait list (BullMQ adds at the left and takes from the right). */
  async function oldestWaitingSeconds(queue: string): Promise<number> {
    const base = `${prefix}:${queue}`;
    const [id] = await redis.lrange(`${base}:wait`, -1, -1);
    if (id === undefined) return 0;
    const timestamp = Number(await redis.hget(`${base}:${id}`, 'timestamp'));
    return Number.isFinite(timestamp) && timestamp > 0 ? Math.max(0, (now() - timestamp) / 1000) : 0;
  }

  return {
    async refresh() {
      if (mode === 'never') {
        metrics.queueDepthExporter.set(0);
        return;
      }
      if (mode === 'leader') {
        const held = (await redis.eval(LEASE, 1, leaseKey, options.owner, leaseMs)) === 1;
        if (!held) {
          if (exporting) stopExporting();
          metrics.queueDepthExporter.set(0);
          return;
        }
      }
      for (const q of depthQueues()) {
        const counts = await q.getJobCounts(...QUEUE_STATES);
        for (const state of QUEUE_STATES) metrics.queueJobs.set({ queue: q.name, state }, counts[state] ?? 0);
        metrics.queueOldestWaiting.set({ queue: q.name }, await oldestWaitingSeconds(q.name));
      }
      exporting = true;
      metrics.queueDepthExporter.set(1);
    },
    async close() {
      await Promise.all((queues ?? []).map((q) => q.close()));
      if (mode === 'leader') await redis.eval(RELEASE, 1, leaseKey, options.owner).catch(() => undefined);
    },
  };
}
