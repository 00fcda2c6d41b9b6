/**
 * The command line's Redis connections. A command must end, with one line
 * and exit code 5, when Redis is down, frozen or misaddressed: each connection
 * here gives up on connecting within a bound, fails a command instead of
 * queueing it while Redis is away, bounds every command, and has an 'error'
 * listener (without one, ioredis prints "Unhandled error event" on every
 * reconnect). The worker's connections, in src/runtime/, wait for Redis
 * instead: a service outlives an outage, a command does not.
 */
import type { Redis } from 'ioredis';
import type { Config } from '../config/schema.js';
import { CosciError } from '../errors.js';
import { redactUrl } from '../logging/logger.js';
import { createBlockingConnection, createFailFastConnection, databaseRefusal } from '../queues/connection.js';
import { isUnreachable } from '../review/availability.js';

/** How long a command tries to reach Redis before it gives up with REDIS_UNAVAILABLE. */
export const REDIS_CONNECT_BOUND_MS = 5000;

/** The longest one Redis command may take; longer than any blocking read a command makes (1 s). */
const COMMAND_TIMEOUT_MS = 5000;

/**
 * How long closing waits for Redis to close its side before it drops the
 * socket: a Redis that is frozen never does, and ioredis's default (2 s)
 * would keep the finished command alive.
 */
const DISCONNECT_TIMEOUT_MS = 100;

function unavailable(config: Config, why: string, cause?: unknown): CosciError {
  return new CosciError('REDIS_UNAVAILABLE', `Redis at ${redactUrl(config.redis.url)} is unreachable: ${why}`, {
    cause,
  });
}

/**
 * A connection that is ready, or REDIS_UNAVAILABLE within `timeoutMs`
 * (a refused connection fails after three tries, in well under a second).
 */
export async function openRedis(config: Config, timeoutMs = REDIS_CONNECT_BOUND_MS): Promise<Redis> {
  const connection = createFailFastConnection(config.redis, {
    connectTimeout: Math.max(1, Math.min(timeoutMs, REDIS_CONNECT_BOUND_MS)),
    commandTimeout: COMMAND_TIMEOUT_MS,
    disconnectTimeout: DISCONNECT_TIMEOUT_MS,
  });
  let lastError: Error | undefined;
  connection.on('error', (err: Error) => {
    lastError = err;
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(unavailable(config, `${lastError?.message ?? 'no answer'} (gave up after ${timeoutMs} ms)`)),
        timeoutMs,
      );
      connection.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
      connection.once('end', () => {
        clearTimeout(timer);
        // A database the server does not have: no retry helps, the URL must change.
        reject(
          databaseRefusal(connection) ?? unavailable(config, lastError?.message ?? 'connection closed', lastError),
        );
      });
    });
  } catch (err) {
    connection.disconnect();
    throw err;
  }
  return connection;
}

/**
 * A connection for BullMQ's QueueEvents, which needs one that waits out a
 * reconnect (no bound per command). It still gives up after a few failed
 * reconnects, so that closing it never waits for a Redis that is gone; the
 * command's own deadline bounds the rest. QueueEvents connects a duplicate
 * of it: this one stays lazy and never opens a socket of its own.
 */
export function openBlockingRedis(config: Config): Redis {
  const connection = createBlockingConnection(config.redis, {
    lazyConnect: true,
    connectTimeout: REDIS_CONNECT_BOUND_MS,
    disconnectTimeout: DISCONNECT_TIMEOUT_MS,
    retryStrategy: (times) => (times > 3 ? null : 200 * times),
  });
  connection.on('error', () => undefined);
  return connection;
}

/** Runs `fn` on a ready connection; Redis lost on the way is REDIS_UNAVAILABLE; the connection is closed after. */
export async function withRedis<T>(
  config: Config,
  fn: (redis: Redis) => Promise<T>,
  timeoutMs = REDIS_CONNECT_BOUND_MS,
): Promise<T> {
  const redis = await openRedis(config, timeoutMs);
  try {
    return await fn(redis);
  } catch (err) {
    if (!(err instanceof CosciError) && isUnreachable(err)) throw unavailable(config, (err as Error).message, err);
    throw err;
  } finally {
    redis.disconnect();
  }
}
