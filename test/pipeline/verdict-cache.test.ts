/**
 * The verdict cache: a hypothesis whose text was classified before, under the
 * same settings, gets its verdict stored and announced by one script with no
 * classification. What it stores and announces must be what classifying the
 * text again would have (real workers, real SDK against a loopback server).
 */
import { describe, expect, it } from 'vitest';
import { EVENT_SCHEMAS, type EventType } from '../../src/contracts/events.js';
import { createVerdictStore, verdictKeys } from '../../src/store/verdict-store.js';
import { markerHandler } from '../support/fake-anthropic.js';
import { pipelinesWithFakeModel } from '../support/pipeline.js';
import { uniqueName } from '../support/redis.js';

const model = pipelinesWithFakeModel();
const harness = model.harness.bind(model);

type Data = Record<string, unknown> & { hypothesisId: string };
const of = (events: Array<{ type: string; eventId: string; data: unknown }>, id: string) =>
  events.filter((e) => (e.data as Data).hypothesisId === id);

describe('verdict cache', () => {
  it('stores and announces, for a text seen before, what classifying it again would', async () => {
    const cases = [
      { text: 'Kinase signalling in yeast.', action: 'allow' },
      { text: 'Dual use @@dual_use_bio@0.4@@', action: 'warn' },
      { text: 'Dual use @@dual_use_bio@0.9@@', action: 'quarantine' },
      { text: 'Weapon @@weapons@0.8@@', action: 'block' },
    ];
    const h = await harness();
    const store = createVerdictStore(h.redis, h.config.redis.key_prefix);
    for (const [i, c] of cases.entries())
      await h.publisher.publishHypothesisSaved({ hypothesisId: `first-${i}`, text: c.text, revision: 1 });
    await h.waitForEvents((e) => e.length === 7);
    expect(model.fake.requests).toHaveLength(4);
    // One cached verdict per text. The assessments go: only the verdict
    // cache can answer the same texts now without asking the model.
    const keysOf = async (kind: string) => {
      const found: string[] = [];
      for await (const batch of h.redis.scanStream({ match: `${h.config.redis.key_prefix}:${kind}:*` }))
        found.push(...(batch as string[]));
      return found;
    };
    const cachedVerdicts = await keysOf('verdict-cache');
    expect(cachedVerdicts).toHaveLength(4);
    // Kept as long as the assessments are.
    const ttl = await h.redis.ttl(cachedVerdicts[0]!);
    expect(ttl).toBeGreaterThan(h.config.safety.classifier_cache_ttl_seconds - 60);
    expect(ttl).toBeLessThanOrEqual(h.config.safety.classifier_cache_ttl_seconds);
    const assessments = await keysOf('assessment');
    expect(assessments).toHaveLength(4);
    await h.redis.del(...assessments);

    for (const [i, c] of cases.entries())
      await h.publisher.publishHypothesisSaved({
        hypothesisId: `again-${i}`,
        text: c.text,
        revision: 3,
        goalId: 'goal"7\u00e9',
        runId: 'run-2',
        agent: 'generation',
      });
    const events = await h.waitForEvents((e) => e.length === 14);
    // No model call: the verdicts came from the verdict cache.
    expect(model.fake.requests).toHaveLength(4);

    for (const [i, c] of cases.entries()) {
      const first = of(events, `first-${i}`);
      const again = of(events, `again-${i}`);
      expect(again.map((e) => e.type)).toEqual(first.map((e) => e.type));
      for (const [j, e] of again.entries()) {
        // Valid against the published event schema, and equal to the
        // classified one but for the subject's own fields.
        EVENT_SCHEMAS[e.type as EventType].parse(e.data);
        expect(e.eventId).toBe(`${e.type}/again-${i}/r3`);
        expect(e.data).toEqual({
          ...(first[j]!.data as Data),
          hypothesisId: `again-${i}`,
          revision: 3,
          goalId: 'goal"7\u00e9',
          runId: 'run-2',
        });
        expect(Object.keys(e.data as Data)).toEqual([...Object.keys(first[j]!.data as Data), 'goalId', 'runId']);
      }
      const classified = await store.getRevision('hypothesis', `first-${i}`, 1);
      const fromCache = await store.getRevision('hypothesis', `again-${i}`, 3);
      expect(fromCache).toEqual({ ...classified, cached: true });
      expect(await store.getLatest('hypothesis', `again-${i}`)).toMatchObject({ revision: 3, verdict: fromCache });
      // A held one keeps its text for review, and is in the review queue.
      const held = c.action === 'quarantine' || c.action === 'block';
      expect(await store.getHeldSubject(`again-${i}`, 3)).toEqual(
        held ? { text: c.text, goalId: 'goal"7\u00e9', runId: 'run-2', agent: 'generation' } : undefined,
      );
      const queued = await h.redis.zscore(verdictKeys(h.config.redis.key_prefix).reviewQueue, `again-${i}`);
      expect(queued !== null).toBe(held);
    }
    // The job's result is the verdict it stored.
    const job = await h.publisher.queue('hypothesis.saved').getJob('hypothesis.again-2.r3');
    expect(job!.returnvalue).toMatchObject({ state: 'quarantined', verdict: { action: 'quarantine', cached: true } });
    // Counted as cache hits, and the events as emitted.
    const metrics = await h.runtime.metrics.registry.getSingleMetricAsString('cosci_safety_classifier_cache_total');
    expect(metrics).toMatch(/result="hit"\} 4/);
    const emitted = await h.runtime.metrics.registry.getSingleMetricAsString('cosci_safety_events_total');
    expect(emitted).toMatch(/type="hypothesis_assessed"\} 8/);
  });

  it('misses when the policy changed: the action comes from the new policy, the assessment from the cache', async () => {
    const shared = uniqueName('vc');
    const redis = { key_prefix: `${shared}-k`, events_stream: `${shared}-k:events` };
    const before = await harness({ redis });
    await before.publisher.publishHypothesisSaved({ hypothesisId: 'p1', text: 'Dual use @@dual_use_bio@0.7@@' });
    await before.waitForEvents((e) => e.length === 2);
    expect(of(await before.events(), 'p1')[0]!.data).toMatchObject({ action: 'quarantine' });

    // Another worker on the same keys, with a higher quarantine threshold.
    const after = await harness({ redis, safety: { classifier_quarantine_threshold: 0.8 } });
    await after.publisher.publishHypothesisSaved({ hypothesisId: 'p2', text: 'Dual use @@dual_use_bio@0.7@@' });
    const events = await after.waitForEvents((e) => e.length === 4);
    const p2 = of(events, 'p2');
    expect(p2.map((e) => e.type)).toEqual(['hypothesis_assessed', 'hypothesis_flagged']);
    expect(p2[0]!.data).toMatchObject({ action: 'warn' });
    expect(model.fake.requests).toHaveLength(1);
    // And the new policy's verdict is now cached too: a third text-alike job hits it.
    await after.publisher.publishHypothesisSaved({ hypothesisId: 'p3', text: 'Dual use @@dual_use_bio@0.7@@' });
    const more = await after.waitForEvents((e) => e.length === 6);
    expect(of(more, 'p3')[0]!.data).toMatchObject({ action: 'warn' });
    const store = createVerdictStore(after.redis, after.config.redis.key_prefix);
    expect(await store.getRevision('hypothesis', 'p3', 0)).toMatchObject({ action: 'warn', cached: true });
    expect(model.fake.requests).toHaveLength(1);
  });

  it('keeps the verdict a revision already has, and passes another text under it for no cached verdict', async () => {
    const h = await harness();
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'seen', text: 'Benign kinase text.', revision: 1 });
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'other', text: 'Weapon @@weapons@0.8@@' });
    await h.waitForEvents((e) => e.length === 3);
    const queue = h.publisher.queue('hypothesis.saved');
    // The same revision and text again: the stored verdict, nothing announced again, no model call.
    await (await queue.getJob('hypothesis.seen.r1'))!.remove();
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'seen', text: 'Benign kinase text.', revision: 1 });
    await h.waitForJob('hypothesis.saved', 'hypothesis.seen.r1');
    const job = await queue.getJob('hypothesis.seen.r1');
    expect(job!.returnvalue).toMatchObject({ state: 'assessed', verdict: { action: 'allow' } });
    expect(job!.attemptsMade).toBe(1);
    // The same revision with the blocked text, whose verdict is cached, added around the
    // publisher: before, it completed as the first text's allow; now it is a revision conflict.
    await job!.remove();
    await queue.add(
      'hypothesis.saved',
      { hypothesisId: 'seen', text: 'Weapon @@weapons@0.8@@', revision: 1 },
      { jobId: 'hypothesis.seen.r1' },
    );
    await h.waitForJob('hypothesis.saved', 'hypothesis.seen.r1', 'failed');
    expect(of(await h.events(), 'seen').map((e) => e.type)).toEqual(['hypothesis_assessed', 'revision_conflict']);
    expect(model.fake.requests).toHaveLength(2);
  });

  it('does not cache a degraded verdict: the next job with the text asks the model again', async () => {
    const h = await harness({ anthropic: { max_retries: 0 } });
    model.fake.setHandler(() => ({
      status: 500,
      body: { type: 'error', error: { type: 'api_error', message: 'down' } },
    }));
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'd1', text: 'Some text.' });
    await h.waitForEvents((e) => e.some((x) => x.type === 'classifier_degraded'));
    model.fake.setHandler(markerHandler);
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'd2', text: 'Some text.' });
    const events = await h.waitForEvents((e) => of(e, 'd2').length === 1);
    expect(of(events, 'd2')[0]!.data).toMatchObject({ action: 'allow', degraded: false });
    expect(model.fake.requests).toHaveLength(2);
  });
});
