/**
 * What the benchmark commands share: a garbage collector they can call,
 * seeded random inputs, free ports, the loopback model server and cleaning
 * up their keys.
 */
import { spawn } from 'node:child_process';
import type { Redis } from 'ioredis';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/** Forces a full collection, so one measurement does not pay for the last one's garbage. */
export const gc = runInNewContext('gc') as () => void;

export { int, pick, rng, type Rand } from '../eval/random.js';

/** Deletes every key that starts with `prefix`, by SCAN (a benchmark never flushes a shared Redis). */
export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 5000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}

/** A port that was free a moment ago (bound to 0, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * The model server's estimate of characters per token, for its `usage`
 * block (bench/model-server.ts): English prose runs at about 4.
 */
export const CHARS_PER_TOKEN = 4;

export interface ModelServer {
  url: string;
  /** Requests served so far. */
  served(): Promise<number>;
  stop(): void;
}

/** Starts bench/model-server.ts in its own process, answering after `delayMs`. */
export async function startModelServer(delayMs = 0): Promise<ModelServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/model-server.ts', '--delay', String(delayMs)], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`model server exited with ${code}`)));
    child.stdout!.once('data', (d: Buffer) =>
      resolve((JSON.parse(d.toString().split('\n')[0]!) as { port: number }).port),
    );
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async served() {
      return ((await (await fetch(`${url}/count`)).json()) as { served: number }).served;
    },
    stop: () => child.kill('SIGTERM'),
  };
}
