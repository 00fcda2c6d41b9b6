/** Builds the verifier and its parsing pool from the configuration; shared by the worker and the one-off `verify` command. */
import type { Redis } from 'ioredis';
import type { Config } from '../config/schema.js';
import { createFetchAgent, HostLimiter, type FetchOptions } from '../fetcher/fetch-page.js';
import type { Metrics } from '../metrics/metrics.js';
import { createPageCache } from './page-cache.js';
import type { DocumentReader } from './page-text.js';
import { ParsePool } from './parse-pool.js';
import { createVerifier, type Verifier } from './verifier.js';

export function fetchOptionsFrom(config: Config): FetchOptions {
  const c = config.citations;
  const base = {
    policy: { allowPrivateHosts: c.allow_private_hosts },
    connectTimeoutMs: c.connect_timeout_ms,
    headersTimeoutMs: c.headers_timeout_ms,
    bodyTimeoutMs: c.body_timeout_ms,
    totalTimeoutMs: c.total_timeout_ms,
    maxBytes: c.max_bytes,
    maxDecodedBytes: c.max_decoded_bytes,
    maxRedirects: c.max_redirects,
    userAgent: c.user_agent,
  };
  return { ...base, dispatcher: createFetchAgent(base) };
}

/** The pool of threads that parse cited documents. Its owner closes it. */
export function buildParsePool(config: Config, deps: { metrics?: Metrics | undefined } = {}): ParsePool {
  const c = config.citations;
  const m = deps.metrics;
  return new ParsePool({
    threads: c.parse_threads,
    timeoutMs: c.parse_timeout_ms,
    maxHeapMb: c.parse_max_heap_mb,
    limits: {
      pdfMaxPages: c.pdf_max_pages,
      pdfMaxDecodedBytes: c.pdf_max_decoded_bytes,
      maxTextChars: c.max_decoded_bytes,
    },
    observer: m && {
      task: (outcome) => m.parseTasks.inc({ outcome }),
      waited: (seconds) => m.parseQueueWait.observe(seconds),
      killed: (reason) => m.parseKills.inc({ reason }),
      threads(busy, idle) {
        m.parseThreads.set({ state: 'busy' }, busy);
        m.parseThreads.set({ state: 'idle' }, idle);
      },
    },
  });
}

export function buildVerifier(
  config: Config,
  deps: { reader: DocumentReader; redis?: Redis | undefined; metrics?: Metrics | undefined },
): Verifier {
  const c = config.citations;
  const m = deps.metrics;
  return createVerifier({
    fetchOptions: fetchOptionsFrom(config),
    reader: deps.reader,
    hostLimiter: new HostLimiter(c.per_host_concurrency),
    concurrency: c.review_concurrency,
    prefixChars: c.prefix_chars,
    cache: deps.redis
      ? createPageCache({
          redis: deps.redis,
          keyPrefix: config.redis.key_prefix,
          ttlSeconds: c.cache_ttl_seconds,
          failureTtlSeconds: c.failure_cache_ttl_seconds,
          // The fetch, then the text extraction; waiting for a parsing thread is not bounded by either.
          lockMs: c.total_timeout_ms + c.parse_timeout_ms + 5000,
          onResult: (result) => m?.fetchCache.inc({ result }),
        })
      : undefined,
    onFetch(page, seconds) {
      m?.fetchDuration.observe({ outcome: page.ok ? 'ok' : page.reason }, seconds);
      if (page.ok) m?.fetchBytes.inc(page.wireBytes);
    },
  });
}
