/**
 * One way every command reads its command line: node's parseArgs, with the
 * options every command takes (`--help`/`-h`, `--debug`), and a wrong option
 * turned into a one-line usage error that says where to look.
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

/**
 * Throws HelpRequest for `--help`, UsageError for an unknown or malformed
 * option. The command line is read by parseArgs without its own checks, and
 * checked here token by token: its messages span lines and tell of `'--'`
 * and `-XYZ`, where ours are one line naming the option.
 */
export function parseCommand<O extends Record<string, OptionSpec>>(
  command: string,
  usage: string,
  args: string[],
  options: O,
): ParsedCommand<O> {
  const all: Record<string, OptionSpec> = { ...options, ...COMMON };
  const parsed = parseArgs({ args, options: all, allowPositionals: true, strict: false, tokens: true });
  const refuse = (message: string): never => {
    throw new UsageError(`${command}: ${message}`, command.split(' ')[0]);
  };
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const spec = all[token.name];
    if (spec === undefined) refuse(`unknown option '${token.rawName}'`);
    else if (spec.type === 'boolean') {
      if (token.value !== undefined) refuse(`${token.rawName} takes no value, got '${token.value}'`);
    } else if (token.value === undefined) {
      refuse(`${token.rawName} needs a value`);
    } else if (!token.inlineValue && looksLikeOption(token.value)) {
      // `--text --wait` would otherwise submit the text "--wait"; a number
      // such as -5 is taken, so that its own check names what is wrong with it.
      refuse(
        `${token.rawName} needs a value, and '${token.value}' reads as an option (${token.rawName}=${token.value} gives it as the value)`,
      );
    }
  }
  if (parsed.values.help) throw new HelpRequest(usage);
  return { values: parsed.values as ParsedCommand<O>['values'], positionals: parsed.positionals };
}

/** An argument that parseArgs would read as an option: `-x`, `--name`; not `-` (stdin) nor a negative number. */
function looksLikeOption(value: string): boolean {
  return value.length > 1 && value.startsWith('-') && !/^-\d/.test(value);
}

/** The positional arguments, when the command takes exactly `n` of them (`what` says what they are). */
export function expectPositionals(command: string, positionals: string[], n: number, what: string): string[] {
  if (positionals.length !== n) {
    const got = positionals.length === 0 ? 'none' : positionals.map((p) => `'${p}'`).join(' ');
    throw new UsageError(`${command}: expected ${what}, got ${got}`, command.split(' ')[0]);
  }
  return positionals;
}
