/**
 * The pipeline against its ceilings, all on one Redis in one run:
 *
 *   npm run bench:pipeline [-- --jobs N] [--concurrency N] [--curve 1000,10000,100000] [--no-docs]
 *
 * - Queue ceiling: a raw BullMQ worker with a no-op processor. Beside it, the
 *   same worker making one Redis round trip per job on a second connection:
 *   the bound of a job answered from the verdict cache.
 * - Model-call ceiling: raw Anthropic SDK calls against the loopback model
 *   server that answers at once (bench/model-server.ts, its own process),
 *   with the SDK's own fetch. Beside it, the same calls through the
 *   service's transport (src/classifier/http-transport.ts): the bound of
 *   the model call as the pipeline makes it.
 * - Instant classifier: the hypothesis pipeline with that server (goal: at
 *   least 70% of the model-call ceiling).
 * - Cached verdicts: the same texts under new ids, answered from the
 *   assessment cache with no model call (goal: at least 50% of the queue ceiling).
 * - Latency-bound: the server answers after 300 ms, concurrency 100 (goal: at
 *   least 90% of concurrency / latency, in the steady state), and the time from publish to event
 *   minus the model's 300 ms at a steady rate below capacity (goal: p99 under 50 ms).
 * - Scale-out: 1, 2 and 4 worker processes on one queue.
 * - The cost curve: the instant pipeline at growing job counts.
 *
 * Each run's jobs are added to a paused queue and timed from the resume, so
 * publishing is not in the figure. Every key it writes is under a unique
 * prefix, deleted at the end. Writes its section of docs/benchmarks.md.
 */
import Anthropic from '@anthropic-ai/sdk';
import { spawn, type ChildProcess } from 'node:child_process';
import { CHARS_PER_TOKEN, deleteKeysWithPrefix, startModelServer, type ModelServer } from './support.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { createAnthropicClient } from '../src/classifier/anthropic-assessor.js';
import { ConfigSchema, type Config } from '../src/config/schema.js';
import { hypothesisJobId } from '../src/contracts/payloads.js';
import { createLogger } from '../src/logging/logger.js';
import { DEFAULT_JOB_OPTIONS } from '../src/queues/publisher.js';
import { startWorkerRuntime, type StartOptions } from '../src/runtime/worker-runtime.js';
import { ASSESSMENT_TOOL, SYSTEM_PROMPT, TOOL_NAME, buildUserMessage } from '../src/safety/classification/prompt.js';
import {
  describeMachine,
  formatMarkdown,
  markdownTable,
  runDate,
  textTable,
  writeMarkedSection,
} from '../eval/machine.js';
import { commandArgs } from '../eval/command-args.js';

const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUEUE = 'hypothesis.saved';
const LATENCY_MS = 300;
const LATENCY_CONCURRENCY = 100;
/** Rounds of the ceiling, instant and cached runs; each figure is their median. */
const REPEATS = 5;

const parsed = commandArgs(
  'bench:pipeline',
  ['usage: npm run bench:pipeline [-- --jobs N] [--concurrency N] [--curve 1000,10000,100000] [--no-docs]'],
  {
    options: {
      jobs: { type: 'string', default: '10000' },
      concurrency: { type: 'string', default: '16' },
      curve: { type: 'string', default: '1000,10000,100000' },
      'no-docs': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  },
);
const args = parsed.values;
const N = Number(args.jobs);
const C = Number(args.concurrency);
const CURVE = args.curve
  .split(',')
  .filter(Boolean)
  .map((s) => Number(s));
if (!(Number.isInteger(N) && N > 0)) parsed.usage(`--jobs must be a positive whole number, got ${args.jobs}`);
if (!(Number.isInteger(C) && C > 0))
  parsed.usage(`--concurrency must be a positive whole number, got ${args.concurrency}`);
if (CURVE.some((n) => !(Number.isInteger(n) && n > 0)))
  parsed.usage(`--curve must list positive job counts, got ${args.curve}`);

const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
const runId = `bench-${process.pid}-${Date.now().toString(36)}`;
let runs = 0;
const prefixes: string[] = [];
const logger = createLogger({ level: 'silent', format: 'json', isTty: false });

function newPrefix(): string {
  const p = `${runId}-${++runs}`;
  prefixes.push(p);
  return p;
}

async function cleanup(): Promise<void> {
  for (const p of prefixes) await deleteKeysWithPrefix(redis, p);
}

// ---------------------------------------------------------------- inputs

const TOPICS = ['kinase', 'protease', 'ribosome', 'chaperone', 'transporter', 'receptor', 'channel', 'polymerase'];
function hypothesisText(i: number): string {
  const t = TOPICS[i % TOPICS.length]!;
  return (
    `Hypothesis ${i}: inhibiting the ${t} ${i % 97} in yeast lowers stress-granule formation by ${i % 40}% ` +
    `under heat shock, because the ${t} phosphorylates a scaffold protein that nucleates the granules. ` +
    `We will test it with an analogue-sensitive allele and live imaging of tagged G3BP.`
  );
}

function benchConfig(
  prefix: string,
  url: string,
  concurrency: number,
  keyPrefix = `${prefix}-k`,
  worker: Partial<Config['worker']> = {},
): Config {
  return ConfigSchema.parse({
    redis: { url: REDIS_URL, prefix: `${prefix}-bull`, key_prefix: keyPrefix, events_stream: `${keyPrefix}:events` },
    worker: { queues: [QUEUE], concurrency, ...worker },
    metrics: { enabled: false },
    anthropic: { api_key: 'sk-bench-key', base_url: url, timeout_ms: 30_000 },
    logging: { level: 'silent' },
  });
}

/** Adds the jobs to a paused queue, as the publisher would (its job ids and options). */
async function fill(queue: Queue, from: number, count: number, idPrefix: string, text = hypothesisText) {
  for (let start = from; start < from + count; start += 1000) {
    const batch = [];
    for (let i = start; i < Math.min(from + count, start + 1000); i++) {
      const hypothesisId = `${idPrefix}${i}`;
      batch.push({
        name: QUEUE,
        data: { hypothesisId, text: text(i), revision: 0 },
        opts: { ...DEFAULT_JOB_OPTIONS, jobId: hypothesisJobId(hypothesisId, 0) },
      });
    }
    await queue.addBulk(batch);
  }
}

/** Resolves with the time the n-th job completed; `times` gets every completion's time. */
function completions(worker: Worker, n: number, times: number[] = []): Promise<number> {
  return new Promise((resolve) => {
    let done = 0;
    worker.on('completed', () => {
      times.push(performance.now());
      if (++done === n) resolve(performance.now());
    });
    worker.on('failed', (_job, err) => {
      console.error(`a job failed: ${err.message}`);
    });
  });
}

// ---------------------------------------------------------------- runs

interface Rate {
  jobs: number;
  seconds: number;
  perSecond: number;
}
const rate = (jobs: number, ms: number): Rate => ({ jobs, seconds: ms / 1000, perSecond: jobs / (ms / 1000) });

/**
 * A raw BullMQ worker with a no-op processor; with `roundTrip`, a processor
 * that makes one Redis round trip on a connection of its own (a GET of a
 * value the size of a cached verdict), as a job answered from the verdict
 * cache does: the bound of that path, with nothing of the service in it.
 */
async function queueCeiling(n: number, concurrency: number, roundTrip = false): Promise<Rate> {
  const prefix = newPrefix();
  const connection = redis.duplicate();
  const queue = new Queue(QUEUE, { connection: connection as ConnectionOptions, prefix: `${prefix}-bull` });
  await queue.pause();
  await fill(queue, 0, n, 'q-');
  const side = roundTrip ? redis.duplicate() : undefined;
  const sideKey = `${prefix}-value`;
  if (side) await side.set(sideKey, 'v'.repeat(600));
  const processor = side
    ? async () => {
        await side.get(sideKey);
      }
    : async () => undefined;
  const worker = new Worker(QUEUE, processor, {
    connection: redis.duplicate() as ConnectionOptions,
    prefix: `${prefix}-bull`,
    concurrency,
    removeOnComplete: { count: 10_000 },
    removeOnFail: { count: 100_000 },
  });
  await worker.waitUntilReady();
  const done = completions(worker, n);
  const t0 = performance.now();
  await queue.resume();
  const t1 = await done;
  await worker.close();
  await queue.close();
  connection.disconnect();
  side?.disconnect();
  return rate(n, t1 - t0);
}

/** Raw SDK calls: with the SDK's own fetch, or through the client the service builds (its transport). */
async function modelCeiling(
  n: number,
  concurrency: number,
  url: string,
  transport: 'sdk' | 'service' = 'sdk',
): Promise<Rate> {
  const client =
    transport === 'sdk'
      ? new Anthropic({ apiKey: 'sk-bench-key', baseURL: url, maxRetries: 0 })
      : createAnthropicClient({ apiKey: 'sk-bench-key', baseURL: url, timeoutMs: 30_000 });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < n; i = next++) {
        await client.messages.create({
          model: 'claude-haiku-4-5-20251001',
          max_tokens: 1024,
          system: SYSTEM_PROMPT,
          tools: [ASSESSMENT_TOOL as Anthropic.Tool],
          tool_choice: { type: 'tool', name: TOOL_NAME },
          messages: [{ role: 'user', content: buildUserMessage(hypothesisText(i), 'hypothesis').content }],
        });
      }
    }),
  );
  return rate(n, performance.now() - t0);
}

interface PipelineRun extends Rate {
  modelCalls: number;
  /**
   * CPU time of this process (the worker and the benchmark's bookkeeping)
   * per job, in microseconds: steadier than the rate on a shared machine,
   * where other work takes turns on the cores.
   */
  cpuMicrosPerJob: number;
  /** What the worker counted in cosci_safety_classifier_tokens_total, by kind. */
  tokens: Record<string, number>;
  events: number;
  /**
   * Jobs per second from the 10th to the 90th percentile completion: the
   * steady state, without the first wave's start and the last one's drain.
   */
  steadyPerSecond: number;
}

function steadyRate(times: number[]): number {
  const from = Math.floor(times.length * 0.1);
  const to = Math.floor(times.length * 0.9);
  return (to - from) / ((times[to]! - times[from]!) / 1000);
}

/** The hypothesis pipeline in this process: jobs `idPrefix0..n-1`, texts hypothesisText(textFrom + i). */
async function pipeline(
  config: Config,
  n: number,
  idPrefix: string,
  server: ModelServer,
  textFrom = 0,
  start: Partial<StartOptions> = {},
): Promise<PipelineRun> {
  const connection = redis.duplicate();
  const queue = new Queue(QUEUE, { connection: connection as ConnectionOptions, prefix: config.redis.prefix });
  await queue.pause();
  await fill(queue, 0, n, idPrefix, (i) => hypothesisText(textFrom + i));
  const eventsBefore = await redis.xlen(config.redis.events_stream);
  const callsBefore = await server.served();
  const runtime = await startWorkerRuntime({ config, logger, ...start });
  const times: number[] = [];
  const done = completions(runtime.workers.get(QUEUE)!, n, times);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await queue.resume();
  const t1 = await done;
  const cpu = process.cpuUsage(cpu0);
  const tokens: Record<string, number> = {};
  for (const { labels, value } of (await runtime.metrics.classifierTokens.get()).values)
    tokens[String(labels.kind)] = (tokens[String(labels.kind)] ?? 0) + value;
  await runtime.shutdown('bench');
  await queue.close();
  connection.disconnect();
  return {
    ...rate(n, t1 - t0),
    cpuMicrosPerJob: (cpu.user + cpu.system) / n,
    tokens,
    steadyPerSecond: steadyRate(times),
    modelCalls: (await server.served()) - callsBefore,
    events: (await redis.xlen(config.redis.events_stream)) - eventsBefore,
  };
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Publish at a steady rate below capacity; the time from each add to its hypothesis_assessed event. */
async function latency(
  config: Config,
  n: number,
  perSecond: number,
): Promise<{ p50: number; p99: number; max: number }> {
  const connection = redis.duplicate();
  const queue = new Queue(QUEUE, { connection: connection as ConnectionOptions, prefix: config.redis.prefix });
  const runtime = await startWorkerRuntime({ config, logger });
  const published = new Map<string, number>();
  const start = Date.now();
  for (let i = 0; i < n; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const hypothesisId = `lat-${i}`;
    published.set(hypothesisId, Date.now());
    await queue.add(
      QUEUE,
      { hypothesisId, text: hypothesisText(1_000_000 + i), revision: 0 },
      { ...DEFAULT_JOB_OPTIONS, jobId: hypothesisJobId(hypothesisId, 0) },
    );
  }
  const stream = config.redis.events_stream;
  const latencies: number[] = [];
  for (const deadline = Date.now() + 60_000; latencies.length < n && Date.now() < deadline;) {
    latencies.length = 0;
    for (const [id, fields] of (await redis.xrange(stream, '-', '+')) as Array<[string, string[]]>) {
      if (fields[1] !== 'hypothesis_assessed') continue;
      const data = JSON.parse(fields[5]!) as { hypothesisId: string };
      const at = published.get(data.hypothesisId);
      if (at !== undefined) latencies.push(Number(id.split('-')[0]) - at - LATENCY_MS);
    }
    if (latencies.length < n) await new Promise((r) => setTimeout(r, 200));
  }
  await runtime.shutdown('bench');
  await queue.close();
  connection.disconnect();
  latencies.sort((a, b) => a - b);
  return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), max: latencies.at(-1)! };
}

/** k worker processes of the built CLI on one queue. */
async function scaleOut(k: number, n: number, server: ModelServer): Promise<Rate> {
  const prefix = newPrefix();
  const dir = mkdtempSync(join(os.tmpdir(), 'cosci-bench-'));
  const file = join(dir, 'cosci-safety.toml');
  writeFileSync(
    file,
    [
      '[redis]',
      `prefix = "${prefix}-bull"`,
      `key_prefix = "${prefix}-k"`,
      `events_stream = "${prefix}-k:events"`,
      '[worker]',
      `queues = ["${QUEUE}"]`,
      `concurrency = ${C}`,
      '[metrics]',
      'enabled = false',
      '[logging]',
      'level = "warn"',
      'format = "json"',
    ].join('\n') + '\n',
  );
  const connection = redis.duplicate();
  const queue = new Queue(QUEUE, { connection: connection as ConnectionOptions, prefix: `${prefix}-bull` });
  await queue.pause();
  await fill(queue, 0, n, `s${k}-`, (i) => hypothesisText(2_000_000 + k * 1_000_000 + i));
  const children: ChildProcess[] = [];
  for (let i = 0; i < k; i++) {
    children.push(
      spawn(process.execPath, ['dist/cli/main.js', 'worker'], {
        cwd: ROOT,
        env: {
          ...process.env,
          COSCI_SAFETY_CONFIG: file,
          REDIS_URL,
          ANTHROPIC_API_KEY: 'sk-bench-key',
          ANTHROPIC_BASE_URL: server.url,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );
  }
  // Wait until every process has its worker registered on the queue.
  for (const deadline = Date.now() + 30_000; (await queue.getWorkersCount()) < k;) {
    if (Date.now() > deadline) throw new Error(`only ${await queue.getWorkersCount()} of ${k} workers started`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const t0 = performance.now();
  await queue.resume();
  let completed = 0;
  while (completed < n) {
    await new Promise((r) => setTimeout(r, 20));
    completed = (await queue.getJobCounts('completed')).completed ?? 0;
    // removeOnComplete keeps 10,000: count what was removed too, from the events.
    if (n > 10_000) completed = await redis.xlen(`${prefix}-k:events`);
  }
  const t1 = performance.now();
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((c) => new Promise((r) => c.once('exit', r))));
  await queue.close();
  connection.disconnect();
  rmSync(dir, { recursive: true, force: true });
  return rate(n, t1 - t0);
}

/**
 * Settings whose cost the run measures: the instant and cached runs again
 * with each one changed, interleaved with the runs at the defaults.
 */
const VARIANTS: Array<{ name: string; worker?: Partial<Config['worker']>; start?: Partial<StartOptions> }> = [
  { name: "BullMQ's own metrics off (`worker.bullmq_metrics = false`)", worker: { bullmq_metrics: false } },
  {
    name: 'completed jobs keep their text (not a setting: withholding it is always on)',
    start: { withholdCompletedText: false },
  },
];

// ---------------------------------------------------------------- the run

const f0 = (x: number) => x.toFixed(0);
const f1 = (x: number) => x.toFixed(1);
const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

const when = runDate();
const host = describeMachine();
const loadStart = os.loadavg()[0]!;
console.log(`pipeline benchmark, ${when}; ${host}; load average ${loadStart.toFixed(1)}`);
console.log(`jobs per run ${N}, concurrency ${C}; Redis ${REDIS_URL.replace(/\/\/.*@/, '//')}\n`);

const instant = await startModelServer(0);
const slow = await startModelServer(LATENCY_MS);
try {
  // A short warm-up of every path, so the first figure does not pay for compilation.
  await queueCeiling(Math.min(N, 1000), C);
  await queueCeiling(Math.min(N, 1000), C, true);
  await modelCeiling(Math.min(N, 500), C, instant.url);
  await modelCeiling(Math.min(N, 500), C, instant.url, 'service');
  const warm = newPrefix();
  await pipeline(benchConfig(warm, instant.url, C), Math.min(N, 500), 'w-', instant, 5_000_000);
  await pipeline(benchConfig(newPrefix(), instant.url, C, `${warm}-k`), Math.min(N, 500), 'wc-', instant, 5_000_000);

  // The runs whose ratios are the goals, and the calls through the service's
  // transport, interleaved and repeated: each figure is the median of
  // REPEATS, so one noisy moment moves none of them.
  const runsOf = {
    queue: [] as Rate[],
    roundTrip: [] as Rate[],
    model: [] as Rate[],
    modelService: [] as Rate[],
    instant: [] as PipelineRun[],
    cached: [] as PipelineRun[],
    variants: VARIANTS.map(() => ({ instant: [] as PipelineRun[], cached: [] as PipelineRun[] })),
  };
  for (let rep = 0; rep < REPEATS; rep++) {
    runsOf.queue.push(await queueCeiling(N, C));
    runsOf.roundTrip.push(await queueCeiling(N, C, true));
    runsOf.model.push(await modelCeiling(N, C, instant.url));
    runsOf.modelService.push(await modelCeiling(N, C, instant.url, 'service'));
    const shared = newPrefix();
    runsOf.instant.push(await pipeline(benchConfig(shared, instant.url, C), N, 'i-', instant));
    // New ids, the same texts and the same key prefix: every assessment comes from the cache.
    runsOf.cached.push(await pipeline(benchConfig(newPrefix(), instant.url, C, `${shared}-k`), N, 'c-', instant));
    for (const [v, variant] of VARIANTS.entries()) {
      const own = newPrefix();
      const runs = runsOf.variants[v]!;
      runs.instant.push(
        await pipeline(
          benchConfig(own, instant.url, C, undefined, variant.worker),
          N,
          'vi-',
          instant,
          0,
          variant.start,
        ),
      );
      runs.cached.push(
        await pipeline(
          benchConfig(newPrefix(), instant.url, C, `${own}-k`, variant.worker),
          N,
          'vc-',
          instant,
          0,
          variant.start,
        ),
      );
    }
    console.log(
      `round ${rep + 1}: queue ${f0(runsOf.queue[rep]!.perSecond)} (one round trip ${f0(runsOf.roundTrip[rep]!.perSecond)}), model calls ${f0(runsOf.model[rep]!.perSecond)} ` +
        `(service transport ${f0(runsOf.modelService[rep]!.perSecond)}), ` +
        `instant ${f0(runsOf.instant[rep]!.perSecond)}, cached ${f0(runsOf.cached[rep]!.perSecond)} per second` +
        runsOf.variants
          .map(
            (r, v) =>
              `; ${VARIANTS[v]!.name}: instant ${f0(r.instant[rep]!.perSecond)}, cached ${f0(r.cached[rep]!.perSecond)}`,
          )
          .join(''),
    );
  }
  const median = <T extends Rate>(xs: T[]): T => [...xs].sort((x, y) => x.perSecond - y.perSecond)[xs.length >> 1]!;
  const queueMax = median(runsOf.queue);
  const roundTripMax = median(runsOf.roundTrip);
  const modelMax = median(runsOf.model);
  const serviceMax = median(runsOf.modelService);
  const instantRun = median(runsOf.instant);
  const cachedRun = median(runsOf.cached);
  const variantRuns = runsOf.variants.map((r) => ({ instant: median(r.instant), cached: median(r.cached) }));
  const medianCpu = (xs: PipelineRun[]) => xs.map((r) => r.cpuMicrosPerJob).sort((a, b) => a - b)[xs.length >> 1]!;
  const cpuOf = {
    instant: medianCpu(runsOf.instant),
    cached: medianCpu(runsOf.cached),
    variants: runsOf.variants.map((r) => ({ instant: medianCpu(r.instant), cached: medianCpu(r.cached) })),
  };
  console.log(`queue ceiling: ${f0(queueMax.perSecond)} jobs/s`);
  console.log(
    `one round trip per job: ${f0(roundTripMax.perSecond)} jobs/s (${pct(roundTripMax.perSecond / queueMax.perSecond)} of the queue ceiling)`,
  );
  console.log(`model-call ceiling: ${f0(modelMax.perSecond)} calls/s`);
  console.log(`model calls through the service's transport: ${f0(serviceMax.perSecond)} calls/s`);
  console.log(
    `instant classifier: ${f0(instantRun.perSecond)} jobs/s (${pct(instantRun.perSecond / modelMax.perSecond)} of the model-call ceiling, ` +
      `${pct(instantRun.perSecond / serviceMax.perSecond)} of the calls through the service's transport), ${instantRun.modelCalls} model calls`,
  );
  console.log(
    `cached verdicts: ${f0(cachedRun.perSecond)} jobs/s (${pct(cachedRun.perSecond / queueMax.perSecond)} of the queue ceiling, ` +
      `${pct(cachedRun.perSecond / roundTripMax.perSecond)} of one round trip per job), ${cachedRun.modelCalls} model calls`,
  );

  const latencyJobs = Math.max(1000, Math.min(N, 3000));
  const slowRun = await pipeline(
    benchConfig(newPrefix(), slow.url, LATENCY_CONCURRENCY),
    latencyJobs,
    'l-',
    slow,
    3_000_000,
  );
  const ideal = LATENCY_CONCURRENCY / (LATENCY_MS / 1000);
  console.log(
    `latency-bound: ${f0(slowRun.steadyPerSecond)} jobs/s steady (${pct(slowRun.steadyPerSecond / ideal)} of ${f0(ideal)}), ` +
      `${f0(slowRun.perSecond)} jobs/s over the whole run`,
  );
  const steadyRate = Math.round(ideal * 0.6);
  const lat = await latency(
    benchConfig(newPrefix(), slow.url, LATENCY_CONCURRENCY),
    Math.min(2000, latencyJobs),
    steadyRate,
  );
  console.log(
    `publish to event minus ${LATENCY_MS} ms at ${steadyRate} jobs/s: p50 ${f0(lat.p50)} ms, p99 ${f0(lat.p99)} ms`,
  );

  const scale: Array<[number, Rate]> = [];
  for (const k of [1, 2, 4]) {
    const r = await scaleOut(k, N, instant);
    scale.push([k, r]);
    console.log(`scale-out, ${k} process(es): ${f0(r.perSecond)} jobs/s`);
  }

  const curve: Array<[number, PipelineRun]> = [];
  for (const n of CURVE) {
    const r = await pipeline(benchConfig(newPrefix(), instant.url, C), n, `k${n}-`, instant, 10_000_000 + n);
    curve.push([n, r]);
    console.log(`cost curve, ${n} jobs: ${f0(r.perSecond)} jobs/s`);
  }
  const loadEnd = os.loadavg()[0]!;
  const load = `load average (1 min) ${loadStart.toFixed(1)} at the start, ${loadEnd.toFixed(1)} at the end`;

  const mainHeader = ['run', 'jobs', 's', 'jobs/s', 'model calls', 'against', 'ratio', 'goal', 'met'];
  const mainRows: Array<Array<string | number>> = [
    [
      'queue ceiling: raw BullMQ, no-op processor',
      N,
      f1(queueMax.seconds),
      f0(queueMax.perSecond),
      '–',
      '–',
      '–',
      '–',
      '–',
    ],
    [
      'raw BullMQ, one Redis round trip per job on a second connection',
      N,
      f1(roundTripMax.seconds),
      f0(roundTripMax.perSecond),
      '–',
      'queue ceiling',
      pct(roundTripMax.perSecond / queueMax.perSecond),
      '–',
      '–',
    ],
    [
      "model-call ceiling: raw SDK calls, the SDK's own fetch",
      N,
      f1(modelMax.seconds),
      f0(modelMax.perSecond),
      N,
      '–',
      '–',
      '–',
      '–',
    ],
    [
      "raw SDK calls through the service's transport",
      N,
      f1(serviceMax.seconds),
      f0(serviceMax.perSecond),
      N,
      '–',
      '–',
      '–',
      '–',
    ],
    [
      'instant classifier',
      N,
      f1(instantRun.seconds),
      f0(instantRun.perSecond),
      instantRun.modelCalls,
      'model-call ceiling',
      pct(instantRun.perSecond / modelMax.perSecond),
      '≥ 70%',
      instantRun.perSecond / modelMax.perSecond >= 0.7 ? 'yes' : 'no',
    ],
    [
      'instant classifier, against the same calls through its transport',
      N,
      f1(instantRun.seconds),
      f0(instantRun.perSecond),
      instantRun.modelCalls,
      "SDK calls, service's transport",
      pct(instantRun.perSecond / serviceMax.perSecond),
      '–',
      '–',
    ],
    [
      'cached verdicts (same texts, new ids)',
      N,
      f1(cachedRun.seconds),
      f0(cachedRun.perSecond),
      cachedRun.modelCalls,
      'queue ceiling',
      pct(cachedRun.perSecond / queueMax.perSecond),
      '≥ 50%',
      cachedRun.perSecond / queueMax.perSecond >= 0.5 ? 'yes' : 'no',
    ],
    [
      'cached verdicts, against one round trip per job',
      N,
      f1(cachedRun.seconds),
      f0(cachedRun.perSecond),
      cachedRun.modelCalls,
      'one round trip per job',
      pct(cachedRun.perSecond / roundTripMax.perSecond),
      '–',
      '–',
    ],
    [
      `latency-bound: ${LATENCY_MS} ms model, concurrency ${LATENCY_CONCURRENCY}, steady state`,
      latencyJobs,
      f1(slowRun.seconds),
      f0(slowRun.steadyPerSecond),
      slowRun.modelCalls,
      `ideal ${f0(ideal)}/s`,
      pct(slowRun.steadyPerSecond / ideal),
      '≥ 90%',
      slowRun.steadyPerSecond / ideal >= 0.9 ? 'yes' : 'no',
    ],
    [
      `latency-bound, the whole run (first wave's start and last one's drain included)`,
      latencyJobs,
      f1(slowRun.seconds),
      f0(slowRun.perSecond),
      slowRun.modelCalls,
      `ideal ${f0(ideal)}/s`,
      pct(slowRun.perSecond / ideal),
      '–',
      '–',
    ],
  ];
  const latRows = [
    [
      `publish to hypothesis_assessed, minus the model's ${LATENCY_MS} ms`,
      f0(lat.p50),
      f0(lat.p99),
      f0(lat.max),
      '< 50',
      lat.p99 < 50 ? 'yes' : 'no',
    ],
  ];
  const costHeader = [
    'settings',
    'instant jobs/s',
    'against the defaults',
    'CPU µs per job',
    'against the defaults',
    'cached jobs/s',
    'against the defaults',
    'CPU µs per job',
    'against the defaults',
  ];
  const costRows = [
    [
      'the defaults',
      f0(instantRun.perSecond),
      '–',
      f0(cpuOf.instant),
      '–',
      f0(cachedRun.perSecond),
      '–',
      f0(cpuOf.cached),
      '–',
    ],
    ...variantRuns.map((r, v) => [
      VARIANTS[v]!.name,
      f0(r.instant.perSecond),
      pct(r.instant.perSecond / instantRun.perSecond),
      f0(cpuOf.variants[v]!.instant),
      pct(cpuOf.variants[v]!.instant / cpuOf.instant),
      f0(r.cached.perSecond),
      pct(r.cached.perSecond / cachedRun.perSecond),
      f0(cpuOf.variants[v]!.cached),
      pct(cpuOf.variants[v]!.cached / cpuOf.cached),
    ]),
  ];
  // What one hypothesis costs in tokens: the model server's estimate, beside the characters it is made of.
  const sample = Array.from(
    { length: 1000 },
    (_, i) => buildUserMessage(hypothesisText(i), 'hypothesis').content.length,
  );
  const messageChars = Math.round(sample.reduce((a, b) => a + b, 0) / sample.length);
  const textChars = Math.round(
    Array.from({ length: 1000 }, (_, i) => hypothesisText(i).length).reduce((a, b) => a + b, 0) / 1000,
  );
  const systemChars = SYSTEM_PROMPT.length;
  const toolChars = JSON.stringify([ASSESSMENT_TOOL]).length;
  const perCall = (kind: string) => (instantRun.tokens[kind] ?? 0) / instantRun.modelCalls;
  const perHypothesis = (kind: string) => (instantRun.tokens[kind] ?? 0) / instantRun.jobs;
  // Claude Haiku 4.5 list prices, US dollars per million tokens (the dashboard's defaults).
  const dollarsPer1000 = (1000 * (perHypothesis('input') * 1 + perHypothesis('output') * 5)) / 1e6;
  const tokenHeader = ['part of one request', 'characters', `tokens at ${CHARS_PER_TOKEN} characters each`];
  const tokenRows = [
    ['system prompt (`SYSTEM_PROMPT`)', systemChars, f0(systemChars / CHARS_PER_TOKEN)],
    ['the tool and its input schema, as JSON', toolChars, f0(toolChars / CHARS_PER_TOKEN)],
    [
      `user message: the instructions and the quoted hypothesis (${textChars} characters on average)`,
      messageChars,
      f0(messageChars / CHARS_PER_TOKEN),
    ],
    ['input, as the model server counted it per call', systemChars + toolChars + messageChars, f0(perCall('input'))],
    ["output (the tool call's input), per call", '–', f0(perCall('output'))],
  ];
  console.log(
    `tokens per hypothesis (model server's estimate): input ${f0(perHypothesis('input'))}, output ${f0(perHypothesis('output'))}; ` +
      `about $${dollarsPer1000.toFixed(2)} per 1,000 hypotheses at Claude Haiku 4.5 list prices`,
  );
  const latHeader = ['measure', 'p50 ms', 'p99 ms', 'max ms', 'goal p99 ms', 'met'];
  const scaleHeader = ['worker processes', 'jobs', 's', 'jobs/s', 'against 1 process'];
  const scaleRows = scale.map(([k, r]) => [
    k,
    r.jobs,
    f1(r.seconds),
    f0(r.perSecond),
    `${(r.perSecond / scale[0]![1].perSecond).toFixed(2)}×`,
  ]);
  const curveHeader = ['jobs', 's', 'jobs/s', 'time per job, ÷ smallest run'];
  const perJob0 = curve[0]![1].seconds / curve[0]![0];
  const curveRows = curve.map(([n, r]) => [n, f1(r.seconds), f0(r.perSecond), (r.seconds / n / perJob0).toFixed(2)]);

  console.log('\n' + textTable(mainHeader, mainRows));
  console.log('\n' + textTable(costHeader, costRows));
  console.log('\n' + textTable(tokenHeader, tokenRows));
  console.log('\n' + textTable(latHeader, latRows));
  console.log('\n' + textTable(scaleHeader, scaleRows));
  console.log('\n' + textTable(curveHeader, curveRows));
  console.log(`\n${load}`);

  if (!args['no-docs']) {
    const body = [
      '## Pipeline throughput',
      '',
      `Written by \`npm run bench:pipeline\` on ${when}, on ${host}; ${load}. All runs use the same Redis ` +
        `(${os.cpus().length} cores shared by Redis, the model server, the workers and the benchmark itself), ` +
        `concurrency ${C} per worker unless stated. The model server (\`bench/model-server.ts\`, its own process) ` +
        `speaks the Messages API and answers every request with the same assessment, at once or after ${LATENCY_MS} ms. ` +
        `Jobs go to a paused queue with the publisher's job ids and options and are timed from the resume until the ` +
        `last completes, so publishing is not in the figures. The ceilings, the instant and the cached runs are ` +
        `interleaved over ${REPEATS} rounds and each figure is the median. The latency-bound goal is judged on the ` +
        `steady state (the 10th to the 90th percentile completion), as its ideal, concurrency over latency, is a ` +
        `steady-state rate; the whole run is shown beside it. Compare ratios within this run.`,
      '',
      `The model-call ceiling is the SDK as shipped, with its own fetch: what an agent calling the model directly ` +
        `gets. The service's client sends the same calls through undici's request API ` +
        `(\`src/classifier/http-transport.ts\`), which costs less CPU per call; the row below the ceiling measures ` +
        `those calls alone, and the instant run is shown against them too, as the share of the cheaper call that ` +
        `the queue, the store and the events leave.`,
      '',
      `A job answered from the verdict cache makes one Redis round trip of its own (one script reads the cached ` +
        `verdict, stores it and appends its events) besides BullMQ's. The row below the queue ceiling is the bound ` +
        `of that: a raw BullMQ worker whose processor makes one round trip (a GET) on a second connection, with ` +
        `nothing of the service in it. The cached run is shown against it too.`,
      '',
      markdownTable(mainHeader, mainRows),
      '',
      `What settings cost: the instant and cached runs again with one setting changed, in the same rounds ` +
        `(medians of ${REPEATS}), against the runs at the defaults above, in throughput and in this process's ` +
        `CPU time per job (the worker's, and the benchmark's bookkeeping, the same in every run; Redis's own ` +
        `is not in it). A throughput over 100%, or a CPU time under it, is what the default costs: BullMQ's ` +
        `metrics count each job inside its completion script in Redis, and withholding a completed job's text ` +
        `is one more command per job. On a shared machine the throughput of single rounds varies by a third; ` +
        `differences of a few percent here are within that.`,
      '',
      markdownTable(costHeader, costRows),
      '',
      `Latency at a steady ${steadyRate} jobs/s (60% of the latency-bound ideal), ${Math.min(2000, latencyJobs)} jobs: ` +
        `from the add to the stream entry of the job's \`hypothesis_assessed\` event (its Redis stream id time), ` +
        `minus the ${LATENCY_MS} ms the model server waits.`,
      '',
      markdownTable(latHeader, latRows),
      '',
      'Scale-out: worker processes of the built command (`node dist/cli/main.js worker`) on one queue, with the ' +
        `instant model server; on ${os.cpus().length} cores the processes share the cores with Redis and the model server.`,
      '',
      markdownTable(scaleHeader, scaleRows),
      '',
      'The cost curve: the instant pipeline at growing job counts; a time per job that stays near 1 is linear.',
      '',
      markdownTable(curveHeader, curveRows),
      '',
      'Citation verification (verifications per second from the page cache, HTML-to-text MB/s) is in its own ' +
        'section below, written by `npm run bench:citations`, which `npm run bench` runs after this one.',
      '',
      '### Tokens per hypothesis',
      '',
      `What one hypothesis of this benchmark costs in model tokens, as the service counts them ` +
        `(\`cosci_safety_classifier_tokens_total\`, read from the worker after the instant run: ` +
        `${f0(perHypothesis('input'))} input and ${f0(perHypothesis('output'))} output tokens per hypothesis, ` +
        `one call each). The counts are the model server's estimate, the characters it was sent over ` +
        `${CHARS_PER_TOKEN}: no tokenizer is at hand offline. The Messages API counts with the model's own ` +
        `tokenizer and adds a tool-use system prompt of its own (a few hundred input tokens), so real counts ` +
        `differ; in production the metric reports the real counts, and the dashboard's Model spend row ` +
        `prices them. The hypotheses here are short (${textChars} characters); the system prompt and the ` +
        `tool's schema are the same for every call, and a longer text adds about one token per ` +
        `${CHARS_PER_TOKEN} characters, one call per 8,000-character window. At Claude Haiku 4.5 list prices ` +
        `(input $1, output $5 per million tokens) these counts come to about $${dollarsPer1000.toFixed(2)} ` +
        `per 1,000 hypotheses.`,
      '',
      markdownTable(tokenHeader, tokenRows),
      '',
    ].join('\n');
    writeMarkedSection(DOC, 'bench:pipeline', '# Benchmarks\n', await formatMarkdown(body, DOC));
    console.log('\nwrote the bench:pipeline section of docs/benchmarks.md');
  }
} finally {
  instant.stop();
  slow.stop();
  await cleanup();
  redis.disconnect();
}
// The SDK's keep-alive sockets and BullMQ's closing connections can hold the
// event loop open for a while after the last run; the figures are written.
process.exit(0);
