/** The package's version, read from its package.json at run time. */
import { readFileSync } from 'node:fs';

/**
 * This module sits two levels below the package root both in the sources
 * (src/cli/) and in the build (dist/cli/), in a checkout as in an installed
 * package, so one relative path finds the package.json.
 */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
