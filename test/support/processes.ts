/**
 * Real processes for fault tests: `cosci-safety worker` as a child process
 * with its own config file, and a private redis-server (AOF on, in a temp
 * folder) that a test may stop and restart without touching the shared one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { readEvents, type StreamEvent } from '../../src/events/reader.js';
import { StopPolling, until } from './poll.js';

/** A port that was free a moment ago (bound to 0, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

export interface RedisServer {
  port: number;
  url: string;
  /** The append-only file's folder, kept across restarts. */
  dir: string;
  /** `SHUTDOWN` (the AOF is fsynced), then waits for the process to exit. */
  stop(): Promise<void>;
  /** Starts redis-server again on the same port and folder; resolves when it answers. */
  start(): Promise<void>;
  /** Stops the server if it runs and removes its folder. */
  destroy(): Promise<void>;
}

/**
 * A private redis-server on a free loopback port, with AOF and no RDB
 * snapshots, so that what was acknowledged before a stop is there after a
 * restart.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'cosci-redis-'));
  let child: ChildProcess | undefined;
  let log = '';

  const cli = (...args: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const p = spawn('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      p.stdout.on('data', (d: Buffer) => (out += d.toString()));
      p.stderr.on('data', (d: Buffer) => (out += d.toString()));
      p.on('exit', (code) => resolve({ code, out }));
    });

  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--appendonly', 'yes', '--dir', dir, '--save', ''],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
      const started = child;
      await until(
        () => `redis-server on port ${port} answers (log: ${log.slice(-500)})`,
        async () => {
          if (started.exitCode !== null)
            throw new StopPolling(`redis-server exited ${started.exitCode}: ${log.slice(-1000)}`);
          return (await cli('ping')).out.includes('PONG');
        },
        { timeoutMs: 15_000, everyMs: 100 },
      );
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = exitOf(running);
      await cli('shutdown');
      const timer = setTimeout(() => running.kill('SIGTERM'), 10_000);
      await exited;
      clearTimeout(timer);
    },
    async destroy() {
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = exitOf(child);
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

export interface FreezingProxy {
  /** Connect here instead of to Redis. */
  url: string;
  /** Resolves to the trigger's first capture group once it has frozen the traffic. */
  tripped: Promise<string>;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy in front of Redis (plain TCP, no TLS) that forwards a client's commands
 * until one matches `trigger`, then stops forwarding anything from any of its
 * connections: the matching command and all after it never reach Redis, while
 * everything before it has run. It freezes a process at an exact point of its
 * work, which a signal alone cannot do.
 */
export async function startFreezingProxy(redisUrl: string, trigger: RegExp): Promise<FreezingProxy> {
  const target = new URL(redisUrl);
  let frozen = false;
  let trip!: (capture: string) => void;
  const tripped = new Promise<string>((r) => (trip = r));
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(upstream);
    let tail = '';
    client.on('data', (chunk: Buffer) => {
      if (frozen) return;
      // Match across chunk boundaries; a command cut in two is harmless, since its rest never follows.
      tail = (tail + chunk.toString('latin1')).slice(-8192);
      const match = trigger.exec(tail);
      if (match) {
        frozen = true;
        trip(match[1] ?? match[0]);
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const s of [client, upstream]) {
      s.on('error', close);
      s.on('close', close);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // The same URL (credentials, database) with the proxy's address.
  const url = new URL(redisUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    tripped,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface WorkerSettings {
  redisUrl: string;
  /** Unique per test: BullMQ prefix `<id>-bull`, key prefix `<id>-k`, stream `<id>-k:events`. */
  id: string;
  modelUrl: string;
  /** TOML lines of the [worker] section. */
  worker: Record<string, number | string[]>;
  /** anthropic.timeout_ms */
  modelTimeoutMs?: number;
  /** TOML lines of the [citations] section, when there is one. */
  citations?: Record<string, number | string[]>;
  /** More environment for the process (the OTEL_* variables of a traced worker). */
  env?: Record<string, string>;
}

export interface Names {
  prefix: string;
  keyPrefix: string;
  stream: string;
}

export function namesOf(id: string): Names {
  return { prefix: `${id}-bull`, keyPrefix: `${id}-k`, stream: `${id}-k:events` };
}

function tomlValue(v: number | string[]): string {
  return Array.isArray(v) ? `[${v.map((s) => JSON.stringify(s)).join(', ')}]` : String(v);
}

/** A TOML section of `values`, or nothing without them. */
function section(name: string, values: Record<string, number | string[]> | undefined): string {
  if (values === undefined) return '';
  return `[${name}]\n${Object.entries(values)
    .map(([k, v]) => `${k} = ${tomlValue(v)}`)
    .join('\n')}\n`;
}

/** Writes the worker's config file; returns its path. */
export function writeWorkerConfig(s: WorkerSettings): string {
  const n = namesOf(s.id);
  const file = join(mkdtempSync(join(tmpdir(), 'cosci-fault-')), 'cosci-safety.toml');
  writeFileSync(
    file,
    `[redis]
url = "${s.redisUrl}"
prefix = "${n.prefix}"
key_prefix = "${n.keyPrefix}"
events_stream = "${n.stream}"
[worker]
${Object.entries(s.worker)
  .map(([k, v]) => `${k} = ${tomlValue(v)}`)
  .join('\n')}
[metrics]
port = 0
host = "127.0.0.1"
queue_depth = false
[anthropic]
base_url = "${s.modelUrl}"
timeout_ms = ${s.modelTimeoutMs ?? 30_000}
${section('citations', s.citations)}[logging]
level = "info"
format = "json"
`,
  );
  return file;
}

export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  /** What BullMQ records as the job's processedBy for this process. */
  name: string;
  /** Port of /metrics, /healthz, /readyz. */
  port: number;
  /** Everything the process wrote to stderr so far (its JSON logs). */
  log(): string;
  /** Resolves to the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  running(): boolean;
}

/**
 * Spawns `cosci-safety worker` (from the sources, or an installed build)
 * with the config file; resolves once it logs `worker started` and names
 * its metrics port. Environment overrides of the
 * file (REDIS_URL, ANTHROPIC_BASE_URL) are set to the file's values, so the
 * caller's environment cannot point the worker elsewhere; nor can its
 * OTEL_* variables trace it (only `s.env` can).
 */
export async function spawnWorker(
  configFile: string,
  s: WorkerSettings,
  /** Another build to run, as installed in a project: its `dist/cli/main.js`, run in `cwd`. */
  installed?: { main: string; cwd: string },
): Promise<WorkerProcess> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    COSCI_SAFETY_CONFIG: configFile,
    REDIS_URL: s.redisUrl,
    ANTHROPIC_BASE_URL: s.modelUrl,
    ANTHROPIC_API_KEY: 'sk-fault-test-key',
  };
  delete env.COSCI_REVIEW_TOKEN;
  // Traced only when the test says so, whatever the environment of the run.
  for (const name of Object.keys(env)) if (name.startsWith('OTEL_')) delete env[name];
  Object.assign(env, s.env);
  const args = installed ? [installed.main, 'worker'] : ['--import', 'tsx', 'src/cli/main.ts', 'worker'];
  const child = spawn(process.execPath, args, {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(installed ? { cwd: installed.cwd } : {}),
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = exitOf(child);
  let port = 0;
  await until(
    () => `worker process started (log: ${stderr.slice(-2000)})`,
    () => {
      if (child.exitCode !== null)
        throw new StopPolling(`worker exited ${child.exitCode} at start: ${stderr.slice(-2000)}`);
      const m = /metrics on http:\/\/127\.0\.0\.1:(\d+)\/metrics/.exec(stderr);
      if (m) port = Number(m[1]);
      return port > 0 && stderr.includes('"msg":"worker started"');
    },
    { timeoutMs: 30_000 },
  );
  return {
    child,
    pid: child.pid!,
    name: `${hostname()}:${child.pid}`,
    port,
    log: () => stderr,
    exited,
    running: () => child.exitCode === null && child.signalCode === null,
  };
}

/** The exit code, or 'still running' when the process has not exited within `ms`. */
export async function exitWithin(w: WorkerProcess, ms: number): Promise<number | null | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still running'>((r) => (timer = setTimeout(() => r('still running'), ms)));
  try {
    return await Promise.race([w.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Kills a worker process that is still running (test cleanup). */
export async function killWorker(w: WorkerProcess | undefined): Promise<void> {
  if (!w?.running()) return;
  w.child.kill('SIGKILL');
  await w.exited;
}

/** Every event in the stream. */
export async function streamEvents(redis: Redis, stream: string): Promise<StreamEvent[]> {
  const all: StreamEvent[] = [];
  let start = '-';
  for (;;) {
    const page = await readEvents(redis, stream, start, 1000);
    all.push(...page);
    if (page.length < 1000) return all;
    start = `(${page.at(-1)!.id}`;
  }
}

/** How many times each key occurs. */
export function tally(keys: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

/** Every key matching the pattern. */
export async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}
