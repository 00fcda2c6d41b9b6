/**
 * `cosci-safety classify --label L [--file F]`: one-off classification, no
 * Redis (no cache): prints the verdict as JSON.
 */
import { parseArgs } from 'node:util';
import { buildClassifier } from '../../runtime/builders.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { readInput } from '../io.js';

export const CLASSIFY_USAGE = `cosci-safety classify [--config FILE] [--label LABEL] [--file TEXT_FILE]
  Classifies text from --file or stdin with the configured model and prints the
  verdict as JSON. No Redis needed. Exit code 3 when the action is block.
  --label   what the text is (hypothesis, research goal, report); default hypothesis`;

export async function runClassify(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      config: { type: 'string' },
      label: { type: 'string', default: 'hypothesis' },
      file: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    ctx.stdout.write(CLASSIFY_USAGE + '\n');
    return 0;
  }
  const { config, logger } = cliConfig(ctx, values.config);
  if (!config.anthropic.api_key) logger.warn('no Anthropic API key: the verdict will be degraded (no_api_key)');
  const classifier = buildClassifier(config, { logger });
  const text = await readInput(values.file);
  const verdict = await classifier.classify(text, values.label, { onRateLimit: 'wait' });
  ctx.stdout.write(JSON.stringify(verdict, null, 2) + '\n');
  return verdict.action === 'block' ? 3 : 0;
}
