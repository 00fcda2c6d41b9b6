/**
 * The process's Redis connections as one story in the log. While Redis is
 * away each connection reports every failed reconnect (ioredis's 'error'),
 * and BullMQ forwards its workers' connection errors as well: about 20 lines
 * a second from a worker of four queues, which bury everything else. Here an
 * outage is three kinds of line instead:
 *
 * - `redis connection lost`, once, naming the connections it took and the
 *   first error (written `settleMs` after the first connection drops, so that
 *   the others, which drop a moment later, are named too);
 * - `redis reconnecting`, with the attempts so far, at most every
 *   `reminderMs`;
 * - `redis connection back`, with the outage's length, once every connection
 *   is ready again.
 *
 * /readyz reports each connection's state as before (runtime/readiness.ts).
 */
import { isNotConnectionError } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface RedisHealthOptions {
  logger: Logger;
  /**
   * How long after the first connection drops the `lost` line waits, to
   * name every connection the outage took.
   * @defaultValue 1000
   */
  settleMs?: number;
  /**
   * Least time between two `reconnecting` lines of one outage.
   * @defaultValue 30_000
   */
  reminderMs?: number;
  now?: () => number;
}

export interface RedisHealth {
  /** Follows a connection under a name (service, writes, worker:QUEUE, ...). */
  watch(role: string, connection: Redis): void;
  /**
   * An error reported by someone else (a BullMQ worker's 'error'): true when
   * it is a connection failure, which the outage lines cover (it joins the
   * outage under `role`); false when the caller should log it itself.
   */
  report(role: string, err: Error): boolean;
  /** Whether an outage is in progress. */
  readonly degraded: boolean;
  /** Stops following: connections closed on purpose at shutdown are no outage. */
  stop(): void;
}

/** Socket errors: each one ends its connection, which then reconnects. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** A lost or refused connection, as ioredis and BullMQ report it. */
export function isConnectionError(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  return (typeof code === 'string' && NETWORK_CODES.has(code)) || !isNotConnectionError(err);
}

interface Outage {
  since: number;
  /** Every connection the outage took, in the order they dropped. */
  affected: Set<string>;
  firstError: string | undefined;
  announced: boolean;
  lastLine: number;
  timer: NodeJS.Timeout | undefined;
}

export function createRedisHealth(options: RedisHealthOptions): RedisHealth {
  const { logger } = options;
  const settleMs = options.settleMs ?? 1000;
  const reminderMs = options.reminderMs ?? 30_000;
  const now = options.now ?? Date.now;
  const watched = new Map<string, Redis>();
  /** Watched connections down now, with their reconnect attempts in this outage. */
  const down = new Map<string, number>();
  let outage: Outage | undefined;
  let stopped = false;

  const attempts = () => Math.max(0, ...down.values());

  function announce(o: Outage): void {
    if (o.announced) return;
    o.announced = true;
    clearTimeout(o.timer);
    o.lastLine = now();
    logger.warn({ connections: [...o.affected], err: o.firstError }, 'redis connection lost');
  }

  function remind(o: Outage): void {
    if (!o.announced || now() - o.lastLine < reminderMs) return;
    o.lastLine = now();
    logger.warn(
      { connections: [...down.keys()], attempts: attempts(), downSeconds: Math.round((now() - o.since) / 1000) },
      'redis reconnecting',
    );
  }

  /** A connection that came back without a 'ready' we saw (one reported by someone else) is not down. */
  function reconcile(): void {
    for (const role of down.keys()) if (watched.get(role)?.status === 'ready') down.delete(role);
  }

  function failed(role: string, err?: Error): void {
    if (stopped) return;
    if (!outage) {
      outage = {
        since: now(),
        affected: new Set(),
        firstError: undefined,
        announced: false,
        lastLine: 0,
        timer: undefined,
      };
      const o = outage;
      o.timer = setTimeout(() => {
        announce(o);
        // Everything came back within the settling time: a short outage, told whole.
        reconcile();
        if (down.size === 0) recovered();
      }, settleMs);
      o.timer.unref();
    }
    outage.affected.add(role);
    outage.firstError ??= err?.message;
  }

  function recovered(): void {
    const o = outage;
    if (!o || down.size > 0) return;
    outage = undefined;
    announce(o);
    logger.info(
      { connections: [...o.affected], downSeconds: Math.round((now() - o.since) / 100) / 10 },
      'redis connection back',
    );
  }

  return {
    get degraded() {
      return outage !== undefined;
    },
    watch(role, c) {
      watched.set(role, c);
      c.on('error', (err: Error) => {
        if (stopped) return;
        // A socket error ends the connection even while it reads 'ready'; any
        // error before 'ready' is a failed (re)connect.
        if (c.status !== 'ready' || isConnectionError(err)) {
          down.set(role, down.get(role) ?? 0);
          failed(role, err);
        } else {
          logger.warn({ role, err: err.message }, 'redis connection error');
        }
      });
      c.on('reconnecting', () => {
        if (stopped) return;
        down.set(role, (down.get(role) ?? 0) + 1);
        failed(role);
        remind(outage!);
      });
      c.on('ready', () => {
        if (!down.delete(role)) return;
        recovered();
      });
    },
    report(role, err) {
      if (!isConnectionError(err)) return false;
      failed(role, err);
      if (outage?.announced) {
        reconcile();
        remind(outage);
        recovered();
      }
      return true;
    },
    stop() {
      stopped = true;
      clearTimeout(outage?.timer);
    },
  };
}
