/**
 * The final-report check end to end: real Redis, real BullMQ workers, the
 * real SDK against a loopback Messages API server. Sections of held
 * hypotheses are redacted (or block the report), a released one is shown,
 * and the report's own text is classified.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PayloadError } from '../../src/errors.js';
import type { ReportResult } from '../../src/contracts/results.js';
import { buildReviewService } from '../../src/runtime/builders.js';
import { createReportStore } from '../../src/store/report-store.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { testConfig } from '../support/config.js';
import { startHarness, type Harness } from '../support/pipeline.js';

let fake: FakeAnthropic;
const harnesses: Harness[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic(markerHandler);
});
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.stop()));
});
afterAll(async () => {
  await fake.close();
});

async function harness(mode: 'redact' | 'block' | 'off' = 'redact') {
  const h = await startHarness(testConfig(fake.url, { safety: { final_report_check: mode } }));
  harnesses.push(h);
  return h;
}

async function classify(h: Harness, hypothesisId: string, text: string) {
  await h.publisher.publishHypothesisSaved({ hypothesisId, text, revision: 1 });
  await h.waitForJob('hypothesis.saved', `hypothesis.${hypothesisId}.r1`);
}

const reportEvents = async (h: Harness) =>
  (await h.events()).filter((e) => e.type.startsWith('report_')).map((e) => [e.type, e.data] as const);

describe('final report, redact mode', () => {
  it('redacts the section of a quarantined hypothesis and not of a released or assessed one', async () => {
    const h = await harness('redact');
    await classify(h, 'h-held', 'Risky @@dual_use_bio@0.9@@');
    await classify(h, 'h-released', 'Also risky @@dual_use_bio@0.8@@');
    await classify(h, 'h-fine', 'Kinase signalling in yeast.');
    await buildReviewService(h.config, h.redis).decide('released', {
      hypothesisId: 'h-released',
      by: 'Dr Okafor',
      note: 'standard lab assay',
    });

    const payload = {
      reportId: 'rep-1',
      runId: 'run-9',
      sections: [
        { text: 'Introduction: we studied kinases.' },
        { text: 'SECRET HELD DETAILS of h-held', hypothesisId: 'h-held' },
        { text: 'Released work on h-released', hypothesisId: 'h-released' },
        { text: 'Plain result on h-fine', hypothesisId: 'h-fine' },
        { text: 'A section about a hypothesis never classified', hypothesisId: 'h-unknown' },
      ],
    };
    const result = await h.publisher.finalizeReport(payload, { wait: true, timeoutMs: 10_000 });
    expect(result).toMatchObject({ outcome: 'redacted', publishable: true, mode: 'redact', jobId: 'report.rep-1.r0' });
    expect(result.redactions).toEqual([
      { index: 1, hypothesisId: 'h-held', state: 'quarantined' },
      { index: 4, hypothesisId: 'h-unknown', state: 'unassessed' },
    ]);
    expect(result.text).not.toContain('SECRET HELD DETAILS');
    expect(result.text).toContain('[Redacted: this section presents hypothesis h-held, which is quarantined');
    expect(result.text).toContain('Released work on h-released');
    expect(result.text).toContain('Plain result on h-fine');
    // The model saw the redacted report, not the withheld section.
    const last = fake.requests.at(-1)!;
    expect(last.text).toContain('[Redacted: this section presents hypothesis h-held');
    expect(last.text).not.toContain('SECRET HELD DETAILS');

    const events = await reportEvents(h);
    expect(events).toHaveLength(1);
    expect(events[0]![0]).toBe('report_redacted');
    expect(events[0]![1]).toMatchObject({ reportId: 'rep-1', runId: 'run-9', outcome: 'redacted', action: 'allow' });

    // Stored by report id: a second finalize of the same revision is the same job and the same result.
    const again = await h.publisher.finalizeReport({ ...payload, runId: 'run-10' }, { wait: true, timeoutMs: 10_000 });
    expect(again.created).toBe(false);
    expect(again.text).toBe(result.text);
    // Other sections under it are not that revision: refused, never answered with its check.
    await expect(
      h.publisher.finalizeReport(
        { reportId: 'rep-1', runId: 'run-9', sections: [{ text: 'changed' }] },
        { wait: true, timeoutMs: 10_000 },
      ),
    ).rejects.toMatchObject({ code: 'REVISION_CONFLICT' });
    expect(await reportEvents(h)).toHaveLength(1);
  });

  it('blocks a report whose own text is dangerous, and clears a clean one', async () => {
    const h = await harness('redact');
    const blocked = await h.publisher.finalizeReport(
      { reportId: 'rep-danger', sections: [{ text: 'Intro.' }, { text: 'Synthesis route @@weapons@0.9@@' }] },
      { wait: true, timeoutMs: 10_000 },
    );
    expect(blocked).toMatchObject({ outcome: 'blocked', publishable: false, blockedBy: 'report_verdict' });
    expect(blocked.verdict?.action).toBe('block');
    // The text the classifier holds is kept nowhere: not in the result, the store, or the job.
    expect(blocked.text).toBe(
      '[Withheld: this report was judged weapons by the safety classifier (block); its text is not kept. ' +
        'Revise it and finalize a new revision.]',
    );
    const stored = await createReportStore(h.redis, h.config.redis.key_prefix).get('rep-danger', 0);
    expect(stored?.text).toBe(blocked.text);
    const job = await h.publisher.queue('report.finalized').getJob(blocked.jobId);
    expect(JSON.stringify(job!.returnvalue)).not.toContain('Synthesis route');
    const cleared = await h.publisher.finalizeReport(
      { reportId: 'rep-clean', sections: [{ text: 'Kinases regulate the cell cycle.' }] },
      { wait: true, timeoutMs: 10_000 },
    );
    expect(cleared).toMatchObject({ outcome: 'cleared', publishable: true, redactions: [] });
    expect((await reportEvents(h)).map(([type]) => type).sort()).toEqual(['report_blocked', 'report_cleared']);
  });
});

describe('final report, not cleanly classified', () => {
  it('is held, and announced by a classifier_degraded event like a hypothesis or a goal', async () => {
    const h = await startHarness(testConfig(undefined, { safety: { final_report_check: 'redact' } }));
    harnesses.push(h);
    const result = await h.publisher.finalizeReport(
      { reportId: 'rep-nokey', revision: 2, sections: [{ text: 'Kinases regulate the cell cycle.' }] },
      { wait: true, timeoutMs: 10_000 },
    );
    expect(result.verdict).toMatchObject({ degraded: true, reason: 'no_api_key', action: 'quarantine' });
    expect(result.text).toMatch(/^\[Withheld: this report could not be cleanly classified \(no_api_key\) and is held;/);
    const events = await h.waitForEvents((e) => e.some((x) => x.type === 'classifier_degraded'));
    const degraded = events.filter((e) => e.type === 'classifier_degraded');
    expect(degraded).toHaveLength(1);
    expect(degraded[0]!.eventId).toBe('classifier_degraded/rep-nokey/r2');
    expect(degraded[0]!.data).toEqual({
      target: 'report',
      id: 'rep-nokey',
      revision: 2,
      reason: 'no_api_key',
      action: 'quarantine',
      model: result.verdict!.model,
    });
  });
});

describe('final report, block mode', () => {
  it('blocks a report presenting any held hypothesis, and clears one that does not', async () => {
    const h = await harness('block');
    await classify(h, 'b-held', 'Weapon @@weapons@0.8@@');
    await classify(h, 'b-fine', 'Plain.');
    const blocked: ReportResult = await h.publisher.finalizeReport(
      {
        reportId: 'rep-b',
        sections: [
          { text: 'x', hypothesisId: 'b-fine' },
          { text: 'y', hypothesisId: 'b-held' },
        ],
      },
      { wait: true, timeoutMs: 10_000 },
    );
    expect(blocked).toMatchObject({ outcome: 'blocked', publishable: false, blockedBy: 'held_hypotheses' });
    expect(blocked.redactions).toEqual([{ index: 1, hypothesisId: 'b-held', state: 'blocked' }]);
    const fine = await h.publisher.finalizeReport(
      { reportId: 'rep-b2', sections: [{ text: 'x', hypothesisId: 'b-fine' }] },
      { wait: true, timeoutMs: 10_000 },
    );
    expect(fine).toMatchObject({ outcome: 'cleared', publishable: true });
    const [event] = (await reportEvents(h)).filter(([type]) => type === 'report_blocked');
    expect(event![1]).toMatchObject({ blockedBy: 'held_hypotheses', redacted: [{ hypothesisId: 'b-held' }] });
  });
});

describe('final report, off', () => {
  it('passes the report unchecked, says so, and emits nothing', async () => {
    const h = await harness('off');
    await classify(h, 'o-held', 'Risky @@dual_use_bio@0.9@@');
    const before = fake.requests.length;
    const result = await h.publisher.finalizeReport(
      { reportId: 'rep-off', sections: [{ text: 'a', hypothesisId: 'o-held' }, { text: 'b' }] },
      { wait: true, timeoutMs: 10_000 },
    );
    expect(result).toMatchObject({ outcome: 'skipped', mode: 'off', publishable: true, text: 'a\n\nb' });
    expect(result.verdict).toBeUndefined();
    expect(fake.requests.length).toBe(before);
    expect(await reportEvents(h)).toEqual([]);
  });
});

describe('report payloads', () => {
  it('rejects a bad payload at publish time, naming the field', async () => {
    const h = await harness();
    const err = await h.publisher.finalizeReport({ reportId: 'r', sections: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PayloadError);
    expect((err as PayloadError).fields).toEqual(['sections']);
  });

  it('fails a malformed job published straight to the queue, with the field, and the worker goes on', async () => {
    const h = await harness();
    await h.publisher.queue('report.finalized').add('report.finalized', { reportId: 7 }, { jobId: 'bad-report' });
    await h.waitForJob('report.finalized', 'bad-report', 'failed');
    const job = await h.publisher.queue('report.finalized').getJob('bad-report');
    expect(job!.failedReason).toContain('reportId');
    const ok = await h.publisher.finalizeReport(
      { reportId: 'after-bad', sections: [{ text: 'fine' }] },
      { wait: true, timeoutMs: 10_000 },
    );
    expect(ok.outcome).toBe('cleared');
  });
});
