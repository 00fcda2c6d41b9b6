/**
 * The code snippets of the docs are code.
 *
 * Every Python block of README.md and docs/ must at least compile (`python3
 * -m py_compile`), so a publisher who copies one does not start from a syntax
 * error.
 *
 * The TypeScript blocks that use `cosci-safety/client` (README.md,
 * docs/contract.md) and the Bull Board of docs/operations.md are copied
 * verbatim into a fresh project with the packed package, ioredis 6 and the
 * Bull Board's pinned versions installed (test/support/fresh-project.ts),
 * type-checked with tsc, and run against a real worker on a private
 * redis-server (the snippets use the default prefix and stream, which the
 * shared Redis must not see), with REDIS_URL (and the board's REDIS_HOST,
 * REDIS_PORT, PORT) pointing at it. A client snippet must end by itself: a
 * connection, a QueueEvents or a consumer left open keeps a process alive.
 */
import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '../../src/contracts/queues.js';
import { Publisher } from '../../src/queues/publisher.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { freshProject, typecheck } from '../support/fresh-project.js';
import { eventually, StopPolling, until } from '../support/poll.js';
import {
  freePort,
  killWorker,
  spawnWorker,
  startRedisServer,
  type RedisServer,
  type WorkerProcess,
} from '../support/processes.js';

const root = new URL('../../', import.meta.url).pathname;
const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

function blocks(language: string): Array<{ file: string; index: number; code: string }> {
  const out: Array<{ file: string; index: number; code: string }> = [];
  for (const file of docs) {
    const text = readFileSync(join(root, file), 'utf8');
    const fence = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```', 'gm');
    let index = 0;
    for (const m of text.matchAll(fence)) out.push({ file, index: index++, code: m[1]! });
  }
  return out;
}

const python = spawnSync('python3', ['--version']).status === 0;

describe.skipIf(!python)('Python snippets in the docs (python3 not found: skipped)', () => {
  const snippets = blocks('python');

  it('there is at least one (the contract shows a Python publisher)', () => {
    expect(snippets.some((s) => s.file === 'docs/contract.md')).toBe(true);
  });

  it.each(snippets.map((s) => [`${s.file} #${s.index + 1}`, s] as const))('%s compiles', (_name, snippet) => {
    const dir = mkdtempSync(join(tmpdir(), 'cosci-snippet-'));
    const file = join(dir, 'snippet.py');
    writeFileSync(file, snippet.code);
    expect(() => execFileSync('python3', ['-m', 'py_compile', file], { stdio: 'pipe' })).not.toThrow();
  });
});

/** The ```ts blocks of `file` that contain `marker`, in order. */
function tsBlocks(file: string, marker: string): string[] {
  return blocks('ts')
    .filter((b) => b.file === file && b.code.includes(marker))
    .map((b) => b.code);
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a compiled snippet; `code` null and `signal` SIGKILL when it had not ended within `boundMs`. */
function runSnippet(cwd: string, file: string, env: Record<string, string>, boundMs: number): Promise<Exit> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [file],
      { cwd, env: { ...process.env, ...env }, timeout: boundMs, killSignal: 'SIGKILL' },
      (err, stdout, stderr) => {
        const e = err as (Error & { code?: number | string; signal?: NodeJS.Signals }) | null;
        resolve({
          code: e ? (typeof e.code === 'number' ? e.code : null) : 0,
          signal: e?.signal ?? null,
          stdout,
          stderr,
        });
      },
    );
  });
}

/** A snippet that runs until it is stopped, its output so far, and its end. */
interface Running {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startSnippet(cwd: string, file: string, env: Record<string, string>): Running {
  const child = spawn(process.execPath, [file], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** The exit, or 'still running' after `ms`. */
async function exitWithin(r: Running, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), ms)));
  try {
    return await Promise.race([r.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Generous: a snippet that ends does so in about a second; one that hangs never does. */
const EXIT_BOUND_MS = 60_000;

describe('the client and Bull Board snippets of the docs, in a fresh project with ioredis 6', () => {
  const readme = tsBlocks('README.md', "'cosci-safety/client'");
  const contract = tsBlocks('docs/contract.md', "'cosci-safety/client'");
  const board = tsBlocks('docs/operations.md', "'@bull-board/api'");
  let work: string;
  let server: RedisServer;
  let fake: FakeAnthropic;
  let worker: WorkerProcess | undefined;
  let redis: Redis;
  const running: Running[] = [];
  let env: Record<string, string>;
  let compiled: { code: number; output: string };

  beforeAll(async () => {
    const project = await freshProject();
    work = project.workspace('snippets');
    const files = {
      'readme-publisher': readme[0]!,
      'contract-publisher': contract[0]!,
      'contract-consumer': contract[1]!,
      board: board[0]!,
    };
    for (const [name, code] of Object.entries(files)) writeFileSync(join(work, `${name}.ts`), code);
    compiled = await typecheck(work, { outDir: 'out' });

    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
    fake = await startFakeAnthropic();
    // The defaults the snippets assume: prefix `bull`, stream `cosci:events`.
    const config = join(mkdtempSync(join(tmpdir(), 'cosci-snippets-')), 'cosci-safety.toml');
    writeFileSync(
      config,
      `[redis]\nurl = "${server.url}"\n[metrics]\nport = 0\nhost = "127.0.0.1"\nqueue_depth = false\n` +
        `[anthropic]\nbase_url = "${fake.url}"\n[logging]\nlevel = "info"\nformat = "json"\n`,
    );
    worker = await spawnWorker(config, { redisUrl: server.url, modelUrl: fake.url, id: 'snippets', worker: {} });
    env = { REDIS_URL: server.url };
  }, 420_000);

  afterAll(async () => {
    for (const r of running) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
    await killWorker(worker);
    redis?.disconnect();
    await server?.destroy();
    await fake?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("finds the snippets: the README's publisher, the contract's publisher and consumer, the Bull Board", () => {
    expect(readme).toHaveLength(1);
    expect(contract).toHaveLength(2);
    expect(board).toHaveLength(1);
  });

  it('type-check with tsc', () => {
    expect(compiled.output).toBe('');
    expect(compiled.code).toBe(0);
  });

  it('the consumer of docs/contract.md handles an event and ends on SIGTERM', async () => {
    const consumer = startSnippet(work, 'out/contract-consumer.js', env);
    running.push(consumer);
    await until(
      () => `the consumer joined its group (output: ${consumer.output()})`,
      async () => {
        if (consumer.child.exitCode !== null) throw new StopPolling(`it exited: ${consumer.output()}`);
        const consumers = (await redis.xinfo('CONSUMERS', 'cosci:events', 'notifier').catch(() => [])) as unknown[];
        return consumers.length === 1;
      },
      { timeoutMs: 30_000 },
    );
    // A hypothesis the classifier holds for review (the loopback model reads the marker).
    const publisher = new Publisher({ connection: server.url });
    await publisher.publishHypothesisSaved({
      hypothesisId: 'h-held',
      text: 'Enhance transmissibility @@dual_use_bio@0.9@@',
    });
    await publisher.close();
    await until(
      () => `the consumer printed the event (output: ${consumer.output()})`,
      () => consumer.output().includes('held for review: h-held r0'),
      {
        timeoutMs: 30_000,
      },
    );
    consumer.child.kill('SIGTERM');
    expect(await exitWithin(consumer, EXIT_BOUND_MS)).toEqual({ code: 0, signal: null });
    // close() left the group tidy: the consumer held nothing, so it is gone.
    expect(await redis.xinfo('CONSUMERS', 'cosci:events', 'notifier')).toEqual([]);
  }, 120_000);

  it('the publisher of README.md prints the verdict and ends by itself', async () => {
    const run = await runSnippet(work, 'out/readme-publisher.js', env, EXIT_BOUND_MS);
    expect(run).toEqual({ code: 0, signal: null, stdout: 'allow\n', stderr: '' });
  }, 120_000);

  it('the publisher of docs/contract.md prints the publishable report and ends by itself', async () => {
    const run = await runSnippet(work, 'out/contract-publisher.js', env, EXIT_BOUND_MS);
    expect(run).toEqual({ code: 0, signal: null, stdout: 'Intro.\n\nFindings on h-17.\n', stderr: '' });
  }, 120_000);

  it("the Bull Board of docs/operations.md, at its pinned versions, shows the worker's queues and their jobs", async () => {
    const port = await freePort();
    const boardRun = startSnippet(work, 'out/board.js', {
      REDIS_HOST: '127.0.0.1',
      REDIS_PORT: String(server.port),
      PORT: String(port),
    });
    running.push(boardRun);
    const api = await eventually(
      () => `the board answers on port ${port} (output: ${boardRun.output()})`,
      async () => {
        if (boardRun.child.exitCode !== null) throw new StopPolling(`it exited: ${boardRun.output()}`);
        const res = await fetch(`http://127.0.0.1:${port}/queues/api/queues`);
        return res.ok
          ? ((await res.json()) as {
              queues: Array<{ name: string; counts: Record<string, number>; readOnlyMode: boolean }>;
            })
          : undefined;
      },
      { timeoutMs: 30_000, everyMs: 200 },
    );
    expect(api.queues.map((q) => q.name).sort()).toEqual([...QUEUE_NAMES].sort());
    const counts = Object.fromEntries(api.queues.map((q) => [q.name, q.counts]));
    // What the snippets above published, done by the worker.
    expect(counts['goal.submitted']).toMatchObject({ completed: 2, failed: 0 });
    expect(counts['report.finalized']).toMatchObject({ completed: 1, failed: 0 });
    expect(api.queues.every((q) => q.readOnlyMode)).toBe(true);
    boardRun.child.kill('SIGTERM');
    await boardRun.exited;
  }, 120_000);
});
