/**
 * One way every command reads its command line: node's parseArgs, strict,
 * with the options every command takes (`--help`/`-h`, `--debug`), and a
 * wrong option turned into a usage error that says where to look.
 */
import { parseArgs } from 'node:util';
import { HelpRequest, UsageError } from './usage-error.js';

/** One option, as parseArgs takes it. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  default?: string | boolean;
}

/** What parseArgs gives for an option of this spec. */
type Value<S extends OptionSpec> = S extends { multiple: true }
  ? string[] | undefined
  : S extends { type: 'boolean'; default: boolean }
    ? boolean
    : S extends { type: 'boolean' }
      ? boolean | undefined
      : S extends { default: string }
        ? string
        : string | undefined;

export interface ParsedCommand<O extends Record<string, OptionSpec>> {
  values: { [K in keyof O]: Value<O[K]> };
  positionals: string[];
}

const COMMON = {
  help: { type: 'boolean', short: 'h', default: false },
  // Read by main (a stack with every error); accepted here so that any command takes it.
  debug: { type: 'boolean', default: false },
} as const;

/** True for a first argument that asks for the usage instead of naming a subcommand. */
export function isHelp(arg: string | undefined): boolean {
  return arg === '--help' || arg === '-h' || arg === 'help';
}

/** Throws HelpRequest for `--help`, UsageError for an unknown or malformed option. */
export function parseCommand<O extends Record<string, OptionSpec>>(
  command: string,
  usage: string,
  args: string[],
  options: O,
): ParsedCommand<O> {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: { ...options, ...COMMON }, allowPositionals: true, strict: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError(`${command}: ${(err as Error).message}`, command.split(' ')[0]);
    }
    throw err;
  }
  if (parsed.values.help) throw new HelpRequest(usage);
  return { values: parsed.values as ParsedCommand<O>['values'], positionals: parsed.positionals };
}

/** The positional arguments, when the command takes exactly `n` of them (`what` says what they are). */
export function expectPositionals(command: string, positionals: string[], n: number, what: string): string[] {
  if (positionals.length !== n) {
    const got = positionals.length === 0 ? 'none' : positionals.map((p) => `'${p}'`).join(' ');
    throw new UsageError(`${command}: expected ${what}, got ${got}`, command.split(' ')[0]);
  }
  return positionals;
}
