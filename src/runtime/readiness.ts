/**
 * /readyz: what keeps this process from doing its work, as a list of
 * problems (empty when ready).
 */
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';

const PING_BOUND_MS = 2000;

export function createReadiness(parts: {
  /** The connections whose loss stops the work, by the name the probe reports. */
  connections: ReadonlyArray<readonly [string, Redis]>;
  workers: ReadonlyMap<string, Worker>;
  stopping: () => boolean;
}): () => Promise<string[]> {
  return async () => {
    const problems: string[] = [];
    if (parts.stopping()) problems.push('shutting down');
    // These connections wait out a reconnect instead of failing, so a ping
    // while Redis is away would hang the probe: ask only a ready connection,
    // and bound even that.
    for (const [name, c] of parts.connections) {
      if (c.status !== 'ready') {
        problems.push(`${name} ${c.status}`);
        continue;
      }
      try {
        await Promise.race([
          c.ping(),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error('no answer to PING within 2 s')), PING_BOUND_MS).unref(),
          ),
        ]);
      } catch (err) {
        problems.push(`${name}: ${(err as Error).message}`);
      }
    }
    for (const [queue, worker] of parts.workers) if (!worker.isRunning()) problems.push(`worker ${queue} not running`);
    return problems;
  };
}
