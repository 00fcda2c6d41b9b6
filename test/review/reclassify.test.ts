/**
 * Degraded held verdicts classified again once the model can answer: through
 * the pipeline's real workers and Redis, the real SDK against the loopback
 * Messages API, the review API and the command line. Each is a new
 * assessment of the same revision with its own audit entry and events; what
 * the new verdict allows leaves the queue; a second run changes nothing and
 * appends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewReclassifyResult } from '../../src/contracts/review-api.js';
import type { StreamEvent } from '../../src/events/reader.js';
import { buildReviewService } from '../../src/runtime/builders.js';
import { cliFor } from '../support/cli.js';
import { apiError, markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { testConfig } from '../support/config.js';
import { startHarness, type Harness } from '../support/pipeline.js';
import { baseUrl, call, REVIEW_TOKEN } from '../support/review-http.js';

let fake: FakeAnthropic;
let h: Harness;
let base: string;

/** The model refuses every request (400, not retried): each verdict degraded, held by `classifier_on_error`. */
const refuseAll = () => fake.setHandler(() => apiError(400, 'invalid_request_error'));

beforeAll(async () => {
  fake = await startFakeAnthropic(markerHandler);
  refuseAll();
  h = await startHarness(testConfig(fake.url, { review: { api_token: REVIEW_TOKEN } }));
  base = baseUrl(h);
}, 60_000);
afterAll(async () => {
  await h?.stop();
  await fake?.close();
});

const queueKey = () => `${h.config.redis.key_prefix}:review:held`;

async function holdDegraded(ids: Record<string, string>): Promise<void> {
  for (const [hypothesisId, text] of Object.entries(ids)) {
    await h.publisher.publishHypothesisSaved({ hypothesisId, text, revision: 1, goalId: 'g-1' });
    await h.waitForJob('hypothesis.saved', `hypothesis.${hypothesisId}.r1`);
  }
}

const ofItem = (events: StreamEvent[], id: string) =>
  events.filter((e) => (e.data as { hypothesisId?: string }).hypothesisId === id);

describe('reclassifying degraded verdicts', () => {
  it('does nothing without a key; with one, reassesses each, lets out what it allows, once', async () => {
    const texts = {
      'rc-benign': 'Protein folding of a plant enzyme at low temperature',
      'rc-risky': 'Serial passage of an isolate @@dual_use_bio@0.9@@',
      'rc-weapon': 'A route to a nerve agent @@weapons@0.95@@',
    };
    await holdDegraded(texts);
    // A clean verdict held too: never asked again.
    fake.setHandler(markerHandler);
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'rc-clean', text: 'x @@dual_use_bio@0.8@@', revision: 1 });
    await h.waitForJob('hypothesis.saved', 'hypothesis.rc-clean.r1');
    const before = await buildReviewService(h.config, h.redis).queue({ filter: { degraded: true } });
    expect(before.items.map((i) => i.hypothesisId).sort()).toEqual(Object.keys(texts).sort());
    expect(before.items.every((i) => i.reason === 'bad_request')).toBe(true);

    // Without a key: each still degraded, nothing written, no model call.
    const keyless = testConfig(undefined);
    const noKey = buildReviewService({ ...keyless, redis: h.config.redis }, h.redis);
    const calls = fake.requests.length;
    const eventsBefore = (await h.events()).length;
    const idle = await noKey.reclassify({ by: 'Dr Rao' });
    expect(idle).toMatchObject({ reassessed: 0, stillDegraded: 3, skipped: 0, remaining: 0 });
    expect(idle.items.every((i) => i.outcome === 'still_degraded' && i.reason === 'no_api_key')).toBe(true);
    expect(fake.requests.length).toBe(calls);
    expect((await h.events()).length).toBe(eventsBefore);

    // With the key, over the API.
    const reply = await call(base, 'POST', '/review/api/reclassify', { body: { by: 'Dr Rao' } });
    expect(reply.status, reply.text).toBe(200);
    const result = reply.json() as unknown as ReviewReclassifyResult;
    expect(result).toMatchObject({ reassessed: 3, released: 1, stillDegraded: 0, skipped: 0, remaining: 0 });
    const byId = new Map(result.items.map((i) => [i.hypothesisId, i]));
    expect(byId.get('rc-benign')).toMatchObject({ outcome: 'reassessed', state: 'assessed', action: 'allow' });
    expect(byId.get('rc-risky')).toMatchObject({ state: 'quarantined', categories: ['dual_use_bio'], confidence: 0.9 });
    expect(byId.get('rc-weapon')).toMatchObject({ state: 'blocked', action: 'block' });
    expect(fake.requests.length).toBe(calls + 3);

    // The allowed one left the queue; the others are held, now clean.
    const held = await h.redis.zrange(queueKey(), 0, '-1');
    expect(held).not.toContain('rc-benign');
    expect(held).toEqual(expect.arrayContaining(['rc-risky', 'rc-weapon', 'rc-clean']));
    const review = buildReviewService(h.config, h.redis);
    const risky = await review.show('rc-risky');
    expect(risky).toMatchObject({ revision: 1, state: 'quarantined', verdict: { degraded: false, confidence: 0.9 } });
    const benign = await review.show('rc-benign');
    expect(benign.state).toBe('assessed');
    // Its audit entry: the degraded verdict it replaced, and the new one.
    expect(benign.history).toHaveLength(1);
    expect(benign.history[0]).toMatchObject({
      entryId: byId.get('rc-benign')!.auditEntryId,
      type: 'hypothesis_reassessed',
      by: 'Dr Rao',
      revision: 1,
      overriddenAction: 'quarantine',
      overriddenReason: 'bad_request',
      action: 'allow',
      categories: ['none'],
    });

    // Its events (classifier_degraded names it by `id`, so is not among these): a new assessment of the same revision, with ids of its own, and the hold where there is one.
    const events = await h.events();
    const benignEvents = ofItem(events, 'rc-benign').map((e) => `${e.type} ${e.eventId}`);
    expect(benignEvents).toEqual([
      'hypothesis_assessed hypothesis_assessed/rc-benign/r1',
      'hypothesis_quarantined hypothesis_quarantined/rc-benign/r1',
      'hypothesis_assessed hypothesis_assessed/rc-benign/r1/reassessed',
    ]);
    const fresh = ofItem(events, 'rc-benign').at(-1)!.data as Record<string, unknown>;
    expect(fresh).toMatchObject({
      action: 'allow',
      degraded: false,
      goalId: 'g-1',
      reassessment: { by: 'Dr Rao', previous: { action: 'quarantine', reason: 'bad_request' } },
    });
    expect(ofItem(events, 'rc-weapon').map((e) => e.eventId)).toContain('hypothesis_blocked/rc-weapon/r1/reassessed');

    // A second run: nothing degraded is left, nothing is asked, nothing is appended.
    const count = (await h.events()).length;
    const again = await call(base, 'POST', '/review/api/reclassify', { body: { by: 'Dr Rao' } });
    expect(again.json()).toMatchObject({ items: [], reassessed: 0, remaining: 0 });
    expect(fake.requests.length).toBe(calls + 3);
    expect((await h.events()).length).toBe(count);
    expect((await review.show('rc-benign')).history).toHaveLength(1);
  });

  it('two runs at once write one new assessment: one audit entry, no duplicate events', async () => {
    refuseAll();
    await holdDegraded({ 'rc-twin': 'Plain enzyme kinetics' });
    fake.setHandler(markerHandler);
    const review = buildReviewService(h.config, h.redis);
    const [a, b] = await Promise.all([review.reclassify({ by: 'Dr A' }), review.reclassify({ by: 'Dr B' })]);
    const outcomes = [a, b].flatMap((r) => r.items.filter((i) => i.hypothesisId === 'rc-twin').map((i) => i.outcome));
    expect(outcomes.filter((o) => o === 'reassessed')).toHaveLength(1);
    const events = ofItem(await h.events(), 'rc-twin').filter((e) => e.eventId.endsWith('/reassessed'));
    expect(events.map((e) => e.type)).toEqual(['hypothesis_assessed']);
    expect((await review.show('rc-twin')).history).toHaveLength(1);
  });

  it('refuses a bad body by field, and needs the token', async () => {
    const bad = await call(base, 'POST', '/review/api/reclassify', { body: { by: 'x<y>' } });
    expect(bad.status).toBe(400);
    expect(bad.json().error?.message).toContain('by');
    const limit = await call(base, 'POST', '/review/api/reclassify', { body: { by: 'Dr Rao', limit: 0 } });
    expect(limit.json().error?.message).toContain('limit: a whole number from 1 to 200');
    const extra = await call(base, 'POST', '/review/api/reclassify', { body: { by: 'Dr Rao', all: true } });
    expect(extra.status).toBe(400);
    expect((await call(base, 'GET', '/review/api/reclassify')).status).toBe(405);
    expect((await call(base, 'POST', '/review/api/reclassify', { body: { by: 'A' }, token: null })).status).toBe(401);
  });

  it('quarantine reclassify --degraded from the command line, and a second run that finds nothing', async () => {
    refuseAll();
    await holdDegraded({ 'rc-cli-1': 'Ordinary chemistry', 'rc-cli-2': 'Risky @@cbrn@0.8@@' });
    fake.setHandler(markerHandler);
    const cli = cliFor(h, fake);
    const usage = await cli.run(['quarantine', 'reclassify', '--by', 'Dr Lee']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--degraded is required');

    const run = await cli.run(['quarantine', 'reclassify', '--degraded', '--by', 'Dr Lee']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^rc-cli-1\trevision 1\treassessed\tassessed\tallow\tnone\tconfidence 0\.97$/m);
    expect(run.stdout).toMatch(/^rc-cli-2\trevision 1\treassessed\tblocked\tblock\tcbrn\tconfidence 0\.80$/m);
    expect(run.stdout).toContain('2 reassessed (1 left the queue), 0 still degraded, 0 skipped, 0 not asked');
    expect(await h.redis.zscore(queueKey(), 'rc-cli-1')).toBeNull();

    const second = await cli.run(['quarantine', 'reclassify', '--degraded', '--by', 'Dr Lee', '--json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ items: [], reassessed: 0 });
  });
});
