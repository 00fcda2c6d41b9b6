/**
 * `cosci-safety dev`: everything a try needs, on this machine, until Ctrl-C.
 * A private redis-server (src/cli/dev/redis-server.ts) as a child process,
 * and in this process the worker of `cosci-safety worker`, which serves the
 * review page with a token made for the run. It prints where each is and
 * three commands to try (src/cli/dev/banner.ts).
 *
 * Signals: the first SIGINT, SIGTERM or SIGHUP stops the worker gracefully
 * (as `worker` does), then redis-server, then removes its folder, and the
 * command exits 0. A second one kills redis-server, removes the folder and
 * exits at once (130). SIGHUP is heard, unlike in `worker`, because a closed
 * terminal must not leave a redis-server running on its own.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { startWorkerRuntime, type WorkerRuntime } from '../../runtime/worker-runtime.js';
import { expectPositionals, parseCommand } from '../args.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { devBanner } from '../dev/banner.js';
import { findOnPath, redisServerMissing, startPrivateRedis, type PrivateRedis } from '../dev/redis-server.js';
import { EXIT } from '../exit-codes.js';
import { parsePortFlag, portUnavailable } from '../port.js';
import { DEV_USAGE } from '../usage.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The page's host: this machine only, whatever metrics.host says, since the try's token is printed. */
const PAGE_HOST = '127.0.0.1';

export async function runDev(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand('dev', DEV_USAGE, args, {
    config: { type: 'string' },
    port: { type: 'string' },
  });
  expectPositionals('dev', positionals, 0, 'no arguments');
  const metrics: Record<string, unknown> = { enabled: true, host: PAGE_HOST };
  if (values.port !== undefined) metrics.port = parsePortFlag('dev', values.port);
  const executable = findOnPath('redis-server', ctx.env.PATH);
  if (executable === undefined) throw redisServerMissing();

  let redis: PrivateRedis | undefined;
  let runtime: WorkerRuntime | undefined;
  let stopRequested: (signal: NodeJS.Signals) => void = () => undefined;
  const stopped = new Promise<NodeJS.Signals>((resolve) => (stopRequested = resolve));
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals > 1) {
      redis?.killNow();
      process.exit(EXIT.interrupted);
    }
    stopRequested(signal);
  };
  // From the start: a Ctrl-C while redis-server starts must still stop it.
  for (const s of SIGNALS) process.on(s, onSignal);
  try {
    redis = await startPrivateRedis(executable, ctx.env);
    const token = randomBytes(24).toString('base64url');
    const { config, logger, file } = cliConfig(ctx, values.config, {
      // The private Redis, whatever REDIS_URL and the file say.
      redis: { url: redis.url, cluster: false },
      review: { api_token: token },
      metrics,
    });
    if (signals > 0) return EXIT.ok;
    try {
      runtime = await startWorkerRuntime({ config, logger });
    } catch (err) {
      throw portUnavailable(err, config, values.port !== undefined) ?? err;
    }
    if (signals === 0) {
      const pageUrl = `http://${PAGE_HOST}:${runtime.http!.port}/review/`;
      const configFile = file === undefined ? undefined : resolve(file);
      ctx.stdout.write(devBanner({ redis, pageUrl, token, configFile, config }));
    }
    const signal = await stopped;
    await runtime.shutdown(signal);
    await runtime.closed;
    await redis.stop();
    ctx.stderr.write(`cosci-safety dev: stopped; ${redis.dir} removed\n`);
    return EXIT.ok;
  } finally {
    // A start that failed has closed what it opened; the server and its folder go too.
    await redis?.stop();
    for (const s of SIGNALS) process.off(s, onSignal);
  }
}
