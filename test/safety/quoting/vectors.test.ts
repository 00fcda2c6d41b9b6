import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { quoteHypothesis, quoteText, quoteUntrusted } from '../../../src/safety/quoting/index.js';

interface VectorCase {
  name: string;
  function: 'quoteUntrusted' | 'quoteHypothesis' | 'quoteText';
  id: string;
  datamark: boolean;
  input: string;
  expected: { text: string; id: string; hash: string; marker?: string; report: unknown };
}

const vectors = JSON.parse(readFileSync(new URL('../../../test-vectors/quoting.json', import.meta.url), 'utf8')) as {
  key: string;
  cases: VectorCase[];
};

describe('test vectors (test-vectors/quoting.json)', () => {
  it('has cases for the main behaviours', () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(30);
    expect(vectors.cases.some((c) => c.datamark)).toBe(true);
    expect(vectors.cases.some((c) => c.function === 'quoteHypothesis')).toBe(true);
    expect(vectors.cases.some((c) => c.function === 'quoteText')).toBe(true);
  });

  for (const c of vectors.cases) {
    it(c.name, () => {
      // The vectors leave the detector out (scripts/generate-test-vectors.ts).
      const options = { key: vectors.key, datamark: c.datamark, detect: false };
      const q =
        c.function === 'quoteHypothesis'
          ? quoteHypothesis(c.input, c.id, options)
          : c.function === 'quoteText'
            ? quoteText(c.input, c.id, options)
            : quoteUntrusted(c.input, { ...options, id: c.id });
      expect(q.text).toBe(c.expected.text);
      expect(q.hash).toBe(c.expected.hash);
      expect(q.id).toBe(c.expected.id);
      expect(q.marker).toBe(c.expected.marker);
      expect(q.report).toEqual(c.expected.report);
    });
  }
});
