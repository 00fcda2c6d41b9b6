/**
 * `cosci-safety classify --label L [--file F]`: one-off classification, no
 * Redis (no cache): prints the verdict as JSON.
 */
import { buildClassifier } from '../../runtime/builders.js';
import { expectPositionals, parseCommand } from '../args.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { exitCodeOfAction } from '../exit-codes.js';
import { readTextToJudge } from '../io.js';
import { UsageError } from '../usage-error.js';
import { CLASSIFY_USAGE } from '../usage.js';

/**
 * What `--label` may name, and the words the model is given for it: those
 * the workers give for the same kind of text (src/processors/), so that the
 * command's verdict is the one the worker would reach. Any other word would
 * be sent to the model as it is, and classify the text as something else.
 */
export const LABELS: Readonly<Record<string, string>> = {
  hypothesis: 'hypothesis',
  goal: 'research goal',
  'research goal': 'research goal',
  report: 'final research report',
  'final research report': 'final research report',
};

export async function runClassify(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand('classify', CLASSIFY_USAGE, args, {
    config: { type: 'string' },
    label: { type: 'string', default: 'hypothesis' },
    file: { type: 'string' },
  });
  expectPositionals('classify', positionals, 0, 'no arguments');
  const label = LABELS[values.label];
  if (label === undefined) {
    throw new UsageError(`classify: --label must be hypothesis, goal or report, got '${values.label}'`, 'classify');
  }
  const { config, logger } = cliConfig(ctx, values.config);
  const text = await readTextToJudge(ctx, 'classify', values.file);
  if (!config.anthropic.api_key) logger.warn('no Anthropic API key: the verdict will be degraded (no_api_key)');
  const classifier = buildClassifier(config, { logger });
  const verdict = await classifier.classify(text, label);
  ctx.stdout.write(JSON.stringify(verdict, null, 2) + '\n');
  return exitCodeOfAction(verdict.action);
}
