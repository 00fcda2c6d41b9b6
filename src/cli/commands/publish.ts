/**
 * `cosci-safety publish hypothesis [--file F]` and
 * `cosci-safety submit goal (--id G --text T | --file F) [--wait]`,
 * `cosci-safety submit report [--file F] [--wait]`.
 */
import { parseArgs } from 'node:util';
import { createBlockingConnection, createFailFastConnection } from '../../queues/connection.js';
import { Publisher } from '../../queues/publisher.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { readInput } from '../io.js';
import { UsageError } from '../usage-error.js';

export const PUBLISH_USAGE = `cosci-safety publish (hypothesis | review) [--config FILE] [--file PAYLOAD.json]
  Publishes a hypothesis.saved or review.recorded job; the JSON payload comes
  from --file or stdin. Prints {"jobId", "created"}; created is false for a
  duplicate publish.

cosci-safety submit goal [--config FILE] (--id GOAL --text TEXT | --file PAYLOAD.json) [--wait] [--timeout MS]
  Submits a goal.submitted job; with --wait, prints the verdict when it comes.
  Exit code 3 when the goal's verdict is block.
cosci-safety submit report [--config FILE] [--file PAYLOAD.json] [--wait] [--timeout MS]
  Submits a report.finalized job (payload from --file or stdin); with --wait,
  prints the check's result: the redacted text and whether it may be
  published. Exit code 3 when the report is blocked.`;

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${what}: not valid JSON: ${(err as Error).message}`);
  }
}

async function withPublisher<T>(
  ctx: CliContext,
  file: string | undefined,
  fn: (p: Publisher) => Promise<T>,
): Promise<T> {
  const { config } = cliConfig(ctx, file);
  const connection = createFailFastConnection(config.redis);
  connection.on('error', () => undefined);
  const publisher = new Publisher({
    connection,
    prefix: config.redis.prefix,
    blockingConnection: () => createBlockingConnection(config.redis),
  });
  try {
    return await fn(publisher);
  } finally {
    await publisher.close();
    connection.disconnect();
  }
}

export async function runPublish(args: string[], ctx: CliContext): Promise<number> {
  const [what, ...rest] = args;
  if (what !== 'hypothesis')
    throw new UsageError(`publish: expected 'hypothesis', got '${what ?? ''}'\n\n${PUBLISH_USAGE}`);
  const { values } = parseArgs({
    args: rest,
    options: { config: { type: 'string' }, file: { type: 'string' } },
    strict: true,
  });
  const payload = parseJson(await readInput(values.file), `publish ${what}`);
  const result = await withPublisher(ctx, values.config, (p) =>
    what === 'hypothesis' ? p.publishHypothesisSaved(payload as never) : p.publishReviewRecorded(payload as never),
  );
  ctx.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}

export async function runSubmit(args: string[], ctx: CliContext): Promise<number> {
  const [what, ...rest] = args;
  if (what === 'report') return runSubmitReport(rest, ctx);
  if (what !== 'goal')
    throw new UsageError(`submit: expected 'goal' or 'report', got '${what ?? ''}'\n\n${PUBLISH_USAGE}`);
  const { values } = parseArgs({
    args: rest,
    options: {
      config: { type: 'string' },
      file: { type: 'string' },
      id: { type: 'string' },
      text: { type: 'string' },
      'run-id': { type: 'string' },
      wait: { type: 'boolean', default: false },
      timeout: { type: 'string' },
    },
    strict: true,
  });
  let payload: unknown;
  if (values.id !== undefined || values.text !== undefined) {
    if (values.id === undefined || values.text === undefined)
      throw new UsageError('submit goal: give both --id and --text, or --file');
    payload = { goalId: values.id, text: values.text, ...(values['run-id'] ? { runId: values['run-id'] } : {}) };
  } else {
    payload = parseJson(await readInput(values.file), 'submit goal');
  }
  const timeoutMs = values.timeout === undefined ? 60_000 : Number(values.timeout);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new UsageError('submit goal: --timeout must be a positive number of ms');
  if (!values.wait) {
    const result = await withPublisher(ctx, values.config, (p) => p.submitGoal(payload as never));
    ctx.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  }
  const result = await withPublisher(ctx, values.config, (p) =>
    p.submitGoal(payload as never, { wait: true, timeoutMs }),
  );
  ctx.stdout.write(JSON.stringify(result, null, 2) + '\n');
  return result.verdict.action === 'block' ? 3 : 0;
}

async function runSubmitReport(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      config: { type: 'string' },
      file: { type: 'string' },
      wait: { type: 'boolean', default: false },
      timeout: { type: 'string' },
    },
    strict: true,
  });
  const payload = parseJson(await readInput(values.file), 'submit report');
  const timeoutMs = values.timeout === undefined ? 60_000 : Number(values.timeout);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new UsageError('submit report: --timeout must be a positive number of ms');
  if (!values.wait) {
    const result = await withPublisher(ctx, values.config, (p) => p.finalizeReport(payload as never));
    ctx.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  }
  const result = await withPublisher(ctx, values.config, (p) =>
    p.finalizeReport(payload as never, { wait: true, timeoutMs }),
  );
  ctx.stdout.write(JSON.stringify(result, null, 2) + '\n');
  return result.publishable ? 0 : 3;
}
