/**
 * Soak: many jobs through one worker process, watching its memory and its
 * Redis connections.
 *
 *   npm run soak [-- --jobs 100000] [--concurrency 16] [--no-docs]
 *
 * One worker of the built command (`node dist/cli/main.js worker`) works
 * `hypothesis.saved` against the loopback model server (bench/model-server.ts,
 * answering at once). Jobs are added in batches, keeping the backlog under a
 * bound, and after every tenth of the run the worker's resident memory (its
 * own /metrics) and the number of Redis connections it holds (CLIENT LIST,
 * by connection name) are recorded. Memory that levels off and a constant
 * connection count are the pass; the curve goes to docs/benchmarks.md.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue, type ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { hypothesisJobId } from '../src/contracts/payloads.js';
import { DEFAULT_JOB_OPTIONS } from '../src/queues/publisher.js';
import { deleteKeysWithPrefix, freePort, startModelServer } from './support.js';
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
const BACKLOG = 5000;

const parsed = commandArgs('soak', ['usage: npm run soak [-- --jobs N (at least 10)] [--concurrency N] [--no-docs]'], {
  options: {
    jobs: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '16' },
    'no-docs': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
const args = parsed.values;
const N = Number(args.jobs);
const C = Number(args.concurrency);
if (!(Number.isInteger(N) && N >= 10)) parsed.usage(`--jobs must be a whole number of at least 10, got ${args.jobs}`);
if (!(Number.isInteger(C) && C > 0))
  parsed.usage(`--concurrency must be a positive whole number, got ${args.concurrency}`);

const prefix = `soak-${process.pid}-${Date.now().toString(36)}`;
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
const dir = mkdtempSync(join(os.tmpdir(), 'cosci-soak-'));
const metricsPort = await freePort();

const model = await startModelServer();

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
    `port = ${metricsPort}`,
    'host = "127.0.0.1"',
    '[logging]',
    'level = "warn"',
    'format = "json"',
  ].join('\n') + '\n',
);
const worker = spawn(process.execPath, ['dist/cli/main.js', 'worker'], {
  cwd: ROOT,
  env: {
    ...process.env,
    COSCI_SAFETY_CONFIG: file,
    REDIS_URL,
    ANTHROPIC_API_KEY: 'sk-soak-key',
    ANTHROPIC_BASE_URL: model.url,
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function metric(name: string): Promise<number> {
  const body = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const line = body.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? NaN : Number(line.split(' ')[1]);
}

/**
 * Connections the worker holds: the service names its own
 * `cosci-safety:ROLE:HOST:PID`, and BullMQ names a worker's after the queue
 * prefix.
 */
async function workerConnections(): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  const own = new RegExp(` name=cosci-safety:[^ ]*:${worker.pid} `);
  return list.split('\n').filter((l) => own.test(l) || l.includes(` name=${prefix}-bull:`)).length;
}

const hypothesisText = (i: number) =>
  `Soak hypothesis ${i}: the kinase ${i % 211} phosphorylates scaffold ${i % 53} under stress ${i % 7}, ` +
  `which we will test with an analogue-sensitive allele.`;

interface Sample {
  jobs: number;
  seconds: number;
  rssMb: number;
  heapMb: number;
  connections: number;
}

const samples: Sample[] = [];
const queue = new Queue(QUEUE, { connection: redis as ConnectionOptions, prefix: `${prefix}-bull` });
try {
  for (const deadline = Date.now() + 30_000; ;) {
    try {
      if ((await fetch(`http://127.0.0.1:${metricsPort}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the worker did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
  const when = runDate();
  const host = describeMachine();
  console.log(`soak, ${when}; ${host}; ${N} jobs, concurrency ${C}`);
  const t0 = performance.now();
  const step = Math.max(1, Math.floor(N / 10));
  let added = 0;
  let nextSample = step;
  const stream = `${prefix}-k:events`;
  for (;;) {
    // Completed jobs are counted by their hypothesis_assessed events (BullMQ keeps only the last 10,000 jobs).
    const done = await redis.xlen(stream);
    if (added < N && added - done < BACKLOG) {
      const batch = [];
      for (let i = added; i < Math.min(N, added + 1000); i++) {
        const hypothesisId = `soak-${i}`;
        batch.push({
          name: QUEUE,
          data: { hypothesisId, text: hypothesisText(i), revision: 0 },
          opts: { ...DEFAULT_JOB_OPTIONS, jobId: hypothesisJobId(hypothesisId, 0) },
        });
      }
      await queue.addBulk(batch);
      added += batch.length;
      continue;
    }
    if (done >= nextSample || done >= N) {
      const sample: Sample = {
        jobs: done,
        seconds: (performance.now() - t0) / 1000,
        rssMb: (await metric('cosci_safety_process_resident_memory_bytes')) / 1e6,
        heapMb: (await metric('cosci_safety_nodejs_heap_size_used_bytes')) / 1e6,
        connections: await workerConnections(),
      };
      samples.push(sample);
      console.log(
        `${sample.jobs} jobs, ${sample.seconds.toFixed(0)} s: rss ${sample.rssMb.toFixed(0)} MB, heap ${sample.heapMb.toFixed(0)} MB, ${sample.connections} Redis connections`,
      );
      nextSample += step;
      if (done >= N) break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const failed = (await queue.getJobCounts('failed')).failed ?? 0;
  const half = samples.slice(Math.floor(samples.length / 2));
  const growth = half.at(-1)!.rssMb - half[0]!.rssMb;
  const connectionsSeen = new Set(samples.map((s) => s.connections));
  const header = ['jobs done', 's', 'jobs/s so far', 'resident MB', 'heap used MB', 'Redis connections'];
  const rows = samples.map((s) => [
    s.jobs,
    s.seconds.toFixed(0),
    (s.jobs / s.seconds).toFixed(0),
    s.rssMb.toFixed(0),
    s.heapMb.toFixed(0),
    s.connections,
  ]);
  const verdict =
    `resident memory over the second half: ${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB ` +
    `(${half[0]!.rssMb.toFixed(0)} to ${half.at(-1)!.rssMb.toFixed(0)} MB); Redis connections: ` +
    `${[...connectionsSeen].join(', ')}; failed jobs: ${failed}`;
  console.log('\n' + textTable(header, rows) + '\n\n' + verdict);
  if (!args['no-docs']) {
    const body = [
      '## Soak',
      '',
      `Written by \`npm run soak\` on ${when}, on ${host}. ${N} hypotheses through one worker process ` +
        `(the built command, concurrency ${C}) against the loopback model server answering at once, added in ` +
        `batches with at most ${BACKLOG} waiting. After each tenth of the run: the worker's resident memory and heap ` +
        `(from its /metrics) and the Redis connections it holds (CLIENT LIST, by connection name).`,
      '',
      markdownTable(header, rows),
      '',
      `${verdict[0]!.toUpperCase()}${verdict.slice(1)}.`,
      '',
    ].join('\n');
    writeMarkedSection(DOC, 'soak', '# Benchmarks\n', await formatMarkdown(body, DOC));
    console.log('\nwrote the soak section of docs/benchmarks.md');
  }
} finally {
  worker.kill('SIGTERM');
  await new Promise((r) => (worker.exitCode !== null ? r(null) : worker.once('exit', r)));
  model.stop();
  await queue.close();
  await deleteKeysWithPrefix(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
}
