/**
 * Queue-depth gauges, read from Redis at scrape time and exported by one
 * process per cluster. Every pod can read the same counts, so if each one
 * exported them a `sum()` on a dashboard would multiply the backlog by the
 * number of pods. In `leader` mode the pods share a lease in Redis: the
 * holder renews it at each scrape and exports; the others export nothing (and
 * drop what they exported while they held it). If the holder stops, its lease
 * runs out and the next pod scraped takes over.
 *
 * A scrape never waits on Redis for long. While Redis is away the service
 * connection holds its commands until it is back, and a scrape that waited
 * for them would never answer: Prometheus would see the worker as gone
 * exactly during the outage. So a scrape waits for the read at most
 * `scrapeBoundMs`; past it, it serves the last values read, and
 * `cosci_safety_queue_depth_stale` says so. The read goes on, and the next
 * scrape gets its values; one read at a time, however many scrapes wait.
 */
import { Queue, type ConnectionOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAMES } from '../contracts/queues.js';
import type { Metrics } from './metrics.js';

/**
 * BullMQ's job states as getJobCounts names them. BullMQ 6 has no `paused`
 * state: a paused queue keeps its jobs waiting, and says it is paused in its
 * meta hash (`cosci_safety_queue_paused`).
 */
export const QUEUE_STATES = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'failed',
  'completed',
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
  /**
   * How long a scrape waits for Redis before it serves the last values read,
   * marked stale. A healthy Redis answers the whole read in milliseconds.
   * @defaultValue 500 ms
   */
  scrapeBoundMs?: number;
  now?: () => number;
}

export interface QueueDepth {
  /** Called before each scrape; resolves within `scrapeBoundMs`, and never rejects. */
  refresh(): Promise<void>;
  /** Releases the lease if held. */
  close(): Promise<void>;
}

export function createQueueDepth(options: QueueDepthOptions): QueueDepth {
  const { redis, prefix, metrics, mode } = options;
  const leaseKey = `${options.keyPrefix}:metrics:queue-depth-exporter`;
  const leaseMs = options.leaseMs ?? 60_000;
  const scrapeBoundMs = options.scrapeBoundMs ?? 500;
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
    metrics.queuePaused.reset();
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

  /** The lease, then every queue's counts: the gauges of one complete read. */
  async function read(): Promise<void> {
    if (mode === 'leader') {
      const held = (await redis.eval(LEASE, 1, leaseKey, options.owner, leaseMs)) === 1;
      if (!held) {
        if (exporting) stopExporting();
        metrics.queueDepthExporter.set(0);
        return;
      }
    }
    const depths = await Promise.all(
      depthQueues().map(async (q) => ({
        queue: q.name,
        counts: await q.getJobCounts(...QUEUE_STATES),
        oldest: await oldestWaitingSeconds(q.name),
        paused: await q.isPaused(),
      })),
    );
    for (const { queue, counts, oldest, paused } of depths) {
      for (const state of QUEUE_STATES) metrics.queueJobs.set({ queue, state }, counts[state] ?? 0);
      metrics.queueOldestWaiting.set({ queue }, oldest);
      metrics.queuePaused.set({ queue }, paused ? 1 : 0);
    }
    exporting = true;
    metrics.queueDepthExporter.set(1);
  }

  /** The read in progress, started by a scrape and awaited by the later ones until it ends; true when it succeeded. */
  let reading: Promise<boolean> | undefined;

  return {
    async refresh() {
      if (mode === 'never') {
        metrics.queueDepthExporter.set(0);
        metrics.queueDepthStale.set(0);
        return;
      }
      if (reading === undefined) {
        const started = read().then(
          () => {
            metrics.queueDepthLastRead.set(now() / 1000);
            return true;
          },
          // The stale gauge tells it; the log tells the outage (src/logging/redis-health.ts).
          () => false,
        );
        reading = started;
        void started.then(() => (reading = undefined));
      }
      const current = reading;
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), scrapeBoundMs);
      });
      const fresh = await Promise.race([current, bound]);
      clearTimeout(timer);
      metrics.queueDepthStale.set(fresh ? 0 : 1);
    },
    async close() {
      await Promise.all((queues ?? []).map((q) => q.close()));
      if (mode === 'leader') await redis.eval(RELEASE, 1, leaseKey, options.owner).catch(() => undefined);
    },
  };
}
