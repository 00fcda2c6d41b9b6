/**
 * Reliability under faults: hostile payloads published straight to every
 * queue with `queue.add`, the stored JSON then replaced by the exact text,
 * as a publisher that does not validate (or one in another language) would
 * write it: wrong types, missing fields, strings past the schema's bounds
 * (megabytes), 10,000-deep nesting, keys that aim at the prototype, NaN and
 * Infinity (null in JSON), no payload at all, and data that is not JSON at
 * all. The fixed nasty ones and 240 generated with fast-check, in each of
 * three rounds.
 *
 * Each must fail at once and for good, with a reason that names the field,
 * without a model call, without an event, without taking the worker down or
 * growing its memory.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueName } from '../../src/contracts/queues.js';
import { PAYLOAD_SCHEMAS } from '../../src/contracts/payloads.js';
import { eventDigest } from '../../src/processors/hypothesis-processor.js';
import { DEFAULT_JOB_OPTIONS } from '../../src/queues/publisher.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { testConfig } from '../support/config.js';
import { heldMemory, peakRss, resetPeakRss } from '../support/memory.js';
import { startHarness, type Harness } from '../support/pipeline.js';
import { eventually, until } from '../support/poll.js';

const QUEUES: QueueName[] = ['hypothesis.saved', 'goal.submitted', 'review.recorded', 'report.finalized'];
/** Fixed, so a failure can be replayed; change it to explore other payloads. */
const SEED = 20_240_601;
const GENERATED = 240;
const MiB = 1024 * 1024;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Kind = 'id' | 'text' | 'int' | 'time' | 'url' | 'array';

/** A field of a payload schema, by its path as failedReason writes it. */
interface Field {
  path: string;
  kind: Kind;
  required: boolean;
  /** Longest string, or most entries, the schema allows. */
  max?: number;
  /** For arrays: a valid entry, to build one too long. */
  entry?: Json;
}

const EVIDENCE = { claim: 'c', url: 'https://example.org/a', excerpt: 'e' };

const FIELDS: Record<QueueName, Field[]> = {
  'hypothesis.saved': [
    { path: 'hypothesisId', kind: 'id', required: true },
    { path: 'text', kind: 'text', required: true, max: 1_000_000 },
    { path: 'title', kind: 'text', required: false, max: 2000 },
    { path: 'goalId', kind: 'id', required: false },
    { path: 'runId', kind: 'id', required: false },
    { path: 'agent', kind: 'text', required: false, max: 256 },
    { path: 'revision', kind: 'int', required: false },
    { path: 'savedAt', kind: 'time', required: false },
  ],
  'goal.submitted': [
    { path: 'goalId', kind: 'id', required: true },
    { path: 'text', kind: 'text', required: true, max: 1_000_000 },
    { path: 'runId', kind: 'id', required: false },
  ],
  'review.recorded': [
    { path: 'reviewId', kind: 'id', required: true },
    { path: 'hypothesisId', kind: 'id', required: true },
    { path: 'evidence', kind: 'array', required: true, max: 100, entry: EVIDENCE },
    { path: 'evidence.0.claim', kind: 'text', required: true, max: 5000 },
    { path: 'evidence.0.url', kind: 'url', required: true, max: 2048 },
    { path: 'evidence.0.excerpt', kind: 'text', required: true, max: 5000 },
    { path: 'seenUrls', kind: 'array', required: false, max: 1000, entry: 'https://example.org/a' },
    { path: 'seenUrls.0', kind: 'text', required: true, max: 2048 },
    { path: 'revision', kind: 'int', required: false },
    { path: 'agent', kind: 'text', required: false, max: 256 },
    { path: 'recordedAt', kind: 'time', required: false },
  ],
  'report.finalized': [
    { path: 'reportId', kind: 'id', required: true },
    { path: 'sections', kind: 'array', required: true, max: 1000, entry: { text: 's' } },
    { path: 'sections.0.text', kind: 'text', required: true, max: 1_000_000 },
    { path: 'sections.0.hypothesisId', kind: 'id', required: false },
    { path: 'runId', kind: 'id', required: false },
    { path: 'revision', kind: 'int', required: false },
  ],
};

/** A valid payload of each queue, with every optional field present so each can be broken. */
function valid(queue: QueueName, k: number): { [key: string]: Json } {
  switch (queue) {
    case 'hypothesis.saved':
      return {
        hypothesisId: `h-${k}`,
        text: 'Kinase X phosphorylates Y in yeast.',
        title: 'Kinase X',
        goalId: 'g-1',
        runId: 'run-1',
        agent: 'generation',
        revision: 1,
        savedAt: '2025-01-01T00:00:00Z',
      };
    case 'goal.submitted':
      return { goalId: `g-${k}`, text: 'Map kinase networks in yeast.', runId: 'run-1' };
    case 'review.recorded':
      return {
        reviewId: `r-${k}`,
        hypothesisId: 'h-1',
        evidence: [EVIDENCE],
        seenUrls: ['https://example.org/a'],
        revision: 0,
        agent: 'reflection',
        recordedAt: '2025-01-01T00:00:00+02:00',
      };
    case 'report.finalized':
      return { reportId: `rep-${k}`, sections: [{ text: 'Intro.', hypothesisId: 'h-1' }], runId: 'run-1', revision: 0 };
  }
}

/** Sets (or, with `undefined`, deletes) the value at a dotted path of a payload. */
function setPath(data: { [key: string]: Json }, path: string, value: Json | undefined): void {
  const keys = path.split('.');
  let at = data as Record<string, Json>;
  for (const key of keys.slice(0, -1)) at = at[key] as Record<string, Json>;
  const last = keys.at(-1)!;
  if (value === undefined) delete at[last];
  else at[last] = value;
}

/** A deep copy through JSON, which also turns NaN and Infinity into null, as the queue does. */
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const notString = fc.constantFrom<Json>(42, -1, true, false, null, {}, [], ['a'], { text: 'nested' });
const notNumber = fc.constantFrom<Json>('1', '', true, null, {}, [1]);
const whitespace = fc.constantFrom(' ', '\t', '\n', '\r', '\u0000', '\u001f', '\u007f');

/** Values the schema refuses for a field of this kind. */
function badValue(field: Field): fc.Arbitrary<Json | undefined> {
  const options: Array<fc.Arbitrary<Json | undefined>> = [];
  if (field.required) options.push(fc.constant(undefined));
  switch (field.kind) {
    case 'id':
      options.push(
        notString,
        fc.constant(''),
        fc.integer({ min: 257, max: 5000 }).map((n) => 'i'.repeat(n)),
        fc
          .tuple(fc.string({ minLength: 1, maxLength: 20 }), whitespace, fc.string({ maxLength: 20 }))
          .map(([a, w, b]) => a + w + b),
      );
      break;
    case 'text':
    case 'url':
      options.push(
        notString,
        fc.integer({ min: 1, max: 1000 }).map((n) => 't'.repeat(field.max! + n)),
      );
      if (field.kind === 'url') options.push(fc.constant(''));
      break;
    case 'int':
      options.push(
        notNumber,
        fc.integer({ min: -1_000_000, max: -1 }),
        fc.double({ min: 0.001, max: 1e6, noNaN: true }).filter((x) => !Number.isInteger(x)),
        // Not numbers in JSON: they arrive as null.
        fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY) as fc.Arbitrary<Json>,
      );
      break;
    case 'time':
      options.push(
        notString,
        fc.constantFrom('yesterday', '2025-13-01T00:00:00Z', '2025-01-01T00:00:00', '2025-01-01', '1735689600'),
      );
      break;
    case 'array':
      options.push(
        fc.constantFrom<Json>('not a list', 7, null, { 0: 'x' }),
        fc.constant(Array.from({ length: field.max! + 1 }, () => clone(field.entry!))),
      );
      if (field.path === 'sections') options.push(fc.constant([]));
      if (field.path === 'evidence') options.push(fc.constantFrom<Json>([null], ['x'], [[]]));
      break;
  }
  return fc.oneof(...options);
}

/** Invalid UTF-16 among any code points: in free text it is data the schema accepts. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const oddText = fc
  .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 4 }), loneSurrogate), { maxLength: 6 })
  .map((parts) => parts.join(''));

/** Keys that are no field of any payload, for extra entries a sloppy client adds. */
const ALL_FIELD_NAMES = new Set(Object.values(FIELDS).flatMap((fs) => fs.map((f) => f.path.split('.')[0]!)));
const extraKeys = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !ALL_FIELD_NAMES.has(k) && k !== '__proto__'),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  { maxKeys: 4 },
);

interface Hostile {
  queue: QueueName;
  /** The payload as the queue stores it (JSON text). */
  json: string;
  /** The fields failedReason must name (an issue at the field or inside it, as `evidence.0.url` is in `evidence`). */
  fields: string[];
  what: string;
}

/**
 * The payload as JSON, with keys aimed at the prototype written as plain
 * own keys, the way JSON from another client carries them. A valid value of
 * the broken field goes under `__proto__`, where it must not be found.
 */
function withPollution(data: { [key: string]: Json }, field: Field, queue: QueueName): string {
  const goodValue = (() => {
    const v = valid(queue, 0);
    return field.path.split('.').reduce<Json | undefined>((at, key) => (at as Record<string, Json>)?.[key], v);
  })();
  const proto = JSON.stringify({ polluted: 'yes', [field.path.split('.')[0]!]: goodValue ?? 'x' });
  const body = JSON.stringify(data).slice(1, -1);
  const prefix = `"__proto__":${proto},"constructor":{"prototype":{"polluted":"yes"}}`;
  return `{${prefix}${body.length > 0 ? ',' : ''}${body}}`;
}

const generated: fc.Arbitrary<Hostile> = fc
  .constantFrom(...QUEUES)
  .chain((queue) =>
    fc.record({
      queue: fc.constant(queue),
      field: fc.constantFrom(...FIELDS[queue]),
      k: fc.nat(1_000_000),
      pollute: fc.boolean(),
      extra: extraKeys,
      // Lone surrogates and other odd code points added to a text that is not the broken field.
      oddText: oddText,
    }),
  )
  .chain(({ queue, field, k, pollute, extra, oddText }) =>
    badValue(field).map((bad) => {
      const data = { ...valid(queue, k), ...clone(extra) };
      if (field.path !== 'text' && queue !== 'review.recorded' && typeof data.text === 'string') data.text += oddText;
      setPath(data, field.path, bad);
      const json = pollute ? withPollution(data, field, queue) : JSON.stringify(data);
      const what = bad === undefined ? 'missing' : JSON.stringify(bad)?.slice(0, 40);
      return { queue, json, fields: [field.path], what: `${field.path} = ${what}` };
    }),
  );

/** Nesting no JavaScript client can send (JSON.stringify overflows its stack); written as text. */
const deepArray = (depth: number) => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`;

const FIXED: Hostile[] = [
  ...QUEUES.flatMap((queue): Hostile[] => [
    { queue, json: 'null', fields: ['(top level)'], what: 'null payload' },
    { queue, json: '"a string"', fields: ['(top level)'], what: 'a string' },
    { queue, json: '[1,2,3]', fields: ['(top level)'], what: 'an array' },
    { queue, json: '12345', fields: ['(top level)'], what: 'a number' },
    {
      queue,
      json: '{}',
      fields: FIELDS[queue].filter((f) => f.required && !f.path.includes('.')).map((f) => f.path),
      what: 'empty object',
    },
  ]),
  {
    queue: 'hypothesis.saved',
    json: JSON.stringify({ hypothesisId: 'big', text: 'x'.repeat(2 * MiB) }),
    fields: ['text'],
    what: '2 MB text',
  },
  {
    queue: 'goal.submitted',
    json: JSON.stringify({ goalId: 'big', text: 'é'.repeat(MiB + 1) }),
    fields: ['text'],
    what: '2 MB of UTF-8 text',
  },
  {
    queue: 'review.recorded',
    json: JSON.stringify({
      reviewId: 'big',
      hypothesisId: 'h',
      evidence: [{ claim: 'c', url: 'https://example.org/', excerpt: 'e'.repeat(2 * MiB) }],
    }),
    fields: ['evidence.0.excerpt'],
    what: '2 MB excerpt',
  },
  {
    queue: 'review.recorded',
    json: JSON.stringify({
      reviewId: 'many',
      hypothesisId: 'h',
      evidence: Array.from({ length: 20_000 }, () => EVIDENCE),
    }),
    fields: ['evidence'],
    what: '20,000 citations',
  },
  {
    queue: 'report.finalized',
    json: JSON.stringify({ reportId: 'big', sections: [{ text: 'x'.repeat(2 * MiB) }] }),
    fields: ['sections.0.text'],
    what: '2 MB section',
  },
  // Megabytes in every free-text field, the way a runaway agent might send them.
  ...Array.from({ length: 8 }, (_, k): Hostile => {
    const [queue, field, data] = (
      [
        ['hypothesis.saved', 'title', { hypothesisId: 'big-title', text: 't', title: 'T'.repeat(2 * MiB + k) }],
        ['hypothesis.saved', 'agent', { hypothesisId: 'big-agent', text: 't', agent: 'A'.repeat(2 * MiB + k) }],
        [
          'review.recorded',
          'evidence.0.claim',
          { reviewId: 'big-claim', hypothesisId: 'h', evidence: [{ ...EVIDENCE, claim: 'C'.repeat(2 * MiB + k) }] },
        ],
        [
          'review.recorded',
          'seenUrls.0',
          { reviewId: 'big-seen', hypothesisId: 'h', evidence: [], seenUrls: ['https://e.org/' + 'u'.repeat(2 * MiB)] },
        ],
      ] as const
    )[k % 4]!;
    return { queue, json: JSON.stringify(data), fields: [field], what: `2 MB ${field}` };
  }),
  {
    queue: 'hypothesis.saved',
    json: `{"hypothesisId":"deep-1","text":${deepArray(10_000)}}`,
    fields: ['text'],
    what: '10,000-deep arrays',
  },
  {
    queue: 'hypothesis.saved',
    json: `{"hypothesisId":"deep-2","text":"ok","title":${deepObject(10_000)}}`,
    fields: ['title'],
    what: '10,000-deep objects',
  },
  {
    queue: 'goal.submitted',
    json: `{"goalId":"deep","text":"ok","runId":${deepArray(10_000)}}`,
    fields: ['runId'],
    what: '10,000-deep arrays',
  },
  {
    queue: 'review.recorded',
    json: `{"reviewId":"deep","hypothesisId":"h","evidence":${deepArray(10_000)}}`,
    fields: ['evidence.0'],
    what: '10,000-deep evidence',
  },
  {
    queue: 'report.finalized',
    json: `{"reportId":"deep","sections":[{"text":${deepObject(10_000)}}]}`,
    fields: ['sections.0.text'],
    what: '10,000-deep section',
  },
  {
    queue: 'hypothesis.saved',
    json: JSON.stringify({ hypothesisId: 'nan', text: 't', revision: Number.NaN }),
    fields: ['revision'],
    what: 'NaN',
  },
  {
    queue: 'report.finalized',
    json: JSON.stringify({ reportId: 'inf', sections: [{ text: 't' }], revision: Number.POSITIVE_INFINITY }),
    fields: ['revision'],
    what: 'Infinity',
  },
  {
    queue: 'hypothesis.saved',
    json: '{"__proto__":{"hypothesisId":"p","text":"t"}}',
    fields: ['hypothesisId', 'text'],
    what: 'every field under __proto__',
  },
  {
    queue: 'goal.submitted',
    json: '{"constructor":{"prototype":{"text":"t"}},"goalId":"c"}',
    fields: ['text'],
    what: 'the text under constructor.prototype',
  },
  {
    queue: 'review.recorded',
    json: '{"reviewId":"p","hypothesisId":"h","evidence":[{"__proto__":{"url":"https://example.org/"},"claim":"c","excerpt":"e"}]}',
    fields: ['evidence.0.url'],
    what: 'an evidence url under __proto__',
  },
];

let fake: FakeAnthropic;
let h: Harness;
let seq = 0;

beforeAll(async () => {
  fake = await startFakeAnthropic(markerHandler);
  h = await startHarness(testConfig(fake.url, { worker: { concurrency: 8 } }));
});
afterAll(async () => {
  await h.stop();
  await fake.close();
});

/**
 * Adds a job whose stored data is exactly `json`: added delayed with a
 * placeholder, its data replaced, then promoted, so the worker reads the
 * text a client in any language could have written.
 */
async function addRaw(queue: QueueName, json: string): Promise<string> {
  const jobId = `hostile-${++seq}`;
  const job = await h.publisher.queue(queue).add(queue, {}, { ...DEFAULT_JOB_OPTIONS, jobId, delay: 3_600_000 });
  await h.redis.hset(`${h.config.redis.prefix}:${queue}:${jobId}`, 'data', json);
  await job.promote();
  return jobId;
}

/** True when the reason lists an issue at `field` or inside it. */
function namesField(reason: string, field: string): boolean {
  const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:payload: |; )${escaped}(?:\\.[^:;]*)?: `).test(reason);
}

/**
 * What stays referenced once memory has stopped falling. Some of what a
 * round used is given back on timers after it (the Redis reply parser
 * shrinks its buffer pool on one), so a reading taken at once counts memory
 * that is still on its way out; this waits until a reading is no lower than
 * the one taken 200 ms before it, rather than for a fixed pause.
 */
async function settledMemory(): Promise<{ heap: number; outside: number }> {
  let previous: { heap: number; outside: number } | undefined;
  return eventually(
    'memory to stop falling',
    () => {
      const now = heldMemory();
      const settled = previous !== undefined && now.heap + now.outside >= previous.heap + previous.outside - MiB;
      previous = now;
      return settled ? now : undefined;
    },
    { timeoutMs: 10_000, everyMs: 200 },
  );
}

describe('hostile jobs', () => {
  it('fails each at once, naming the field, with no model call, no event, and bounded memory', async () => {
    let failedSoFar = 0;
    /** Publishes a round of hostile jobs, waits until all have failed, and checks each. */
    const sendRound = async (round: number) => {
      const hostile = [...FIXED, ...fc.sample(generated, { numRuns: GENERATED, seed: SEED + round })];
      // The premise: every payload here is one the contract refuses.
      for (const x of hostile) {
        const parsed = PAYLOAD_SCHEMAS[x.queue].safeParse(JSON.parse(x.json));
        expect(parsed.success, `${x.queue}: ${x.what}`).toBe(false);
      }
      const jobs: Array<Hostile & { jobId: string }> = [];
      for (const x of hostile) jobs.push({ ...x, jobId: await addRaw(x.queue, x.json) });
      failedSoFar += jobs.length;
      await until(
        `${jobs.length} hostile jobs failed`,
        async () => {
          let failed = 0;
          for (const q of QUEUES) failed += (await h.publisher.queue(q).getJobCounts('failed')).failed ?? 0;
          return failed >= failedSoFar;
        },
        { timeoutMs: 20_000, everyMs: 100 },
      );

      for (const j of jobs) {
        const job = await h.publisher.queue(j.queue).getJob(j.jobId);
        const label = `${j.queue} ${j.what}`;
        expect(await job!.getState(), label).toBe('failed');
        // Not retried, though the job allowed five attempts: a bad payload is final.
        expect(job!.attemptsMade, label).toBe(1);
        expect(job!.opts.attempts).toBe(DEFAULT_JOB_OPTIONS.attempts);
        expect(job!.stacktrace?.[0], label).toMatch(/^UnrecoverableError: /);
        expect(job!.failedReason, label).toMatch(new RegExp(`^invalid ${j.queue.replace('.', '\\.')} payload: `));
        for (const field of j.fields)
          expect(namesField(job!.failedReason, field), `${label}: ${job!.failedReason}`).toBe(true);
        // The reason names the field; it does not echo megabytes of payload into Redis and the logs.
        expect(job!.failedReason.length, label).toBeLessThan(2000);
      }
      return { bytes: hostile.reduce((n, x) => n + x.json.length, 0) };
    };

    const ROUNDS = 3;
    const base = heldMemory();
    const rssBefore = process.memoryUsage().rss;
    resetPeakRss();
    const after: Array<{ heap: number; outside: number }> = [];
    let sent = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      sent += (await sendRound(round)).bytes;
      after.push(await settledMemory());
    }
    const peak = peakRss() - rssBefore;

    // Nothing reached the model, nothing was announced, nothing polluted the prototype.
    expect(fake.requests).toHaveLength(0);
    expect(await h.events()).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // Memory, after a full collection. A round puts about 40 MB of payloads
    // through the worker; parsed, they are strings in the heap, which grows
    // by 2 to 4 MiB (16 MiB allowed) after any round: nothing keeps them.
    // Outside the heap, the Redis reply parser keeps a buffer pool sized by
    // the largest reply (three times a 2 MB payload, shrunk on a timer) and
    // the sockets their buffers: 12 to 80 MiB measured after a round, and
    // 128 MiB allowed after the last, where a worker that kept what it
    // refused as buffers would hold the three rounds' 120 MB on top. The
    // peak rss holds this test's own copy of a round (JSON text and the
    // generated objects), at most 8 payloads in the worker at once, those
    // buffers and the heap's headroom: 384 MiB (about 240 measured).
    for (const [i, m] of after.entries()) expect(m.heap - base.heap, `round ${i + 1}`).toBeLessThan(16 * MiB);
    const last = after.at(-1)!;
    expect(last.heap + last.outside - base.heap - base.outside).toBeLessThan(128 * MiB);
    expect(sent).toBeGreaterThan(ROUNDS * 30 * MiB);
    expect(peak).toBeLessThan(384 * MiB);

    // The worker is still up: a valid job of each queue completes, a valid
    // payload that carries prototype keys is processed without them, and
    // lone surrogates in a text are classified as the data they are.
    const good = [
      await addRaw('hypothesis.saved', JSON.stringify({ hypothesisId: 'good', text: 'Weapon @@weapons@0.8@@' })),
      await addRaw('goal.submitted', JSON.stringify({ goalId: 'good', text: 'Map kinase networks.' })),
      await addRaw(
        'review.recorded',
        JSON.stringify({
          reviewId: 'good',
          hypothesisId: 'good',
          evidence: [{ claim: 'c', url: 'https://example.org/unseen', excerpt: 'e' }],
          seenUrls: [],
        }),
      ),
      await addRaw('report.finalized', JSON.stringify({ reportId: 'good', sections: [{ text: 'Fine.' }] })),
      await addRaw(
        'hypothesis.saved',
        '{"__proto__":{"polluted":"yes","revision":7},"constructor":{"prototype":{"polluted":"yes"}},"hypothesisId":"proto","text":"Benign."}',
      ),
      await addRaw('hypothesis.saved', JSON.stringify({ hypothesisId: 'odd', text: 'Half \ud800 a pair \udfff.' })),
    ];
    const goodQueues: QueueName[] = [...QUEUES, 'hypothesis.saved', 'hypothesis.saved'];
    for (const [i, jobId] of good.entries()) await h.waitForJob(goodQueues[i]!, jobId, 'completed', 15_000);
    const proto = await h.publisher.queue('hypothesis.saved').getJob(good[4]!);
    expect(proto!.returnvalue).toMatchObject({ hypothesisId: 'proto', revision: 0, verdict: { action: 'allow' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // Only the valid jobs' events, each once.
    const events = await h.events();
    expect(events.map((e) => e.eventId).sort()).toEqual(
      [
        'hypothesis_assessed/good/r0',
        'hypothesis_blocked/good/r0',
        'hypothesis_assessed/proto/r0',
        'hypothesis_assessed/odd/r0',
        `goal_assessed/good/${eventDigest('Map kinase networks.')}`,
        'citation_unverified/good/r0/0',
        'review_verified/good/r0',
        'report_cleared/good/r0',
      ].sort(),
    );
    // One model call for each valid job that is classified: three hypotheses, the goal, the report.
    expect(fake.requests).toHaveLength(5);
    // (Each lone surrogate reaches the model as U+FFFD.)
    expect(fake.requests.filter((r) => /Half \uFFFD a pair \uFFFD\./.test(r.text))).toHaveLength(1);
  }, 60_000);

  it('fails a job whose data is not JSON at once, keeps its text, and goes on', async () => {
    // What a publisher that builds its JSON by hand, or writes the job hash
    // itself, can leave in Redis: BullMQ cannot even read such a job.
    const texts = [
      '{not json',
      '{"hypothesisId":"cut","text":"trunc',
      "{'single': 'quotes'}",
      'undefined',
      '\u0000\xff',
    ];
    const errors: string[] = [];
    const onError = (err: Error) => errors.push(err.message);
    for (const q of QUEUES) h.runtime.workers.get(q)!.on('error', onError);
    const eventsBefore = (await h.events()).length;
    const requestsBefore = fake.requests.length;
    try {
      const bad: Array<{ queue: QueueName; jobId: string; text: string }> = [];
      const good: Array<{ queue: QueueName; jobId: string }> = [];
      for (const [k, text] of texts.entries()) {
        for (const queue of QUEUES) {
          bad.push({ queue, text, jobId: await addRaw(queue, text) });
          // A valid job right behind each, so a worker that finishes one job
          // and is handed the next in the same call meets the bad one there too.
          if (queue === 'hypothesis.saved') {
            const json = JSON.stringify({ hypothesisId: `after-${k}`, text: `Benign, number ${k}.` });
            good.push({ queue, jobId: await addRaw(queue, json) });
          }
        }
      }
      const started = Date.now();
      await until(
        `${bad.length} jobs with non-JSON data failed`,
        async () => {
          for (const { queue, jobId } of bad)
            if ((await h.publisher.queue(queue).getJobState(jobId)) !== 'failed') return false;
          return true;
        },
        { timeoutMs: 5_000, everyMs: 100 },
      );
      const seconds = (Date.now() - started) / 1000;
      for (const { queue, jobId, text } of bad) {
        const label = `${queue} ${JSON.stringify(text)}`;
        // Still readable by any BullMQ client (getJob, dashboards), with the text as it was written.
        const job = await h.publisher.queue(queue).getJob(jobId);
        expect(job!.data, label).toBe(text);
        expect(job!.failedReason, label).toMatch(/^job data is not JSON: /);
        expect(job!.failedReason.length, label).toBeLessThan(300);
        expect(job!.stacktrace?.[0], label).toMatch(/^UnrecoverableError: job data is not JSON/);
        expect(job!.attemptsMade, label).toBe(1);
      }
      for (const { queue, jobId } of good) await h.waitForJob(queue, jobId, 'completed', 10_000);
      // Nothing announced and no model call for the bad ones; the good ones were classified.
      const events = (await h.events()).slice(eventsBefore);
      expect(events.map((e) => e.eventId).sort()).toEqual(
        good.map((_, k) => `hypothesis_assessed/after-${k}/r0`).sort(),
      );
      expect(fake.requests.length - requestsBefore).toBe(good.length);
      // Failed as a job, not reported as a fault of the worker.
      expect(errors).toEqual([]);
      expect(seconds).toBeLessThan(5);
      for (const q of QUEUES) expect(h.runtime.workers.get(q)!.isRunning(), q).toBe(true);
    } finally {
      for (const q of QUEUES) h.runtime.workers.get(q)!.off('error', onError);
    }
  });

  // A fault in src/contracts/payloads.ts: the Id schema admits lone
  // surrogates, but ids are percent-encoded into keys and event ids
  // (encodeURIComponent throws URIError on them). Such a job passes
  // validation, then fails with "URI malformed", a reason that names no
  // field, as a recoverable error: it is retried (five attempts by default)
  // instead of failing for good. The publisher throws the same URIError
  // instead of a PayloadError. Marked as failing until ids refuse them; it
  // then passes, and `.fails` must go.
  it('fails an id with a lone surrogate at once, naming the field', async () => {
    const cases: Array<[QueueName, string, string]> = [
      ['hypothesis.saved', 'hypothesisId', JSON.stringify({ hypothesisId: 'h\ud800', text: 't' })],
      ['goal.submitted', 'goalId', JSON.stringify({ goalId: 'g\udfff', text: 't' })],
      ['review.recorded', 'reviewId', JSON.stringify({ reviewId: '\udc00r', hypothesisId: 'h', evidence: [] })],
      ['report.finalized', 'reportId', JSON.stringify({ reportId: 'r\ud83d', sections: [{ text: 't' }] })],
    ];
    const added = [];
    for (const [queue, field, json] of cases) added.push({ queue, field, jobId: await addRaw(queue, json) });
    for (const { queue, field, jobId } of added) {
      const q = h.publisher.queue(queue);
      // Failed for good, or delayed for a retry: either way no longer waiting or running.
      await until(
        `${jobId} processed`,
        async () => ['failed', 'delayed', 'completed'].includes(await (await q.getJob(jobId))!.getState()),
        { timeoutMs: 10_000, everyMs: 100 },
      );
      const job = await q.getJob(jobId);
      expect({ state: await job!.getState(), attemptsMade: job!.attemptsMade }).toEqual({
        state: 'failed',
        attemptsMade: 1,
      });
      expect(job!.failedReason).toContain(`${field}: `);
    }
  });
});
