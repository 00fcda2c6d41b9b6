/**
 * The page-text cache in Redis, shared by all workers, with single-flight
 * across them: many reviews citing one URL at once cause one fetch. The
 * first worker takes a lock (SET NX PX) and fetches; the others wait for the
 * cached result (or for the lock to lapse, then try to take it). Inside one
 * process, concurrent callers share one promise before touching Redis.
 * Failures are cached too, for a shorter time.
 */
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { PAGE_TEXT_VERSION, type PageText } from './page-text.js';

export type CacheResult = 'hit' | 'miss' | 'shared' | 'waited';

export interface PageCacheOptions {
  redis: Redis;
  keyPrefix: string;
  ttlSeconds: number;
  failureTtlSeconds: number;
  /** How long a fetch may hold the lock; longer than the fetch's own bound. */
  lockMs: number;
  /** How often a waiting worker looks for the result. */
  pollMs?: number;
  onResult?: (result: CacheResult) => void;
}

export interface PageCache {
  get(url: string, fetch: () => Promise<PageText>): Promise<PageText>;
}

/** Releases the lock only if it is still ours. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export function createPageCache(options: PageCacheOptions): PageCache {
  const { redis } = options;
  const pollMs = options.pollMs ?? 50;
  const inFlight = new Map<string, Promise<PageText>>();

  const keys = (url: string) => {
    const h = createHash('sha256').update(url).digest('hex');
    return { value: `${options.keyPrefix}:page:${h}`, lock: `${options.keyPrefix}:page-lock:${h}` };
  };

  /** The cached page; a text of another version (PAGE_TEXT_VERSION) counts as none, and is fetched again. */
  async function read(key: string): Promise<PageText | undefined> {
    const raw = await redis.get(key);
    if (raw === null) return undefined;
    const page = JSON.parse(raw) as PageText;
    return page.ok && page.v !== PAGE_TEXT_VERSION ? undefined : page;
  }

  async function load(url: string, fetch: () => Promise<PageText>): Promise<PageText> {
    const k = keys(url);
    const cached = await read(k.value);
    if (cached) {
      options.onResult?.('hit');
      return cached;
    }
    const token = randomUUID();
    const deadline = Date.now() + options.lockMs * 2;
    let waited = false;
    for (;;) {
      if ((await redis.set(k.lock, token, 'PX', options.lockMs, 'NX')) === 'OK') {
        try {
          // Another worker may have finished between our read and our lock.
          const again = await read(k.value);
          if (again) {
            options.onResult?.(waited ? 'waited' : 'hit');
            return again;
          }
          const page = await fetch();
          const ttl = page.ok ? options.ttlSeconds : options.failureTtlSeconds;
          await redis.set(k.value, JSON.stringify(page), 'EX', ttl);
          options.onResult?.('miss');
          return page;
        } finally {
          await redis.eval(RELEASE, 1, k.lock, token);
        }
      }
      waited = true;
      await sleep(pollMs);
      const result = await read(k.value);
      if (result) {
        options.onResult?.('waited');
        return result;
      }
      if (Date.now() > deadline) {
        // The holder is stuck or gone and its lock has not lapsed yet; fetch ourselves.
        const page = await fetch();
        options.onResult?.('miss');
        return page;
      }
    }
  }

  return {
    get(url, fetch) {
      const running = inFlight.get(url);
      if (running) {
        options.onResult?.('shared');
        return running;
      }
      const p = load(url, fetch).finally(() => inFlight.delete(url));
      inFlight.set(url, p);
      return p;
    },
  };
}
