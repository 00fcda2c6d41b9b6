/**
 * Every failure of the command line is exactly one line on stderr,
 * `cosci-safety: CODE: message`, with the exit code of the exit-code table
 * (docs/cli.md#exit-codes): many bad command lines, each run as a user runs
 * it, in a process of its own. Node's parser text (which spans lines and
 * tells of `'--'` and `-XYZ`) and the configuration's list of problems (one
 * line each) used to leak through.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCodeOfError } from '../../src/cli/exit-codes.js';
import type { ErrorCode } from '../../src/errors.js';
import { runCli, runMain } from '../support/cli.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

const ONE_LINE = /^cosci-safety: ([A-Z_]+): .+\n$/;

const dir = mkdtempSync(join(tmpdir(), 'cosci-one-line-'));
const name = uniqueName('one-line');
const file = (base: string, text: string) => {
  const path = join(dir, base);
  writeFileSync(path, text);
  return path;
};
const config = file(
  'cosci-safety.toml',
  `[redis]\nprefix = "${name}"\nkey_prefix = "${name}"\nevents_stream = "${name}:events"\n`,
);
const badType = file('bad-type.toml', '[worker]\nconcurrency = "many"\n');
const manyProblems = file('many.toml', '[redis]\nurl = 5\n[worker]\nqueues = "all"\nfoo = 1\n[bar]\n');
const badToml = file('bad-syntax.toml', '[safety\nenable_classifier = true\n');
const clusterDb = file(
  'cluster-db.toml',
  '[redis]\ncluster = true\nurl = "redis://127.0.0.1:7000/2"\nprefix = "{b}"\nkey_prefix = "{c}"\nevents_stream = "{c}:events"\n',
);

const env: Record<string, string> = { ...(process.env as Record<string, string>), COSCI_SAFETY_CONFIG: config };
delete env.COSCI_DEBUG;
delete env.ANTHROPIC_API_KEY;
delete env.COSCI_SAFETY_QUOTING_KEY;
delete env.COSCI_REVIEW_TOKEN;
env.REDIS_URL = REDIS_URL;

const redis = testRedis();
afterAll(async () => {
  await deleteKeys(redis, name);
  redis.disconnect();
});

interface Case {
  args: string[];
  code: ErrorCode;
  /** Some words the line must hold, so that it says what is wrong. */
  says: string;
  env?: Record<string, string>;
  input?: string;
}

/** Commands as the usage names them, each with the arguments that reach its options. */
const COMMANDS: string[][] = [
  ['dev'],
  ['worker'],
  ['publish', 'hypothesis'],
  ['submit', 'goal'],
  ['submit', 'report'],
  ['classify'],
  ['verify'],
  ['events', 'tail'],
  ['quarantine', 'list'],
  ['quote'],
  ['scan'],
];

/** Generated: every command, given an option it does not have, a short one, and a value-less --config. */
const GENERATED: Case[] = COMMANDS.flatMap((command): Case[] => [
  { args: [...command, '--no-such-option'], code: 'USAGE', says: "unknown option '--no-such-option'" },
  { args: [...command, '-Z'], code: 'USAGE', says: "unknown option '-Z'" },
  {
    args: [...command, '--config'],
    code: 'USAGE',
    says: command[0] === 'quote' ? "unknown option '--config'" : '--config needs a value',
  },
  { args: [...command, '--help=yes'], code: 'USAGE', says: "--help takes no value, got 'yes'" },
]);

const GOAL = ['submit', 'goal', '--id', 'g-1', '--text', 'Map kinase networks'];

/** By hand: the examples of the issue, and each kind of bad value a flag or the environment can carry. */
const LISTED: Case[] = [
  { args: [], code: 'USAGE', says: 'no command given; the commands: dev, worker, publish' },
  { args: ['publsh', 'hypothesis'], code: 'USAGE', says: "unknown command 'publsh'" },
  {
    args: [...GOAL, '--wait', '--timeout', '-5'],
    code: 'USAGE',
    says: "--timeout must be a positive number of ms, got '-5'",
  },
  { args: [...GOAL, '--timeout', 'soon'], code: 'USAGE', says: "got 'soon'" },
  { args: [...GOAL, '--timeout', '99999999999'], code: 'USAGE', says: "got '99999999999'" },
  {
    args: ['submit', 'goal', '--id', 'g-1', '--text', '--wait'],
    code: 'USAGE',
    says: "--text needs a value, and '--wait' reads as an option",
  },
  { args: [...GOAL, '--wait=yes'], code: 'USAGE', says: "--wait takes no value, got 'yes'" },
  { args: ['submit', 'report', '--timeout'], code: 'USAGE', says: '--timeout needs a value' },
  { args: ['submit', 'plan'], code: 'USAGE', says: "expected 'goal' or 'report', got 'plan'" },
  { args: ['publish', 'nothing'], code: 'USAGE', says: "expected 'hypothesis' or 'review', got 'nothing'" },
  { args: ['events'], code: 'USAGE', says: "expected 'tail', got ''" },
  { args: ['events', 'tail', '--count', '0'], code: 'USAGE', says: '--count must be a positive integer' },
  { args: ['events', 'tail', '--from', 'yesterday'], code: 'USAGE', says: "got 'yesterday'" },
  {
    args: ['events', 'tail', '--type', 'hypothesis_held'],
    code: 'USAGE',
    says: "unknown event type 'hypothesis_held'",
  },
  {
    args: ['worker', '--queues', 'bogus'],
    code: 'USAGE',
    says: '--queues takes queue names, comma-separated, from hypothesis.saved',
  },
  { args: ['worker', '--queues', 'hypothesis.saved,'], code: 'USAGE', says: "got ''" },
  { args: ['worker', '--concurrency', '0'], code: 'USAGE', says: "--concurrency must be a positive integer, got '0'" },
  {
    args: ['worker', '--concurrency', '-3'],
    code: 'USAGE',
    says: "--concurrency must be a positive integer, got '-3'",
  },
  {
    args: ['worker', '--port', '70000'],
    code: 'USAGE',
    says: "--port must be a port number from 0 to 65535, got '70000'",
  },
  { args: ['worker', 'now'], code: 'USAGE', says: "expected no arguments, got 'now'" },
  { args: ['dev', '--port', '-1'], code: 'USAGE', says: "dev: --port must be a port number from 0 to 65535, got '-1'" },
  { args: ['dev', 'now'], code: 'USAGE', says: "dev: expected no arguments, got 'now'" },
  {
    args: ['classify', '--label', 'weird'],
    code: 'USAGE',
    says: "--label must be hypothesis, goal or report, got 'weird'",
  },
  { args: ['scan', '--threshold', '2'], code: 'USAGE', says: "--threshold must be a number from 0 to 1, got '2'" },
  { args: ['quarantine', 'show'], code: 'USAGE', says: 'expected one hypothesis id, got none' },
  { args: ['quarantine', 'release', 'h-1', '--by', 'Dr Rao'], code: 'USAGE', says: '--note TEXT is required' },
  { args: ['quarantine', 'list', '--limit', 'all'], code: 'USAGE', says: '--limit must be a positive integer' },
  {
    args: ['quarantine', 'purge'],
    code: 'USAGE',
    says: "expected list, show, release, confirm or reclassify, got 'purge'",
  },
  { args: ['verify', '--excerpt', 'x'], code: 'USAGE', says: '--url is required' },
  { args: ['verify', '--recheck', 'r-1', '--url', 'https://example.org/'], code: 'USAGE', says: 'not both' },
  {
    args: ['verify', '--recheck', 'r-1', '--revision', 'two'],
    code: 'USAGE',
    says: "--revision must be a whole number, got 'two'",
  },
  {
    args: ['verify', '--url', 'https://example.org/', '--revision', '1'],
    code: 'USAGE',
    says: '--revision goes with --recheck',
  },
  { args: ['quote'], code: 'USAGE', says: '--id is required' },
  { args: ['quote', '--id', ''], code: 'QUOTING_BAD_ID', says: 'quote: --id: id must be a non-empty string' },
  { args: ['quote', '--id', 'x'.repeat(300)], code: 'QUOTING_BAD_ID', says: 'id must be at most' },
  {
    args: ['quote', '--id', 'x'],
    env: { COSCI_SAFETY_QUOTING_KEY: 'abc' },
    code: 'QUOTING_BAD_KEY',
    says: '32 hex digits',
  },
  { args: ['classify'], input: '', code: 'INPUT_EMPTY', says: 'classify: the text from stdin is empty' },
  {
    args: ['classify', '--label', 'goal'],
    input: ' \n\t\n',
    code: 'INPUT_EMPTY',
    says: 'the text from stdin is empty',
  },
  { args: ['scan'], input: '\n', code: 'INPUT_EMPTY', says: 'scan: the text from stdin is empty' },
  { args: ['scan', '--file', join(dir, 'none.txt')], code: 'INPUT_UNREADABLE', says: 'no such file' },
  { args: ['publish', 'hypothesis'], input: '[1', code: 'PAYLOAD_INVALID', says: 'not valid JSON' },
  {
    args: ['publish', 'hypothesis'],
    input: '{"text": 5, "revision": -1}',
    code: 'PAYLOAD_INVALID',
    says: 'hypothesisId: ',
  },
  {
    args: ['quarantine', 'list'],
    env: { REDIS_URL: 'notaurl' },
    code: 'CONFIG_INVALID',
    says: 'redis.url (from REDIS_URL): expected a redis://',
  },
  {
    args: ['quarantine', 'list'],
    env: { REDIS_URL: 'redis://127.0.0.1:6379/x' },
    code: 'CONFIG_INVALID',
    says: "a whole number such as /0 or /2; got '/x'",
  },
  {
    args: ['quarantine', 'list'],
    env: { REDIS_URL: 'redis://127.0.0.1:6379?db=3' },
    code: 'CONFIG_INVALID',
    says: 'not as ?db=',
  },
  {
    args: ['quarantine', 'list'],
    env: { COSCI_REVIEW_TOKEN: 'short' },
    code: 'CONFIG_INVALID',
    says: 'review.api_token (from COSCI_REVIEW_TOKEN): use a token of at least 16',
  },
  {
    args: ['worker', '--config', badType],
    code: 'CONFIG_INVALID',
    says: 'worker.concurrency: Invalid input: expected number',
  },
  {
    args: ['scan', '--config', manyProblems],
    // The file's URL, not REDIS_URL's.
    env: { REDIS_URL: '' },
    code: 'CONFIG_INVALID',
    says: 'redis.url: Invalid input: expected string, received number; worker.queues',
  },
  { args: ['scan', '--config', badToml], code: 'CONFIG_INVALID', says: 'invalid TOML (line 1' },
  {
    args: ['scan', '--config', clusterDb], // The file's URL, not REDIS_URL's.
    env: { REDIS_URL: '' },
    code: 'CONFIG_INVALID',
    says: 'Redis Cluster has only database 0',
  },
  { args: ['scan', '--config', join(dir, 'none.toml')], code: 'CONFIG_NOT_FOUND', says: 'no such file or directory' },
  // Read once its redis-server answers, which it then stops: the line, and nothing of the stop.
  { args: ['dev', '--config', badType], code: 'CONFIG_INVALID', says: 'worker.concurrency: Invalid input' },
  { args: ['dev', '--config', join(dir, 'none.toml')], code: 'CONFIG_NOT_FOUND', says: 'no such file or directory' },
];

/** Exactly one line, of this code, saying this, and the exit code the table gives the code. */
function expectOneLine(r: { code: number | null; stdout: string; stderr: string }, c: Case): void {
  expect(r.stderr, r.stderr).toMatch(ONE_LINE);
  expect(ONE_LINE.exec(r.stderr)![1]).toBe(c.code);
  expect(r.stderr).toContain(c.says);
  expect(r.code).toBe(exitCodeOfError(c.code));
  expect(r.stdout).toBe('');
}

const title = (c: Case) => [c.args.join(' ') || '(no arguments)', c] as const;

describe('one line per failure, with its documented exit code', () => {
  // Each in a process of its own, built as installed (`npm run build` first):
  // what reaches stderr besides main's report (a warning of node's, a
  // library's console) shows only there.
  it.concurrent.each(LISTED.map(title))(
    '%s',
    async (_, c) => {
      const r = await runCli(c.args, { env: { ...env, ...c.env }, input: c.input ?? '', built: true });
      expectOneLine(r, c);
    },
    120_000,
  );

  // The same dispatch and parsing in this process: cheap enough to try every command.
  it.each(GENERATED.map(title))('%s', async (_, c) => {
    expectOneLine(await runMain(c.args, { env: { ...env, ...c.env } }), c);
  });

  it('names the codes with the exit codes the table gives them', () => {
    expect(
      ['USAGE', 'CONFIG_INVALID', 'CONFIG_NOT_FOUND', 'QUOTING_BAD_ID', 'INPUT_EMPTY', 'INTERRUPTED'].map((c) =>
        exitCodeOfError(c as ErrorCode),
      ),
    ).toEqual([2, 1, 1, 1, 1, 130]);
  });
});
