/**
 * The scientist's review of held hypotheses, against real Redis and real
 * BullMQ workers: the queue, release and confirm, the audit trail, decisions
 * that survive a re-run of the classification job, and input validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewError } from '../../src/errors.js';
import { buildReviewService } from '../../src/runtime/builders.js';
import type { ReviewService } from '../../src/review/review-service.js';
import { createDecisionStore } from '../../src/store/decision-store.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { testConfig } from '../support/config.js';
import { startHarness, type Harness } from '../support/pipeline.js';

let fake: FakeAnthropic;
let h: Harness;
let review: ReviewService;

beforeAll(async () => {
  fake = await startFakeAnthropic(markerHandler);
  h = await startHarness(testConfig(fake.url));
  review = buildReviewService(h.config, h.redis);
});
afterAll(async () => {
  await h.stop();
  await fake.close();
});

async function classify(hypothesisId: string, text: string, revision = 1) {
  await h.publisher.publishHypothesisSaved({ hypothesisId, text, revision, title: `Title of ${hypothesisId}` });
  await h.waitForJob('hypothesis.saved', `hypothesis.${hypothesisId}.r${revision}`);
}

async function rejection(p: Promise<unknown>): Promise<ReviewError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ReviewError);
  return err as ReviewError;
}

const eventsOf = async (id: string) =>
  (await h.events()).filter((e) => (e.data as { hypothesisId?: string }).hypothesisId === id).map((e) => e.type);

describe('the review queue', () => {
  it('holds quarantined and blocked hypotheses, oldest first, with their text', async () => {
    await classify('q-quarantine', 'Risky @@dual_use_bio@0.9@@');
    await classify('q-allow', 'Kinase signalling in yeast.');
    await classify('q-warn', 'Dual use @@dual_use_bio@0.3@@');
    await classify('q-block', 'Weapon @@weapons@0.8@@');
    const items = await review.list();
    const mine = items.filter((i) => i.hypothesisId.startsWith('q-'));
    expect(mine.map((i) => [i.hypothesisId, i.state])).toEqual([
      ['q-quarantine', 'quarantined'],
      ['q-block', 'blocked'],
    ]);
    expect(mine[0]).toMatchObject({ revision: 1, categories: ['dual_use_bio'], title: 'Title of q-quarantine' });
    const shown = await review.show('q-block');
    expect(shown.subject?.text).toBe('Weapon @@weapons@0.8@@');
    expect(shown.verdict.action).toBe('block');
    expect(shown.history).toEqual([]);
    // An assessed hypothesis keeps no text: only held ones wait for a person.
    expect((await review.show('q-allow')).subject).toBeUndefined();
  });
});

describe('release and confirm', () => {
  it('releases a quarantined hypothesis: event, audit entries, off the queue, and final', async () => {
    await classify('r-1', 'Risky @@dual_use_bio@0.9@@');
    const result = await review.decide('released', {
      hypothesisId: 'r-1',
      by: 'Dr Ada Lovelace',
      note: 'benign assay',
    });
    expect(result.decision).toMatchObject({
      decision: 'released',
      hypothesisId: 'r-1',
      revision: 1,
      by: 'Dr Ada Lovelace',
      note: 'benign assay',
      overridden: { action: 'quarantine', categories: ['dual_use_bio'], confidence: 0.9 },
    });
    expect(await eventsOf('r-1')).toEqual(['hypothesis_assessed', 'hypothesis_quarantined', 'hypothesis_released']);
    const shown = await review.show('r-1');
    expect(shown.state).toBe('released');
    expect(shown.history).toHaveLength(1);
    expect(shown.history[0]).toMatchObject({
      entryId: result.auditEntryId,
      type: 'hypothesis_released',
      by: 'Dr Ada Lovelace',
      note: 'benign assay',
      overriddenAction: 'quarantine',
      overriddenCategories: ['dual_use_bio'],
      overriddenConfidence: 0.9,
    });
    expect((await review.list()).map((i) => i.hypothesisId)).not.toContain('r-1');

    const again = await rejection(review.decide('confirmed', { hypothesisId: 'r-1', by: 'Bob', note: 'no, block it' }));
    expect(again.code).toBe('REVIEW_ALREADY_DECIDED');
    expect(again.message).toContain('Dr Ada Lovelace');
    expect(await eventsOf('r-1')).toEqual(['hypothesis_assessed', 'hypothesis_quarantined', 'hypothesis_released']);
    expect((await review.show('r-1')).history).toHaveLength(1);
  });

  it('confirms a blocked hypothesis', async () => {
    await classify('c-1', 'Weapon @@weapons@0.8@@');
    await review.decide('confirmed', { hypothesisId: 'c-1', by: 'carol', note: 'it is what it says' });
    expect((await review.show('c-1')).state).toBe('confirmed');
    expect((await eventsOf('c-1')).at(-1)).toBe('hypothesis_confirmed');
  });

  it('lets exactly one of two simultaneous decisions win', async () => {
    await classify('race-1', 'Risky @@dual_use_bio@0.95@@');
    const outcomes = await Promise.allSettled([
      review.decide('released', { hypothesisId: 'race-1', by: 'a', note: 'release' }),
      review.decide('confirmed', { hypothesisId: 'race-1', by: 'b', note: 'confirm' }),
      review.decide('released', { hypothesisId: 'race-1', by: 'c', note: 'release too' }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((x) => x.status === 'rejected')) {
      expect((o as PromiseRejectedResult).reason).toMatchObject({ code: 'REVIEW_ALREADY_DECIDED' });
    }
    expect((await review.show('race-1')).history).toHaveLength(1);
    const decisions = (await eventsOf('race-1')).filter(
      (t) => t === 'hypothesis_released' || t === 'hypothesis_confirmed',
    );
    expect(decisions).toHaveLength(1);
  });

  it('classifies a new revision afresh: held again after a release', async () => {
    await classify('rev-1', 'Risky @@dual_use_bio@0.9@@', 1);
    await review.decide('released', { hypothesisId: 'rev-1', by: 'dana', note: 'ok for revision 1' });
    await classify('rev-1', 'Still risky @@dual_use_bio@0.8@@', 2);
    const shown = await review.show('rev-1');
    expect(shown.revision).toBe(2);
    expect(shown.state).toBe('quarantined');
    expect((await review.list()).map((i) => i.hypothesisId)).toContain('rev-1');
    // A decision naming the revision the person saw is refused once a newer one exists.
    const stale = await rejection(
      review.decide('released', { hypothesisId: 'rev-1', by: 'dana', note: 'looked at r1', revision: 1 }),
    );
    expect(stale.code).toBe('REVIEW_NOT_HELD');
    expect(stale.message).toContain('no longer the latest');
  });

  it('keeps a decision when the classification job runs again', async () => {
    await classify('rerun-1', 'Risky @@dual_use_bio@0.9@@');
    await review.decide('released', { hypothesisId: 'rerun-1', by: 'erin', note: 'fine' });
    const requestsBefore = fake.requests.length;
    // The event dedupe memory has expired (it has a TTL): only the decision can stop the hold being announced again.
    const seen = await h.redis.keys(`${h.config.redis.events_stream}:seen:hypothesis_quarantined/rerun-1/*`);
    expect(seen).toHaveLength(1);
    await h.redis.del(...seen);
    const job = await h.publisher.queue('hypothesis.saved').getJob('hypothesis.rerun-1.r1');
    await job!.retry('completed');
    await h.waitForJob('hypothesis.saved', 'hypothesis.rerun-1.r1');
    const rerun = await h.publisher.queue('hypothesis.saved').getJob('hypothesis.rerun-1.r1');
    expect(rerun!.returnvalue).toMatchObject({ state: 'released', verdict: { action: 'quarantine' } });
    expect(fake.requests.length).toBe(requestsBefore);
    expect((await eventsOf('rerun-1')).filter((t) => t === 'hypothesis_quarantined')).toHaveLength(1);
    expect((await review.show('rerun-1')).state).toBe('released');
    expect((await review.list()).map((i) => i.hypothesisId)).not.toContain('rerun-1');
  });
});

describe('validation', () => {
  it('refuses bad input, naming the field, and changes nothing', async () => {
    await classify('v-1', 'Risky @@dual_use_bio@0.9@@');
    const cases: Array<[Parameters<ReviewService['decide']>[1], string]> = [
      [{ hypothesisId: 'v-1', by: '', note: 'x' }, 'by'],
      [{ hypothesisId: 'v-1', by: '<script>', note: 'x' }, 'by'],
      [{ hypothesisId: 'v-1', by: 'ok', note: '   ' }, 'note'],
      [{ hypothesisId: 'v-1', by: 'ok', note: 'bell \u0007' }, 'note'],
      [{ hypothesisId: 'v-1', by: 'ok', note: 'x'.repeat(2001) }, 'note'],
      [{ hypothesisId: 'v\u0000-1', by: 'ok', note: 'x' }, 'hypothesisId'],
      [{ hypothesisId: '', by: 'ok', note: 'x' }, 'hypothesisId'],
    ];
    for (const [input, field] of cases) {
      const err = await rejection(review.decide('released', input));
      expect(err.code, JSON.stringify(input)).toBe('REVIEW_INVALID');
      expect(err.message).toContain(field);
    }
    expect((await review.show('v-1')).state).toBe('quarantined');
    expect((await review.show('v-1')).history).toEqual([]);
  });

  it('refuses a decision on an unknown or an assessed hypothesis', async () => {
    expect((await rejection(review.decide('released', { hypothesisId: 'nope', by: 'a', note: 'b' }))).code).toBe(
      'REVIEW_NOT_FOUND',
    );
    await classify('v-allow', 'Plain biology.');
    const err = await rejection(review.decide('confirmed', { hypothesisId: 'v-allow', by: 'a', note: 'b' }));
    expect(err.code).toBe('REVIEW_NOT_HELD');
    expect(err.message).toContain('assessed');
  });
});

describe('the audit trail', () => {
  it('records every decision in order, in the audit stream', async () => {
    const ids = ['a-1', 'a-2', 'a-3'];
    for (const id of ids) await classify(id, `Risky ${id} @@dual_use_bio@0.9@@`);
    await review.decide('released', { hypothesisId: 'a-2', by: 'first', note: 'one' });
    await review.decide('confirmed', { hypothesisId: 'a-1', by: 'second', note: 'two' });
    await review.decide('released', { hypothesisId: 'a-3', by: 'third', note: 'three' });
    const audit = (await createDecisionStore(h.redis, h.config.redis.key_prefix).audit()).filter((e) =>
      e.hypothesisId.startsWith('a-'),
    );
    expect(audit.map((e) => [e.hypothesisId, e.type, e.by, e.note])).toEqual([
      ['a-2', 'hypothesis_released', 'first', 'one'],
      ['a-1', 'hypothesis_confirmed', 'second', 'two'],
      ['a-3', 'hypothesis_released', 'third', 'three'],
    ]);
    const times = audit.map((e) => Date.parse(e.at));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    expect(audit.every((e) => e.overriddenAction === 'quarantine')).toBe(true);
  });
});
