/**
 * A revision is its content (docs/contract.md#a-revision-is-its-content), end
 * to end: real Redis, real BullMQ workers, the real SDK against a loopback
 * Messages API server. Other content under a used id and revision is refused
 * by the publisher and, when a client adds it around the publisher, by the
 * worker: announced once, held for a person, never judged by what the
 * revision holds. A decision belongs to the content it was made on, and an
 * older revision published late announces no pass over a newer held one.
 */
import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { QueueName } from '../../src/contracts/queues.js';
import { CosciError } from '../../src/errors.js';
import { buildReviewService } from '../../src/runtime/builders.js';
import { pipelinesWithFakeModel, type Harness } from '../support/pipeline.js';
import { eventually } from '../support/poll.js';
import { baseUrl, call, REVIEW_TOKEN } from '../support/review-http.js';

const model = pipelinesWithFakeModel();
const harness = model.harness.bind(model);

const BENIGN = 'Kinase X phosphorylates Y in yeast.';
const RISKY = 'Risky @@dual_use_bio@0.9@@';
const WEAPON = 'Route to weaponise agent X @@weapons@0.9@@';

type Event = Awaited<ReturnType<Harness['events']>>[number];
const about = (events: Event[], id: string) =>
  events.filter((e) => (e.data as { hypothesisId?: string; id?: string }).hypothesisId === id);
const allows = (events: Event[]) =>
  events.filter((e) => e.type === 'hypothesis_assessed' && (e.data as { action: string }).action !== 'quarantine');

async function rejection(p: Promise<unknown>): Promise<CosciError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CosciError);
  return err as CosciError;
}

/** As a client in another language adds a job: the documented job id, no checks. */
async function addDirectly(h: Harness, queue: QueueName, jobId: string, data: object): Promise<void> {
  await h.publisher
    .queue(queue)
    .add(queue, data, { jobId, attempts: 5, backoff: { type: 'exponential', delay: 1000 } });
}

/** The job once it has finished, which must be by failing: its return value is then null. */
async function failed(h: Harness, queue: QueueName, jobId: string): Promise<Job> {
  const job = await eventually(`${jobId} finished`, async () => {
    const found = await h.publisher.queue(queue).getJob(jobId);
    return found?.finishedOn !== undefined ? found : undefined;
  });
  expect([await job.getState(), job.returnvalue]).toEqual(['failed', null]);
  return job;
}

/** Keeps `keep_completed` from mattering: the completed job is gone, as it is once evicted. */
async function evict(h: Harness, queue: QueueName, jobId: string): Promise<void> {
  await h.waitForJob(queue, jobId);
  await (await h.publisher.queue(queue).getJob(jobId))!.remove();
}

describe('a hypothesis revision published again with other text', () => {
  it('is refused by the publisher, while its job is kept and once it is gone; the same text is one job', async () => {
    const h = await harness();
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'hp', text: BENIGN, revision: 1 });
    await h.waitForJob('hypothesis.saved', 'hypothesis.hp.r1');
    expect(await h.publisher.publishHypothesisSaved({ hypothesisId: 'hp', text: BENIGN, revision: 1 })).toEqual({
      jobId: 'hypothesis.hp.r1',
      created: false,
    });
    // Other text while the job is kept: before, BullMQ dropped it as a duplicate and this said created: false.
    const whileKept = await rejection(
      h.publisher.publishHypothesisSaved({ hypothesisId: 'hp', text: WEAPON, revision: 1 }),
    );
    expect(whileKept.code).toBe('REVISION_CONFLICT');
    expect(whileKept.message).toMatch(/^revision conflict: hypothesis hp revision 1 was published before/);
    // A title is content too.
    const titled = await rejection(
      h.publisher.publishHypothesisSaved({ hypothesisId: 'hp', text: BENIGN, title: 'T', revision: 1 }),
    );
    expect(titled.code).toBe('REVISION_CONFLICT');
    // Once the job is gone: the stored verdict names the content.
    await evict(h, 'hypothesis.saved', 'hypothesis.hp.r1');
    const gone = await rejection(h.publisher.publishHypothesisSaved({ hypothesisId: 'hp', text: WEAPON, revision: 1 }));
    expect(gone.code).toBe('REVISION_CONFLICT');
    expect(await h.publisher.queue('hypothesis.saved').getJob('hypothesis.hp.r1')).toBeUndefined();
    // What describes a publish is not content: the same text with a new savedAt is the same revision.
    const again = { hypothesisId: 'hp', text: BENIGN, revision: 1, savedAt: '2026-01-01T00:00:00Z', agent: 'another' };
    expect(await h.publisher.publishHypothesisSaved(again)).toEqual({ jobId: 'hypothesis.hp.r1', created: true });
    await h.waitForJob('hypothesis.saved', 'hypothesis.hp.r1');
    expect(about(await h.events(), 'hp').map((e) => e.type)).toEqual(['hypothesis_assessed']);
  });

  it('added by a client around the publisher, is refused by the worker: held for review, announced once, never allowed', async () => {
    const h = await harness();
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'hc', text: BENIGN, revision: 1 });
    await evict(h, 'hypothesis.saved', 'hypothesis.hc.r1');
    // A client that adds the job itself, with the documented id.
    const conflicting = { hypothesisId: 'hc', text: WEAPON, title: 'Agent X', revision: 1 };
    await addDirectly(h, 'hypothesis.saved', 'hypothesis.hc.r1', conflicting);
    const job = await failed(h, 'hypothesis.saved', 'hypothesis.hc.r1');
    // Before, the job completed with the first text's allow.
    expect(job.returnvalue).toBeNull();
    expect(job.failedReason).toMatch(
      /^revision conflict: hypothesis hc revision 1 was published before with other content/,
    );
    expect(job.attemptsMade).toBe(1);

    const events = about(await h.events(), 'hc');
    expect(events.map((e) => e.type)).toEqual(['hypothesis_assessed', 'revision_conflict']);
    expect(events[1]).toMatchObject({
      eventId: expect.stringMatching(/^revision_conflict\/hc\/r1\/[0-9a-f]{16}$/),
      data: { target: 'hypothesis', id: 'hc', revision: 1, hypothesisId: 'hc', held: true },
    });
    const conflict = events[1]!.data as { content: string; storedContent: string };
    expect(conflict.content).toMatch(/^[0-9a-f]{64}$/);
    expect(conflict.storedContent).toMatch(/^[0-9a-f]{64}$/);
    expect(conflict.content).not.toBe(conflict.storedContent);
    // The held text is kept in the review store; the failed job keeps its digest only.
    const kept = await eventually('the failed job withheld', async () => {
      const data = (await h.publisher.queue('hypothesis.saved').getJob('hypothesis.hc.r1'))?.data as
        { withheldAt?: string } | undefined;
      return data?.withheldAt ? data : undefined;
    });
    expect(JSON.stringify(kept)).not.toContain('weaponise');

    // Held: the reviewer reads the new text as a held item.
    const review = buildReviewService(h.config, h.redis);
    const [item] = (await review.list()).filter((i) => i.hypothesisId === 'hc');
    expect(item).toMatchObject({ hypothesisId: 'hc', revision: 1, state: 'conflict', title: 'Agent X' });
    expect(item!.preview).toContain('weaponise');
    const shown = await review.show('hc');
    expect(shown.state).toBe('conflict');
    expect(shown.conflicts).toEqual([
      expect.objectContaining({
        revision: 1,
        content: conflict.content,
        storedContent: conflict.storedContent,
        open: true,
        subject: expect.objectContaining({ text: WEAPON, title: 'Agent X' }),
      }),
    ]);

    // The same conflicting job again (retried, re-added): nothing announced twice.
    await job.retry('failed');
    await eventually('the retry', async () => {
      const again = await h.publisher.queue('hypothesis.saved').getJob('hypothesis.hc.r1');
      return again && again.attemptsMade > job.attemptsMade && (await again.getState()) === 'failed'
        ? again
        : undefined;
    });
    await (await h.publisher.queue('hypothesis.saved').getJob('hypothesis.hc.r1'))!.remove();
    await addDirectly(h, 'hypothesis.saved', 'hypothesis.hc.r1', conflicting);
    await failed(h, 'hypothesis.saved', 'hypothesis.hc.r1');
    expect(about(await h.events(), 'hc').map((e) => e.type)).toEqual(['hypothesis_assessed', 'revision_conflict']);
    // The text in conflict was never sent to the model.
    expect(model.fake.requests).toHaveLength(1);
  });

  it('costs no model call, even for a text past the classifier windows, which the verdict cache does not cover', async () => {
    const h = await harness();
    const long = 'Background on membrane transport. '.repeat(4000);
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'hl', text: long, revision: 1 });
    await evict(h, 'hypothesis.saved', 'hypothesis.hl.r1');
    const calls = model.fake.requests.length;
    expect(calls).toBeGreaterThan(1);
    await addDirectly(h, 'hypothesis.saved', 'hypothesis.hl.r1', {
      hypothesisId: 'hl',
      text: `Other. ${long}`,
      revision: 1,
    });
    const job = await failed(h, 'hypothesis.saved', 'hypothesis.hl.r1');
    expect(job.failedReason).toMatch(/^revision conflict: /);
    expect(model.fake.requests).toHaveLength(calls);
  });

  it('holds the hypothesis out of a final report until a person confirms it, and it stays withheld', async () => {
    const h = await harness({ review: { api_token: REVIEW_TOKEN } });
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'hr', text: BENIGN, revision: 1 });
    await evict(h, 'hypothesis.saved', 'hypothesis.hr.r1');
    await addDirectly(h, 'hypothesis.saved', 'hypothesis.hr.r1', { hypothesisId: 'hr', text: WEAPON, revision: 1 });
    await failed(h, 'hypothesis.saved', 'hypothesis.hr.r1');

    const sections = [{ text: 'Intro.' }, { text: 'Section on hr.', hypothesisId: 'hr' }];
    const report = await h.publisher.finalizeReport({ reportId: 'rep-hr', sections }, { wait: true });
    expect(report.redactions).toEqual([{ index: 1, hypothesisId: 'hr', state: 'conflict' }]);
    expect(report.text).not.toContain('Section on hr.');

    // The API: in the queue by its state, and it cannot be released, only confirmed.
    const base = baseUrl(h);
    const page = (await call(base, 'GET', '/review/api/items?state=conflict')).json() as {
      items: Array<{ hypothesisId: string }>;
      counts: { state: Record<string, number> };
    };
    expect(page.items.map((i) => i.hypothesisId)).toEqual(['hr']);
    expect(page.counts.state.conflict).toBe(1);
    const decision = { by: 'Ada Lovelace', note: 'read it: this text must not go out', revision: 1 };
    const release = await call(base, 'POST', '/review/api/items/hr/release', { body: decision });
    expect(release.status).toBe(409);
    expect(release.json().error?.code).toBe('REVISION_CONFLICT');
    const confirm = await call(base, 'POST', '/review/api/items/hr/confirm', { body: decision });
    expect(confirm.status).toBe(200);
    const confirmed = confirm.json() as { decision: { decision: string; content: string }; conflicts: unknown[] };
    expect(confirmed.decision.decision).toBe('confirmed');
    expect(confirmed.conflicts).toHaveLength(1);

    const review = buildReviewService(h.config, h.redis);
    expect((await review.list()).map((i) => i.hypothesisId)).not.toContain('hr');
    const shown = await review.show('hr');
    expect(shown.state).toBe('confirmed');
    expect(shown.conflicts[0]).toMatchObject({ open: false, decision: { by: 'Ada Lovelace' } });
    expect(shown.history).toEqual([
      expect.objectContaining({ type: 'hypothesis_confirmed', revision: 1, content: confirmed.decision.content }),
    ]);
    const confirmedEvents = about(await h.events(), 'hr').filter((e) => e.type === 'hypothesis_confirmed');
    expect(confirmedEvents.map((e) => e.eventId)).toEqual([
      expect.stringMatching(/^hypothesis_confirmed\/hr\/r1\/[0-9a-f]{16}$/),
    ]);
    // Confirmed is withheld for good: a later report still redacts the section.
    const again = await h.publisher.finalizeReport({ reportId: 'rep-hr', revision: 1, sections }, { wait: true });
    expect(again.redactions).toEqual([{ index: 1, hypothesisId: 'hr', state: 'confirmed' }]);
  });
});

describe('a decision', () => {
  it('belongs to the text it was made on: once the job is gone, r1 with other text does not inherit its release', async () => {
    const h = await harness();
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'hd', text: RISKY, revision: 1 });
    await h.waitForJob('hypothesis.saved', 'hypothesis.hd.r1');
    const review = buildReviewService(h.config, h.redis);
    const released = await review.decide('released', { hypothesisId: 'hd', by: 'Dr Ada', note: 'benign assay' });
    await evict(h, 'hypothesis.saved', 'hypothesis.hd.r1');

    // Added around the publisher: the worker refuses it; nothing says released for this text
    // (before, the job completed with state released).
    await addDirectly(h, 'hypothesis.saved', 'hypothesis.hd.r1', { hypothesisId: 'hd', text: WEAPON, revision: 1 });
    const job = await failed(h, 'hypothesis.saved', 'hypothesis.hd.r1');
    expect(job.returnvalue).toBeNull();
    expect(job.failedReason).toMatch(/^revision conflict: /);
    expect((await review.show('hd')).state).toBe('conflict');
    expect(about(await h.events(), 'hd').map((e) => e.type)).toEqual([
      'hypothesis_assessed',
      'hypothesis_quarantined',
      'hypothesis_released',
      'revision_conflict',
    ]);

    // Through the publisher: refused at once.
    await job.remove();
    const refused = await rejection(
      h.publisher.publishHypothesisSaved({ hypothesisId: 'hd', text: WEAPON, revision: 1 }),
    );
    expect(refused.code).toBe('REVISION_CONFLICT');

    // The text the release was made on, published again: its job runs, and says the revision is in conflict.
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'hd', text: RISKY, revision: 1 });
    await h.waitForJob('hypothesis.saved', 'hypothesis.hd.r1');
    const rerun = await h.publisher.queue('hypothesis.saved').getJob('hypothesis.hd.r1');
    // Its release is on record, and the other text under the same revision holds the revision.
    expect(rerun!.returnvalue).toMatchObject({ verdict: { action: 'quarantine' }, state: 'conflict' });
    // The release names the content it was made on.
    expect(released.decision.content).toMatch(/^[0-9a-f]{64}$/);
    expect((await review.show('hd')).revision).toBe(1);
  });
});

describe('an older revision published after a newer one', () => {
  it('announces no allow while the newer revision is held, and does once it is released', async () => {
    const h = await harness();
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'ho', text: RISKY, revision: 2 });
    await h.waitForJob('hypothesis.saved', 'hypothesis.ho.r2');
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'ho', text: BENIGN, revision: 1 });
    await h.waitForJob('hypothesis.saved', 'hypothesis.ho.r1');
    const late = await h.publisher.queue('hypothesis.saved').getJob('hypothesis.ho.r1');
    // Its own verdict is kept, and is its own: allow.
    expect(late!.returnvalue).toMatchObject({ revision: 1, verdict: { action: 'allow' } });
    let events = about(await h.events(), 'ho');
    expect(events.map((e) => [e.type, (e.data as { revision: number }).revision])).toEqual([
      ['hypothesis_assessed', 2],
      ['hypothesis_quarantined', 2],
    ]);
    expect(allows(events)).toEqual([]);

    // Run again (a retry from a dashboard): still nothing.
    await late!.retry('completed');
    await eventually('the re-run', async () => {
      const again = await h.publisher.queue('hypothesis.saved').getJob('hypothesis.ho.r1');
      return again?.finishedOn !== undefined && again.attemptsMade === late!.attemptsMade + 1 ? again : undefined;
    });
    expect(allows(about(await h.events(), 'ho'))).toEqual([]);

    // Once a person released revision 2, the hypothesis is shown: a late revision's allow may be announced.
    await buildReviewService(h.config, h.redis).decide('released', { hypothesisId: 'ho', by: 'Dr Ada', note: 'ok' });
    await h.publisher.publishHypothesisSaved({ hypothesisId: 'ho', text: `${BENIGN} Again.`, revision: 0 });
    await h.waitForJob('hypothesis.saved', 'hypothesis.ho.r0');
    events = about(await h.events(), 'ho');
    expect(allows(events).map((e) => (e.data as { revision: number }).revision)).toEqual([0]);
  });
});

describe('reviews, reports and goals', () => {
  it('a report revision finalized again with other sections is refused, by the publisher and by the worker', async () => {
    const h = await harness();
    const first = await h.publisher.finalizeReport(
      { reportId: 'rc', sections: [{ text: 'Findings, first draft.' }] },
      { wait: true },
    );
    expect(first.publishable).toBe(true);
    // Before, this answered the first draft's check as the second's.
    const second = await rejection(
      h.publisher.finalizeReport({ reportId: 'rc', sections: [{ text: 'Findings, second draft.' }] }, { wait: true }),
    );
    expect(second.code).toBe('REVISION_CONFLICT');
    // The same sections again: the stored check, as before.
    expect(
      await h.publisher.finalizeReport(
        { reportId: 'rc', sections: [{ text: 'Findings, first draft.' }] },
        { wait: true },
      ),
    ).toMatchObject({ created: false, text: first.text });

    await evict(h, 'report.finalized', 'report.rc.r0');
    await addDirectly(h, 'report.finalized', 'report.rc.r0', { reportId: 'rc', sections: [{ text: 'Third draft.' }] });
    const job = await failed(h, 'report.finalized', 'report.rc.r0');
    expect(job.failedReason).toMatch(
      /^revision conflict: report rc revision 0 was published before with other content/,
    );
    const conflicts = (await h.events()).filter((e) => e.type === 'revision_conflict');
    expect(conflicts).toEqual([
      expect.objectContaining({
        eventId: expect.stringMatching(/^revision_conflict\/rc\/r0\/[0-9a-f]{16}$/),
        data: expect.objectContaining({ target: 'report', id: 'rc', revision: 0, held: false }),
      }),
    ]);
  });

  it('a review revision recorded again with other evidence is refused, by the publisher and by the worker', async () => {
    const h = await harness({ safety: { enable_citation_verifier: false } });
    const evidence = [{ claim: 'X binds Y', url: 'https://example.org/a', excerpt: 'X binds Y' }];
    await h.publisher.publishReviewRecorded({ reviewId: 'rv', hypothesisId: 'h-1', evidence });
    await h.waitForJob('review.recorded', 'review.rv.r0');
    const other = [{ claim: 'X binds Z', url: 'https://example.org/b', excerpt: 'X binds Z' }];
    expect(
      (await rejection(h.publisher.publishReviewRecorded({ reviewId: 'rv', hypothesisId: 'h-1', evidence: other })))
        .code,
    ).toBe('REVISION_CONFLICT');
    // seenUrls are a set: their order names no other content.
    await h.publisher.publishReviewRecorded({ reviewId: 'rs', hypothesisId: 'h-1', evidence, seenUrls: ['b', 'a'] });
    expect(
      await h.publisher.publishReviewRecorded({ reviewId: 'rs', hypothesisId: 'h-1', evidence, seenUrls: ['a', 'b'] }),
    ).toEqual({ jobId: 'review.rs.r0', created: false });

    await evict(h, 'review.recorded', 'review.rv.r0');
    await addDirectly(h, 'review.recorded', 'review.rv.r0', { reviewId: 'rv', hypothesisId: 'h-1', evidence: other });
    const job = await failed(h, 'review.recorded', 'review.rv.r0');
    expect(job.failedReason).toMatch(/^revision conflict: review rv revision 0/);
    const events = (await h.events()).filter(
      (e) =>
        (e.data as { reviewId?: string; id?: string }).reviewId === 'rv' || (e.data as { id?: string }).id === 'rv',
    );
    expect(events.map((e) => e.type)).toEqual(['review_verified', 'revision_conflict']);
    expect(events[1]!.data).toMatchObject({ target: 'review', id: 'rv', hypothesisId: 'h-1', held: false });
  });

  it('a goal submitted again with other text is refused while its job is kept, not answered with the first verdict', async () => {
    const h = await harness();
    const first = await h.publisher.submitGoal({ goalId: 'gc', text: 'Map kinase networks in yeast.' }, { wait: true });
    expect(first.verdict.action).toBe('allow');
    const other = await rejection(
      h.publisher.submitGoal({ goalId: 'gc', text: 'Make nerve agent @@cbrn@0.99@@' }, { wait: true }),
    );
    expect(other.code).toBe('REVISION_CONFLICT');
    expect(other.message).toMatch(/^revision conflict: goal gc was published before with other content/);
    expect(
      await h.publisher.submitGoal({ goalId: 'gc', text: 'Map kinase networks in yeast.' }, { wait: true }),
    ).toMatchObject({ created: false, verdict: { action: 'allow' } });
  });
});
