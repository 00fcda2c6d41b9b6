/** A command line the CLI cannot run (exit code 2), and a request for a command's usage (exit code 0). */
import { CosciError } from '../errors.js';

/** The message names what is wrong; `command` is the one whose `--help` tells how to put it right. */
export class UsageError extends CosciError {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super('USAGE', message);
  }
}

/** `--help` or `-h`: not a failure, but it ends the command like one, so it is thrown to the dispatcher. */
export class HelpRequest extends Error {
  override name = 'HelpRequest';
  constructor(readonly usage: string) {
    super('help requested');
  }
}
