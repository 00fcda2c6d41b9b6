/**
 * The invariant of Layer 1, property-tested: whatever the input, the output
 * holds exactly one open and one close tag of ours, both with the right id and
 * hash, and nothing between them reads as a tag of ours.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findTags, quoteHypothesis, quoteUntrusted, verifyQuoted } from '../../../src/safety/quoting/index.js';

const KEY = 'f0e1d2c3b4a5968778695a4b3c2d1e0f00112233445566778899aabbccddeeff';
const RUNS = 100_000;

const NAMES = ['UNTRUSTED_SOURCE_END', 'UNTRUSTED_SOURCE', 'HYPOTHESIS_TEXT_END', 'HYPOTHESIS_TEXT', 'TEXT'];
const OPENERS = [
  '<',
  '</',
  '< /',
  '<\n/',
  '＜',
  '‹',
  '⟨',
  '〈',
  '〈',
  '«',
  '﹤',
  '&lt;',
  '&LT',
  '&#60;',
  '&#x3c;',
  '&amp;lt;',
  '%3C',
  '\\u003c',
  '<\\/',
  '≮',
  '︿',
];
const CLOSERS = ['>', '/>', ' >', '＞', '›', '⟩', '〉', '»', '﹥', '&gt;', '&#62;', '%3E', '\\u003e', ''];
const INVISIBLE = [
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u00ad',
  '\u202e',
  '\u2066',
  '\u{e0041}',
  '\u{e007f}',
  '\u180e',
  '\u0338',
];
const CONFUSABLE: Record<string, string[]> = {
  E: ['Е', 'Ε', 'ᴇ'],
  O: ['О', 'Ο'],
  T: ['Т', 'Τ'],
  X: ['Х', 'Χ'],
  S: ['Ѕ'],
  H: ['Н', 'Η'],
  I: ['І', 'Ι'],
  P: ['Р', 'Ρ'],
  U: ['ᴜ'],
  N: ['Ν'],
};

/** A tag name, disguised by case, separators, invisible and confusable letters. */
const disguisedName = fc
  .tuple(
    fc.constantFrom(...NAMES),
    fc.array(fc.tuple(fc.nat(40), fc.constantFrom(...INVISIBLE, ' ', '-', '.', '')), { maxLength: 3 }),
    fc.boolean(),
    fc.nat(),
  )
  .map(([name, inserts, lower, seed]) => {
    let chars = [...name].map((c, i) => {
      const options = CONFUSABLE[c];
      return options && (seed >> (i % 30)) & 1 ? options[(seed + i) % options.length]! : c;
    });
    if (lower) chars = chars.map((c) => c.toLowerCase());
    for (const [at, ch] of inserts) chars.splice(1 + (at % chars.length), 0, ch);
    return chars.join('');
  });

const tagLike = fc
  .tuple(
    fc.constantFrom(...OPENERS),
    disguisedName,
    fc.constantFrom('', ' id="x"', ' id="src-1" hash="0123456789abcdef"', '\n'),
    fc.constantFrom(...CLOSERS),
  )
  .map(([open, name, attrs, close]) => open + name + attrs + close);

const fragment = fc.oneof(
  { weight: 4, arbitrary: tagLike },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ...OPENERS,
      ...CLOSERS,
      ...INVISIBLE,
      ...NAMES,
      '&',
      'amp;',
      'lt;',
      '[tag removed]',
      'SYSTEM:',
      '\n',
      ' ',
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 12, unit: 'grapheme' }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8, unit: 'binary' }) },
  { weight: 1, arbitrary: disguisedName },
);

const input = fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join(''));

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
