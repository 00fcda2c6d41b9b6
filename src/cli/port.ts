/**
 * The HTTP port of the commands that serve one (`worker`, `dev`): the
 * `--port` flag, and the one line for a port that is taken or forbidden.
 */
import type { Config } from '../config/schema.js';
import { CosciError } from '../errors.js';
import { UsageError } from './usage-error.js';

/** The value of `--port`, a port number from 0 (any free port) to 65535; anything else is a usage error. */
export function parsePortFlag(command: string, value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535)
    throw new UsageError(`${command}: --port must be a port number from 0 to 65535, got '${value}'`, command);
  return Number(value);
}

/** The metrics port taken or forbidden, as PORT_UNAVAILABLE naming the port and the flag; otherwise undefined. */
export function portUnavailable(err: unknown, config: Config, fromFlag: boolean): CosciError | undefined {
  const { code, syscall } = err as NodeJS.ErrnoException;
  if (syscall !== 'listen' || (code !== 'EADDRINUSE' && code !== 'EACCES')) return undefined;
  const { host, port } = config.metrics;
  const why = code === 'EADDRINUSE' ? 'is already in use' : 'may not be opened by this user';
  return new CosciError(
    'PORT_UNAVAILABLE',
    `port ${port} on ${host} ${why} (the metrics port, ${fromFlag ? '--port' : 'metrics.port'}); ` +
      'choose another with --port N, or --port 0 for any free port',
    { cause: err },
  );
}
