/**
 * The provenance fields (docs/citations.md#provenance) are new and optional:
 * a result stored before them still reads, in zod and against the JSON
 * Schema that schemas/ publishes, and a result with them passes both.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ReviewVerificationSchema } from '../src/contracts/results.js';

const before = {
  reviewId: 'r-1',
  hypothesisId: 'h-1',
  revision: 1,
  skipped: false,
  results: [
    {
      index: 0,
      url: 'https://example.org/paper',
      status: 'ok',
      excerptLen: 8,
      source: 'text',
      citation_unverified: false,
    },
  ],
  summary: { 'https://example.org/paper': { status: 'ok', excerpt_len: 8 } },
  counts: { ok: 1, unverified: 0, fetch_failed: 0 },
  verifiedAt: '2026-01-01T00:00:00.000Z',
};
const now = {
  ...before,
  results: [
    {
      ...before.results[0],
      location: { start: 12, end: 20, textFragmentUrl: 'https://example.org/paper#:~:text=kinase%20x' },
    },
  ],
  pages: {
    'https://example.org/paper': {
      finalUrl: 'https://example.org/paper',
      status: 200,
      contentType: 'text/html',
      fetchedAt: '2026-01-01T00:00:00.000Z',
      textSha256: 'a'.repeat(64),
      textVersion: 7,
    },
  },
};

describe('the provenance of a review result', () => {
  it('is optional: a result stored before it reads as it was, and one with it keeps it', () => {
    expect(ReviewVerificationSchema.parse(before)).toEqual(before);
    expect(ReviewVerificationSchema.parse(now)).toEqual(now);
  });

  it('is in the published JSON Schema, and not required there', () => {
    const schema = JSON.parse(readFileSync('schemas/result.review.recorded.json', 'utf8')) as Record<string, unknown>;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(before), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(now), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...now, pages: { x: { status: 200 } } })).toBe(false);
  });
});
