/**
 * Redis connections. Only the composition roots (worker runtime, CLI) and the
 * client entry point's classes, for a connection of their own, open them. A
 * target is a single node, or a Redis Cluster reached through one or more of
 * its nodes.
 */
import { Cluster, Redis, type RedisOptions } from 'ioredis';

export interface RedisTarget {
  /** A node URL; for a cluster, node URLs separated by commas. */
  url: string;
  cluster?: boolean | undefined;
}

/**
 * A connection handed to the client entry point (`Publisher`,
 * `EventConsumer`): an ioredis `Redis` or `Cluster`, of ioredis 5 or 6. It is
 * typed by the few members every such client has, not by this package's own
 * ioredis: TypeScript never takes a class of one copy of ioredis for the same
 * class of another, so a user's ioredis 6 connection would not type-check
 * against this package's ioredis 5. At run time the client uses it as an
 * ioredis 5 connection; ioredis 6 answers the commands it sends the same way
 * (its default `replyMapping`, "legacy", keeps RESP2's reply shapes), which
 * test/client/package.test.ts checks with ioredis 6 installed.
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
  // See RedisClient: any ioredis 5 or 6 client, used as ioredis 5's type.
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

function connect(target: RedisTarget | string, options: RedisOptions): Redis {
  const { url, cluster } = typeof target === 'string' ? { url: target, cluster: false } : target;
  if (!cluster) return new Redis(url, options);
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
