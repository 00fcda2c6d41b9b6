/** Weak signals for the model to weigh: the second person, an imperative, a question, an encoded payload. */
import { IMPERATIVE_VERBS, SECOND_PERSON } from '../lexicons.js';
import { B, E, alt, startsOf } from './patterns.js';
import type { Rule } from './rule.js';

export const WEAK_RULES: readonly Rule[] = [
  {
    kind: 'second_person',
    weight: 0.3,
    pattern: new RegExp(`${B}${alt(SECOND_PERSON)}${E}`, 'y'),
    starts: startsOf(SECOND_PERSON, true),
  },
  // A sentence that opens with a verb in the imperative. Guards: `Use of`, `Act of`, `List of`, `Answer to`.
  {
    kind: 'imperative',
    weight: 0.45,
    pattern: new RegExp(
      `(?<=(?:^|[.!?:;"'\\u201C\\u201D)\\]])[\\s"'*>\\-]{0,4})(${alt(IMPERATIVE_VERBS)}${E})(?!\\s+(?:OF|IS|WAS|WERE|ARE|AND|IN|FOR)${E})`,
      'ym',
    ),
    starts: { words: startsOf(IMPERATIVE_VERBS).words!, sentence: true },
  },
  // An encoded payload: a long base64 run with digits, a run of bytes written in binary, or in hexadecimal.
  {
    kind: 'encoded_payload',
    weight: 0.35,
    // The base64 half is found by the pass itself (scan.ts): a plain loop, as a regex tried its run at every letter.
    pattern: /(?:[01]{8}\s){8,}/y,
    starts: { encoded: 'binary' },
  },
  {
    kind: 'encoded_payload',
    weight: 0.35,
    pattern: /(?:[0-9A-F]{2}[ \t]){7,}[0-9A-F]{2}(?![A-Z0-9])/y,
    starts: { encoded: 'hex' },
    // A row of two-digit numbers is no payload: bytes of text in hexadecimal hold both digits and letters.
    accept: (match) => /[A-F]/.test(match) && /[0-9]/.test(match),
  },
];
