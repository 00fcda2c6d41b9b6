/**
 * Answers of the Messages API that the classifier cannot trust, end to end:
 * real BullMQ workers, the real SDK, a loopback Messages API. Whatever the
 * answer (two assessments, a 200 whose body is not a message, a stop reason
 * other than `tool_use`), the job completes with a degraded verdict that
 * fails closed, a `classifier_degraded` event and the reason in
 * `cosci_safety_classifier_degraded_total`; never `allow`, never a job that
 * ends with no verdict. And what the server asks a client to wait
 * (`retry-after`) is bounded by `anthropic.retry_max_delay_ms`: one answer
 * slows its own job, never the queue.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import type { GoalResult, HypothesisResult } from '../../src/contracts/results.js';
import type { Action, DegradedReason } from '../../src/safety/classification/verdict.js';
import { runMain } from '../support/cli.js';
import {
  apiError,
  assessmentCall,
  markerHandler,
  message,
  type FakeRequest,
  type Reply,
} from '../support/fake-anthropic.js';
import type { Harness } from '../support/pipeline.js';
import { pipelinesWithFakeModel } from '../support/pipeline.js';
import { until } from '../support/poll.js';

const model = pipelinesWithFakeModel();
const MAX_RETRIES = 2;
const anthropic = { max_retries: MAX_RETRIES, retry_base_delay_ms: 10, retry_max_delay_ms: 50 };

interface Case {
  reply: () => Reply;
  reason: DegradedReason;
  /** The verdict's action under the default `classifier_on_error` (quarantine). */
  action: Action;
  categories: string[];
  /** Requests the case makes: 1 when the answer is not asked again, the whole budget when it is. */
  requests: number;
}

const sse = [
  'event: message_start',
  'data: {"type":"message_start","message":{"id":"msg_x","type":"message","role":"assistant","content":[]}}',
  '',
  'event: message_stop',
  'data: {"type":"message_stop"}',
  '',
  '',
].join('\n');
const budget = 1 + MAX_RETRIES;

/** Each answer, chosen by the `answer-<name>` tag in the hypothesis text. */
const CASES: Record<string, Case> = {
  // Two record_safety_assessment calls: the most severe is taken, and the verdict is degraded.
  'two-calls-none-first': {
    reply: () => message([assessmentCall(['none'], 0.99), assessmentCall(['cbrn'], 0.9)]),
    reason: 'multiple_assessments',
    action: 'block',
    categories: ['cbrn'],
    requests: 1,
  },
  'two-calls-cbrn-first': {
    reply: () => message([assessmentCall(['cbrn'], 0.9), assessmentCall(['none'], 0.99)]),
    reason: 'multiple_assessments',
    action: 'block',
    categories: ['cbrn'],
    requests: 1,
  },
  'two-calls-both-none': {
    reply: () => message([assessmentCall(['none'], 0.99), assessmentCall(['none'], 0.95)]),
    reason: 'multiple_assessments',
    action: 'quarantine',
    categories: [],
    requests: 1,
  },
  // A 200 whose body is not a message: retried (a proxy's page may pass), then degraded.
  html: {
    reply: () => ({
      status: 200,
      headers: { 'content-type': 'text/html' },
      raw: '<html><body>Service temporarily unavailable</body></html>',
    }),
    reason: 'invalid_response',
    action: 'quarantine',
    categories: [],
    requests: budget,
  },
  'event-stream': {
    reply: () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, raw: sse }),
    reason: 'invalid_response',
    action: 'quarantine',
    categories: [],
    requests: budget,
  },
  'empty-object': {
    reply: () => ({ status: 200, body: {} }),
    reason: 'invalid_response',
    action: 'quarantine',
    categories: [],
    requests: budget,
  },
  'no-content': {
    reply: () => {
      const reply = message([assessmentCall(['none'], 0.99)]) as { body: Record<string, unknown> };
      delete reply.body.content;
      return reply;
    },
    reason: 'invalid_response',
    action: 'quarantine',
    categories: [],
    requests: budget,
  },
  'cut-json': {
    reply: () => ({ status: 200, raw: '{"id":"msg_1","type":"message","content":[{"type":"tool_use"' }),
    reason: 'invalid_response',
    action: 'quarantine',
    categories: [],
    requests: budget,
  },
  'json-null': {
    reply: () => ({ status: 200, raw: 'null' }),
    reason: 'invalid_response',
    action: 'quarantine',
    categories: [],
    requests: budget,
  },
  // A stop reason other than tool_use: not asked again, degraded at once.
  'max-tokens': {
    reply: () =>
      message([{ type: 'tool_use', id: 'toolu_cut', name: 'record_safety_assessment', input: {} }], {
        stopReason: 'max_tokens',
      }),
    reason: 'unexpected_stop',
    action: 'quarantine',
    categories: [],
    requests: 1,
  },
  // A call that is whole despite the stop reason still counts: the cut answer never lowers the action.
  'max-tokens-flagged': {
    reply: () => message([assessmentCall(['cbrn'], 0.9)], { stopReason: 'max_tokens' }),
    reason: 'unexpected_stop',
    action: 'block',
    categories: ['cbrn'],
    requests: 1,
  },
  'end-turn': {
    reply: () => message([{ type: 'text', text: 'This text is fine.' }], { stopReason: 'end_turn' }),
    reason: 'unexpected_stop',
    action: 'quarantine',
    categories: [],
    requests: 1,
  },
  'end-turn-with-call': {
    reply: () => message([assessmentCall(['none'], 0.99)], { stopReason: 'end_turn' }),
    reason: 'unexpected_stop',
    action: 'quarantine',
    categories: [],
    requests: 1,
  },
  'no-stop-reason': {
    reply: () => message([assessmentCall(['none'], 0.99)], { stopReason: null }),
    reason: 'unexpected_stop',
    action: 'quarantine',
    categories: [],
    requests: 1,
  },
};

function caseOf(req: FakeRequest): string | undefined {
  return /answer-([a-z-]+)/.exec(req.text)?.[1];
}

/** Answers by the text's tag; text with no tag gets the marker handler's answer. */
function answers(req: FakeRequest, index: number): Reply | Promise<Reply> {
  const name = caseOf(req);
  return name && CASES[name] ? CASES[name].reply() : markerHandler(req, index);
}

/** What the worker's metrics counted, by label value. */
async function counted(h: Harness, metric: 'classifierDegraded' | 'classifierRequests'): Promise<Map<string, number>> {
  const values = (await h.runtime.metrics[metric].get()).values as Array<{
    labels: Record<string, string | number | undefined>;
    value: number;
  }>;
  return new Map(values.map((v) => [String(v.labels.reason ?? v.labels.outcome), v.value]));
}

function expectDegraded(verdict: HypothesisResult['verdict'], c: Case, name: string): void {
  expect(verdict, name).toMatchObject({
    degraded: true,
    reason: c.reason,
    action: c.action,
    categories: c.categories,
    cached: false,
  });
  expect(verdict.action, name).not.toBe('allow');
}

describe('answers the classifier cannot trust', () => {
  it('give each hypothesis a degraded verdict that fails closed, an event and a metric reason', async () => {
    model.fake.setHandler(answers);
    const h = await model.harness({ anthropic });
    const queue = h.publisher.queue('hypothesis.saved');
    const names = Object.keys(CASES);
    for (const name of names)
      await h.publisher.publishHypothesisSaved({ hypothesisId: name, text: `Hypothesis answer-${name}.` });
    await until(
      `${names.length} jobs completed`,
      async () => (await queue.getJobCounts('completed')).completed === names.length,
      { timeoutMs: 20_000, everyMs: 50 },
    );

    const events = await h.events();
    for (const name of names) {
      const c = CASES[name]!;
      const job = (await queue.getJob(`hypothesis.${name}.r0`)) as Job;
      // Completed on its first attempt, with a verdict.
      expect(job.attemptsMade, name).toBe(1);
      const { verdict } = job.returnvalue as HypothesisResult;
      expectDegraded(verdict, c, name);
      expect(
        model.fake.requests.filter((r) => caseOf(r) === name),
        name,
      ).toHaveLength(c.requests);

      const mine = events.filter((e) => (e.data as { hypothesisId?: string; id?: string }).hypothesisId === name);
      const degraded = events.find((e) => e.eventId === `classifier_degraded/${name}/r0`);
      expect(degraded?.data, name).toMatchObject({
        target: 'hypothesis',
        id: name,
        reason: c.reason,
        action: c.action,
      });
      const specific = c.action === 'block' ? 'hypothesis_blocked' : 'hypothesis_quarantined';
      expect(
        mine.map((e) => e.type),
        name,
      ).toEqual(['hypothesis_assessed', specific]);
      expect(mine[0]!.data, name).toMatchObject({ degraded: true, reason: c.reason, action: c.action });
    }

    // The reason of each degraded verdict, counted once per verdict.
    const reasons = new Map<string, number>();
    for (const c of Object.values(CASES)) reasons.set(c.reason, (reasons.get(c.reason) ?? 0) + 1);
    expect(await counted(h, 'classifierDegraded')).toEqual(reasons);
    // And each request under the failure it was.
    const outcomes = new Map<string, number>();
    for (const c of Object.values(CASES)) outcomes.set(c.reason, (outcomes.get(c.reason) ?? 0) + c.requests);
    expect(await counted(h, 'classifierRequests')).toEqual(outcomes);
  }, 30_000);

  it('give goals and final reports a degraded verdict too, with its event', async () => {
    model.fake.setHandler(answers);
    const h = await model.harness({ anthropic });
    const goal = await h.publisher.submitGoal(
      { goalId: 'g-two', text: 'Goal answer-two-calls-none-first.' },
      { wait: true, timeoutMs: 15_000 },
    );
    expectDegraded((goal as GoalResult).verdict, CASES['two-calls-none-first']!, 'goal');

    const report = await h.publisher.finalizeReport(
      { reportId: 'rep-html', sections: [{ text: 'Findings answer-html.' }] },
      { wait: true, timeoutMs: 15_000 },
    );
    expectDegraded(report.verdict!, CASES.html!, 'report');
    // A report its own verdict holds is not published.
    expect(report).toMatchObject({ outcome: 'blocked', publishable: false, blockedBy: 'report_verdict' });

    const report2 = await h.publisher.finalizeReport(
      { reportId: 'rep-cut', sections: [{ text: 'Findings answer-max-tokens.' }] },
      { wait: true, timeoutMs: 15_000 },
    );
    expectDegraded(report2.verdict!, CASES['max-tokens']!, 'report');

    const degraded = (await h.events()).filter((e) => e.type === 'classifier_degraded').map((e) => e.data);
    expect(degraded).toEqual([
      expect.objectContaining({ target: 'goal', id: 'g-two', reason: 'multiple_assessments', action: 'block' }),
      expect.objectContaining({ target: 'report', id: 'rep-html', reason: 'invalid_response', action: 'quarantine' }),
      expect.objectContaining({ target: 'report', id: 'rep-cut', reason: 'unexpected_stop', action: 'quarantine' }),
    ]);
    expect(await counted(h, 'classifierDegraded')).toEqual(
      new Map([
        ['multiple_assessments', 1],
        ['invalid_response', 1],
        ['unexpected_stop', 1],
      ]),
    );
  }, 30_000);
});

/** Date.now() granularity; nothing else may make a wait shorter. */
const CLOCK_TOLERANCE_MS = 20;
/** The bound the retry-after tests configure: well above the backoff (at most 40 ms here). */
const BOUND_MS = 300;

describe('retry-after is bounded by anthropic.retry_max_delay_ms', () => {
  it('a 503 that asks for days is retried after the bound, and the job gets its verdict', async () => {
    model.fake.setHandler(() => apiError(503, 'api_error', { 'retry-after': '999999' }));
    const h = await model.harness({ anthropic: { ...anthropic, retry_max_delay_ms: BOUND_MS } });
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'h-503', text: 'Kinase X phosphorylates Y.' });
    await h.waitForJob('hypothesis.saved', 'hypothesis.h-503.r0', 'completed', 15_000);
    const job = (await h.publisher.queue('hypothesis.saved').getJob('hypothesis.h-503.r0')) as Job;
    expect((job.returnvalue as HypothesisResult).verdict).toMatchObject({
      degraded: true,
      reason: 'server_error',
      action: 'quarantine',
    });
    const at = model.fake.requests.map((r) => r.at);
    expect(at).toHaveLength(budget);
    // Each wait is the bound: more than the backoff alone, and what a retry-after past it is cut to.
    for (let i = 1; i < at.length; i++)
      expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(BOUND_MS - CLOCK_TOLERANCE_MS);
  }, 30_000);

  it('a 429 that asks for an hour slows only its own job, for the bound', async () => {
    const LONG_BOUND_MS = 2000;
    let limitedAt = 0;
    let limited = false;
    model.fake.setHandler((req, index) => {
      if (req.text.includes('case-a') && !limited) {
        limited = true;
        limitedAt = Date.now();
        return apiError(429, 'rate_limit_error', { 'retry-after': '3600' });
      }
      return markerHandler(req, index);
    });
    const h = await model.harness({
      worker: { concurrency: 2 },
      anthropic: { ...anthropic, retry_max_delay_ms: LONG_BOUND_MS },
    });
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'a', text: 'Hypothesis case-a.' });
    await until('a rate-limited', () => limited, { timeoutMs: 10_000, everyMs: 10 });
    // Published after a's 429: the queue goes on while a waits.
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'b', text: 'Hypothesis case-b @@cbrn@0.9@@.' });
    await h.waitForJob('hypothesis.saved', 'hypothesis.b.r0', 'completed', 15_000);
    await h.waitForJob('hypothesis.saved', 'hypothesis.a.r0', 'completed', 15_000);

    const a = model.fake.requests.filter((r) => r.text.includes('case-a'));
    const b = model.fake.requests.filter((r) => r.text.includes('case-b'));
    expect(a).toHaveLength(2);
    expect(b).toHaveLength(1);
    // b was classified while a waited; a waited the bound, not the hour, and not less.
    expect(b[0]!.at).toBeLessThan(a[1]!.at);
    expect(a[1]!.at - limitedAt).toBeGreaterThanOrEqual(LONG_BOUND_MS - CLOCK_TOLERANCE_MS);
    const queue = h.publisher.queue('hypothesis.saved');
    const jobA = (await queue.getJob('hypothesis.a.r0')) as Job;
    expect((jobA.returnvalue as HypothesisResult).verdict).toMatchObject({ degraded: false, action: 'allow' });
    expect((((await queue.getJob('hypothesis.b.r0')) as Job).returnvalue as HypothesisResult).verdict.action).toBe(
      'block',
    );
  }, 30_000);

  it('a job answered only 429s gets a degraded verdict once its budget is spent', async () => {
    model.fake.setHandler(() => apiError(429, 'rate_limit_error', { 'retry-after': '3600' }));
    const h = await model.harness({ anthropic: { ...anthropic, retry_max_delay_ms: BOUND_MS } });
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'h-429', text: 'Kinase X phosphorylates Y.' });
    await h.waitForJob('hypothesis.saved', 'hypothesis.h-429.r0', 'completed', 15_000);
    const job = (await h.publisher.queue('hypothesis.saved').getJob('hypothesis.h-429.r0')) as Job;
    expect((job.returnvalue as HypothesisResult).verdict).toMatchObject({
      degraded: true,
      reason: 'rate_limited',
      action: 'quarantine',
    });
    expect(model.fake.requests).toHaveLength(budget);
    const events = await h.events();
    expect(events.find((e) => e.type === 'classifier_degraded')?.data).toMatchObject({ reason: 'rate_limited' });
    expect(await counted(h, 'classifierDegraded')).toEqual(new Map([['rate_limited', 1]]));
  }, 30_000);
});

describe('the one-off classify command', () => {
  function classify(retryMaxDelayMs: number, text: string) {
    const file = join(mkdtempSync(join(tmpdir(), 'cosci-classify-')), 'cosci-safety.toml');
    writeFileSync(
      file,
      `[anthropic]\nmax_retries = ${MAX_RETRIES}\nretry_base_delay_ms = 10\nretry_max_delay_ms = ${retryMaxDelayMs}\n` +
        `[logging]\nlevel = "error"\n`,
    );
    const env = {
      ...(process.env as Record<string, string>),
      COSCI_SAFETY_CONFIG: file,
      ANTHROPIC_BASE_URL: model.fake.url,
      ANTHROPIC_API_KEY: 'sk-cli-secret',
    };
    return runMain(['classify'], { env, stdin: Readable.from([text]) });
  }

  it('prints a degraded verdict for an answer it cannot trust, and exits 3 or 4', async () => {
    model.fake.setHandler(answers);
    for (const name of ['two-calls-none-first', 'empty-object', 'html', 'max-tokens']) {
      const c = CASES[name]!;
      const r = await classify(50, `Hypothesis answer-${name}.`);
      expect(r.stderr, name).toBe('');
      expect(r.code, name).toBe(c.action === 'block' ? 3 : 4);
      expectDegraded(JSON.parse(r.stdout) as HypothesisResult['verdict'], c, name);
    }
  }, 30_000);

  it('waits a 429 that asks for an hour no longer than the bound', async () => {
    let first = true;
    model.fake.setHandler((req, index) => {
      if (!first) return markerHandler(req, index);
      first = false;
      return apiError(429, 'rate_limit_error', { 'retry-after': '3600' });
    });
    const r = await classify(BOUND_MS, 'Kinase X phosphorylates Y.');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'allow', degraded: false });
    const [a, b] = model.fake.requests;
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(BOUND_MS - CLOCK_TOLERANCE_MS);
  }, 30_000);
});
