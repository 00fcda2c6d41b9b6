/**
 * Redis connections. Only the composition roots (worker runtime, CLI) and the
 * client entry point's classes, for a connection of their own, open them. A
 * target is a single node, or a Redis Cluster reached through one or more of
 * its nodes.
 */
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { redisDatabase } from '../config/redis-url.js';
import { ConfigError } from '../errors.js';
import { redactUrl } from '../logging/logger.js';

export interface RedisTarget {
  /** A node URL; for a cluster, node URLs separated by commas. */
  url: string;
  cluster?: boolean | undefined;
}

/**
 * A connection handed to the client entry point (`Publisher`,
 * `EventConsumer`): an ioredis `Redis` or `Cluster`, of ioredis 5 or 6. It is
 * typed by the few members every such client has, not by an ioredis class:
 * ioredis is a peer dependency, so the project's own copy is the one this
 * package uses, but TypeScript never takes a class of one copy of ioredis for
 * the same class of another, and a project may still hold two (one of them
 * nested under a package that pins its own). The client's code is checked
 * against the ioredis it is built with (6) and sends only commands that
 * ioredis 5 answers as ioredis 6 does with its default `replyMapping`,
 * "legacy" (RESP2's reply shapes). test/client/peer-range.test.ts runs the
 * client on both ends of the range package.json allows.
 */
export interface RedisClient {
  readonly status: string;
  connect(): Promise<void>;
  disconnect(reconnect?: boolean): void;
  quit(): Promise<unknown>;
  duplicate(...args: never[]): unknown;
  call(command: string, ...args: Array<string | number | Buffer>): Promise<unknown>;
}

/** What the client entry point accepts: a connection, or where to open one of its own. */
export type ClientConnection = RedisClient | RedisTarget | string;

/** The connection given, or undefined when `connection` says where to open one. */
export function givenClient(connection: ClientConnection): Redis | undefined {
  if (typeof connection === 'string' || !('duplicate' in connection)) return undefined;
  // See RedisClient: any ioredis 5 or 6 client, used as this package's ioredis type.
  return connection as unknown as Redis;
}

function clusterNodes(url: string): Array<{ host: string; port: number }> {
  return url
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean)
    .map((u) => {
      const parsed = new URL(u);
      return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || 6379) };
    });
}

/**
 * How often a lost connection tries again: 50 ms more each time, then every
 * 2 s. ioredis 5's default, kept under ioredis 6, whose own waits up to 5 s:
 * a worker back on Redis 2 s after it is (docs/operations.md#while-redis-is-away).
 */
function reconnectDelay(times: number): number {
  return Math.min(times * 50, 2000);
}

function connect(target: RedisTarget | string, given: RedisOptions): Redis {
  const options: RedisOptions = { retryStrategy: reconnectDelay, ...given };
  const { url, cluster } = typeof target === 'string' ? { url: target, cluster: false } : target;
  if (!cluster) return guardDatabase(new Redis(url, options), url);
  const first = new URL(url.split(',')[0]!.trim());
  const { enableOfflineQueue, enableReadyCheck, enableAutoPipelining, ...nodeOptions } = options;
  const auth = {
    ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
    ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
    ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
  };
  // A Cluster answers the commands this service sends as a Redis does; the
  // type differs only in what a single node has and a cluster has not.
  return new Cluster(clusterNodes(url), {
    redisOptions: { ...auth, ...nodeOptions },
    ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
    ...(enableReadyCheck === undefined ? {} : { enableReadyCheck }),
    // A cluster batches per node itself: the option belongs to it, not to its nodes.
    ...(enableAutoPipelining === undefined ? {} : { enableAutoPipelining }),
  }) as unknown as Redis;
}

const refusals = new WeakMap<Redis, ConfigError>();

/** Why the server refused the connection's database, when it did (the connection has then ended). */
export function databaseRefusal(connection: Redis): ConfigError | undefined {
  return refusals.get(connection);
}

/**
 * Resolves once the connection is ready in its database; rejects with the
 * refusal when the server has no such database, or when the connection ends.
 * Waits for a Redis that is away, as long as the connection does.
 */
export function databaseSelected(connection: Redis): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = () => {
      const refusal = refusals.get(connection);
      if (refusal === undefined && connection.status !== 'ready' && connection.status !== 'end') return;
      connection.off('ready', settle);
      connection.off('end', settle);
      if (refusal !== undefined) reject(refusal);
      else if (connection.status === 'ready') resolve();
      else reject(new Error('the Redis connection was closed'));
    };
    connection.on('ready', settle);
    connection.on('end', settle);
    settle();
  });
}

/**
 * A connection that the server refuses its database ends, with a
 * ConfigError as its last 'error' (which the command line and the worker
 * report in one line). ioredis sends SELECT as it connects and, when that
 * fails (an index past the server's `databases`, 16 by default), only emits
 * the error and goes on in database 0: another deployment's queues and
 * verdicts. The SELECT's answer comes before the ready check's, so the
 * connection ends before any command of ours is sent. BullMQ duplicates a
 * connection for its blocking reads: the duplicates are guarded too.
 */
function guardDatabase(connection: Redis, url: string): Redis {
  const db = redisDatabase(url);
  if (db === undefined || db === 0) return connection;
  connection.on('error', (err: Error & { command?: { name?: string } }) => {
    if (err.command?.name !== 'select' || refusals.has(connection)) return;
    const refusal = new ConfigError(
      `redis.url: Redis at ${redactUrl(url)} has no database ${db} (SELECT: ${err.message}); ` +
        "the URL's path must be below the server's databases setting (16 by default)",
    );
    refusals.set(connection, refusal);
    connection.disconnect();
    // After the listeners still to hear the SELECT's error: this one is the last word.
    process.nextTick(() => connection.emit('error', refusal));
  });
  const duplicate = connection.duplicate.bind(connection);
  connection.duplicate = (override?: Partial<RedisOptions>) => guardDatabase(duplicate(override), url);
  return connection;
}

/**
 * A connection for BullMQ workers and blocking reads: BullMQ requires
 * maxRetriesPerRequest null there, so commands wait for a reconnect instead
 * of failing.
 */
export function createBlockingConnection(target: RedisTarget | string, options: RedisOptions = {}): Redis {
  return connect(target, { maxRetriesPerRequest: null, enableReadyCheck: true, ...options });
}

/**
 * A connection for publishers and one-off commands: fails fast with a clear
 * error while Redis is away, instead of queueing the command.
 */
export function createFailFastConnection(target: RedisTarget | string, options: RedisOptions = {}): Redis {
  // A client that never reached Redis gives up after a few tries: BullMQ
  // waits for the connection to be ready before it sends anything, so with
  // ioredis's endless reconnects a publish to a down Redis would hang instead
  // of failing. Once it has been ready it reconnects as usual.
  let everReady = false;
  const connection = connect(target, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 5000,
    retryStrategy: (times) => (everReady ? Math.min(times * 200, 2000) : times > 2 ? null : 200),
    ...options,
  });
  connection.once('ready', () => {
    everReady = true;
  });
  return connection;
}

/**
 * A connection for the event consumer (src/events/consumer.ts): it blocks on
 * its reads, and a command fails after one reconnect instead of waiting for
 * Redis without end, so that the consumer reports the outage; the connection
 * itself goes on reconnecting.
 */
export function createConsumerConnection(target: RedisTarget | string, options: RedisOptions = {}): Redis {
  return connect(target, { maxRetriesPerRequest: 1, ...options });
}
