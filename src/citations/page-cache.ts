/**
 * The page-text cache in Redis, shared by all workers, with single-flight
 * across them: many reviews citing one URL at once cause one fetch. The
 * first worker takes a lock (SET NX PX) and fetches; the others wait for the
 * cached result (or for the lock to lapse, then try to take it). Inside one
 * process, concurrent callers share one load before touching Redis; a caller
 * may give up waiting (its review's deadline), and the load is stopped only
 * when every caller has. Failures are cached too, for a shorter time; a load
 * given up is not a failure of the page and is not cached.
 */
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { PAGE_TEXT_VERSION, type PageText } from './page-text.js';
import { untilAborted } from './until-aborted.js';

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
  /**
   * The page of `url`, from the cache or from `fetch`. `fetch` gets a signal
   * that aborts once no caller in this process waits for the load any more;
   * it should then reject, and nothing is stored. When `signal` aborts, this
   * caller stops waiting: get() rejects with the signal's reason at once,
   * and the load goes on for the other callers, if any.
   */
  get(url: string, fetch: (signal: AbortSignal) => Promise<PageText>, signal?: AbortSignal): Promise<PageText>;
}

/** One load in this process, with the callers still waiting for it. */
interface Flight {
  promise: Promise<PageText>;
  controller: AbortController;
  waiting: number;
}

/** Releases the lock only if it is still ours. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export function createPageCache(options: PageCacheOptions): PageCache {
  const { redis } = options;
  const pollMs = options.pollMs ?? 50;
  const inFlight = new Map<string, Flight>();

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

  async function load(url: string, fetch: () => Promise<PageText>, signal: AbortSignal): Promise<PageText> {
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
      // Rejects when every caller has given up: nobody needs the result any more.
      await sleep(pollMs, undefined, { signal });
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

  function start(url: string, fetch: (signal: AbortSignal) => Promise<PageText>): Flight {
    const controller = new AbortController();
    const flight: Flight = {
      controller,
      waiting: 0,
      promise: load(url, () => fetch(controller.signal), controller.signal).finally(() => {
        if (inFlight.get(url) === flight) inFlight.delete(url);
      }),
    };
    // Every caller may have given up by the time it settles.
    flight.promise.catch(() => undefined);
    inFlight.set(url, flight);
    return flight;
  }

  function leave(url: string, flight: Flight): void {
    if (--flight.waiting > 0) return;
    // Taken out first: a caller that comes after starts a load of its own.
    if (inFlight.get(url) === flight) inFlight.delete(url);
    flight.controller.abort(new Error('no caller waits for this page any more'));
  }

  return {
    get(url, fetch, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason as Error);
      let flight = inFlight.get(url);
      if (flight) options.onResult?.('shared');
      else flight = start(url, fetch);
      flight.waiting++;
      if (!signal) return flight.promise;
      const joined = flight;
      const onAbort = () => leave(url, joined);
      signal.addEventListener('abort', onAbort, { once: true });
      joined.promise.then(
        () => signal.removeEventListener('abort', onAbort),
        () => signal.removeEventListener('abort', onAbort),
      );
      return untilAborted(joined.promise, signal);
    },
  };
}
