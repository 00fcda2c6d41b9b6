import { describe, expect, it } from 'vitest';
import { detectInjection } from '../../../src/safety/injection/index.js';
import { ATTACKER_EXAMPLES, ATTACK_EXAMPLES, BENIGN_EXAMPLES, dnaSequence } from './attacker-examples.js';

describe('attacker examples: the fixtures', () => {
  it('names each example once', () => {
    const names = ATTACKER_EXAMPLES.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('finds each injected part verbatim in its text, once', () => {
    for (const e of ATTACKER_EXAMPLES.filter((x) => x.injected !== undefined)) {
      const at = e.text.indexOf(e.injected!);
      expect(at, e.name).toBeGreaterThanOrEqual(0);
      expect(e.text.indexOf(e.injected!, at + 1), e.name).toBe(-1);
    }
  });

  it('keeps the DNA sequence 300 bases of ACGT, the same on every call', () => {
    const dna = dnaSequence(300);
    expect(dna).toMatch(/^[ACGT]{300}$/);
    expect(dnaSequence(300)).toBe(dna);
    // All four bases occur: a broken generator stuck on one value would not test much.
    for (const b of 'ACGT') expect(dna).toContain(b);
  });

  it('places the long abstract’s attack in its middle, among some 400 words', () => {
    const e = ATTACK_EXAMPLES.find((x) => x.name === 'attack in the middle of a 400-word abstract')!;
    const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
    expect(words(e.text)).toBeGreaterThanOrEqual(380);
    expect(words(e.text)).toBeLessThanOrEqual(440);
    const at = e.text.indexOf(e.injected!);
    expect(words(e.text.slice(0, at))).toBeGreaterThan(150);
    expect(words(e.text.slice(at + e.injected!.length))).toBeGreaterThan(150);
  });
});

describe('attacker examples: suspected', () => {
  for (const e of ATTACK_EXAMPLES) {
    it(e.name, () => {
      const d = detectInjection(e.text);
      expect(d.suspected, `score ${d.score}`).toBe(true);
      expect(d.span).toBeDefined();
      if (e.injected !== undefined) {
        const from = e.text.indexOf(e.injected);
        const to = from + e.injected.length;
        const { start, end } = d.span!;
        // Overlap, not containment: a span may be a model window wider than the attack.
        expect(start < to && end > from, `span ${JSON.stringify(e.text.slice(start, end))}`).toBe(true);
      }
    });
  }
});

describe('attacker examples: not suspected', () => {
  for (const e of BENIGN_EXAMPLES) {
    it(e.name, () => {
      const d = detectInjection(e.text);
      expect(d.suspected, `score ${d.score}`).toBe(false);
    });
  }
});
