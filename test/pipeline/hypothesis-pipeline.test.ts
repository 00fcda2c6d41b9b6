/**
 * The hypothesis and goal pipeline end to end: real Redis, real BullMQ
 * workers, the real SDK against a loopback Messages API server.
 */
import { describe, expect, it } from 'vitest';
import { createVerdictStore } from '../../src/store/verdict-store.js';
import { PayloadError } from '../../src/errors.js';
import { apiError, markerHandler } from '../support/fake-anthropic.js';
import { pipelinesWithFakeModel } from '../support/pipeline.js';

const model = pipelinesWithFakeModel();
const harness = model.harness.bind(model);

const types = (events: Array<{ type: string }>) => events.map((e) => e.type);

describe('hypothesis pipeline', () => {
  it('emits hypothesis_assessed and the event of each action, and keeps the latest verdict', async () => {
    const h = await harness();
    const cases = [
      { id: 'h-allow', text: 'Kinase signalling in yeast.', action: 'allow', specific: undefined },
      { id: 'h-warn', text: 'Dual use @@dual_use_bio@0.4@@', action: 'warn', specific: 'hypothesis_flagged' },
      {
        id: 'h-quarantine',
        text: 'Dual use @@dual_use_bio@0.9@@',
        action: 'quarantine',
        specific: 'hypothesis_quarantined',
      },
      { id: 'h-block', text: 'Weapon @@weapons@0.8@@', action: 'block', specific: 'hypothesis_blocked' },
    ];
    for (const c of cases)
      await h.publisher.publishHypothesisSaved({ hypothesisId: c.id, text: c.text, revision: 2, runId: 'run-1' });
    // 4 assessed, and one event for each action but allow.
    const events = await h.waitForEvents((e) => e.length === 7);
    for (const c of cases) {
      const mine = events.filter((e) => (e.data as { hypothesisId: string }).hypothesisId === c.id);
      expect(types(mine)).toEqual(c.specific ? ['hypothesis_assessed', c.specific] : ['hypothesis_assessed']);
      expect(mine[0]!.data).toMatchObject({
        hypothesisId: c.id,
        revision: 2,
        action: c.action,
        degraded: false,
        runId: 'run-1',
        model: 'claude-haiku-4-5-20251001',
      });
      expect(mine[0]!.eventId).toBe(`hypothesis_assessed/${c.id}/r2`);
    }
    const store = createVerdictStore(h.redis, h.config.redis.key_prefix);
    expect(await store.getLatest('hypothesis', 'h-quarantine')).toMatchObject({
      revision: 2,
      verdict: { action: 'quarantine', categories: ['dual_use_bio'] },
    });
  });

  it('applies the category lists from the configuration', async () => {
    const h = await harness({
      safety: { classifier_block_categories: ['dual_use_bio'], classifier_warn_categories: ['weapons'] },
    });
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'a', text: '@@dual_use_bio@0.1@@' });
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'b', text: '@@weapons@0.9@@' });
    const events = await h.waitForEvents((e) => e.length === 4);
    expect(types(events).sort()).toEqual([
      'hypothesis_assessed',
      'hypothesis_assessed',
      'hypothesis_blocked',
      'hypothesis_quarantined',
    ]);
  });

  it('finds a flagged passage after 8,000 characters', async () => {
    const h = await harness();
    const text = 'Background on membrane transport. '.repeat(300) + '@@cbrn@0.95@@';
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'long', text });
    const events = await h.waitForEvents((e) => e.some((x) => x.type === 'hypothesis_blocked'));
    expect(events[0]!.data).toMatchObject({ action: 'block', windowed: true, categories: ['cbrn'] });
  });

  it('makes one job of a duplicate publish, and a job run again emits nothing twice', async () => {
    const h = await harness();
    const payload = { hypothesisId: 'dup', text: '@@dual_use_bio@0.9@@', revision: 1 };
    const first = await h.publisher.publishHypothesisSaved(payload);
    const second = await h.publisher.publishHypothesisSaved(payload);
    expect(first).toEqual({ jobId: 'hypothesis.dup.r1', created: true });
    expect(second).toEqual({ jobId: 'hypothesis.dup.r1', created: false });
    await h.waitForJob('hypothesis.saved', 'hypothesis.dup.r1');

    // Redelivery: the finished job is removed and the same payload comes again.
    const queue = h.publisher.queue('hypothesis.saved');
    await (await queue.getJob('hypothesis.dup.r1'))!.remove();
    expect((await h.publisher.publishHypothesisSaved(payload)).created).toBe(true);
    await h.waitForJob('hypothesis.saved', 'hypothesis.dup.r1');
    const events = await h.events();
    expect(types(events)).toEqual(['hypothesis_assessed', 'hypothesis_quarantined']);
    // The re-run's text was in the assessment cache: one model call in all.
    expect(model.fake.requests).toHaveLength(1);

    // Another text for the same revision is not a redelivery but a conflict
    // (test/pipeline/revision-content.test.ts): refused, and no model call.
    await (await queue.getJob('hypothesis.dup.r1'))!.remove();
    await expect(h.publisher.publishHypothesisSaved({ ...payload, text: 'a benign text' })).rejects.toMatchObject({
      code: 'REVISION_CONFLICT',
    });
    expect(model.fake.requests).toHaveLength(1);
    expect(types(await h.events())).toEqual(['hypothesis_assessed', 'hypothesis_quarantined']);
    // A new revision is classified afresh.
    await h.publisher.publishHypothesisSaved({ ...payload, revision: 2, text: 'now benign' });
    const after = await h.waitForEvents((e) => e.length === 3);
    expect(after[2]!.data).toMatchObject({ revision: 2, action: 'allow' });
  });

  it('fails a bad payload with a message naming the field, and goes on', async () => {
    const h = await harness();
    await expect(h.publisher.publishHypothesisSaved({ hypothesisId: 'x', text: 42 } as never)).rejects.toThrow(
      PayloadError,
    );
    await expect(h.publisher.publishHypothesisSaved({ hypothesisId: 'x', text: 'a', revision: -1 })).rejects.toThrow(
      /revision/,
    );
    // Published by a client that does not validate:
    const queue = h.publisher.queue('hypothesis.saved');
    const bad = await queue.add(
      'hypothesis.saved',
      { hypothesisId: 'bad', text: { nested: true }, revision: 'one' },
      { jobId: 'bad-1' },
    );
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'good', text: 'fine' });
    await h.waitForEvents((e) => e.some((x) => (x.data as { hypothesisId?: string }).hypothesisId === 'good'));
    await h.waitForJob('hypothesis.saved', bad.id!, 'failed');
    const failed = await queue.getJob(bad.id!);
    expect(failed!.failedReason).toMatch(/invalid hypothesis\.saved payload: text: .*; revision: /);
    expect(failed!.attemptsMade).toBe(1);
    expect(h.runtime.workers.get('hypothesis.saved')!.isRunning()).toBe(true);
  });

  it('waits out a 429 inside the job, for what retry-after asks, without spending the job attempt', async () => {
    model.fake.setHandler((req, i) =>
      i === 0 ? apiError(429, 'rate_limit_error', { 'retry-after': '1' }) : markerHandler(req, i),
    );
    // A bound above the second asked: the wait is the server's.
    const h = await harness({ anthropic: { retry_max_delay_ms: 5000 } });
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'rl', text: '@@dual_use_bio@0.9@@' });
    const events = await h.waitForEvents((e) => e.length === 2, 15_000);
    expect(events[1]!.type).toBe('hypothesis_quarantined');
    expect(model.fake.requests).toHaveLength(2);
    expect(model.fake.requests[1]!.at - model.fake.requests[0]!.at).toBeGreaterThanOrEqual(950);
    await h.waitForJob('hypothesis.saved', 'hypothesis.rl.r0');
    const job = await h.publisher.queue('hypothesis.saved').getJob('hypothesis.rl.r0');
    // One attempt in all, run once: the wait was inside it (a spent attempt would make it 2).
    expect(job?.attemptsMade).toBe(1);
    expect(job?.attemptsStarted).toBe(1);
  });

  it('records a degraded verdict, event and metric when the model keeps failing', async () => {
    model.fake.setHandler(() => apiError(503, 'api_error'));
    const h = await harness({ anthropic: { max_retries: 2 } });
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'down', text: 'anything' });
    const events = await h.waitForEvents((e) => e.some((x) => x.type === 'classifier_degraded'));
    expect(types(events)).toEqual(['hypothesis_assessed', 'hypothesis_quarantined', 'classifier_degraded']);
    expect(events[0]!.data).toMatchObject({ degraded: true, reason: 'server_error', action: 'quarantine' });
    expect(model.fake.requests).toHaveLength(3);
    await h.waitForJob('hypothesis.saved', 'hypothesis.down.r0');
    const metrics = await (await fetch(`http://127.0.0.1:${h.runtime.http!.port}/metrics`)).text();
    expect(metrics).toMatch(/cosci_safety_classifier_degraded_total\{reason="server_error"\} 1/);
    expect(metrics).toMatch(/cosci_safety_classifier_requests_total\{outcome="server_error"\} 3/);
    expect(metrics).toMatch(/cosci_safety_classifications_total\{target="hypothesis",action="quarantine"\} 1/);
    expect(metrics).toMatch(/cosci_safety_events_total\{type="classifier_degraded"\} 1/);
  });

  it("counts the model's tokens by the queue whose job asked", async () => {
    const h = await harness();
    await h.publisher.publishHypothesisSaved({ hypothesisId: 't-1', text: 'Kinase signalling in yeast.' });
    await h.publisher.submitGoal({ goalId: 't-g', text: 'Map kinase networks.' }, { wait: true });
    await h.publisher.finalizeReport({ reportId: 't-r', sections: [{ text: 'Findings.' }] }, { wait: true });
    await h.waitForJob('hypothesis.saved', 'hypothesis.t-1.r0');
    const body = await (await fetch(`http://127.0.0.1:${h.runtime.http!.port}/metrics`)).text();
    // One model call each, of the fake's usage(100, 20).
    for (const queue of ['hypothesis.saved', 'goal.submitted', 'report.finalized']) {
      expect(body).toContain(`cosci_safety_classifier_tokens_total{kind="input",queue="${queue}"} 100`);
      expect(body).toContain(`cosci_safety_classifier_tokens_total{kind="output",queue="${queue}"} 20`);
      expect(body).toContain(`cosci_safety_classifier_tokens_total{kind="cache_read",queue="${queue}"} 0`);
    }
    expect(body).not.toContain('queue="cli"');
  });

  it('with no API key, starts, and degrades every verdict per classifier_on_error', async () => {
    const closed = await harness({}, false);
    await closed.publisher.publishHypothesisSaved({ hypothesisId: 'nk', text: 'text' });
    const e1 = await closed.waitForEvents((e) => e.some((x) => x.type === 'classifier_degraded'));
    expect(e1[0]!.data).toMatchObject({ action: 'quarantine', degraded: true, reason: 'no_api_key' });

    const open = await harness({ safety: { classifier_on_error: 'allow' } }, false);
    await open.publisher.publishHypothesisSaved({ hypothesisId: 'nk', text: 'text' });
    const e2 = await open.waitForEvents((e) => e.some((x) => x.type === 'classifier_degraded'));
    expect(types(e2)).toEqual(['hypothesis_assessed', 'classifier_degraded']);
    expect(e2[0]!.data).toMatchObject({ action: 'allow', categories: ['none'], degraded: true, reason: 'no_api_key' });
    expect(model.fake.requests).toHaveLength(0);
  });

  it('answers /healthz, /readyz and /metrics', async () => {
    const h = await harness();
    const base = `http://127.0.0.1:${h.runtime.http!.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'm', text: 'x' });
    await h.waitForJob('hypothesis.saved', 'hypothesis.m.r0');
    const body = await (await fetch(`${base}/metrics`)).text();
    expect(body).toMatch(/cosci_safety_jobs_total\{queue="hypothesis.saved",outcome="completed"\} 1/);
    expect(body).toMatch(/cosci_safety_queue_jobs\{queue="hypothesis.saved",state="completed"\} 1/);
    expect(body).toContain('cosci_safety_process_resident_memory_bytes');
    expect(body).toMatch(/cosci_safety_job_duration_seconds_count\{queue="hypothesis.saved"\} 1/);
  });
});

describe('goal pipeline', () => {
  it('submitGoal waits for the verdict, and a blocked goal emits goal_blocked', async () => {
    const h = await harness();
    const ok = await h.publisher.submitGoal(
      { goalId: 'g1', text: 'Map protein interactions in E. coli' },
      { wait: true, timeoutMs: 10_000 },
    );
    expect(ok).toMatchObject({ goalId: 'g1', verdict: { action: 'allow' }, created: true });
    const blocked = await h.publisher.submitGoal(
      { goalId: 'g2', text: 'Make nerve agent @@cbrn@0.99@@' },
      { wait: true, timeoutMs: 10_000 },
    );
    expect(blocked.verdict.action).toBe('block');
    const events = await h.waitForEvents((e) => e.length === 3);
    expect(types(events)).toEqual(['goal_assessed', 'goal_assessed', 'goal_blocked']);
    expect(events[2]!.data).toMatchObject({ goalId: 'g2', action: 'block', categories: ['cbrn'] });
  });
});
