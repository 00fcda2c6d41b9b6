/**
 * Arguments of the evaluation and benchmark commands: a bad option prints
 * the command's usage and exits 2, `--help` prints it and exits 0.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface CommandArgs<T extends ParseArgsConfig> {
  values: ReturnType<typeof parseArgs<T>>['values'];
  positionals: ReturnType<typeof parseArgs<T>>['positionals'];
  /** Prints `name: message` and the usage, and exits 2. */
  usage(message: string): never;
}

/** `usage` is printed whole on an error; its first line alone answers `--help`. `config` must define `help`. */
export function commandArgs<T extends ParseArgsConfig>(name: string, usage: string[], config: T): CommandArgs<T> {
  const fail = (message: string): never => {
    console.error(`${name}: ${message}`);
    for (const line of usage) console.error(line);
    process.exit(2);
  };
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (err) {
    return fail((err as Error).message);
  }
  if ((parsed.values as Record<string, unknown>).help) {
    console.log(usage[0]);
    process.exit(0);
  }
  return { values: parsed.values, positionals: parsed.positionals, usage: fail };
}
