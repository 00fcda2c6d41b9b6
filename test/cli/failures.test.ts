/**
 * What a user sees when a command fails: one line, `cosci-safety: CODE:
 * message`, the exit code of docs/cli.md, no stack unless asked for; and a
 * command that talks to Redis ends, within its bound, when Redis is down or
 * does not answer.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runMain, type CliRun } from '../support/cli.js';
import { freePort } from '../support/processes.js';
import { uniqueName } from '../support/redis.js';
import { startSilentServer, type SilentServer } from '../support/silent-server.js';

/** Exactly one line on stderr, with this code, and no stack. */
function expectOneLine(r: CliRun, exitCode: number, code: string): void {
  expect(r.stderr, r.stderr).toMatch(new RegExp(`^cosci-safety: ${code}: [^\\n]+\\n$`));
  expect(r.stderr).not.toContain('Unhandled error event');
  expect(r.code).toBe(exitCode);
}

let env: Record<string, string>;
let downUrl: string;
let silent: SilentServer;
let silentUrl: string;

beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'cosci-fail-')), 'cosci-safety.toml');
  const name = uniqueName('fail');
  writeFileSync(file, `[redis]\nprefix = "${name}"\nkey_prefix = "${name}"\nevents_stream = "${name}:events"\n`);
  env = { ...(process.env as Record<string, string>), COSCI_SAFETY_CONFIG: file };
  delete env.COSCI_DEBUG;
  // Nothing listens here: connections are refused.
  downUrl = `redis://127.0.0.1:${await freePort()}`;
  silent = await startSilentServer();
  silentUrl = silent.url;
});
afterAll(async () => {
  await silent.close();
});

const HYPOTHESIS = JSON.stringify({ hypothesisId: 'h-1', text: 'Kinase X phosphorylates Y in yeast.', revision: 1 });
const REPORT = JSON.stringify({ reportId: 'rep-1', sections: [{ text: 'Intro.' }] });

describe('one line per failure', () => {
  it('a --file that cannot be read is INPUT_UNREADABLE, exit 1', async () => {
    const r = await runCli(['publish', 'hypothesis', '--file', '/nonexistent.json'], { env });
    expectOneLine(r, 1, 'INPUT_UNREADABLE');
    expect(r.stderr).toContain('cannot read /nonexistent.json: no such file');
    expect(r.stdout).toBe('');
  });

  it('--debug and COSCI_DEBUG=1 add the stack, and keep the exit code', async () => {
    const [flag, variable] = await Promise.all([
      runCli(['publish', 'hypothesis', '--file', '/nonexistent.json', '--debug'], { env }),
      runCli(['classify', '--file', '/nonexistent.txt'], { env: { ...env, COSCI_DEBUG: '1' } }),
    ]);
    for (const r of [flag, variable]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^cosci-safety: INPUT_UNREADABLE: cannot read \/nonexistent\.\w+: no such file\n/);
      expect(r.stderr).toMatch(/\n\s+at .*readInputFile/);
    }
  });

  it('events tail --from with something that is not a stream id is a usage error, exit 2', async () => {
    const r = await runCli(['events', 'tail', '--from', 'notanid'], { env });
    expectOneLine(r, 2, 'USAGE');
    expect(r.stderr).toContain('--from must be a stream entry id such as 1712345678901-0');
    expect(r.stderr).toContain("got 'notanid'");
    expect(r.stderr).toContain('(cosci-safety events --help)');
  });

  it('a REDIS_URL that is not a Redis URL is CONFIG_INVALID naming the variable, without echoing it', async () => {
    const [plain, secret] = await Promise.all([
      runCli(['events', 'tail'], { env: { ...env, REDIS_URL: 'notaurl' } }),
      runCli(['quarantine', 'list'], { env: { ...env, REDIS_URL: 'http://admin:hunter2@redis.internal' } }),
    ]);
    for (const r of [plain, secret]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^cosci-safety: CONFIG_INVALID: invalid configuration in .*: redis\.url \(from REDIS_URL\): expected a redis:\/\/ or rediss:\/\/ URL[^\n]*\n$/,
      );
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(secret.stderr).not.toContain('hunter2');
  });

  it('an unknown command or option is a usage error, exit 2', async () => {
    const [command, option] = await Promise.all([
      runCli(['publsh', 'hypothesis'], { env }),
      runCli(['publish', 'hypothesis', '--fil', 'x.json'], { env }),
    ]);
    expectOneLine(command, 2, 'USAGE');
    expect(command.stderr).toContain("unknown command 'publsh'");
    expectOneLine(option, 2, 'USAGE');
    expect(option.stderr).toContain("publish hypothesis: unknown option '--fil' (cosci-safety publish --help)");
  });

  it('an error without a code of ours is INTERNAL, exit 1, its stack only with --debug', async () => {
    const run = async (argv: string[]) => {
      // Standard input that fails as it is read, as a broken pipe does.
      const stdin = new Readable({
        read() {
          this.destroy(new Error('stdin went away'));
        },
      });
      const { code, stderr } = await runMain(argv, { stdin, env });
      return { code, stderr };
    };
    const plain = await run(['publish', 'hypothesis']);
    expect(plain).toEqual({
      code: 1,
      stderr: 'cosci-safety: INTERNAL: Error: stdin went away (--debug prints the stack)\n',
    });
    const debug = await run(['--debug', 'publish', 'hypothesis']);
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/^cosci-safety: INTERNAL: Error: stdin went away\nError: stdin went away\n\s+at /);
  });
});

describe('Redis down', () => {
  // Each command gives up on a refused connection after three tries (well
  // under a second); the bound leaves room for starting the process on a busy machine.
  const BOUND_MS = 15_000;

  it.each([
    [['events', 'tail'], ''],
    [['quarantine', 'list'], ''],
    [['quarantine', 'release', 'h-1', '--by', 'Dr Rao', '--note', 'fine'], ''],
    [['publish', 'hypothesis'], HYPOTHESIS],
    [['submit', 'goal', '--id', 'g-1', '--text', 'Map kinase networks', '--wait', '--timeout', '3000'], ''],
    [['submit', 'report', '--wait', '--timeout', '2000'], REPORT],
  ])('%j ends with REDIS_UNAVAILABLE, exit 5', async (args, input) => {
    const r = await runCli(args, { env: { ...env, REDIS_URL: downUrl }, input, killAfterMs: 60_000 });
    expectOneLine(r, 5, 'REDIS_UNAVAILABLE');
    expect(r.stderr).toContain(`Redis at ${downUrl} is unreachable: connect ECONNREFUSED`);
    expect(r.stdout).toBe('');
    expect(r.elapsedMs).toBeLessThan(BOUND_MS);
  });
});

describe('Redis that does not answer', () => {
  it('submit goal --wait --timeout bounds the whole command', async () => {
    const timeoutMs = 2000;
    const r = await runCli(
      ['submit', 'goal', '--id', 'g-1', '--text', 'Map kinase networks', '--wait', '--timeout', String(timeoutMs)],
      { env: { ...env, REDIS_URL: silentUrl }, killAfterMs: 60_000 },
    );
    expectOneLine(r, 5, 'REDIS_UNAVAILABLE');
    expect(r.stderr).toMatch(/no answer \(gave up after \d+ ms\)/);
    // The bound, plus the start of the process on a busy machine.
    expect(r.elapsedMs).toBeLessThan(timeoutMs + 10_000);
  });

  it('a command without --timeout gives up after the connection bound (5 s)', async () => {
    const r = await runCli(['quarantine', 'list'], { env: { ...env, REDIS_URL: silentUrl }, killAfterMs: 60_000 });
    expectOneLine(r, 5, 'REDIS_UNAVAILABLE');
    expect(r.elapsedMs).toBeGreaterThanOrEqual(5000);
    expect(r.elapsedMs).toBeLessThan(5000 + 10_000);
  });
});
