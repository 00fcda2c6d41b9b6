/**
 * The JSON log lines a worker process wrote to stderr, read back: those at a
 * level or above, but the warning of a missing API key, which the README and
 * the `dev` banner announce.
 */

/** pino's levels. */
export const LEVEL = { info: 30, warn: 40, error: 50 } as const;

/** The log lines at `level` or above, as written; other lines (a banner, a one-line error) are not log lines. */
export function logged(stderr: string, level: number): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .filter((line) => {
      const entry = JSON.parse(line) as { level?: number; msg?: string };
      return (entry.level ?? 0) >= level && !entry.msg?.startsWith('NO ANTHROPIC API KEY');
    });
}
