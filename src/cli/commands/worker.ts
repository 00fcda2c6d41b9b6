/**
 * `cosci-safety worker`: runs the processors until SIGTERM or SIGINT.
 *
 * Signals: the first SIGTERM or SIGINT starts a graceful shutdown (jobs in
 * flight finish within worker.shutdown_timeout_ms, then are aborted back to
 * the queue); a second one exits at once, since an operator who asks twice
 * means it. SIGHUP is not handled: there is no configuration reload.
 */
import { parseArgs } from 'node:util';
import { QUEUE_NAMES } from '../../contracts/queues.js';
import { startWorkerRuntime } from '../../runtime/worker-runtime.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../usage-error.js';

export const WORKER_USAGE = `cosci-safety worker [--config FILE] [--queues a,b] [--concurrency N] [--port N]
  Runs the classification processors against Redis until SIGTERM/SIGINT.
  --queues        which queues this process works on (${QUEUE_NAMES.join(', ')})
  --concurrency   jobs in flight per queue
  --port          port of /metrics, /healthz, /readyz (0: any free port)`;

export async function runWorker(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      config: { type: 'string' },
      queues: { type: 'string' },
      concurrency: { type: 'string' },
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    ctx.stdout.write(WORKER_USAGE + '\n');
    return 0;
  }
  const worker: Record<string, unknown> = {};
  const metrics: Record<string, unknown> = {};
  if (values.queues !== undefined)
    worker.queues = values.queues
      .split(',')
      .map((q) => q.trim())
      .filter(Boolean);
  if (values.concurrency !== undefined) {
    if (!/^\d+$/.test(values.concurrency)) throw new UsageError('worker: --concurrency must be a positive integer');
    worker.concurrency = Number(values.concurrency);
  }
  if (values.port !== undefined) {
    if (!/^\d+$/.test(values.port)) throw new UsageError('worker: --port must be a number');
    metrics.port = Number(values.port);
  }
  const { config, logger } = cliConfig(ctx, values.config, { worker, metrics });
  const runtime = await startWorkerRuntime({ config, logger });
  if (runtime.http)
    ctx.stderr.write(`cosci-safety worker: metrics on http://${config.metrics.host}:${runtime.http.port}/metrics\n`);

  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(130);
    }
    void runtime.shutdown(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  await runtime.closed;
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
  return 0;
}
