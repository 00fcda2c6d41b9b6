/**
 * `cosci-safety dev` as a user runs it: the built command in a process of
 * its own, its banner read, the three commands it prints run as pasted into
 * another terminal (`npx cosci-safety` in this checkout), the review page's
 * API asked with the printed token, then a signal, after which nothing of
 * the stack is left: no redis-server, no folder (each run gets a TMPDIR of
 * its own, so that what it leaves there is its own). And a PATH without
 * redis-server. Needs `npm run build`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../../src/cli/dev/redis-server.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import {
  isRedisServer,
  processesNaming,
  reviewApi,
  runPrinted,
  waitForBanner,
  type DevBanner,
} from '../support/dev-stack.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic, type Handler } from '../support/fake-anthropic.js';
import { LEVEL, logged } from '../support/log-lines.js';
import { eventually, until } from '../support/poll.js';
import { scanKeys } from '../support/processes.js';
import { REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

const root = new URL('../../', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'cosci-dev-test-'));
const name = uniqueName('dev');
const redis = testRedis();
let fake: FakeAnthropic;
let config: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic(markerHandler);
  config = join(work, 'cosci-safety.toml');
  // Names of its own, so that the shared Redis can be searched for them (it
  // must hold none: the stack uses its private one). The review's cited page
  // is named to 127.0.0.1, where port 443 refuses: a quick fetch_failed,
  // without the network.
  writeFileSync(
    config,
    `[redis]\nprefix = "${name}-bull"\nkey_prefix = "${name}-k"\nevents_stream = "${name}-k:events"\n` +
      `[citations]\nallow_private_hosts = ["example.org"]\n[citations.hosts]\n"example.org" = "127.0.0.1"\n` +
      `[logging]\nformat = "json"\n`,
  );
});

afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await fake?.close();
  redis.disconnect();
  rmSync(work, { recursive: true, force: true });
});

interface DevRun {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  running(): boolean;
  exited: Promise<number | null>;
  /** Its TMPDIR, where its redis-server's folder is made. */
  tmp: string;
}

/** The environment of a user's terminal in this checkout: npx must never ask a registry. */
function userEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env, ...extra };
  for (const key of ['COSCI_SAFETY_CONFIG', 'COSCI_REVIEW_TOKEN', 'COSCI_DEBUG']) delete env[key];
  env.npm_config_offline = 'true';
  env.npm_config_update_notifier = 'false';
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

function startDev(args: string[], env: Record<string, string>): DevRun {
  const tmp = join(work, `tmp-${started.length}`);
  mkdirSync(tmp);
  const child = spawn(process.execPath, ['dist/cli/main.js', 'dev', ...args], {
    cwd: root,
    env: { ...env, TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own, as a terminal gives a command: Ctrl-C signals the whole group.
    detached: true,
  });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  // A stack that never stops fails its test with this, before the test's own timeout.
  const exited = Promise.race([
    closed,
    new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error(`cosci-safety dev still running after 120 s: ${stderr.slice(-2000)}`)),
        120_000,
      ).unref(),
    ),
  ]);
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    running: () => child.exitCode === null && child.signalCode === null,
    exited,
    tmp,
  };
}

/** Nothing of the stack left: its redis-server gone, its folder removed, nothing else in its TMPDIR. */
function nothingLeft(run: DevRun, banner?: DevBanner): void {
  if (banner) {
    expect(isRedisServer(banner.redisPid)).toBe(false);
    expect(existsSync(banner.dir)).toBe(false);
  }
  expect(processesNaming(run.tmp)).toEqual([]);
  expect(readdirSync(run.tmp)).toEqual([]);
}

describe('cosci-safety dev', () => {
  it('without a key: the printed commands reach its Redis, h-1 is held on the review page; SIGINT stops all of it, exit 0', async () => {
    // REDIS_URL names the shared Redis: the stack must use its own all the same.
    const run = startDev(['--config', config, '--port', '0'], userEnv({ REDIS_URL, ANTHROPIC_API_KEY: undefined }));
    const banner = await waitForBanner(run);
    expect(banner.redisPort).not.toBe(6379);
    expect(banner.redisUrl).not.toBe(REDIS_URL);
    expect(isRedisServer(banner.redisPid)).toBe(true);
    expect(existsSync(banner.dir)).toBe(true);
    expect(banner.dir.startsWith(run.tmp)).toBe(true);
    expect(banner.verdicts).toMatch(/^degraded \(no_api_key\), each held for review/);
    expect(banner.commands).toHaveLength(3);
    for (const command of banner.commands) {
      expect(command).toContain(`REDIS_URL=${banner.redisUrl} npx cosci-safety `);
      expect(command).toContain(`--config ${config}`);
    }

    // The other terminal knows nothing of this stack: no key, and REDIS_URL the shared Redis's.
    const runs = await runPrinted(banner, { cwd: root, env: userEnv({ REDIS_URL, ANTHROPIC_API_KEY: undefined }) });
    const [hypothesis, goal, review] = runs;
    expect(hypothesis!.code, hypothesis!.stderr).toBe(0);
    expect(JSON.parse(hypothesis!.stdout)).toEqual({ jobId: 'hypothesis.h-1.r1', created: true });
    // Without a key, the goal's verdict is degraded and held: exit code 4.
    expect(goal!.code, goal!.stderr).toBe(EXIT.held);
    expect(JSON.parse(goal!.stdout)).toMatchObject({
      goalId: 'g-1',
      verdict: { action: 'quarantine', degraded: true, reason: 'no_api_key' },
    });
    expect(review!.code, review!.stderr).toBe(0);
    expect(JSON.parse(review!.stdout)).toEqual({ jobId: 'review.r-1.r0', created: true });

    // The review page's API, with the printed token: h-1 held, its review's citation checked.
    interface Item {
      state: string;
      evidence: Array<{ reviewId: string; results: Array<{ url: string; status: string }> }>;
    }
    const item = await eventually(
      'h-1 is held on the review page, with its review checked',
      async () => {
        const { item } = (await (await reviewApi(banner, 'items/h-1')).json()) as { item?: Item };
        return item?.evidence.some((e) => e.reviewId === 'r-1') ? item : undefined;
      },
      { timeoutMs: 60_000, everyMs: 200 },
    );
    expect(item.state).toBe('quarantined');
    expect(item.evidence[0]!.results).toMatchObject([{ url: 'https://example.org/paper' }]);
    expect(item.evidence[0]!.results[0]!.status).not.toBe('ok');
    const queue = (await (await reviewApi(banner, 'items')).json()) as { items: Array<{ hypothesisId: string }> };
    expect(queue.items.map((i) => i.hypothesisId)).toEqual(['h-1']);
    // The token is the page's: another is refused.
    expect((await reviewApi(banner, 'items', 'not-the-token-of-this-run')).status).toBe(401);
    // Nothing of it went to the shared Redis.
    expect(await scanKeys(redis, `${name}-*`)).toEqual([]);

    // Ctrl-C in a terminal: SIGINT to the whole foreground process group.
    process.kill(-run.child.pid!, 'SIGINT');
    expect(await run.exited).toBe(EXIT.ok);
    expect(run.stderr()).toContain('"msg":"shut down"');
    expect(run.stderr()).toContain(`cosci-safety dev: stopped; ${banner.dir} removed`);
    expect(logged(run.stderr(), LEVEL.error)).toEqual([]);
    nothingLeft(run, banner);
    await expect(fetch(`${banner.pageUrl}`)).rejects.toThrow();
  }, 240_000);

  it("with ANTHROPIC_API_KEY the verdicts are the model's; SIGTERM stops all of it, exit 0", async () => {
    const env = userEnv({ ANTHROPIC_API_KEY: 'sk-dev-test-key', ANTHROPIC_BASE_URL: fake.url });
    const run = startDev(['--config', config, '--port', '0'], env);
    const banner = await waitForBanner(run);
    expect(banner.verdicts).toBe('real: claude-haiku-4-5-20251001 classifies each text (ANTHROPIC_API_KEY is set)');
    expect(run.stderr()).not.toContain('NO ANTHROPIC API KEY');
    const goal = banner.commands.find((c) => c.includes('submit goal'))!;
    const answer = await runPrinted({ ...banner, commands: [goal] }, { cwd: root, env: userEnv() });
    expect(answer[0]!.code, answer[0]!.stderr).toBe(EXIT.ok);
    expect(JSON.parse(answer[0]!.stdout)).toMatchObject({
      goalId: 'g-1',
      verdict: { action: 'allow', degraded: false },
    });
    expect(fake.requests.some((r) => r.text.includes('Map kinase networks in yeast'))).toBe(true);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(EXIT.ok);
    expect(logged(run.stderr(), LEVEL.error)).toEqual([]);
    nothingLeft(run, banner);
  }, 240_000);

  /** A stack with a key whose model answers as `handler` does, once h-1's job has asked it. */
  async function withJobInFlight(handler: Handler, body: (run: DevRun, banner: DevBanner) => Promise<void>) {
    fake.setHandler(handler);
    try {
      const env = userEnv({ ANTHROPIC_API_KEY: 'sk-dev-test-key', ANTHROPIC_BASE_URL: fake.url });
      const run = startDev(['--config', config, '--port', '0'], env);
      const banner = await waitForBanner(run);
      const asked = fake.requests.length;
      const hypothesis = { ...banner, commands: [banner.commands[0]!] };
      const [published] = await runPrinted(hypothesis, { cwd: root, env: userEnv() });
      expect(published!.code, published!.stderr).toBe(0);
      await until('the model was asked about h-1', () => fake.requests.length > asked, { timeoutMs: 60_000 });
      await body(run, banner);
    } finally {
      fake.setHandler(markerHandler);
    }
  }

  it('Ctrl-C with a job in flight: the job ends before its redis-server stops, exit 0, nothing logged above info', async () => {
    const slow: Handler = async (req, i) => {
      const reply = await markerHandler(req, i);
      return typeof reply === 'object' ? { ...reply, delayMs: 3000 } : reply;
    };
    await withJobInFlight(slow, async (run, banner) => {
      process.kill(-run.child.pid!, 'SIGINT');
      expect(await run.exited).toBe(EXIT.ok);
      // A redis-server stopped by the same Ctrl-C would have left the job without its Redis.
      expect(logged(run.stderr(), LEVEL.warn)).toEqual([]);
      nothingLeft(run, banner);
    });
  }, 240_000);

  it('a second signal while the first waits for a job in flight: redis-server killed, folder removed, exit 130', async () => {
    await withJobInFlight(
      () => 'hang',
      async (run, banner) => {
        run.child.kill('SIGINT');
        await until('the worker is finishing its job', () => run.stderr().includes('shutting down'), {
          timeoutMs: 30_000,
        });
        expect(run.running()).toBe(true);
        run.child.kill('SIGINT');
        expect(await run.exited).toBe(EXIT.interrupted);
        nothingLeft(run, banner);
      },
    );
  }, 240_000);

  it('its page port taken: PORT_UNAVAILABLE in one line, exit 1, and its redis-server and folder gone', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const run = startDev(['--config', config, '--port', String(port)], userEnv());
      expect(await run.exited).toBe(EXIT.refused);
      expect(run.stdout()).toBe('');
      expect(run.stderr()).toBe(
        `cosci-safety: PORT_UNAVAILABLE: port ${port} on 127.0.0.1 is already in use (the metrics port, --port); ` +
          'choose another with --port N, or --port 0 for any free port\n',
      );
      nothingLeft(run);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 120_000);

  /** A folder for PATH with a `redis-server` that is this shell script. */
  function fakeRedisServer(script: string): string {
    const dir = mkdtempSync(join(work, 'bin-'));
    writeFileSync(join(dir, 'redis-server'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    return dir;
  }

  it('a redis-server that cannot start: REDIS_UNAVAILABLE with its last log line, exit 5, nothing left', async () => {
    const bin = fakeRedisServer(
      `echo "1:M 02 Dec 2026 10:00:00.000 # Fatal error, can't open config file '/nowhere'"; exit 1`,
    );
    const run = startDev(['--config', config], userEnv({ PATH: bin }));
    expect(await run.exited).toBe(EXIT.unavailable);
    expect(run.stdout()).toBe('');
    expect(run.stderr()).toBe(
      `cosci-safety: REDIS_UNAVAILABLE: the private redis-server (${join(bin, 'redis-server')}) did not start: ` +
        "redis-server exited (1) before it answered: Fatal error, can't open config file '/nowhere'\n",
    );
    nothingLeft(run);
  }, 60_000);

  it('a port taken between picking it and the bind: picked again, and the stack starts', async () => {
    const real = findOnPath('redis-server', process.env.PATH);
    expect(real, 'redis-server on the PATH').toBeDefined();
    const once = join(work, 'refused-once');
    const bin = fakeRedisServer(
      `if [ ! -e ${once} ]; then touch ${once}; ` +
        `echo "1:M 02 Dec 2026 10:00:00.000 # Warning: Could not create server TCP listening socket 127.0.0.1:1: bind: Address already in use"; ` +
        `exit 1; fi; exec ${real} "$@"`,
    );
    const run = startDev(['--config', config, '--port', '0'], userEnv({ PATH: `${bin}:${process.env.PATH}` }));
    const banner = await waitForBanner(run);
    expect(existsSync(once)).toBe(true);
    expect(isRedisServer(banner.redisPid)).toBe(true);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(EXIT.ok);
    nothingLeft(run, banner);
  }, 120_000);

  it('a PATH without redis-server: one line saying how to install it, exit 1, nothing started', async () => {
    const emptyPath = join(work, 'bin-without-redis');
    mkdirSync(emptyPath);
    const run = startDev(['--config', config], userEnv({ PATH: emptyPath }));
    expect(await run.exited).toBe(EXIT.refused);
    expect(run.stdout()).toBe('');
    const lines = run.stderr().split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cosci-safety: REDIS_SERVER_MISSING: redis-server is not on the PATH; install it \(/);
    expect(lines[0]).toContain('apt-get install redis-server');
    nothingLeft(run);
  }, 60_000);
});
