/**
 * Graceful shutdown, in order: stop taking jobs and let those in flight
 * finish within `shutdown_timeout_ms`; past it, abort them (they return to
 * the queue, src/failure.ts), and past that by 5 s close the workers by force
 * (their locks expire and another worker takes the jobs). Then close what
 * the jobs used, last the Redis connections. Called once; later calls get
 * the same promise.
 */
import type { Worker } from 'bullmq';
import type { Logger } from 'pino';

/** How long after the abort a job that ignores it is left before its worker is closed by force. */
const FORCE_AFTER_ABORT_MS = 5000;

export interface ShutdownParts {
  logger: Logger;
  timeoutMs: number;
  workers: () => Iterable<Worker>;
  /** Fired at the bound: ends model requests, page fetches and waits in flight. */
  abort: AbortController;
  /** Closed in order once the jobs are done (parsing threads, queue depth, HTTP server, connections). */
  afterJobs: ReadonlyArray<() => Promise<void>>;
}

export function createShutdown(parts: ShutdownParts): {
  /** `quiet`: the closing of a start that failed, which the error that ended it tells on its own. */
  shutdown(reason?: string, options?: { quiet?: boolean }): Promise<void>;
  closed: Promise<void>;
} {
  const { timeoutMs } = parts;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let running: Promise<void> | undefined;
  const shutdown = (reason = 'shutdown', options: { quiet?: boolean } = {}) => {
    const logger = options.quiet ? parts.logger.child({}, { level: 'silent' }) : parts.logger;
    running ??= (async () => {
      logger.info({ reason, timeoutMs }, 'shutting down: finishing jobs in flight');
      const workers = [...parts.workers()];
      const closing = Promise.all(workers.map((wk) => wk.close()));
      const timer = setTimeout(() => {
        logger.warn('shutdown bound reached: aborting jobs in flight; they return to the queue');
        parts.abort.abort();
      }, timeoutMs);
      const force = setTimeout(() => {
        logger.error('jobs still running after the abort: closing workers by force; their locks will expire');
        void Promise.all(workers.map((wk) => wk.close(true)));
      }, timeoutMs + FORCE_AFTER_ABORT_MS);
      await closing;
      clearTimeout(timer);
      clearTimeout(force);
      for (const close of parts.afterJobs) await close();
      logger.info('shut down');
      resolveClosed();
    })();
    return running;
  };
  return { shutdown, closed };
}
