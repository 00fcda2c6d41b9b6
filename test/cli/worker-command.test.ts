/**
 * `cosci-safety worker` whose metrics port is taken: only its one line, naming
 * the port and --port, at the default log level, and an exit at once. It used
 * to log the start (a missing API key) and the shutdown of what it had opened
 * around that line.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { until } from '../support/poll.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

const redis = testRedis();
const name = uniqueName('worker-port');
let taken: Server;
let port: number;
let env: Record<string, string>;
let file: string;

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
  port = (taken.address() as AddressInfo).port;
  file = join(mkdtempSync(join(tmpdir(), 'cosci-worker-')), 'cosci-safety.toml');
  writeFileSync(
    file,
    `[redis]\nprefix = "${name}"\nkey_prefix = "${name}"\nevents_stream = "${name}:events"\n` +
      `[metrics]\nport = ${port}\n[logging]\nformat = "json"\n`,
  );
  env = { ...(process.env as Record<string, string>), COSCI_SAFETY_CONFIG: file, REDIS_URL };
  // Without a key the worker logs an error at start: a start that fails must not.
  delete env.ANTHROPIC_API_KEY;
});
afterAll(async () => {
  await new Promise((resolve) => taken.close(resolve));
  await deleteKeys(redis, name);
  redis.disconnect();
});

describe('worker with its metrics port taken', () => {
  it('names the port and the --port flag, exit 1, and ends at once', async () => {
    // Three at once: a worker closed while it connected used to crash, now and then, with a stack after the line.
    const [fromFlag, fromConfig, again] = await Promise.all([
      runCli(['worker', '--port', String(port)], { env, killAfterMs: 60_000 }),
      runCli(['worker'], { env, killAfterMs: 60_000 }),
      runCli(['worker', '--port', String(port)], { env, killAfterMs: 60_000 }),
    ]);
    const line =
      `cosci-safety: PORT_UNAVAILABLE: port ${port} on 0.0.0.0 is already in use (the metrics port, --port); ` +
      'choose another with --port N, or --port 0 for any free port';
    expect(fromFlag.stderr).toBe(`${line}\n`);
    expect(again.stderr).toBe(`${line}\n`);
    expect(fromConfig.stderr).toBe(
      `${line.replace('(the metrics port, --port)', '(the metrics port, metrics.port)')}\n`,
    );
    for (const r of [fromFlag, fromConfig, again]) {
      expect(r.code).toBe(1);
      // Start-up and shutdown on a busy machine; it used to hang with its Redis connections open.
      expect(r.elapsedMs).toBeLessThan(20_000);
    }
  });

  it('--port overrides metrics.port: with --port 0 it starts on a free port, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'worker', '--port', '0'], { env });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await until(
        'the worker says where its metrics are',
        () => /metrics on http:\/\/0\.0\.0\.0:\d+\/metrics/.test(stderr),
        {
          timeoutMs: 30_000,
        },
      );
      const served = Number(/metrics on http:\/\/0\.0\.0\.0:(\d+)\//.exec(stderr)![1]);
      expect(served).not.toBe(port);
      expect((await fetch(`http://127.0.0.1:${served}/healthz`)).status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);

  it('a --port that is not a number is a usage error', async () => {
    const r = await runCli(['worker', '--port', 'x'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "cosci-safety: USAGE: worker: --port must be a port number from 0 to 65535, got 'x' (cosci-safety worker --help)\n",
    );
  });
});
