/**
 * The configuration, as a zod schema: TOML keys in snake_case, every default
 * in one place. Parsed and validated once at start-up (see load.ts).
 */
import { z } from 'zod';
import { QUEUE_NAMES } from '../contracts/queues.js';
import { parseAllowEntry } from '../fetcher/allow-list.js';
import { CATEGORIES } from '../safety/classification/categories.js';
import { DEFAULT_INJECTION_THRESHOLD } from '../safety/injection/index.js';
import { redisDatabase, redisUrlProblem, redisUrls } from './redis-url.js';

const category = z.enum(CATEGORIES);

const positiveInt = z.number().int().positive();

export const RedisConfigSchema = z
  .strictObject({
    /**
     * Redis URL; the REDIS_URL environment variable overrides it. A database
     * other than 0 is the URL's path (`redis://host:6379/2`), and must exist
     * on the server (its `databases` setting): the worker and every command
     * refuse to start otherwise. With `cluster`, one or more node URLs of the
     * cluster, separated by commas, and no database (a cluster has only 0).
     */
    url: z
      .string()
      .default('redis://127.0.0.1:6379')
      // Checked here, not on first use: ioredis takes any string as a host
      // name and retries it without end, and a database it cannot select it
      // replaces with 0. The message never echoes the value, which may hold a
      // password (src/config/redis-url.ts).
      .superRefine((url, ctx) => {
        const problem = redisUrls(url)
          .map(redisUrlProblem)
          .find((p) => p !== undefined);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', input: url, message: problem });
      }),
    /**
     * Connect to a Redis Cluster. Every key a script touches must then share a
     * slot: `prefix`, `key_prefix` and `events_stream` must each hold a hash
     * tag, such as `{bull}`, `{cosci}` and `{cosci}:events`, the last two the same.
     */
    cluster: z.boolean().default(false),
    /** BullMQ's key prefix; BullMQ's own default, so any BullMQ client publishes with no setting. */
    prefix: z.string().min(1).default('bull'),
    /** Prefix of the service's own keys (verdicts, cache, event dedupe). Use a hash tag such as `{cosci}` on Redis Cluster. */
    key_prefix: z.string().min(1).default('cosci'),
    /** The Redis Stream events go to. */
    events_stream: z.string().min(1).default('cosci:events'),
    /** Approximate cap on the stream's length (XADD MAXLEN ~); 0 for none. */
    events_max_len: z.number().int().nonnegative().default(1_000_000),
    /** How long an emitted event's id is remembered, so a re-run job never emits it twice. */
    event_dedupe_ttl_seconds: positiveInt.default(30 * 24 * 3600),
  })
  .prefault({})
  .check((ctx) => {
    if (!ctx.value.cluster) return;
    if (redisUrls(ctx.value.url).some((u) => redisDatabase(u) !== 0)) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['url'],
        message: 'Redis Cluster has only database 0: drop the path (/N) from the URLs',
      });
    }
    for (const key of ['prefix', 'key_prefix', 'events_stream'] as const) {
      if (hashTag(ctx.value[key]) === undefined) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          path: [key],
          message: `on Redis Cluster it must hold a hash tag, such as "{cosci}", so that the keys a script touches share a slot`,
        });
      }
    }
    const tag = hashTag(ctx.value.key_prefix);
    const streamTag = hashTag(ctx.value.events_stream);
    if (tag !== undefined && streamTag !== undefined && tag !== streamTag) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['events_stream'],
        message: `on Redis Cluster it must hold the hash tag of key_prefix ("{${tag}}"): a verdict and its events are written by one script`,
      });
    }
  });

/** The part of a key Redis Cluster hashes: between the first "{" and the next "}", when not empty. */
export function hashTag(key: string): string | undefined {
  const open = key.indexOf('{');
  if (open < 0) return undefined;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : undefined;
}

export const WorkerConfigSchema = z
  .strictObject({
    /** The queues this process works on. */
    queues: z
      .array(z.enum(QUEUE_NAMES))
      .min(1)
      .default([...QUEUE_NAMES]),
    /** Jobs in flight at once, per queue. */
    concurrency: positiveInt.default(16),
    /** Bound on shutdown: after it, in-flight calls are aborted and their jobs go back to the queue. */
    shutdown_timeout_ms: positiveInt.default(20_000),
    /** BullMQ lock duration; a job whose worker stops renewing it is taken over after it. */
    lock_duration_ms: positiveInt.default(30_000),
    /** BullMQ's stalled-job check interval. */
    stalled_interval_ms: positiveInt.default(30_000),
    /** Completed jobs kept for inspection (count). */
    keep_completed: z.number().int().nonnegative().default(10_000),
    /** Failed jobs kept for inspection (count). */
    keep_failed: z.number().int().nonnegative().default(100_000),
    /** Optional rate limit on jobs started per duration, shared by all workers of a queue. */
    rate_limit_max: positiveInt.optional(),
    rate_limit_duration_ms: positiveInt.default(1000),
    /**
     * BullMQ's own metrics (completed and failed jobs per minute, a week of
     * them, kept by BullMQ in Redis), which Bull Board and Taskforce chart.
     * Two Redis commands inside each job's completion script
     * (docs/operations.md#bullmqs-own-metrics).
     */
    bullmq_metrics: z.boolean().default(true),
  })
  .prefault({});

export const MetricsConfigSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    host: z.string().default('0.0.0.0'),
    /** Port of /metrics, /healthz and /readyz; 0 picks a free one. */
    port: z.number().int().min(0).max(65535).default(9464),
    /**
     * Who exports the queue-depth gauges: `leader` (one process per cluster,
     * by a lease in Redis), `true` (this process always), `false` (never).
     */
    queue_depth: z.union([z.boolean(), z.literal('leader')]).default('leader'),
  })
  .prefault({});

export const SafetyConfigSchema = z
  .strictObject({
    enable_classifier: z.boolean().default(true),
    classifier_block_categories: z.array(category).default(['cbrn', 'csam', 'weapons', 'illicit_synthesis']),
    classifier_warn_categories: z.array(category).default(['dual_use_bio']),
    /** A warn-list category at or above this confidence quarantines instead of warning. */
    classifier_quarantine_threshold: z.number().min(0).max(1).default(0.6),
    /** The action of a degraded verdict (classifier unreachable, no key): fail closed by default. */
    classifier_on_error: z.enum(['quarantine', 'allow']).default('quarantine'),
    /** Characters per classification window. */
    classifier_window_chars: z.number().int().min(500).default(8000),
    /** Characters shared by neighbouring windows, so a passage cut by a window edge is seen whole in one. */
    classifier_window_overlap_chars: z.number().int().nonnegative().default(400),
    /** Windows per text at most; longer text is classified in part and the verdict is degraded. */
    classifier_max_windows: positiveInt.default(16),
    /** Lifetime of a cached assessment. */
    classifier_cache_ttl_seconds: positiveInt.default(7 * 24 * 3600),
    /** Verify the evidence of reviews; when false, reviews are recorded as skipped. */
    enable_citation_verifier: z.boolean().default(true),
    /**
     * At final-report time: `redact` replaces each section of a held or
     * confirmed hypothesis with a notice, then classifies the report as a
     * whole; `block` blocks a report with any such section; `off` passes
     * reports unchecked.
     */
    final_report_check: z.enum(['redact', 'block', 'off']).default('redact'),
    /**
     * Injection detector score (0..1) at or above which a cited document is
     * reported as carrying instructions for an AI reader
     * (`source_injection_suspected`), and at which `cosci-safety scan` exits 4.
     */
    injection_threshold: z
      .number({ error: 'expected a number from 0 to 1' })
      .min(0, { error: 'expected a number from 0 to 1' })
      .max(1, { error: 'expected a number from 0 to 1' })
      .default(DEFAULT_INJECTION_THRESHOLD),
  })
  .prefault({})
  .check((ctx) => {
    const both = ctx.value.classifier_block_categories.filter((c) => ctx.value.classifier_warn_categories.includes(c));
    if (both.length > 0) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['classifier_warn_categories'],
        message: `a category cannot be in both the block and the warn list: ${both.join(', ')}`,
      });
    }
    if (ctx.value.classifier_window_overlap_chars >= ctx.value.classifier_window_chars / 2) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: ['classifier_window_overlap_chars'],
        message: 'must be less than half of classifier_window_chars',
      });
    }
  });

export const ModelsConfigSchema = z
  .strictObject({
    classifier: z.string().min(1).default('claude-haiku-4-5-20251001'),
    /** The judge of claim support (`citations.claim_support`). */
    claim_support: z.string().min(1).default('claude-haiku-4-5-20251001'),
  })
  .prefault({});

export const AnthropicConfigSchema = z
  .strictObject({
    /** Prefer the ANTHROPIC_API_KEY environment variable; a key here is read the same way. */
    api_key: z.string().min(1).optional(),
    /** ANTHROPIC_BASE_URL overrides it. */
    base_url: z.url().optional(),
    /** Timeout of one request. */
    timeout_ms: positiveInt.default(30_000),
    /** Retries of one window after a 429, 5xx, 529, timeout, lost connection, or an answer that is not a message or is malformed. */
    max_retries: z.number().int().min(0).max(10).default(3),
    retry_base_delay_ms: positiveInt.default(500),
    /** The longest wait before a retry: the backoff's cap, and the most a `retry-after` is waited. */
    retry_max_delay_ms: positiveInt.default(10_000),
    /** Windows of one text classified at once. */
    window_concurrency: positiveInt.default(4),
    max_tokens: positiveInt.default(1024),
  })
  .prefault({});

export const CitationsConfigSchema = z
  .strictObject({
    /**
     * Destinations that may be private addresses, for tests and on-premise
     * deployments: a host name (exact, case-insensitive) or IP literal with
     * the port it is admitted on (`host:8080`, `[::1]:8080`), or `host:*`
     * for every port. Without a port, only 80 and 443: a page server on the
     * list must not open the way to Redis on the same host. Every other
     * private, loopback, link-local or metadata address is refused.
     */
    allow_private_hosts: z
      .array(
        z.string().superRefine((entry, ctx) => {
          const parsed = parseAllowEntry(entry);
          if (!parsed.ok) ctx.addIssue({ code: 'custom', input: entry, message: parsed.detail });
        }),
      )
      .default([]),
    /**
     * Fixed addresses of host names for the fetcher, as /etc/hosts gives
     * them: `{ "example.org" = "10.0.0.7" }`. The URL, Host header and TLS
     * name stay the cited ones; a private address still needs its host in
     * `allow_private_hosts`.
     */
    hosts: z
      .record(z.string(), z.union([z.ipv4(), z.ipv6()], { error: 'expected an IPv4 or IPv6 address' }))
      .superRefine((table, ctx) => {
        for (const name of Object.keys(table)) {
          if (!/^[a-z0-9.-]+$/i.test(name)) {
            ctx.addIssue({
              code: 'custom',
              input: name,
              path: [name],
              message: 'expected a host name (letters, digits, dots and hyphens)',
            });
          }
        }
      })
      .default({}),
    connect_timeout_ms: positiveInt.default(5000),
    headers_timeout_ms: positiveInt.default(10_000),
    body_timeout_ms: positiveInt.default(10_000),
    /** Bound on one fetch, redirects included. */
    total_timeout_ms: positiveInt.default(20_000),
    /** Bytes on the wire (compressed) at most. */
    max_bytes: positiveInt.default(10 * 1024 * 1024),
    /**
     * Bytes after decompression at most (a gzip bomb stops here); also the
     * most characters of text one document may give.
     */
    max_decoded_bytes: positiveInt.default(20 * 1024 * 1024),
    max_redirects: z.number().int().min(0).max(20).default(5),
    /** Fetches in flight to one host at once, per worker. */
    per_host_concurrency: positiveInt.default(2),
    /** Citations of one review checked at once. */
    review_concurrency: positiveInt.default(8),
    /**
     * Bound on checking the citations of one review, from its start: the
     * citations not fetched by then (waiting for a slot, or in flight) are
     * `fetch_failed`, `review_deadline`, and the review is recorded with them.
     * Set it well above `total_timeout_ms`, which bounds one fetch.
     */
    review_deadline_ms: positiveInt.default(120_000),
    /** Lifetime of a fetched page's text in the shared cache. */
    cache_ttl_seconds: positiveInt.default(24 * 3600),
    /** Lifetime of a failed fetch in the cache: shorter, since failures pass. */
    failure_cache_ttl_seconds: positiveInt.default(300),
    /**
     * 0 checks the whole excerpt. A positive value restores the old rule of
     * checking only that many first characters (which lets a real opening
     * carry a fabricated tail).
     */
    prefix_chars: z.number().int().nonnegative().default(0),
    user_agent: z.string().min(1).default('cosci-safety-citation-verifier/0.1'),
    /**
     * Threads that extract the text of fetched documents (HTML, plain text,
     * PDF), off the event loop; documents beyond wait their turn. Each may
     * hold up to twice `parse_max_heap_mb` of memory while it works.
     */
    parse_threads: positiveInt.default(2),
    /** Wall-clock bound on extracting one document's text; past it its thread is ended (`content_too_slow`). */
    parse_timeout_ms: positiveInt.default(10_000),
    /**
     * Heap limit of each parsing thread, in MiB; a document that needs more
     * ends its thread (`content_too_large`), and so does one during which the
     * process's resident memory grows by more than twice this (memory outside
     * the heap, such as a PDF's inflated streams).
     */
    parse_max_heap_mb: z.number().int().min(64).default(256),
    /** Pages of a PDF read at most, from the first; an excerpt not found in them is `excerpt_not_in_pages_read`. */
    pdf_max_pages: positiveInt.default(500),
    /**
     * A PDF whose compressed streams (images left out) inflate to more than
     * this many bytes is refused before it is read (`content_too_large`): a
     * decompression bomb stops here.
     */
    pdf_max_decoded_bytes: positiveInt.default(64 * 1024 * 1024),
    /**
     * Judge, for each `ok` citation, whether the passage around its excerpt
     * supports its claim (`models.claim_support`, one model call per claim
     * sentence, cached). Off by default: it costs model calls.
     */
    claim_support: z.boolean().default(false),
    /** Characters of page text the judge reads: the excerpt and the text around it. */
    claim_support_window_chars: z.number().int().min(200).max(50_000).default(2000),
    /** Sentences of one claim judged at most; a longer claim is `unclear`, `claim_too_long`. */
    claim_support_max_sentences: z.number().int().min(1).max(32).default(6),
    /** Lifetime of a judgement in the shared answer cache. */
    claim_support_cache_ttl_seconds: positiveInt.default(7 * 24 * 3600),
  })
  .prefault({});

export const LoggingConfigSchema = z
  .strictObject({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** `auto`: pretty on a terminal, JSON otherwise. */
    format: z.enum(['auto', 'json', 'pretty']).default('auto'),
  })
  .prefault({});

export const ReviewConfigSchema = z
  .strictObject({
    /**
     * Bearer token of the HTTP review API and page, served beside /metrics.
     * Unset, they are off. Prefer the COSCI_REVIEW_TOKEN environment variable.
     */
    api_token: z.string().min(16, 'use a token of at least 16 characters').optional(),
    /**
     * How long a reviewer's claim on an item holds (docs/review.md#claims):
     * long enough to read an item and its evidence, short enough that one
     * who leaves holds nothing for long.
     * @defaultValue 900
     */
    claim_ttl_seconds: z.number().int().min(10).max(86_400).default(900),
  })
  .prefault({});

export const ConfigSchema = z.strictObject({
  redis: RedisConfigSchema,
  worker: WorkerConfigSchema,
  metrics: MetricsConfigSchema,
  safety: SafetyConfigSchema,
  models: ModelsConfigSchema,
  anthropic: AnthropicConfigSchema,
  citations: CitationsConfigSchema,
  review: ReviewConfigSchema,
  logging: LoggingConfigSchema,
});

export type Config = z.infer<typeof ConfigSchema>;
