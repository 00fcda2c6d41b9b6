/**
 * `cosci-safety worker`: runs the processors until SIGTERM or SIGINT.
 *
 * Signals: the first SIGTERM or SIGINT starts a graceful shutdown (jobs in
 * flight finish within worker.shutdown_timeout_ms, then are aborted back to
 * the queue); a second one exits at once, since an operator who asks twice
 * means it. SIGHUP is not handled: there is no configuration reload.
 */
import { QUEUE_NAMES, type QueueName } from '../../contracts/queues.js';
import { startWorkerRuntime } from '../../runtime/worker-runtime.js';
import { startTracing } from '../../telemetry/tracing.js';
import { expectPositionals, parseCommand } from '../args.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { parsePortFlag, portUnavailable } from '../port.js';
import { UsageError } from '../usage-error.js';
import { WORKER_USAGE } from '../usage.js';
import { packageVersion } from '../version.js';

export async function runWorker(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand('worker', WORKER_USAGE, args, {
    config: { type: 'string' },
    queues: { type: 'string' },
    concurrency: { type: 'string' },
    port: { type: 'string' },
  });
  expectPositionals('worker', positionals, 0, 'no arguments');
  const worker: Record<string, unknown> = {};
  const metrics: Record<string, unknown> = {};
  // A flag is checked here, as a usage error: the configuration's own check
  // would name the key (worker.queues) of a file the user did not write.
  if (values.queues !== undefined) worker.queues = parseQueues(values.queues);
  if (values.concurrency !== undefined) {
    if (!/^[1-9]\d{0,5}$/.test(values.concurrency))
      throw new UsageError(`worker: --concurrency must be a positive integer, got '${values.concurrency}'`, 'worker');
    worker.concurrency = Number(values.concurrency);
  }
  if (values.port !== undefined) metrics.port = parsePortFlag('worker', values.port);
  const { config, logger } = cliConfig(ctx, values.config, { worker, metrics });
  // Off unless the OTEL_* variables ask for it (docs/tracing.md).
  const tracing = await startTracing(ctx.env, { logger, version: packageVersion() });
  let runtime;
  try {
    runtime = await startWorkerRuntime({ config, logger, tracing });
  } catch (err) {
    // The runtime has closed what it opened, tracing included; what is left is to say why in one line.
    throw portUnavailable(err, config, values.port !== undefined) ?? err;
  }
  if (runtime.http)
    ctx.stderr.write(`cosci-safety worker: metrics on http://${config.metrics.host}:${runtime.http.port}/metrics\n`);

  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(EXIT.interrupted);
    }
    void runtime.shutdown(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  await runtime.closed;
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
  return EXIT.ok;
}

/** The queues named by --queues, comma-separated, each one of QUEUE_NAMES. */
function parseQueues(value: string): QueueName[] {
  const names = value.split(',').map((q) => q.trim());
  for (const name of names) {
    if (!(QUEUE_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(
        `worker: --queues takes queue names, comma-separated, from ${QUEUE_NAMES.join(', ')}; got '${name}'`,
        'worker',
      );
    }
  }
  return names as QueueName[];
}
