/**
 * `cosci-safety publish (hypothesis | review) [--file F]`,
 * `cosci-safety submit goal (--id G --text T | --file F) [--wait]` and
 * `cosci-safety submit report [--file F] [--wait]`.
 */
import type { Config } from '../../config/schema.js';
import { CosciError } from '../../errors.js';
import { Publisher, type Published, type WaitOptions } from '../../queues/publisher.js';
import { expectPositionals, isHelp, parseCommand } from '../args.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { exitCodeOfAction, exitCodeOfReport, EXIT } from '../exit-codes.js';
import { Interrupted, listenForInterruption } from '../interrupt.js';
import { readInput } from '../io.js';
import { openBlockingRedis, openRedis, REDIS_CONNECT_BOUND_MS } from '../redis.js';
import { HelpRequest, UsageError } from '../usage-error.js';
import { shellCommand } from '../shell.js';
import { PUBLISH_USAGE, SUBMIT_USAGE } from '../usage.js';

const DEFAULT_WAIT_MS = 60_000;
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CosciError('PAYLOAD_INVALID', `${what}: not valid JSON: ${(err as Error).message}`);
  }
}

function parseTimeout(command: string, value: string | undefined): number {
  if (value === undefined) return DEFAULT_WAIT_MS;
  const ms = Number(value);
  // Node's timers take at most 2^31 - 1 ms; past that one fires at once, with a warning.
  if (!/^\d+$/.test(value) || ms <= 0 || ms > MAX_TIMEOUT_MS)
    throw new UsageError(`${command}: --timeout must be a positive number of ms, got '${value}'`, 'submit');
  return ms;
}

/**
 * Runs `fn` with a publisher on a connection that is ready. `timeoutMs`
 * bounds reaching Redis (the publisher's own wait bounds the rest).
 * `interrupted` ends the connecting or the work early, and closes what was
 * opened.
 */
async function withPublisher<T>(
  config: Config,
  fn: (p: Publisher) => Promise<T>,
  timeoutMs = REDIS_CONNECT_BOUND_MS,
  interrupted?: Promise<never>,
): Promise<T> {
  const opening = openRedis(config, Math.min(timeoutMs, REDIS_CONNECT_BOUND_MS));
  const connection = await (interrupted ? Promise.race([opening, interrupted]) : opening).catch((err: unknown) => {
    // Interrupted while connecting: the connection, when it comes, is closed at once.
    opening.then((c) => c.disconnect()).catch(() => undefined);
    throw err;
  });
  const publisher = new Publisher({
    connection,
    prefix: config.redis.prefix,
    keyPrefix: config.redis.key_prefix,
    blockingConnection: () => openBlockingRedis(config),
  });
  try {
    const work = fn(publisher);
    return await (interrupted ? Promise.race([work, interrupted]) : work);
  } finally {
    await publisher.close();
    connection.disconnect();
  }
}

export async function runPublish(args: string[], ctx: CliContext): Promise<number> {
  const [what, ...rest] = args;
  if (isHelp(what)) throw new HelpRequest(PUBLISH_USAGE);
  if (what !== 'hypothesis' && what !== 'review') {
    throw new UsageError(`publish: expected 'hypothesis' or 'review', got '${what ?? ''}'`, 'publish');
  }
  const { values, positionals } = parseCommand(`publish ${what}`, PUBLISH_USAGE, rest, {
    config: { type: 'string' },
    file: { type: 'string' },
  });
  expectPositionals(`publish ${what}`, positionals, 0, 'no more arguments');
  const { config } = cliConfig(ctx, values.config);
  const payload = parseJson(await readInput(ctx, values.file, 'the payload'), `publish ${what}`);
  const result = await withPublisher(config, (p) =>
    what === 'hypothesis' ? p.publishHypothesisSaved(payload as never) : p.publishReviewRecorded(payload as never),
  );
  ctx.stdout.write(JSON.stringify(result) + '\n');
  return EXIT.ok;
}

export async function runSubmit(args: string[], ctx: CliContext): Promise<number> {
  const [what, ...rest] = args;
  if (isHelp(what)) throw new HelpRequest(SUBMIT_USAGE);
  if (what === 'report') return runSubmitReport(rest, ctx);
  if (what !== 'goal') throw new UsageError(`submit: expected 'goal' or 'report', got '${what ?? ''}'`, 'submit');
  const { values, positionals } = parseCommand('submit goal', SUBMIT_USAGE, rest, {
    config: { type: 'string' },
    file: { type: 'string' },
    id: { type: 'string' },
    text: { type: 'string' },
    'run-id': { type: 'string' },
    wait: { type: 'boolean', default: false },
    timeout: { type: 'string' },
  });
  expectPositionals('submit goal', positionals, 0, 'no more arguments');
  const timeoutMs = parseTimeout('submit goal', values.timeout);
  // The bound starts now: reading the configuration and the payload count too.
  const started = Date.now();
  const { config } = cliConfig(ctx, values.config);
  let payload: unknown;
  if (values.id !== undefined || values.text !== undefined) {
    if (values.id === undefined || values.text === undefined || values.file !== undefined)
      throw new UsageError('submit goal: give both --id and --text, or --file', 'submit');
    payload = { goalId: values.id, text: values.text, ...(values['run-id'] ? { runId: values['run-id'] } : {}) };
  } else {
    payload = parseJson(await readInput(ctx, values.file, 'the payload'), 'submit goal');
  }
  if (!values.wait) {
    const result = await withPublisher(config, (p) => p.submitGoal(payload as never));
    ctx.stdout.write(JSON.stringify(result) + '\n');
    return EXIT.ok;
  }
  const result = await submitAndWait(ctx, config, {
    what: 'goal',
    command: ['submit', ...args],
    fromStdin: values.id === undefined && (values.file === undefined || values.file === '-'),
    started,
    timeoutMs,
    submit: (p, options) => p.submitGoal(payload as never, options),
  });
  ctx.stdout.write(JSON.stringify(result, null, 2) + '\n');
  return exitCodeOfAction(result.verdict.action);
}

async function runSubmitReport(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand('submit report', SUBMIT_USAGE, args, {
    config: { type: 'string' },
    file: { type: 'string' },
    wait: { type: 'boolean', default: false },
    timeout: { type: 'string' },
  });
  expectPositionals('submit report', positionals, 0, 'no more arguments');
  const timeoutMs = parseTimeout('submit report', values.timeout);
  const started = Date.now();
  const { config } = cliConfig(ctx, values.config);
  const payload = parseJson(await readInput(ctx, values.file, 'the payload'), 'submit report');
  if (!values.wait) {
    const result = await withPublisher(config, (p) => p.finalizeReport(payload as never));
    ctx.stdout.write(JSON.stringify(result) + '\n');
    return EXIT.ok;
  }
  const result = await submitAndWait(ctx, config, {
    what: 'report',
    command: ['submit', 'report', ...args],
    fromStdin: values.file === undefined || values.file === '-',
    started,
    timeoutMs,
    submit: (p, options) => p.finalizeReport(payload as never, options),
  });
  ctx.stdout.write(JSON.stringify(result, null, 2) + '\n');
  return exitCodeOfReport(result);
}

/**
 * Submits and waits for the result within the command's bound. Ctrl-C (or
 * SIGTERM) stops the wait, not the job: the command prints the job as a
 * submit without --wait does, and ends with INTERRUPTED (exit code 130),
 * whose message is the command that reads the result later. That is the
 * same command: a job id is made from the goal or report, so it finds the
 * job instead of adding another, and waits for it or prints its result.
 */
async function submitAndWait<R>(
  ctx: CliContext,
  config: Config,
  run: {
    what: 'goal' | 'report';
    command: string[];
    fromStdin: boolean;
    started: number;
    timeoutMs: number;
    submit: (p: Publisher, options: WaitOptions) => Promise<R>;
  },
): Promise<R> {
  const { what, started, timeoutMs } = run;
  let published: Published | undefined;
  const interruption = listenForInterruption();
  try {
    return await withPublisher(
      config,
      (p) =>
        run.submit(p, {
          wait: true,
          timeoutMs: remaining(started, timeoutMs, what),
          onPublished: (job) => (published = job),
        }),
      remaining(started, timeoutMs, what),
      interruption.interrupted,
    );
  } catch (err) {
    if (!(err instanceof Interrupted)) throw err;
    const again = `cosci-safety ${shellCommand(run.command)}${run.fromStdin ? ' (with the same payload on stdin)' : ''}`;
    if (published === undefined) {
      throw new CosciError(
        'INTERRUPTED',
        `stopped before Redis confirmed the ${what}; the same command again submits it, ` +
          `or finds it if it got there (one job per ${what}): ${again}`,
      );
    }
    ctx.stdout.write(JSON.stringify(published) + '\n');
    throw new CosciError(
      'INTERRUPTED',
      `stopped waiting: job ${published.jobId} ${published.created ? 'stays queued for a worker' : 'was there already, and is left as it is'}; ` +
        `to read its result, the same command again waits for this job and adds none: ${again}`,
    );
  } finally {
    interruption.dispose();
  }
}

/** What is left of the command's bound; none left is WAIT_TIMEOUT. */
function remaining(started: number, timeoutMs: number, what: string): number {
  const left = started + timeoutMs - Date.now();
  if (left <= 0) throw new CosciError('WAIT_TIMEOUT', `no result for the ${what} within ${timeoutMs} ms`);
  return left;
}
