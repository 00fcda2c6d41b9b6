import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jsonSchemas } from '../src/contracts/json-schema.js';
import { goalJobId, hypothesisJobId, HypothesisSavedSchema } from '../src/contracts/payloads.js';

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
