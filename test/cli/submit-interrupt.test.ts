/**
 * Ctrl-C during `submit ... --wait`: the command stops waiting, not the job.
 * It prints the job as a submit without --wait does, one INTERRUPTED line
 * with the command that reads the result later, and exit code 130
 * (docs/cli.md#exit-codes); it used to die of the signal, silently. The
 * command it names then prints the verdict once a worker has run the job,
 * without adding another.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import type { Config } from '../../src/config/schema.js';
import { goalJobId } from '../../src/contracts/payloads.js';
import { cliCommand } from '../support/cli.js';
import { testConfig } from '../support/config.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { startHarness, type Harness } from '../support/pipeline.js';
import { until } from '../support/poll.js';
import { deleteKeys, testRedis, uniqueName } from '../support/redis.js';

const redis = testRedis();
let fake: FakeAnthropic;
let config: Config;
let env: Record<string, string>;
let harness: Harness | undefined;

beforeAll(async () => {
  fake = await startFakeAnthropic(markerHandler);
  config = testConfig(fake.url);
  const { redis: r } = config;
  const file = join(mkdtempSync(join(tmpdir(), 'cosci-interrupt-')), 'cosci-safety.toml');
  writeFileSync(
    file,
    `[redis]\nprefix = "${r.prefix}"\nkey_prefix = "${r.key_prefix}"\nevents_stream = "${r.events_stream}"\n`,
  );
  env = {
    ...(process.env as Record<string, string>),
    COSCI_SAFETY_CONFIG: file,
    REDIS_URL: r.url,
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: 'sk-cli-secret',
  };
  delete env.COSCI_DEBUG;
});
afterAll(async () => {
  await harness?.stop();
  await fake.close();
  await deleteKeys(redis, config.redis.prefix, config.redis.key_prefix);
  redis.disconnect();
});

interface Waiting {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function start(args: string[], childEnv = env, input = ''): Waiting {
  const child = spawn(process.execPath, cliCommand(args, true), { env: childEnv });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin!.end(input);
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) =>
      child.on('exit', (code, signal) => {
        clearTimeout(killer);
        resolve({ code, signal, stdout, stderr });
      }),
  );
  return { child, exited };
}

describe('Ctrl-C during submit --wait', () => {
  it('prints the job and the command that reads its verdict later; that command does', async () => {
    const goalId = uniqueName('goal');
    const jobId = goalJobId(goalId);
    const args = ['submit', 'goal', '--id', goalId, '--text', "Map kinase networks in yeast's cells", '--wait'];
    const waiting = start([...args, '--timeout', '60000']);
    // No worker runs: the command waits once its job is in the queue.
    await until(
      'the goal is in the queue',
      async () => (await redis.exists(`${config.redis.prefix}:goal.submitted:${jobId}`)) === 1,
      {
        timeoutMs: 30_000,
      },
    );
    waiting.child.kill('SIGINT');
    const r = await waiting.exited;

    expect(r.code).toBe(EXIT.interrupted);
    expect(JSON.parse(r.stdout)).toEqual({ jobId, created: true });
    const again = `cosci-safety submit goal --id ${goalId} --text 'Map kinase networks in yeast'\\''s cells' --wait --timeout 60000`;
    expect(r.stderr).toBe(
      `cosci-safety: INTERRUPTED: stopped waiting: job ${jobId} stays queued for a worker; ` +
        `to read its result, the same command again waits for this job and adds none: ${again}\n`,
    );

    // A worker comes; the command the line gave, as a shell reads it, prints the verdict.
    harness = await startHarness(config);
    const shell = spawn(
      'bash',
      ['-c', again.replace(/^cosci-safety /, `'${process.execPath}' ${cliCommand([], true).join(' ')} `)],
      { env },
    );
    let out = '';
    shell.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => shell.on('exit', resolve));
    expect(code).toBe(0);
    const result = JSON.parse(out) as { jobId: string; created: boolean; goalId: string; verdict: { action: string } };
    expect(result).toMatchObject({ jobId, created: false, goalId, verdict: { action: 'allow' } });
  }, 120_000);

  it('before Redis has confirmed the job, says so, and gives the command that submits it', async () => {
    // A Redis that accepts the connection and never answers.
    const sockets: Array<() => void> = [];
    let connected!: () => void;
    const reached = new Promise<void>((resolve) => (connected = resolve));
    const silent: Server = createServer((socket) => {
      sockets.push(() => socket.destroy());
      connected();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const waiting = start(
        ['submit', 'report', '--wait'],
        { ...env, REDIS_URL: `redis://127.0.0.1:${port}` },
        JSON.stringify({ reportId: uniqueName('report'), sections: [{ text: 'Intro.' }] }),
      );
      await reached;
      waiting.child.kill('SIGINT');
      const r = await waiting.exited;
      expect(r.code).toBe(EXIT.interrupted);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        'cosci-safety: INTERRUPTED: stopped before Redis confirmed the report; the same command again submits it, ' +
          'or finds it if it got there (one job per report): cosci-safety submit report --wait (with the same payload on stdin)\n',
      );
    } finally {
      for (const destroy of sockets) destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
