/**
 * Reliability under faults: the model misbehaves in bursts while a hundred
 * hypotheses flow through two real workers (two pods sharing one queue).
 * The loopback Messages API answers by request index: healthy stretches
 * between bursts of 429 with retry-after, 529 overloaded with
 * retry-after-ms, 500, requests that hang past `anthropic.timeout_ms`,
 * connections closed mid-request, and malformed tool input. Jobs that
 * meet a burst's edge ride it out by retrying; jobs inside it exhaust
 * their retry budget. A few texts fail every time, one way each, so that
 * every kind of failure is seen to run a budget out.
 *
 * Nothing may be lost (every job completes, once), nothing duplicated (each
 * event id appears once), nothing silently passed as safe (every degraded
 * verdict quarantines and says so), and the retry policy of
 * docs/classifier.md holds request by request.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import type { HypothesisResult } from '../../src/contracts/results.js';
import type { Action } from '../../src/safety/classification/verdict.js';
import type { StreamEvent } from '../../src/events/reader.js';
import {
  apiError,
  markerHandler,
  startFakeAnthropic,
  toolUse,
  type FakeAnthropic,
  type FakeRequest,
  type Reply,
} from '../support/fake-anthropic.js';
import { testConfig } from '../support/config.js';
import { startHarness, type Harness } from '../support/pipeline.js';
import { until } from '../support/poll.js';

const JOBS = 100;
const MAX_RETRIES = 3;
/**
 * A hanging request is given up after this: short, so a hang burst passes in
 * a few seconds, yet long enough that an answer this busy process (two
 * runtimes and the server in one event loop) is slow to hand over is not
 * taken for a hang: at 400 ms, answers at start-up were.
 */
const TIMEOUT_MS = 1500;
/** What each 429 asks: that job must not go to the model again sooner. */
const RETRY_AFTER_MS = 1000;
/** What each 529 asks, above what the backoff alone waits here (at most 40 ms). */
const OVERLOADED_RETRY_AFTER_MS = 150;
/** anthropic.retry_max_delay_ms: above both, so each wait is the server's. */
const MAX_DELAY_MS = 1000;
/** Date.now() granularity and Redis PX rounding; nothing else may make a wait shorter. */
const CLOCK_TOLERANCE_MS = 20;

type Fault = '429' | '529' | '500' | 'hang' | 'destroy' | 'malformed';
type Served = Fault | 'ok';

/**
 * The bursts, by request index, repeated for as long as requests come. At
 * most 16 jobs are in flight (two workers, concurrency 8) and a job spends
 * at most 1 + max_retries = 4 requests in a row, so a burst of 32 exhausts
 * some budgets while the jobs that meet its edges recover; the healthy
 * stretches let the jobs in flight finish before the next burst.
 */
const SCHEDULE: ReadonlyArray<readonly [Served, number]> = [
  ['ok', 12],
  ['429', 6],
  ['ok', 12],
  ['500', 32],
  ['ok', 12],
  ['hang', 32],
  ['ok', 12],
  ['529', 32],
  ['ok', 12],
  ['destroy', 32],
  ['ok', 12],
  ['malformed', 32],
];
const CYCLE = SCHEDULE.reduce((n, [, length]) => n + length, 0);

function servedAt(index: number): Served {
  let at = index % CYCLE;
  for (const [kind, length] of SCHEDULE) {
    if (at < length) return kind;
    at -= length;
  }
  throw new Error('unreachable');
}

/** The reply of each fault, and the failure kind (and degraded reason) the client must see for it. */
const FAULTS: Record<Fault, { reply: () => Reply; outcome: string }> = {
  '429': {
    reply: () => apiError(429, 'rate_limit_error', { 'retry-after': String(RETRY_AFTER_MS / 1000) }),
    outcome: 'rate_limited',
  },
  '529': {
    reply: () => apiError(529, 'overloaded_error', { 'retry-after-ms': String(OVERLOADED_RETRY_AFTER_MS) }),
    outcome: 'overloaded',
  },
  '500': { reply: () => apiError(500, 'api_error'), outcome: 'server_error' },
  hang: { reply: () => 'hang', outcome: 'timeout' },
  destroy: { reply: () => 'destroy', outcome: 'connection_error' },
  // A tool call whose input breaks the schema: an error, never an assessment.
  malformed: { reply: () => toolUse({ categories: 'none', confidence: 7 }), outcome: 'malformed_output' },
};

interface Case {
  n: number;
  id: string;
  text: string;
  /** The action of a clean assessment of the text. */
  expected: Action;
  /** A text the model fails on every time, this way, whatever the burst: its budget must run out. */
  doomed?: Exclude<Fault, '429'>;
}

const DOOMED: Array<Exclude<Fault, '429'>> = ['500', 'hang', '529', 'destroy', 'malformed'];

const MARKERS: Array<[string, Action]> = [
  ['', 'allow'],
  [' @@cbrn@0.9@@', 'block'],
  ['', 'allow'],
  [' @@dual_use_bio@0.8@@', 'quarantine'],
  ['', 'allow'],
  [' @@dual_use_bio@0.3@@', 'warn'],
  ['', 'allow'],
  [' @@weapons@0.7@@', 'block'],
];

const CASES: Case[] = Array.from({ length: JOBS }, (_, n) => {
  const [marker, expected] = MARKERS[n % MARKERS.length]!;
  const tag = String(n).padStart(3, '0');
  return {
    n,
    id: `h-${tag}`,
    text: `Hypothesis case-${tag}: kinase ${n * 7} phosphorylates substrate ${n * 13} under stress ${n % 5}.${marker}`,
    expected,
    // Every tenth text, two of each kind: bursts alone exhaust budgets on
    // some kinds only (a hang burst drains slowly), and each must be seen to.
    ...(n % 10 === 9 ? { doomed: DOOMED[Math.floor(n / 10) % DOOMED.length]! } : {}),
  };
});

function caseOf(req: FakeRequest): Case {
  const m = /case-(\d{3})/.exec(req.text);
  if (!m) throw new Error(`a request for no known case: ${req.text.slice(0, 120)}`);
  return CASES[Number(m[1])]!;
}

let fake: FakeAnthropic;
/** What the server answered to each request, by request index. */
const served: Served[] = [];
const harnesses: Harness[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  // Both runtimes stop before either deletes the keys they share.
  const stopping = harnesses.splice(0);
  await Promise.all(stopping.map((h) => h.runtime.shutdown('test')));
  for (const h of stopping) await h.stop();
  fake.requests.length = 0;
  served.length = 0;
  fake.setHandler(markerHandler);
});
afterAll(async () => {
  await fake.close();
});

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** Requests per outcome as the workers counted them (both runtimes). */
async function clientOutcomes(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const h of harnesses) {
    for (const { labels, value } of (await h.runtime.metrics.classifierRequests.get()).values) {
      const outcome = String(labels.outcome);
      counts.set(outcome, (counts.get(outcome) ?? 0) + value);
    }
  }
  return counts;
}

describe('model faults under load', () => {
  it('loses, duplicates and passes nothing while the model fails in bursts', async () => {
    fake.setHandler((req, index) => {
      const kind = caseOf(req).doomed ?? servedAt(index);
      served[index] = kind;
      return kind === 'ok' ? markerHandler(req, index) : FAULTS[kind].reply();
    });
    const config = testConfig(fake.url, {
      worker: { concurrency: 8 },
      anthropic: {
        timeout_ms: TIMEOUT_MS,
        max_retries: MAX_RETRIES,
        retry_base_delay_ms: 10,
        retry_max_delay_ms: MAX_DELAY_MS,
      },
    });
    expect(config.safety.classifier_on_error).toBe('quarantine');
    harnesses.push(await startHarness(config), await startHarness(config));
    const [h] = harnesses as [Harness, Harness];
    const queue = h.publisher.queue('hypothesis.saved');

    await Promise.all(CASES.map((c) => h.publisher.publishHypothesisSaved({ hypothesisId: c.id, text: c.text })));
    await until(`${JOBS} jobs completed`, async () => (await queue.getJobCounts('completed')).completed === JOBS, {
      timeoutMs: 50_000,
      everyMs: 100,
    });

    // Nothing lost, nothing retried as a whole: each job completed on its
    // first attempt, run once (a 429 is waited out inside the job).
    const jobs = new Map<string, Job>();
    for (const c of CASES) {
      const job = await queue.getJob(`hypothesis.${c.id}.r0`);
      expect(job, c.id).toBeDefined();
      expect(await job!.getState(), c.id).toBe('completed');
      expect(job!.attemptsMade, c.id).toBe(1);
      expect(job!.attemptsStarted, c.id).toBe(1);
      jobs.set(c.id, job!);
    }
    expect(await queue.getJobCounts('failed', 'wait', 'active', 'delayed')).toEqual({
      failed: 0,
      wait: 0,
      active: 0,
      delayed: 0,
    });

    // Every job has completed, and a job emits its events before it completes.
    const events: StreamEvent[] = await h.events();
    const byEventId = countBy(events, (e) => e.eventId);
    expect([...byEventId].filter(([, n]) => n > 1)).toEqual([]);

    const requests = fake.requests.map((req, index) => ({ req, index, kind: served[index]!, c: caseOf(req) }));
    const perCase = new Map<string, typeof requests>();
    for (const r of requests) perCase.set(r.c.id, [...(perCase.get(r.c.id) ?? []), r]);

    const expectedEventIds = new Set<string>();
    const degradedReasons = new Set<string>();
    let degradedInBursts = 0;
    let recovered = 0;
    for (const c of CASES) {
      const { verdict } = jobs.get(c.id)!.returnvalue as HypothesisResult;
      const mine = perCase.get(c.id) ?? [];
      expect(mine.length, `${c.id} reached the model`).toBeGreaterThan(0);

      // The retry budget: every retryable failure, a 429 included, is
      // retried at most max_retries times, then the verdict is degraded.
      expect(mine.length, c.id).toBeLessThanOrEqual(1 + MAX_RETRIES);
      const final = mine.at(-1)!;

      // Waits: after a 429, the job waits what retry-after asked; after a
      // 529, the backoff is at least its retry-after-ms (both under the bound).
      for (let i = 0; i + 1 < mine.length; i++) {
        const gap = mine[i + 1]!.req.at - mine[i]!.req.at;
        if (mine[i]!.kind === '429')
          expect(gap, `${c.id} after a 429`).toBeGreaterThanOrEqual(RETRY_AFTER_MS - CLOCK_TOLERANCE_MS);
        if (mine[i]!.kind === '529')
          expect(gap, `${c.id} after a 529`).toBeGreaterThanOrEqual(OVERLOADED_RETRY_AFTER_MS - CLOCK_TOLERANCE_MS);
      }

      if (c.doomed) {
        // Exactly the budget, then degraded: no fewer tries, no more.
        expect(
          mine.map((r) => r.kind),
          c.id,
        ).toEqual(Array.from({ length: 1 + MAX_RETRIES }, () => c.doomed));
        expect(verdict.degraded, c.id).toBe(true);
      }
      if (verdict.degraded) {
        if (!c.doomed) degradedInBursts++;
        // Fail closed: degraded means quarantined, with nothing claimed.
        expect(verdict, c.id).toMatchObject({ action: 'quarantine', categories: [], degraded: true });
        // Degraded only once the whole budget went on retryable failures,
        // and it names the failure that ended it.
        expect(mine.length, `${c.id} degraded before its budget was spent`).toBe(1 + MAX_RETRIES);
        expect(
          mine.every((r) => r.kind !== 'ok'),
          c.id,
        ).toBe(true);
        expect(verdict.reason, c.id).toBe(FAULTS[final.kind as Fault].outcome);
        expectedEventIds.add(`classifier_degraded/${c.id}/r0`);
        degradedReasons.add(verdict.reason!);
      } else {
        // A clean verdict comes from an assessment the model really gave.
        expect(final.kind, c.id).toBe('ok');
        expect(verdict.action, c.id).toBe(c.expected);
        if (mine.length > 1) recovered++;
      }
      // Whatever happened, a marked text never passes.
      if (c.expected !== 'allow') expect(verdict.action, c.id).not.toBe('allow');
      expect(verdict.action === 'allow' && verdict.degraded, c.id).toBe(false);

      expectedEventIds.add(`hypothesis_assessed/${c.id}/r0`);
      const specific = {
        allow: undefined,
        warn: 'hypothesis_flagged',
        quarantine: 'hypothesis_quarantined',
        block: 'hypothesis_blocked',
      }[verdict.action];
      if (specific) expectedEventIds.add(`${specific}/${c.id}/r0`);

      // The events carry the verdict the job returned.
      const assessed = events.find((e) => e.eventId === `hypothesis_assessed/${c.id}/r0`);
      expect(assessed?.data, c.id).toMatchObject({ action: verdict.action, degraded: verdict.degraded });
      if (verdict.degraded) {
        const degradedEvent = events.find((e) => e.eventId === `classifier_degraded/${c.id}/r0`);
        expect(degradedEvent?.data, c.id).toMatchObject({ action: 'quarantine', reason: verdict.reason });
      }
    }
    // Exactly the events the verdicts call for, each once.
    expect(new Set(byEventId.keys())).toEqual(expectedEventIds);
    expect(events).toHaveLength(expectedEventIds.size);

    // Every request the server saw, the workers counted, as the failure it was:
    // a hang as a timeout, a closed connection as a connection error, and so on.
    const server = countBy(requests, (r) => (r.kind === 'ok' ? 'ok' : FAULTS[r.kind].outcome));
    expect(await clientOutcomes()).toEqual(server);

    // The run really went through every kind of fault, both ways out: bursts
    // exhausted some budgets and were ridden out by other jobs. No text is
    // doomed to 429s, and a burst of 6 rarely spends a whole budget: that
    // reason may or may not be seen.
    for (const kind of Object.keys(FAULTS)) expect(served, kind).toContain(kind);
    expect([...degradedReasons].filter((r) => r !== 'rate_limited').sort()).toEqual(
      Object.values(FAULTS)
        .map((f) => f.outcome)
        .filter((o) => o !== 'rate_limited')
        .sort(),
    );
    expect(degradedInBursts).toBeGreaterThan(0);
    expect(recovered).toBeGreaterThan(0);
  }, 60_000);

  // Anthropic sends different retry-after values for different limits
  // (requests, input and output tokens), so 429s of different waits come in
  // a burst. Each is waited out by the job that met it: a later, shorter
  // wait neither cuts short an earlier, longer one (as a queue-wide limit,
  // last writer wins, once did), nor is the longer one imposed on the other
  // job, on another worker.
  it('waits each 429 in its own job: a shorter retry-after neither cuts short nor waits for a longer one', async () => {
    let releaseA!: () => void;
    const bArrived = new Promise<void>((resolve) => (releaseA = resolve));
    let aLimited!: () => void;
    const aLimitedNow = new Promise<void>((resolve) => (aLimited = resolve));
    let aLimitedAt = 0;
    let bLimitedAt = 0;
    const firsts = new Set<string>();
    fake.setHandler(async (req, index) => {
      const id = /case-(a|b)/.exec(req.text)?.[1];
      const first = id !== undefined && !firsts.has(id);
      if (id) firsts.add(id);
      if (first && id === 'a') {
        // Held until b is in flight on the other worker, then asked to wait 3 s.
        await bArrived;
        aLimitedAt = Date.now();
        aLimited();
        return apiError(429, 'rate_limit_error', { 'retry-after': '3' });
      }
      if (first && id === 'b') {
        releaseA();
        // b's shorter wait comes after a's longer one.
        await aLimitedNow;
        bLimitedAt = Date.now();
        return apiError(429, 'rate_limit_error', { 'retry-after-ms': '100' });
      }
      return markerHandler(req, index);
    });
    const config = testConfig(fake.url, { worker: { concurrency: 1 }, anthropic: { retry_max_delay_ms: 5000 } });
    harnesses.push(await startHarness(config), await startHarness(config));
    const [h] = harnesses as [Harness, Harness];
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'a', text: 'Hypothesis case-a.' });
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'b', text: 'Hypothesis case-b.' });
    await h.waitForJob('hypothesis.saved', 'hypothesis.a.r0', 'completed', 15_000);
    await h.waitForJob('hypothesis.saved', 'hypothesis.b.r0', 'completed', 15_000);
    const a = fake.requests.filter((r) => r.text.includes('case-a'));
    const b = fake.requests.filter((r) => r.text.includes('case-b'));
    expect(a).toHaveLength(2);
    expect(b).toHaveLength(2);
    expect(a[1]!.at - aLimitedAt).toBeGreaterThanOrEqual(3000 - CLOCK_TOLERANCE_MS);
    expect(b[1]!.at - bLimitedAt).toBeGreaterThanOrEqual(100 - CLOCK_TOLERANCE_MS);
    // b went on after its own wait, while a still waited for its.
    expect(b[1]!.at).toBeLessThan(a[1]!.at);
  });
});
