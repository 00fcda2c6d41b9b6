/**
 * The private redis-server of `cosci-safety dev`: the one on the PATH, a
 * child process on a free loopback port, its folder a new temporary one, and
 * nothing of it left behind once stopped. It never serves port 6379, where a
 * Redis of the user's own may listen or come back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { CosciError } from '../../errors.js';
import { createFailFastConnection } from '../../queues/connection.js';

/** The address it listens on: this machine only. */
const HOST = '127.0.0.1';

/** The port a Redis of the user's own listens on, which the private one never takes. */
const USUAL_PORT = 6379;

/**
 * How long redis-server may take to answer its first PING. It answers in
 * milliseconds; the bound is for a machine busy with other work.
 */
const START_BOUND_MS = 20_000;

/** How long it may take to exit after SIGTERM before it is killed. */
const STOP_BOUND_MS = 10_000;

/** Tries of a new port when the one picked was taken in the meantime. */
const PORT_TRIES = 3;

/** How much of its log is kept, for the one line that says why it did not start. */
const LOG_TAIL_CHARS = 4000;

export interface PrivateRedis {
  url: string;
  port: number;
  pid: number;
  /** Its working folder, removed when it stops. */
  dir: string;
  /** SIGTERM, waits for it to exit (SIGKILL past a bound), removes the folder. Called twice, the second waits for the first. */
  stop(): Promise<void>;
  /** SIGKILL and the folder removed, synchronously: for a second signal, or a process that ends. */
  killNow(): void;
}

/** The absolute path of an executable `name` in the directories of `path` (the PATH variable), or undefined. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    // An empty entry is the current folder, which a program found by chance there should not be.
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not there, or not executable: the next directory.
    }
  }
  return undefined;
}

/** The one line a machine without redis-server gets: what to install, and the way without it. */
export function redisServerMissing(): CosciError {
  return new CosciError(
    'REDIS_SERVER_MISSING',
    'redis-server is not on the PATH; install it (Debian or Ubuntu: sudo apt-get install redis-server; ' +
      'Fedora: sudo dnf install redis; macOS: brew install redis) and run cosci-safety dev again, ' +
      'or run a Redis of your own and cosci-safety worker (README.md, Run)',
  );
}

/** A loopback port that was free a moment ago, never the usual Redis port. */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, HOST, () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    if (port !== USUAL_PORT) return port;
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Why a start failed: its port taken (try another), or anything else (give up). */
class StartFailed extends Error {
  constructor(
    message: string,
    readonly portTaken: boolean,
  ) {
    super(message);
  }
}

/**
 * Resolves once the server at `url` answers; rejects once the child has
 * closed (`closed`: its exit, its last log lines read) or the bound passes.
 * The probe is one connection that reconnects every 100 ms until the
 * server is ready.
 */
async function answers(url: string, child: ChildProcess, closed: Promise<void>, log: () => string): Promise<void> {
  // disconnectTimeout: ioredis's default (2 s) would hold a failed start that long after its line.
  const probe = createFailFastConnection(url, {
    retryStrategy: () => 100,
    connectTimeout: 2000,
    disconnectTimeout: 100,
  });
  probe.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(new StartFailed(`redis-server did not answer within ${START_BOUND_MS} ms; ${lastLine(log())}`, false)),
        START_BOUND_MS,
      );
      void closed.then(() => {
        const text = log();
        const why = `redis-server exited (${child.exitCode ?? child.signalCode}) before it answered: ${lastLine(text)}`;
        reject(new StartFailed(why, /address already in use/i.test(text)));
      });
      probe.once('ready', () => resolve());
    });
  } finally {
    clearTimeout(timer);
    probe.disconnect();
  }
}

/** The last line of its log that says something, without the pid, role and time each line starts with. */
function lastLine(log: string): string {
  const lines = log.split(/\r?\n/).filter((l) => l.trim() !== '');
  return (lines.at(-1) ?? 'no output').replace(/^\d+:[A-Z] \d\d \w{3} \d{4} [\d:.]+ [*#.-] /, '').trim();
}

async function startOnce(executable: string, env: Record<string, string | undefined>): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'cosci-dev-'));
  const child = spawn(
    executable,
    // No snapshots, no append-only file: the data lives as long as the try,
    // and a stop needs no save. `--dir` keeps whatever it writes anyway in
    // the folder that is removed.
    ['--port', String(port), '--bind', HOST, '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // A process group of its own: Ctrl-C in a terminal signals the whole
      // foreground group, and a redis-server that stopped at once would
      // leave the worker's jobs in flight without their Redis while the
      // worker finishes them. The dev command stops it, after the worker.
      detached: true,
    },
  );
  let log = '';
  const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-LOG_TAIL_CHARS));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  // From the spawn on, so that an exit before the probe starts is not missed.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    // Kept on after the start: a signal it could not be sent is an 'error' too, which unheard would end the process.
    child.on('error', (err) => reject(new StartFailed(`cannot run ${executable}: ${err.message}`, false)));
  });
  const killNow = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  // Whatever ends this process (an error, a closed pipe's exit), the server and its folder go with it.
  process.once('exit', killNow);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Without a pid it never ran (spawn failed), and no 'exit' will come.
      if (child.pid !== undefined) {
        const gone = exited(child);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_BOUND_MS);
        await gone;
        clearTimeout(timer);
      }
      process.off('exit', killNow);
      rmSync(dir, { recursive: true, force: true });
    })());
  const url = `redis://${HOST}:${port}`;
  try {
    await spawned;
    await answers(url, child, closed, () => log);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, port, pid: child.pid!, dir, stop, killNow };
}

/**
 * Starts redis-server (the absolute path `executable`) on a free port and
 * resolves once it answers. A port taken between picking it and the
 * server's bind is picked again; any other failure is REDIS_UNAVAILABLE,
 * with the server's last log line, and leaves nothing behind.
 */
export async function startPrivateRedis(
  executable: string,
  env: Record<string, string | undefined>,
): Promise<PrivateRedis> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(executable, env);
    } catch (err) {
      if (err instanceof StartFailed && err.portTaken && attempt < PORT_TRIES) continue;
      throw new CosciError(
        'REDIS_UNAVAILABLE',
        `the private redis-server (${executable}) did not start: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
  }
}
