/**
 * `cosci-safety/client` as a user gets it: the project packed with `npm pack`
 * (whose prepack script builds dist/), installed into a scratch folder, then
 * imported from plain JavaScript against real Redis and type-checked from
 * TypeScript, with the snippets of docs/contract.md and README.md.
 *
 * Installing a tarball means unpacking it into node_modules/<name> and
 * installing the dependencies it declares. The test does the first with tar
 * and the second by linking each declared dependency to the project's own
 * installed copy: the versions of the lockfile, no registry, no cache, a
 * second instead of a 140 MB copy. A file left out of "files", a missing
 * "exports" entry, a dependency declared only for development, or a
 * declaration file pointing at something unshipped fails here as it would
 * for a user.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/contracts/events.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let scratch: string;
const redis = testRedis();
const prefix = uniqueName('pack');

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cosci-pack-'));
  await run(npm, ['pack', '--silent', '--pack-destination', scratch], { cwd: root, maxBuffer: 16 << 20 });
  const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack left no tarball in ${scratch}`);

  const installed = join(scratch, 'node_modules', 'cosci-safety');
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', join(scratch, tarball), '-C', installed, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const dependency of Object.keys(manifest.dependencies)) {
    const link = join(scratch, 'node_modules', dependency);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(root, 'node_modules', dependency), link, 'dir');
  }
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
}, 120_000);

afterAll(async () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

const USE_FROM_JS = `
import { Redis } from 'ioredis';
import { EVENT_TYPES, EventConsumer, HypothesisSavedSchema, Publisher, QUEUES } from 'cosci-safety/client';

const [url, prefix] = process.argv.slice(2);
const out = {};
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
const data = { reviewId: 'r-1', hypothesisId: 'h-1', revision: 0, skipped: false, total: 1,
  counts: { ok: 1, unverified: 0, fetch_failed: 0 } };
await connection.xadd(stream, '*', 'type', 'review_verified', 'eventId', 'review_verified/r-1/r0', 'data', JSON.stringify(data));
while (received.length === 0) await new Promise((r) => setTimeout(r, 20));
await consumer.close();
out.received = received;

try {
  await import('cosci-safety/dist/queues/publisher.js');
} catch (err) {
  out.deepImport = err.code;
}
connection.disconnect();
console.log(JSON.stringify(out));
`;

const USE_FROM_TS = `
import { Redis } from 'ioredis';
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

const publisher = new Publisher({ connection: new Redis() });
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

/** The TypeScript snippets of a doc that import the client, each a module of its own. */
function docSnippets(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .filter((s) => s.includes("'cosci-safety/client'"));
}

describe('the cosci-safety/client entry point, installed from the packed tarball', () => {
  it('works from plain JavaScript: publishes, consumes, and keeps the internals private', async () => {
    writeFileSync(join(scratch, 'use.mjs'), USE_FROM_JS);
    const { stdout } = await run(process.execPath, ['use.mjs', REDIS_URL, prefix], { cwd: scratch });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out.parsed).toEqual({ hypothesisId: 'h-1', text: 'Kinase X phosphorylates Y.', revision: 0 });
    expect(out.queues).toEqual(['hypothesis.saved', 'goal.submitted', 'review.recorded', 'report.finalized']);
    // The packed entry point knows every event type of the sources.
    expect(out.eventTypes).toBe(EVENT_TYPES.length);
    expect(out.first).toEqual({ jobId: 'hypothesis.h-1.r1', created: true });
    expect(out.second).toEqual({ jobId: 'hypothesis.h-1.r1', created: false });
    expect(out.jobData).toEqual({ hypothesisId: 'h-1', text: 'Kinase X.', revision: 1 });
    expect(out.rejected).toBe('PAYLOAD_INVALID');
    expect(out.received).toEqual([
      expect.objectContaining({ type: 'review_verified', eventId: 'review_verified/r-1/r0', redelivered: false }),
    ]);
    expect(out.deepImport).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('type-checks from TypeScript, with the snippets of the docs', async () => {
    const snippets = [...docSnippets('docs/contract.md'), ...docSnippets('README.md')];
    // The publisher and the consumer in the contract, the publisher in the README.
    expect(snippets.length).toBeGreaterThanOrEqual(3);
    snippets.forEach((s, i) => writeFileSync(join(scratch, `doc-${i}.ts`), s));
    writeFileSync(join(scratch, 'use.ts'), USE_FROM_TS);
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          // As most projects do; checking every declaration file of the
          // dependencies would triple the time. A declaration of ours that
          // pointed at a file not shipped would make its types \`any\`, which
          // the @ts-expect-error lines of use.ts catch.
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(root, 'node_modules', '@types')],
        },
        include: ['*.ts'],
      }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: scratch }).then(
      () => ({ code: 0, output: '' }),
      (err: { code: number; stdout: string }) => ({ code: err.code, output: err.stdout }),
    );
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });

  it('installs the command, which answers --version with the package version and --help with its usage', async () => {
    const installed = join(scratch, 'node_modules', 'cosci-safety');
    const { version } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string };
    const main = join(installed, 'dist', 'cli', 'main.js');
    expect((await run(process.execPath, [main, '--version'], { cwd: scratch })).stdout).toBe(`${version}\n`);
    expect((await run(process.execPath, [main, 'events', '--help'], { cwd: scratch })).stdout).toMatch(
      /^cosci-safety events tail/,
    );
  });
});
