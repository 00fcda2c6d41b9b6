/**
 * The worker's Redis connections: each named with its role, host and pid (so
 * CLIENT LIST tells which process holds which), followed by the process's
 * Redis health (its losses logged once per outage, src/logging/redis-health.ts),
 * and all of them closed together at the end.
 */
import { hostname } from 'node:os';
import type { Redis, RedisOptions } from 'ioredis';
import type { Config } from '../config/schema.js';
import type { RedisHealth } from '../logging/redis-health.js';
import { createBlockingConnection } from '../queues/connection.js';

export interface Connections {
  /** Opens a connection for `role` (service, writes, worker:<queue>, review). */
  open(role: string, extra?: RedisOptions): Redis;
  /** Every connection opened so far, by role. */
  readonly all: ReadonlyMap<string, Redis>;
  /** Quits every connection (disconnects one that cannot quit). */
  closeAll(): Promise<void>;
}

export function createConnections(config: Config, health: RedisHealth): Connections {
  const all = new Map<string, Redis>();
  return {
    all,
    open(role, extra = {}) {
      const c = createBlockingConnection(config.redis, {
        connectionName: `cosci-safety:${role}:${hostname()}:${process.pid}`,
        ...extra,
      });
      health.watch(role, c);
      all.set(role, c);
      return c;
    },
    async closeAll() {
      await Promise.all([...all.values()].map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
