/** A command line the CLI cannot run; printed with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'CLI_USAGE';
}
