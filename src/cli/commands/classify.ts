/**
 * `cosci-safety classify --label L [--file F]`: one-off classification, no
 * Redis (no cache): prints the verdict as JSON.
 */
import { buildClassifier } from '../../runtime/builders.js';
import { expectPositionals, parseCommand } from '../args.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { exitCodeOfAction } from '../exit-codes.js';
import { readInput } from '../io.js';
import { CLASSIFY_USAGE } from '../usage.js';

export async function runClassify(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand('classify', CLASSIFY_USAGE, args, {
    config: { type: 'string' },
    label: { type: 'string', default: 'hypothesis' },
    file: { type: 'string' },
  });
  expectPositionals('classify', positionals, 0, 'no arguments');
  const { config, logger } = cliConfig(ctx, values.config);
  const text = await readInput(ctx, values.file, 'the text');
  if (!config.anthropic.api_key) logger.warn('no Anthropic API key: the verdict will be degraded (no_api_key)');
  const classifier = buildClassifier(config, { logger });
  const verdict = await classifier.classify(text, values.label);
  ctx.stdout.write(JSON.stringify(verdict, null, 2) + '\n');
  return exitCodeOfAction(verdict.action);
}
