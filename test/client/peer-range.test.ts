/**
 * The ends of the ranges package.json allows its peers, BullMQ and ioredis:
 * the packed package installed into a fresh project with the lowest version
 * of each range, and into another with the highest (the newest the registry,
 * or npm's cache, has), the project's BullMQ and ioredis being the ones the
 * package then runs on. At each end, both ways across versions, against real
 * Redis and the real worker:
 *
 * - the project's code publishes through `cosci-safety/client` (a goal it
 *   waits for, a hypothesis twice) and reads the events back with the
 *   `EventConsumer`, and a worker of this checkout (its own BullMQ and
 *   ioredis, the lockfile's) does the jobs: at the lowest end a publisher on
 *   BullMQ 5 and a worker on 6;
 * - this checkout publishes, and the worker as installed in the project
 *   (`cosci-safety worker` on the project's BullMQ) does the jobs, a job whose
 *   data is not JSON included (src/queues/job-worker.ts rests on a protected
 *   method of BullMQ's Worker): at the lowest end a publisher on BullMQ 6 and
 *   a worker on 5;
 * - and the client type-checks against the project's BullMQ and ioredis.
 *
 * Each end has its own key prefixes; the two installs are kept between runs
 * like the other fresh projects (test/support/fresh-project.ts).
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_NOT_JSON } from '../../src/queues/job-worker.js';
import { Publisher } from '../../src/queues/publisher.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { freshProject, ROOT, typecheck, type FreshProject } from '../support/fresh-project.js';
import { until } from '../support/poll.js';
import {
  killWorker,
  namesOf,
  spawnWorker,
  writeWorkerConfig,
  type WorkerProcess,
  type WorkerSettings,
} from '../support/processes.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

const run = promisify(execFile);
const PEERS = ['bullmq', 'ioredis'] as const;
type Peer = (typeof PEERS)[number];

interface Manifest {
  peerDependencies: Record<Peer, string>;
}
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version: string }>;
};

/**
 * The two ends of a range of the form `^A.B.C || ... || ^X.0.0`: the lowest
 * version, exactly, and the spec of the newest (npm installs the highest
 * version it matches).
 */
function ends(range: string): { lowest: string; highest: string } {
  const parts = range.split('||').map((p) => p.trim());
  if (!parts.every((p) => /^\^\d+\.\d+\.\d+$/.test(p)))
    throw new Error(`a peer range this test reads is ^A.B.C alternatives, not ${range}`);
  return { lowest: parts[0]!.slice(1), highest: parts.at(-1)! };
}

function versionParts(v: string): number[] {
  return v.split('.').map(Number);
}

/** a >= b, for plain X.Y.Z versions. */
function atLeast(a: string, b: string): boolean {
  const [x, y] = [versionParts(a), versionParts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! > y[i]!;
  return true;
}

const ENDS = (['lowest', 'highest'] as const).map((end) => ({
  end,
  packages: PEERS.map((peer) => `${peer}@${ends(manifest.peerDependencies[peer])[end]}`),
}));

/** Run in the project: publishes and consumes through the client, on the project's BullMQ and ioredis. */
const PUBLISH = `
import { createRequire } from 'node:module';
import { Redis } from 'ioredis';
import { EventConsumer, Publisher } from 'cosci-safety/client';

const [url, prefix, keyPrefix, stream] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const own = createRequire(require.resolve('cosci-safety/package.json'));
const out = {
  project: { bullmq: require('bullmq/package.json').version, ioredis: require('ioredis/package.json').version },
  package: { bullmq: own('bullmq/package.json').version, ioredis: own('ioredis/package.json').version },
};
const connection = new Redis(url);
const publisher = new Publisher({ connection, prefix, keyPrefix });
out.goal = await publisher.submitGoal({ goalId: 'g-1', text: 'Map kinase networks in yeast.' }, { wait: true, timeoutMs: 60000 });
out.first = await publisher.publishHypothesisSaved({ hypothesisId: 'h-1', text: 'Kinase X phosphorylates Y.', revision: 1 });
out.second = await publisher.publishHypothesisSaved({ hypothesisId: 'h-1', text: 'Kinase X phosphorylates Y.', revision: 1 });
const received = [];
const consumer = new EventConsumer({
  connection: new Redis(url),
  stream,
  group: 'range',
  startId: '0',
  blockMs: 100,
  types: ['hypothesis_assessed'],
  handle: (event) => void received.push(event),
});
await consumer.start();
const deadline = Date.now() + 60000;
while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
await consumer.close();
out.events = received.map((e) => ({ type: e.type, hypothesisId: e.data.hypothesisId, revision: e.data.revision }));
await publisher.close();
connection.disconnect();
console.log(JSON.stringify(out));
`;

/** Type-checked in the project, against its BullMQ and ioredis. */
const TYPES = `
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { EventConsumer, Publisher, type GoalResult } from 'cosci-safety/client';

const publisher = new Publisher({ connection: new Redis() });
// A queue of the project's BullMQ.
export const queue: Queue = publisher.queue('goal.submitted');
export async function action(): Promise<GoalResult['verdict']['action']> {
  return (await publisher.submitGoal({ goalId: 'g', text: 't' }, { wait: true })).verdict.action;
}
// @ts-expect-error not a connection
void new Publisher({ connection: 6379 });
export const consumer = new EventConsumer({
  connection: new Redis(),
  group: 'g',
  types: ['citation_unverified'],
  handle(event) {
    const url: string = event.data.url;
    void url;
  },
});
`;

let fake: FakeAnthropic;
const redis = testRedis();
const prefixes: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake?.close();
  await deleteKeys(redis, ...prefixes);
  redis.disconnect();
});

/** A worker of the goal and hypothesis queues, with names of its own; from the sources unless `installed`. */
async function worker(installed?: { main: string; cwd: string }): Promise<{ w: WorkerProcess; id: string }> {
  const id = uniqueName('range');
  prefixes.push(id);
  const settings: WorkerSettings = {
    redisUrl: REDIS_URL,
    id,
    modelUrl: fake.url,
    worker: { queues: ['goal.submitted', 'hypothesis.saved'], concurrency: 2, shutdown_timeout_ms: 2000 },
  };
  return { w: await spawnWorker(writeWorkerConfig(settings), settings, installed), id };
}

describe.each(ENDS)('the client and the worker at the $end end of the peer ranges', ({ end, packages }) => {
  let project: FreshProject;
  let work: string;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    project = await freshProject(packages);
    work = project.workspace('range');
  }, 420_000);
  afterAll(async () => {
    for (const w of workers) await killWorker(w);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(`publishes and consumes on ${packages.join(' and ')}, with a worker of this checkout doing the jobs`, async () => {
    const { w, id } = await worker();
    workers.push(w);
    const { prefix, keyPrefix, stream } = namesOf(id);
    writeFileSync(join(work, 'publish.mjs'), PUBLISH);
    // Bounds far above the seconds it takes: a job nobody does would hang it.
    const { stdout } = await run(process.execPath, ['publish.mjs', REDIS_URL, prefix, keyPrefix, stream], {
      cwd: work,
      timeout: 120_000,
    });
    const out = JSON.parse(stdout) as {
      project: Record<Peer, string>;
      package: Record<Peer, string>;
      goal: { jobId: string; verdict: { action: string } };
      first: unknown;
      second: unknown;
      events: unknown[];
    };

    // The package runs on the project's BullMQ and ioredis, at this end of each range.
    expect(out.package).toEqual(out.project);
    for (const peer of PEERS) {
      const { lowest, highest } = ends(manifest.peerDependencies[peer]);
      if (end === 'lowest') expect(out.project[peer]).toBe(lowest);
      else {
        expect(out.project[peer].split('.')[0]).toBe(versionParts(highest.slice(1))[0]!.toString());
        // The newest: no older than the one this checkout runs.
        expect(atLeast(out.project[peer], lock.packages[`node_modules/${peer}`]!.version)).toBe(true);
      }
    }

    expect(out.goal).toMatchObject({ jobId: 'goal.g-1', verdict: { action: 'allow' } });
    expect(out.first).toEqual({ jobId: 'hypothesis.h-1.r1', created: true });
    expect(out.second).toEqual({ jobId: 'hypothesis.h-1.r1', created: false });
    expect(out.events).toEqual([{ type: 'hypothesis_assessed', hypothesisId: 'h-1', revision: 1 }]);
    // Done by the worker of this checkout.
    const queue = new Queue('goal.submitted', { connection: redis, prefix });
    expect((await queue.getJob('goal.g-1'))?.processedBy).toBe(w.name);
    await queue.close();
  });

  it(`runs the installed worker on ${packages.join(' and ')} for a publisher of this checkout`, async () => {
    const installed = join(project.dir, 'node_modules', 'cosci-safety');
    const { w, id } = await worker({ main: join(installed, 'dist', 'cli', 'main.js'), cwd: project.dir });
    workers.push(w);
    const { prefix, keyPrefix } = namesOf(id);
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const publisher = new Publisher({ connection, prefix, keyPrefix });
    try {
      const goal = await publisher.submitGoal(
        { goalId: 'g-2', text: 'Map kinase networks in yeast.' },
        { wait: true, timeoutMs: 60_000 },
      );
      expect(goal.verdict.action).toBe('allow');
      const queue = publisher.queue('goal.submitted');
      expect((await queue.getJob('goal.g-2'))?.processedBy).toBe(w.name);

      // A job whose data is not JSON, as a publisher writing the job hash itself leaves it.
      const hypotheses = publisher.queue('hypothesis.saved');
      await hypotheses.pause();
      await hypotheses.add('hypothesis.saved', {}, { jobId: 'bad', attempts: 3 });
      await connection.hset(hypotheses.toKey('bad'), 'data', '{not json');
      await hypotheses.resume();
      await until(
        'the job whose data is not JSON failed',
        async () => (await hypotheses.getJobState('bad')) === 'failed',
        {
          timeoutMs: 30_000,
        },
      );
      const bad = await hypotheses.getJob('bad');
      expect(bad?.failedReason).toMatch(new RegExp(`^${DATA_NOT_JSON}: `));
      expect(bad?.data).toBe('{not json');
      expect(bad?.attemptsMade).toBe(1);
    } finally {
      await publisher.close();
      connection.disconnect();
    }
  });

  it(`type-checks against ${packages.join(' and ')}`, async () => {
    writeFileSync(join(work, 'types.ts'), TYPES);
    const result = await typecheck(work);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });
});

/** Run in the project: one step on a queue, with the project's BullMQ. */
const QUEUE_STEP = `
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

const [url, prefix, step, jobId] = process.argv.slice(2);
const connection = new Redis(url);
const queue = new Queue('hypothesis.saved', { connection, prefix });
if (step === 'add') await queue.add('hypothesis.saved', { jobId }, { jobId });
else if (step === 'resume') await queue.resume();
await queue.close();
connection.disconnect();
`;

describe('a paused queue shared by BullMQ 5 and 6 (docs/contract.md#versions)', () => {
  const { packages } = ENDS[0]!;
  let work: string;
  let step: (prefix: string, ...args: string[]) => Promise<void>;

  beforeAll(async () => {
    // The lowest end's project (BullMQ 5), made above or by another run.
    work = (await freshProject(packages)).workspace('pause');
    writeFileSync(join(work, 'step.mjs'), QUEUE_STEP);
    step = async (prefix, ...args) => {
      await run(process.execPath, ['step.mjs', REDIS_URL, prefix, ...args], { cwd: work, timeout: 60_000 });
    };
  }, 420_000);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('BullMQ 5 adds to a list of its own, which BullMQ 6 does not count and moves back when it resumes', async () => {
    const prefix = uniqueName('pause');
    prefixes.push(prefix);
    const queue = new Queue('hypothesis.saved', { connection: redis, prefix });
    await queue.pause();
    await step(prefix, 'add', 'from-5');
    await queue.add('hypothesis.saved', {}, { jobId: 'from-6' });
    expect(await redis.lrange(queue.toKey('paused'), 0, -1)).toEqual(['from-5']);
    expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
    await queue.resume();
    expect((await queue.getWaiting()).map((j) => j.id).sort()).toEqual(['from-5', 'from-6']);
    await queue.close();
  });

  it('BullMQ 5 resuming it drops from the queue what BullMQ 6 added while it was paused', async () => {
    const prefix = uniqueName('pause');
    prefixes.push(prefix);
    const queue = new Queue('hypothesis.saved', { connection: redis, prefix });
    await queue.pause();
    await queue.add('hypothesis.saved', {}, { jobId: 'from-6' });
    await step(prefix, 'add', 'from-5');
    await step(prefix, 'resume');
    expect((await queue.getWaiting()).map((j) => j.id)).toEqual(['from-5']);
    // Its hash is still there, in no list: no worker will take it.
    expect(await queue.getJobState('from-6')).toBe('unknown');
    expect(await redis.exists(queue.toKey('from-6'))).toBe(1);
    await queue.close();
  });
});
