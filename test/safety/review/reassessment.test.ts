import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../../src/safety/classification/verdict.js';
import { isReassessable, makeReassessment, reassessOutcome } from '../../../src/safety/review/reassessment.js';

const verdict = (more: Partial<Verdict>): Verdict => ({
  action: 'quarantine',
  categories: [],
  confidence: 0,
  rationale: '',
  degraded: true,
  reason: 'no_api_key',
  model: 'm',
  refusal: false,
  promptVersion: 'p',
  windows: 1,
  windowed: false,
  cached: false,
  ...more,
});

describe('reassessment', () => {
  it('asks again only a degraded verdict, and takes only a clean answer', () => {
    expect(isReassessable(verdict({}))).toBe(true);
    expect(isReassessable(verdict({ degraded: false, reason: undefined }))).toBe(false);
    expect(reassessOutcome(verdict({ reason: 'overloaded' }))).toEqual({
      outcome: 'still_degraded',
      reason: 'overloaded',
    });
    const allow = verdict({ action: 'allow', degraded: false, reason: undefined, categories: ['none'] });
    expect(reassessOutcome(allow)).toMatchObject({ outcome: 'reassessed', leaves: true });
    expect(reassessOutcome({ ...allow, action: 'warn' })).toMatchObject({ leaves: true });
    expect(reassessOutcome({ ...allow, action: 'block' })).toMatchObject({ leaves: false });
    expect(reassessOutcome({ ...allow, action: 'quarantine' })).toMatchObject({ leaves: false });
  });

  it('records the degraded verdict it replaces', () => {
    const r = makeReassessment('h', 2, verdict({}), 'Dr Rao', 'n', new Date(Date.UTC(2026, 0, 1)));
    expect(r).toEqual({
      hypothesisId: 'h',
      revision: 2,
      by: 'Dr Rao',
      note: 'n',
      at: '2026-01-01T00:00:00.000Z',
      previous: { action: 'quarantine', categories: [], confidence: 0, reason: 'no_api_key' },
    });
  });
});
