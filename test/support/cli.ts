/**
 * Running `cosci-safety` as a user does, in a child process, against a real
 * worker: a config file with the harness's Redis names, and the environment
 * that points at the fake model server.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { main } from '../../src/cli/run.js';
import { testConfig } from './config.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.js';
import { startHarness, type Harness } from './pipeline.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From the spawn to the exit, in ms. */
  elapsedMs: number;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  killAfterMs?: number;
  /**
   * Run the built command (`dist/cli/main.js`, as installed; `npm run build`
   * first) instead of the sources: it starts in half the CPU time, for a
   * test that runs many.
   */
  built?: boolean;
}

/** The command line that starts `cosci-safety` with `args`: from the sources, or built. */
export function cliCommand(args: string[], built = false): string[] {
  return built ? ['dist/cli/main.js', ...args] : ['--import', 'tsx', 'src/cli/main.ts', ...args];
}

/**
 * Runs `cosci-safety` from the sources in a child process, as a user does,
 * with `input` on its stdin. A run still going after `killAfterMs` is killed
 * (its code is then null), so a command that hangs fails its test instead of
 * the whole run.
 */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return new Promise<CliRun>((resolve) => {
    const started = Date.now();
    const p = spawn(process.execPath, cliCommand(args, options.built), {
      env: options.env ?? (process.env as Record<string, string>),
    });
    let stdout = '';
    let stderr = '';
    const killer = setTimeout(() => p.kill('SIGKILL'), options.killAfterMs ?? 60_000);
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, elapsedMs: Date.now() - started });
    });
    p.stdin.end(options.input ?? '');
  });
}

/**
 * Runs `cosci-safety` in this process (its `main`), with `stdin` (empty
 * unless given) and `env`; what it wrote to stdout and stderr, and its exit code.
 */
export async function runMain(
  argv: string[],
  options: { env: Record<string, string | undefined>; stdin?: Readable },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await main(argv, { stdin: options.stdin ?? new PassThrough(), stdout, stderr, env: options.env });
  return { code, stdout: out, stderr: err };
}

export interface Cli {
  /** The environment each run gets; a test may change it. */
  env: Record<string, string>;
  run(args: string[], input?: string): Promise<CliRun>;
}

export function cliFor(h: Harness, fake: FakeAnthropic): Cli {
  const { redis } = h.config;
  const file = join(mkdtempSync(join(tmpdir(), 'cosci-cli-')), 'cosci-safety.toml');
  writeFileSync(
    file,
    `[redis]\nprefix = "${redis.prefix}"\nkey_prefix = "${redis.key_prefix}"\nevents_stream = "${redis.events_stream}"\n[logging]\nlevel = "warn"\nformat = "json"\n`,
  );
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    COSCI_SAFETY_CONFIG: file,
    REDIS_URL: redis.url,
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: 'sk-cli-secret',
  };
  return {
    env,
    run: (args, input = '') => runCli(args, { env, input }),
  };
}

export interface CliHarness extends Cli {
  h: Harness;
  fake: FakeAnthropic;
  stop(): Promise<void>;
}

/** A worker against the marker-reading model server, and the command line pointed at both. */
export async function startCliHarness(): Promise<CliHarness> {
  const fake = await startFakeAnthropic(markerHandler);
  const h = await startHarness(testConfig(fake.url));
  return {
    ...cliFor(h, fake),
    h,
    fake,
    async stop() {
      await h.stop();
      await fake.close();
    },
  };
}
