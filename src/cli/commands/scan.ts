/**
 * `cosci-safety scan [--file F] [--threshold T]`: runs the injection detector
 * on one text and prints its result as JSON, with the text of its span
 * (neutralised, so that a terminal or a log shows the attack inert). No
 * Redis, no model.
 */
import { detectInjection } from '../../safety/injection/index.js';
import { spanExcerpt } from '../../safety/quoting/snippet.js';
import { expectPositionals, parseCommand } from '../args.js';
import { cliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { readTextToJudge } from '../io.js';
import { UsageError } from '../usage-error.js';
import { SCAN_USAGE } from '../usage.js';

/** A threshold from the command line: a decimal number from 0 to 1, or a usage error naming the option. */
export function parseThreshold(raw: string): number {
  const value = /^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 0 && value <= 1)) {
    throw new UsageError(`scan: --threshold must be a number from 0 to 1, got '${raw}'`, 'scan');
  }
  return value;
}

export async function runScan(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand('scan', SCAN_USAGE, args, {
    config: { type: 'string' },
    file: { type: 'string' },
    threshold: { type: 'string' },
  });
  expectPositionals('scan', positionals, 0, 'no arguments');
  const { config } = cliConfig(ctx, values.config);
  const threshold =
    values.threshold !== undefined ? parseThreshold(values.threshold) : config.safety.injection_threshold;
  const text = await readTextToJudge(ctx, 'scan', values.file);
  const detection = detectInjection(text, { threshold });
  const { span } = detection;
  const shown =
    span === undefined ? detection : { ...detection, span: { ...span, ...spanExcerpt(text, span.start, span.end) } };
  ctx.stdout.write(JSON.stringify(shown, null, 2) + '\n');
  return detection.suspected ? EXIT.held : EXIT.ok;
}
