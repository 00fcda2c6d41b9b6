/** Redis connections. Only the composition roots (worker runtime, CLI, publisher factory) open them. */
import { Redis, type RedisOptions } from 'ioredis';

/**
 * A connection for BullMQ workers and blocking reads: BullMQ requires
 * maxRetriesPerRequest null there, so commands wait for a reconnect instead
 * of failing.
 */
export function createBlockingConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, ...options });
}

/**
 * A connection for publishers and one-off commands: fails fast with a clear
 * error while Redis is away, instead of queueing the command.
 */
export function createFailFastConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 5000, ...options });
}
