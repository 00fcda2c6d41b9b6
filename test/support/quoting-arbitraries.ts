/**
 * Generated inputs for the quoting property tests: our tag names in every
 * disguise, lookalike brackets, invisible characters, escapes and random text.
 */
import fc from 'fast-check';

export const NAMES = ['UNTRUSTED_SOURCE_END', 'UNTRUSTED_SOURCE', 'HYPOTHESIS_TEXT_END', 'HYPOTHESIS_TEXT', 'TEXT'];
export const OPENERS = [
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
export const CLOSERS = ['>', '/>', ' >', '＞', '›', '⟩', '〉', '»', '﹥', '&gt;', '&#62;', '%3E', '\\u003e', ''];
export const INVISIBLE = [
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
export const disguisedName = fc
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

export const tagLike = fc
  .tuple(
    fc.constantFrom(...OPENERS),
    disguisedName,
    fc.constantFrom('', ' id="x"', ' id="src-1" hash="0123456789abcdef"', '\n'),
    fc.constantFrom(...CLOSERS),
  )
  .map(([open, name, attrs, close]) => open + name + attrs + close);

export const fragment = fc.oneof(
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

export const input = fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join(''));
