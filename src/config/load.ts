/**
 * Reads the configuration once: a TOML file (optional), then the environment
 * overrides, then validation. A wrong value stops start-up with a message that
 * names the key and the expected form. The environment is passed in: nothing
 * below the composition root reads process.env.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseToml, TomlError } from 'smol-toml';
import { formatIssues } from '../contracts/issues.js';
import { ConfigError } from '../errors.js';
import { ConfigSchema, type Config } from './schema.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** The file read when neither --config nor COSCI_SAFETY_CONFIG names one. */
export const DEFAULT_CONFIG_FILE = 'cosci-safety.toml';

/** Environment variables that override a key of the file: section and key. */
const ENV_OVERRIDES: Record<string, [string, string]> = {
  REDIS_URL: ['redis', 'url'],
  ANTHROPIC_API_KEY: ['anthropic', 'api_key'],
  ANTHROPIC_BASE_URL: ['anthropic', 'base_url'],
  COSCI_REVIEW_TOKEN: ['review', 'api_token'],
};

export interface LoadOptions {
  /** A path given on the command line; takes precedence over COSCI_SAFETY_CONFIG. */
  file?: string | undefined;
  env: Env;
  /** Values that override the file (command-line flags), in the file's shape. */
  overrides?: Record<string, Record<string, unknown>>;
}

function readToml(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`config file ${path}: ${(err as Error).message}`, 'CONFIG_NOT_FOUND');
  }
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (err) {
    const where = err instanceof TomlError ? ` (line ${err.line}, column ${err.column})` : '';
    throw new ConfigError(`config file ${path}: invalid TOML${where}: ${(err as Error).message.split('\n')[0]}`);
  }
}

function section(raw: Record<string, unknown>, name: string): Record<string, unknown> {
  const value = raw[name];
  if (value === undefined) return (raw[name] = {});
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(`${name}: expected a table ([${name}])`);
  }
  return value as Record<string, unknown>;
}

/** Loads, merges and validates the configuration. */
export function loadConfig(options: LoadOptions): { config: Config; file: string | undefined } {
  const { env } = options;
  const file =
    options.file ?? env.COSCI_SAFETY_CONFIG ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
  const raw: Record<string, unknown> = file === undefined ? {} : readToml(file);

  // The keys set from the environment, so that a wrong value is traced to the variable.
  const fromEnv = new Map<string, string>();
  for (const [variable, [name, key]] of Object.entries(ENV_OVERRIDES)) {
    const value = env[variable];
    if (!value) continue;
    section(raw, name)[key] = value;
    fromEnv.set(`${name}.${key}`, variable);
  }
  for (const [name, values] of Object.entries(options.overrides ?? {})) {
    Object.assign(section(raw, name), values);
  }

  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = formatIssues(parsed.error).replace(/^([\w.]+):/gm, (line, key: string) =>
      fromEnv.has(key) ? `${key} (from ${fromEnv.get(key)}):` : line,
    );
    // One line, as every error of the command line is; each problem names its key.
    throw new ConfigError(`invalid configuration${file ? ` in ${file}` : ''}: ${issues.split('\n').join('; ')}`);
  }
  return { config: parsed.data, file };
}
