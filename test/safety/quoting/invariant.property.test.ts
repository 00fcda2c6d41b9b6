/**
 * The invariant of Layer 1, property-tested: whatever the input, the output
 * holds exactly one open and one close tag of ours, both with the right id and
 * hash, and nothing between them reads as a tag of ours.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findTags, quoteHypothesis, quoteUntrusted, verifyQuoted } from '../../../src/safety/quoting/index.js';
import { input } from '../../support/quoting-arbitraries.js';

const KEY = 'f0e1d2c3b4a5968778695a4b3c2d1e0f00112233445566778899aabbccddeeff';
const RUNS = 100_000;

describe('quoting invariant', () => {
  it(`holds for ${RUNS.toLocaleString('en')} generated inputs`, () => {
    fc.assert(
      fc.property(
        input,
        fc.boolean(),
        fc.boolean(),
        fc.string({ minLength: 1, maxLength: 10 }),
        (text, hypothesis, mark, id) => {
          const q = hypothesis
            ? quoteHypothesis(text, id, { key: KEY, datamark: mark })
            : quoteUntrusted(text, { id, key: KEY, datamark: mark });
          const tag = hypothesis ? 'HYPOTHESIS_TEXT' : 'UNTRUSTED_SOURCE';
          const open = `<${tag} id="${q.id}" hash="${q.hash}">`;
          const close = `</${tag}_END id="${q.id}" hash="${q.hash}">`;
          expect(q.text).toBe(`${open}\n${q.content}\n${close}`);
          // Exactly two tags in the whole output, and they are ours.
          const spans = findTags(q.text);
          expect(spans).toEqual([
            { start: 0, end: open.length },
            { start: q.text.length - close.length, end: q.text.length },
          ]);
          expect(findTags(q.content)).toEqual([]);
          expect(verifyQuoted(q.text, { key: KEY })).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  }, 600_000);
});
