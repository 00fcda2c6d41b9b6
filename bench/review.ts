/**
 * How fast the review API answers a reviewer's page on a long queue:
 *
 *   npm run bench:review [-- --sizes 300,1000,3000,10000] [--requests N] [--no-docs]
 *
 * For each queue size, the held hypotheses are written through the verdict
 * store (the script the classification job uses: the verdict, the held
 * text, the queue entry) under a key prefix of their own, and the real
 * worker runtime serves the review API over loopback HTTP with its own
 * Redis connection, as in production. Timed from the client, each request
 * whole (the connection kept alive): the page's first request (the first
 * 100, oldest first), a filtered one (blocked only), the next page by
 * cursor, and opening one item. Goal: the first page of a queue of 300 in
 * under 300 ms.
 *
 * Writes its section of docs/benchmarks.md (between the bench:review
 * markers), keeping the other sections.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { ConfigSchema, type Config } from '../src/config/schema.js';
import { createLogger } from '../src/logging/logger.js';
import { startWorkerRuntime } from '../src/runtime/worker-runtime.js';
import type { Verdict } from '../src/safety/classification/verdict.js';
import { createVerdictStore } from '../src/store/verdict-store.js';
import {
  describeMachine,
  formatMarkdown,
  markdownTable,
  runDate,
  textTable,
  writeMarkedSection,
} from '../eval/machine.js';
import { commandArgs } from '../eval/command-args.js';
import { deleteKeysWithPrefix, int, pick, rng, type Rand } from './support.js';

const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TOKEN = 'bench-review-token-0123456789abcdef';
const GOAL_SIZE = 300;
const GOAL_MS = 300;
const PAGE = 100;

const { values: args } = commandArgs(
  'bench:review',
  [
    'usage: npm run bench:review [-- --sizes 300,1000,3000,10000] [--requests N] [--no-docs]',
    '  --sizes     queue sizes to measure (default 300,1000,3000,10000)',
    '  --requests  timed requests of each kind per size, after a warm-up (default 30)',
    '  --no-docs   print only; do not write docs/benchmarks.md',
  ],
  {
    options: {
      sizes: { type: 'string', default: '300,1000,3000,10000' },
      requests: { type: 'string', default: '30' },
      'no-docs': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  },
);
const SIZES = String(args.sizes)
  .split(',')
  .map((s) => Number(s.trim()));
const REQUESTS = Number(args.requests);

const WORDS =
  'serial passage avian influenza isolate ferrets airborne transmission receptor binding spike variants host ' +
  'factors replication aerosol stability spore preparation humidity glycoprotein immune evasion toxin expression ' +
  'chassis recombinant light chain storage assay titre plaque neutralisation cohort sequencing mutation';
const VOCABULARY = WORDS.split(' ');

/** A held hypothesis's text: mostly one to three thousand characters, one in ten about twenty thousand. */
function text(rand: Rand): string {
  const chars = rand() < 0.1 ? 20_000 : int(rand, 1000, 3000);
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    const word = pick(rand, VOCABULARY);
    out.push(word);
    length += word.length + 1;
  }
  return out.join(' ');
}

function verdict(i: number, rand: Rand): Verdict {
  const degraded = i % 7 === 3;
  const blocked = !degraded && i % 5 === 2;
  return {
    action: blocked ? 'block' : 'quarantine',
    categories: degraded ? [] : blocked ? ['weapons'] : ['dual_use_bio'],
    confidence: degraded ? 0 : int(rand, 60, 99) / 100,
    rationale: degraded
      ? 'window 1: classifier answered HTTP 529 (overloaded)'
      : 'The text describes serial passage to increase airborne transmission in a mammalian model, a method that lowers the barrier to enhancing a pathogen.',
    degraded,
    ...(degraded ? { reason: 'overloaded' as const } : {}),
    refusal: false,
    model: 'claude-haiku-4-5-20251001',
    promptVersion: 'bench',
    windows: 1,
    windowed: false,
    cached: false,
  };
}

function benchConfig(keyPrefix: string): Config {
  return ConfigSchema.parse({
    redis: { url: REDIS_URL, prefix: `${keyPrefix}-bull`, key_prefix: keyPrefix, events_stream: `${keyPrefix}:events` },
    worker: { queues: ['report.finalized'], concurrency: 1 },
    metrics: { port: 0, host: '127.0.0.1', queue_depth: false },
    review: { api_token: TOKEN },
    logging: { level: 'silent' },
  });
}

async function fillQueue(redis: Redis, keyPrefix: string, n: number): Promise<void> {
  const rand = rng(20260101 + n);
  const store = createVerdictStore(redis, keyPrefix);
  for (let start = 0; start < n; start += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, n - start) }, (_, k) => {
        const i = start + k;
        const id = `bench-${String(i).padStart(6, '0')}`;
        return store.recordRevision('hypothesis', id, 1, verdict(i, rand), {
          held: { title: `Hypothesis ${i}: ${VOCABULARY[i % VOCABULARY.length]} study`, text: text(rand) },
        });
      }),
    );
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

interface Timing {
  p50: number;
  p95: number;
  max: number;
  bytes: number;
}

async function time(url: string, requests: number): Promise<Timing> {
  const headers = { authorization: `Bearer ${TOKEN}` };
  let bytes = 0;
  for (let i = 0; i < 5; i++) await (await fetch(url, { headers })).arrayBuffer();
  const ms: number[] = [];
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.arrayBuffer();
    ms.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${Buffer.from(body).toString()}`);
    bytes = body.byteLength;
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 0.5), p95: percentile(ms, 0.95), max: ms.at(-1)!, bytes };
}

const when = runDate();
const host = describeMachine();
const loadStart = os.loadavg()[0]!;
console.log(`review API benchmark, ${when}; ${host}; load average ${loadStart.toFixed(1)}\n`);

const redis = new Redis(REDIS_URL);
const logger = createLogger({ level: 'silent', format: 'json', isTty: false });
const rows: Array<Array<string | number>> = [];
let goal: Timing | undefined;
try {
  for (const n of SIZES) {
    const keyPrefix = `bench-review-${process.pid}-${n}`;
    try {
      await fillQueue(redis, keyPrefix, n);
      const runtime = await startWorkerRuntime({ config: benchConfig(keyPrefix), logger });
      try {
        const base = `http://127.0.0.1:${runtime.http!.port}/review/api`;
        const first = await (
          await fetch(`${base}/items?limit=${PAGE}`, { headers: { authorization: `Bearer ${TOKEN}` } })
        ).json();
        const { nextCursor, items } = first as { nextCursor?: string; items: Array<{ hypothesisId: string }> };
        const kinds: Array<[string, string]> = [
          [`first page (${PAGE}, oldest first)`, `${base}/items?limit=${PAGE}`],
          ['first page, blocked only', `${base}/items?limit=${PAGE}&state=blocked`],
          ...(nextCursor
            ? ([
                ['next page by cursor', `${base}/items?limit=${PAGE}&cursor=${encodeURIComponent(nextCursor)}`],
              ] as Array<[string, string]>)
            : []),
          ['one item', `${base}/items/${encodeURIComponent(items[0]!.hypothesisId)}`],
        ];
        for (const [kind, url] of kinds) {
          const t = await time(url, REQUESTS);
          if (n === GOAL_SIZE && kind.startsWith('first page (')) goal = t;
          const isGoal = n === GOAL_SIZE && kind.startsWith('first page (');
          rows.push([
            n,
            kind,
            t.p50.toFixed(1),
            t.p95.toFixed(1),
            t.max.toFixed(1),
            (t.bytes / 1024).toFixed(0),
            isGoal ? `< ${GOAL_MS}` : '–',
            isGoal ? (t.p95 < GOAL_MS ? 'yes' : 'no') : '–',
          ]);
          console.log(`${n}\t${kind}\tp50 ${t.p50.toFixed(1)} ms\tp95 ${t.p95.toFixed(1)} ms`);
        }
      } finally {
        await runtime.shutdown('bench');
      }
    } finally {
      await deleteKeysWithPrefix(redis, keyPrefix);
    }
  }
} finally {
  redis.disconnect();
}

const header = ['held', 'request', 'p50 ms', 'p95 ms', 'max ms', 'answer kB', 'goal ms (p95)', 'met'];
const load = `load average (1 min) ${loadStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end`;
console.log('\n' + textTable(header, rows));
console.log(`\n${load}`);

if (!args['no-docs']) {
  const body = [
    '## Review API',
    '',
    `Written by \`npm run bench:review\` on ${when}, on ${host}; ${load}. For each queue size, held hypotheses ` +
      `are written through the verdict store (the script the classification job uses: verdict, held text, queue ` +
      `entry), with texts of 1,000 to 3,000 characters and one in ten of 20,000, one in five blocked and one in ` +
      `seven degraded; the worker runtime serves the review API on loopback with its own Redis connection, as in ` +
      `production, and Redis is shared with the rest of the machine. Each figure is over ${REQUESTS} requests ` +
      `after 5 of warm-up, timed whole from the client on a kept-alive connection. Every request reads the ` +
      `verdict of each held entry (up to 10,000) to filter and count, and the text of the ${PAGE} entries of ` +
      `its page only. Goal: the page's first request (the first ${PAGE}, oldest first) on a queue of ` +
      `${GOAL_SIZE} in under ${GOAL_MS} ms: **${goal ? (goal.p95 < GOAL_MS ? 'met' : 'not met') : 'not measured'}**` +
      `${goal ? ` (p95 ${goal.p95.toFixed(1)} ms)` : ''}.`,
    '',
    markdownTable(header, rows),
    '',
  ].join('\n');
  writeMarkedSection(DOC, 'bench:review', '# Benchmarks\n', await formatMarkdown(body, DOC));
  console.log('\nwrote the bench:review section of docs/benchmarks.md');
}
process.exit(0);
