/**
 * A review's deadline in the verifier, with the real page cache in Redis,
 * the host limiter, undici and the parsing threads, against a loopback page
 * server: what the deadline gives up, and what it must not (a fetch another
 * review still waits for, a shutdown).
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPageCache, type CacheResult, type PageCache } from '../../src/citations/page-cache.js';
import type { ParsePool } from '../../src/citations/parse-pool.js';
import { createVerifier, type Verifier } from '../../src/citations/verifier.js';
import type { Config } from '../../src/config/schema.js';
import { CosciError } from '../../src/errors.js';
import { HostLimiter } from '../../src/fetcher/host-limiter.js';
import { buildParsePool, fetchOptionsFrom } from '../../src/runtime/builders.js';
import { testConfig } from '../support/config.js';
import { startPageServer, type PageServer } from '../support/page-server.js';
import { until } from '../support/poll.js';
import { deleteKeys, testRedis } from '../support/redis.js';

const PAGE = '<p>Protein kinase A phosphorylates the transcription factor CREB at serine 133.</p>';
const excerpt = 'Protein kinase A phosphorylates the transcription factor CREB';

let pages: PageServer;
let config: Config;
let pool: ParsePool;
const redis = testRedis();
/** Responses held until the test lets them go, by path. */
const held = new Map<string, ServerResponse[]>();
/** Paths whose request ended, answered or not. */
const ended: string[] = [];

beforeAll(async () => {
  pages = await startPageServer();
  for (const path of ['/shared', '/alone', '/shutdown']) {
    held.set(path, []);
    pages.route(path, (req, res) => {
      held.get(path)!.push(res);
      res.on('close', () => ended.push(path));
    });
  }
  config = testConfig(undefined, {
    citations: { allow_private_hosts: [`localhost:${pages.port}`], total_timeout_ms: 30_000 },
  });
  pool = buildParsePool(config);
});

afterAll(async () => {
  await pool.close();
  await deleteKeys(redis, config.redis.key_prefix);
  redis.disconnect();
  await pages.close();
});

function release(path: string): void {
  for (const res of held.get(path)!.splice(0)) res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
}

function cache(results: CacheResult[] = []): PageCache {
  return createPageCache({
    redis,
    keyPrefix: config.redis.key_prefix,
    ttlSeconds: 60,
    failureTtlSeconds: 60,
    lockMs: 40_000,
    onResult: (r) => results.push(r),
  });
}

function verifier(deadlineMs: number, shared: { cache: PageCache; hostLimiter: HostLimiter }): Verifier {
  return createVerifier({
    fetchOptions: fetchOptionsFrom(config),
    reader: pool,
    concurrency: 4,
    prefixChars: 0,
    deadlineMs,
    ...shared,
  });
}

const cite = (path: string) => [{ claim: 'c', url: `${pages.base}${path}`, excerpt }];

describe('the review deadline', () => {
  it('does not give up a fetch that another review still waits for', async () => {
    const results: CacheResult[] = [];
    const shared = { cache: cache(results), hostLimiter: new HostLimiter(2) };
    const soon = verifier(300, shared);
    const later = verifier(30_000, shared);
    const first = soon.verify(cite('/shared'));
    await until('the page requested', () => held.get('/shared')!.length === 1, { everyMs: 5 });
    const second = later.verify(cite('/shared'));
    // The first review's deadline passes while both wait for the one fetch.
    expect((await first).map((r) => [r.status, r.reason])).toEqual([['fetch_failed', 'review_deadline']]);
    expect(ended).not.toContain('/shared');
    release('/shared');
    expect((await second).map((r) => r.status)).toEqual(['ok']);
    expect(pages.hits.get('/shared')).toBe(1);
    expect(results).toEqual(['shared', 'miss']);
  });

  it('gives up a fetch no review waits for any more: the request ends, the slot is free, nothing is cached', async () => {
    const results: CacheResult[] = [];
    const hostLimiter = new HostLimiter(1);
    const soon = verifier(300, { cache: cache(results), hostLimiter });
    const host = new URL(pages.base).host;
    expect((await soon.verify(cite('/alone'))).map((r) => [r.status, r.reason])).toEqual([
      ['fetch_failed', 'review_deadline'],
    ]);
    await until('the request ended', () => ended.includes('/alone'), { everyMs: 5, timeoutMs: 3000 });
    expect(hostLimiter.active(host)).toBe(0);
    expect(results).toEqual([]);
    // Nothing stored for the page, and its lock released: the next review fetches it at once.
    held.set('/alone', []);
    pages.page('/alone', PAGE);
    const next = verifier(30_000, { cache: cache(results), hostLimiter });
    expect((await next.verify(cite('/alone'))).map((r) => r.status)).toEqual(['ok']);
    expect(pages.hits.get('/alone')).toBe(2);
    expect(results).toEqual(['miss']);
  });

  it('gives way to a shutdown: the review stops with JOB_ABORTED, its citations not cut, nothing cached', async () => {
    const results: CacheResult[] = [];
    const v = verifier(300, { cache: cache(results), hostLimiter: new HostLimiter(2) });
    const shutdown = new AbortController();
    const review = v.verify(cite('/shutdown'), undefined, shutdown.signal);
    const outcome = review.then(
      () => undefined,
      (err: unknown) => err,
    );
    await until('the page requested', () => held.get('/shutdown')!.length === 1, { everyMs: 5 });
    shutdown.abort(new Error('shutting down'));
    const err = await outcome;
    expect(err).toBeInstanceOf(CosciError);
    expect((err as CosciError).code).toBe('JOB_ABORTED');
    await until('the request ended', () => ended.includes('/shutdown'), { everyMs: 5, timeoutMs: 3000 });
    expect(results).toEqual([]);
  });
});
