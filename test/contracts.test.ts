import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentDigest } from '../src/contracts/content.js';
import { jsonSchemas } from '../src/contracts/json-schema.js';
import { goalJobId, hypothesisJobId, HypothesisSavedSchema } from '../src/contracts/payloads.js';
import { parsePayload } from '../src/contracts/queues.js';
import { withheldData } from '../src/processors/completed-data.js';

describe('contract', () => {
  it('schemas/ holds the JSON Schema generated from the zod schemas (npm run schemas)', () => {
    const expected = jsonSchemas();
    const dir = new URL('../schemas/', import.meta.url);
    expect(readdirSync(dir).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, schema] of Object.entries(expected)) {
      expect(JSON.parse(readFileSync(new URL(name, dir), 'utf8')), name).toEqual(JSON.parse(JSON.stringify(schema)));
    }
  });

  it('gives deterministic job ids that BullMQ accepts', () => {
    expect(hypothesisJobId('hyp:42/a', 3)).toBe('hypothesis.hyp%3A42%2Fa.r3');
    expect(hypothesisJobId('hyp:42/a', 3)).not.toContain(':');
    expect(goalJobId('g 1')).toBe('goal.g%201');
  });

  it('defaults revision to 0 and bounds ids', () => {
    expect(HypothesisSavedSchema.parse({ hypothesisId: 'h', text: 't' }).revision).toBe(0);
    expect(HypothesisSavedSchema.safeParse({ hypothesisId: 'a b', text: 't' }).success).toBe(false);
    expect(HypothesisSavedSchema.safeParse({ hypothesisId: 'h', text: 't', savedAt: 'yesterday' }).success).toBe(false);
    expect(
      HypothesisSavedSchema.safeParse({ hypothesisId: 'h', text: 't', savedAt: '2026-11-30T12:00:00Z' }).success,
    ).toBe(true);
  });
});

describe('the content digest', () => {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const hyp = (data: object) => contentDigest('hypothesis.saved', parsePayload('hypothesis.saved', data), data);

  it('is the documented SHA-256 of the queue and its parts, each text as its own SHA-256', () => {
    expect(hyp({ hypothesisId: 'h', text: 'T' })).toBe(sha(`["hypothesis.saved","${sha('T')}",null]`));
    expect(hyp({ hypothesisId: 'h', text: 'T', title: '' })).toBe(
      sha(`["hypothesis.saved","${sha('T')}","${sha('')}"]`),
    );
  });

  it('covers what is judged, not what describes a publish', () => {
    const base = { hypothesisId: 'h', text: 'Kinase X.', revision: 1 };
    expect(hyp({ ...base, runId: 'r', agent: 'a', goalId: 'g', savedAt: '2026-01-01T00:00:00Z' })).toBe(hyp(base));
    expect(hyp({ ...base, text: 'Kinase Y.' })).not.toBe(hyp(base));
    // The title and the text stay apart: moving words between them is other content.
    expect(hyp({ ...base, title: 'Kinase', text: 'X.' })).not.toBe(hyp({ ...base, text: 'Kinase\n\nX.' }));
  });

  it('is the same for a completed job whose texts are withheld', () => {
    const data = { hypothesisId: 'h', text: 'Kinase X.', title: 'Title', revision: 1 };
    expect(hyp(withheldData('hypothesis.saved', data, new Date())!)).toBe(hyp(data));
    const report = { reportId: 'r', sections: [{ text: 'Intro.' }, { text: 'On h.', hypothesisId: 'h' }] };
    const digest = (d: object) => contentDigest('report.finalized', parsePayload('report.finalized', d), d);
    expect(digest(withheldData('report.finalized', report, new Date())!)).toBe(digest(report));
  });
});
