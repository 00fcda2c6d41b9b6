/**
 * `cosci-safety/client` as a user gets it: the project packed with `npm pack`
 * and installed with npm from its tarball into a fresh project that has
 * ioredis 6 of its own, what `npm i ioredis` installs today
 * (test/support/fresh-project.ts); then imported from plain JavaScript
 * against real Redis, with the project's ioredis 6 connections, and
 * type-checked from TypeScript. A file left out of "files", a missing
 * "exports" entry, a dependency declared only for development, a declaration
 * file pointing at something unshipped, or a type that takes only one copy
 * of ioredis fails here as it would for a user. The snippets of the docs are
 * type-checked and run in test/docs/snippets.test.ts; the ends of the BullMQ
 * and ioredis ranges the package allows, in test/client/peer-range.test.ts.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/contracts/events.js';
import { freshProject, IOREDIS_6, typecheck } from '../support/fresh-project.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

const run = promisify(execFile);

let project: string;
let work: string;
const redis = testRedis();
const prefix = uniqueName('pack');

beforeAll(async () => {
  const fresh = await freshProject();
  project = fresh.dir;
  work = fresh.workspace('client');
}, 420_000);

afterAll(async () => {
  if (work) rmSync(work, { recursive: true, force: true });
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

const USE_FROM_JS = `
import { createRequire } from 'node:module';
import { Redis } from 'ioredis';
import { EVENT_TYPES, EventConsumer, HypothesisSavedSchema, Publisher, QUEUES } from 'cosci-safety/client';

const [url, prefix] = process.argv.slice(2);
const out = {};
// The project's ioredis, whose connections this script hands the client, and the one the package resolves.
const require = createRequire(import.meta.url);
out.ioredis = require('ioredis/package.json').version;
out.ownIoredis = createRequire(require.resolve('cosci-safety/package.json'))('ioredis/package.json').version;
out.parsed = HypothesisSavedSchema.parse({ hypothesisId: 'h-1', text: 'Kinase X phosphorylates Y.' });
out.queues = Object.keys(QUEUES);
out.eventTypes = EVENT_TYPES.length;

const connection = new Redis(url);
const publisher = new Publisher({ connection, prefix: prefix + '-bull' });
out.first = await publisher.publishHypothesisSaved({ hypothesisId: 'h-1', text: 'Kinase X.', revision: 1 });
out.second = await publisher.publishHypothesisSaved({ hypothesisId: 'h-1', text: 'Kinase X.', revision: 1 });
out.jobData = (await publisher.queue('hypothesis.saved').getJob(out.first.jobId)).data;
try {
  await publisher.publishHypothesisSaved({ hypothesisId: 'h 2', text: 'x' });
} catch (err) {
  out.rejected = err.code;
}
await publisher.close();

// A publisher of its own connection, from a URL: close() closes it too.
const own = new Publisher({ connection: url, prefix: prefix + '-bull' });
out.own = await own.publishHypothesisSaved({ hypothesisId: 'h-1', text: 'Kinase X.', revision: 1 });
await own.close();

const stream = prefix + ':events';
const received = [];
const consumer = new EventConsumer({
  connection: new Redis(url),
  stream,
  group: 'js',
  blockMs: 100,
  types: ['review_verified'],
  handle: (event) => void received.push(event),
});
await consumer.start();
const urlConsumer = new EventConsumer({ connection: url, stream, group: 'js-url', blockMs: 100, types: ['review_verified'],
  handle: (event) => void received.push(event) });
await urlConsumer.start();
const data = { reviewId: 'r-1', hypothesisId: 'h-1', revision: 0, skipped: false, total: 1,
  counts: { ok: 1, unverified: 0, fetch_failed: 0 } };
await connection.xadd(stream, '*', 'type', 'review_verified', 'eventId', 'review_verified/r-1/r0', 'data', JSON.stringify(data));
while (received.length < 2) await new Promise((r) => setTimeout(r, 20));
await consumer.close();
await urlConsumer.close();
out.received = received;

try {
  await import('cosci-safety/dist/queues/publisher.js');
} catch (err) {
  out.deepImport = err.code;
}
connection.disconnect();
console.log(JSON.stringify(out));
// Nothing is left open: the process ends by itself.
`;

const USE_FROM_TS = `
import { Cluster, Redis } from 'ioredis';
import {
  EventConsumer,
  Publisher,
  QUEUES,
  type ConsumedEvent,
  type EventDataOf,
  type GoalResult,
  type HypothesisSavedInput,
  type ReportResult,
  type ResultOf,
} from 'cosci-safety/client';

// An ioredis 6 connection, a Cluster of it, or where to connect.
const publisher = new Publisher({ connection: new Redis() });
void new Publisher({ connection: new Cluster([{ host: '127.0.0.1', port: 7000 }]) });
void new Publisher({ connection: 'redis://127.0.0.1:6379' });
void new Publisher({ connection: { url: 'redis://127.0.0.1:7000,redis://127.0.0.1:7001', cluster: true } });
// @ts-expect-error not a connection
void new Publisher({ connection: 6379 });
const input: HypothesisSavedInput = { hypothesisId: 'h-1', text: 'x' };
void publisher.publishHypothesisSaved(input);
// @ts-expect-error a hypothesis needs its text
void publisher.publishHypothesisSaved({ hypothesisId: 'h-1' });

export async function waits(): Promise<[GoalResult['verdict']['action'], ReportResult['publishable']]> {
  const goal = await publisher.submitGoal({ goalId: 'g', text: 't' }, { wait: true });
  const report = await publisher.finalizeReport({ reportId: 'r', sections: [{ text: 't' }] }, { wait: true });
  // @ts-expect-error without wait there is no verdict
  void (await publisher.submitGoal({ goalId: 'g', text: 't' })).verdict;
  return [goal.verdict.action, report.publishable];
}

export const consumer = new EventConsumer({
  connection: new Redis(),
  group: 'g',
  types: ['citation_unverified', 'hypothesis_blocked'],
  handle(event) {
    if (event.type === 'citation_unverified') {
      const url: string = event.data.url;
      // @ts-expect-error a citation event has no action
      void event.data.action;
      void url;
    } else {
      const action: 'allow' | 'warn' | 'quarantine' | 'block' = event.data.action;
      void action;
    }
  },
});
// @ts-expect-error not an event type
void new EventConsumer({ connection: new Redis(), group: 'g', types: ['hypothesis_renamed'], handle() {} });

export type Checks = [
  ConsumedEvent<'review_verified'>['data']['counts']['ok'],
  EventDataOf<'goal_blocked'>['goalId'],
  ResultOf<'review.recorded'>['summary'],
  (typeof QUEUES)['goal.submitted']['payload'],
];
`;

describe('the cosci-safety/client entry point, installed from the packed tarball beside ioredis 6', () => {
  it('works from plain JavaScript: publishes, consumes, and keeps the internals private', async () => {
    writeFileSync(join(work, 'use.mjs'), USE_FROM_JS);
    // A bound far above the second it takes: a connection left open would keep it running.
    const { stdout } = await run(process.execPath, ['use.mjs', REDIS_URL, prefix], { cwd: work, timeout: 60_000 });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out.ioredis).toBe(IOREDIS_6.split('@')[1]);
    // ioredis is a peer dependency: the package uses the project's, and has no copy of its own.
    expect(out.ownIoredis).toBe(out.ioredis);
    expect(existsSync(join(project, 'node_modules', 'cosci-safety', 'node_modules', 'ioredis'))).toBe(false);
    expect(out.parsed).toEqual({ hypothesisId: 'h-1', text: 'Kinase X phosphorylates Y.', revision: 0 });
    expect(out.queues).toEqual(['hypothesis.saved', 'goal.submitted', 'review.recorded', 'report.finalized']);
    // The packed entry point knows every event type of the sources.
    expect(out.eventTypes).toBe(EVENT_TYPES.length);
    expect(out.first).toEqual({ jobId: 'hypothesis.h-1.r1', created: true });
    expect(out.second).toEqual({ jobId: 'hypothesis.h-1.r1', created: false });
    expect(out.jobData).toEqual({ hypothesisId: 'h-1', text: 'Kinase X.', revision: 1 });
    expect(out.rejected).toBe('PAYLOAD_INVALID');
    expect(out.own).toEqual({ jobId: 'hypothesis.h-1.r1', created: false });
    // Each consumer, of its group, got the event: the one on an ioredis 6 connection and the one on a URL.
    const event = expect.objectContaining({
      type: 'review_verified',
      eventId: 'review_verified/r-1/r0',
      redelivered: false,
    });
    expect(out.received).toEqual([event, event]);
    expect(out.deepImport).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('type-checks from TypeScript, with ioredis 6 connections', async () => {
    writeFileSync(join(work, 'use.ts'), USE_FROM_TS);
    const result = await typecheck(work);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });

  it('installs the command, which answers --version with the package version and --help with its usage', async () => {
    const installed = join(project, 'node_modules', 'cosci-safety');
    const { version } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string };
    const main = join(installed, 'dist', 'cli', 'main.js');
    expect((await run(process.execPath, [main, '--version'], { cwd: work })).stdout).toBe(`${version}\n`);
    expect((await run(process.execPath, [main, 'events', '--help'], { cwd: work })).stdout).toMatch(
      /^cosci-safety events tail/,
    );
  });
});
