/** Configuration and logger for CLI commands, from `--config` and the environment; `file` is the file read, if any. */
import type { DestinationStream, Logger } from 'pino';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { createLogger } from '../logging/logger.js';
import type { CliContext } from './context.js';

export function cliConfig(
  ctx: CliContext,
  file: string | undefined,
  overrides?: Record<string, Record<string, unknown>>,
): { config: Config; logger: Logger; file: string | undefined } {
  const { config, file: read } = loadConfig({ file, env: ctx.env, ...(overrides ? { overrides } : {}) });
  const isTty = Boolean((ctx.stderr as NodeJS.WriteStream).isTTY);
  // Logs go to stderr, so a command's stdout stays machine-readable.
  const logger = createLogger({
    level: config.logging.level,
    format: config.logging.format,
    isTty,
    ...(config.logging.format === 'pretty' || (config.logging.format === 'auto' && isTty)
      ? {}
      : { destination: ctx.stderr as unknown as DestinationStream }),
  });
  return { config, logger, file: read };
}
