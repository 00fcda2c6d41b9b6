/**
 * What the rule files (./*.ts) are written with: word boundaries and gaps in
 * the view's alphabet, alternations of folded lexicon entries, where a rule may
 * start, and the pattern fragments several rules share (a paper's machine
 * readers, this very text, what an attacker wants sent out).
 */

import { firstWords } from '../../text/words.js';
import { foldText } from '../../text/normalized-view.js';
import { type Starts } from './rule.js';

/**
 * What comes just before a match that makes it a mention: an opening quote,
 * or a machine reader as the object of "to" ("instructs the model to
 * ignore", "trained it to disregard"), which describes an attack; "you to
 * ignore" is one. Tested on the view just before the match.
 */
export const MENTIONED =
  /(?:["\u201c\u2018'\u00ab`]\s*|(?:MODELS?|LLMS?|AI|ASSISTANTS?|AGENTS?|SYSTEMS?|CHATBOTS?|REVIEWERS?|READERS?|SUMMARI[SZ]ERS?|IT|THEM)\s+TO\s+)$/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Folds a lexicon entry into the view's alphabet; spaces match any run of spaces. */
function foldEntry(entry: string): string {
  return escapeRegExp(foldText(entry).trim()).replace(/ +/g, '\\s+');
}

/** An alternation of folded entries, longest first so a longer entry wins. */
export function alt(entries: Iterable<string>): string {
  const folded = [...new Set([...entries].map(foldEntry))].filter((e) => e.length > 0);
  folded.sort((a, b) => b.length - a.length);
  return `(?:${folded.join('|')})`;
}

/**
 * Where entries of a lexicon begin: the first word of each. `single` lists the
 * entries that are one word and begin no longer entry: the pass signals those
 * on the word itself, without running the pattern.
 */
export function startsOf(entries: Iterable<string>, whole = false): Starts {
  const words = new Set<string>();
  const single = new Set<string>();
  const multi = new Set<string>();
  for (const e of entries) {
    const f = foldText(e).trim();
    const [w, next] = firstWords(f);
    if (w === undefined) continue;
    if (next === undefined) {
      words.add(w);
      single.add(w);
    } else {
      words.add(`${w} ${next}`);
      multi.add(w);
    }
  }
  return whole ? { words: [...words], single: [...single].filter((w) => !multi.has(w)) } : { words: [...words] };
}

/** Every pair of a word of `firsts` and a word of `seconds`: a rule that starts there. */
export function pairs(firsts: string | readonly string[], seconds: string | readonly string[]): string[] {
  const words = (w: string | readonly string[]): readonly string[] => {
    const list = typeof w === 'string' ? w.split(' ') : w;
    // A phrase of several words would make a pair of three: the pass would never try the rule.
    for (const word of list) if (!/^[A-Z0-9]+$/.test(word)) throw new Error(`not one word of the view: ${word}`);
    return list;
  };
  return words(firsts).flatMap((f) => words(seconds).map((x) => `${f} ${x}`));
}

/** An alternation of shared phrases (../text/phrases.ts), in the table's order, spaces matching any run of them. */
export function phrases(list: readonly string[]): string {
  return list.map((p) => escapeRegExp(p).replace(/ +/g, '\\s+')).join('|');
}

export function all(lexicon: Record<string, readonly string[]>): string[] {
  return Object.values(lexicon).flat();
}

/** Not inside a word of Latin letters or digits (the view's letters are mostly ASCII capitals). */
export const B = '(?<![A-Z0-9])';
export const E = '(?![A-Z0-9])';
/** A short gap inside one line. */
export const gap = (n: number): string => `[^\\n]{0,${n}}?`;
/** A short gap inside one clause: no line break, comma or sentence end. */
export const clause = (n: number): string => `[^\\n.,;!?]{0,${n}}?`;
/** An e-mail address in the view. */
export const EMAIL = '[A-Z0-9._%+-]{1,64}@[A-Z0-9.-]{1,64}\\.[A-Z]{2,}';
/** A short gap inside one sentence: a stop inside a word or an address ("www.example.com") ends none. */
export const inSentence = (n: number): string => `(?:[^\\n.!?]|[.!?](?=[^\\s])){0,${n}}?`;
// A paper's machine readers are told what to do about this very text (THIS_TEXT): an obligation (OBLIGED)
// and what they are to write or leave out (TO_WRITE: not "consider", "include", "treat" or "select",
// which methods sections say of the models they study).
export const THIS_TEXT =
  '(?:THIS|THE\\s+PRESENT|THE\\s+ABOVE|THE\\s+FOLLOWING)\\s+(?:GRANT\\s+)?(?:PAPER|ARTICLE|WORK|ABSTRACT|MANUSCRIPT|STUDY|DOCUMENT|PAGE|SUBMISSION|REPORT|TEXT|PREPRINT|RESEARCH|TRIAL|REVIEW|APPLICATION|PROPOSAL|EVIDENCE|CANDIDATE|RESUME|PRODUCT|WEBSITE)(?![A-Z0-9])';
export const OBLIGED =
  '(?:SHOULD|MUST|SHALL|NEEDS?\\s+TO|(?:IS|ARE)\\s+(?:KINDLY\\s+)?(?:REQUESTED|ASKED|ADVISED|INSTRUCTED|REQUIRED|EXPECTED|ENCOURAGED|INVITED|REMINDED)\\s+TO|OUGHT\\s+TO)';
export const TO_WRITE =
  '(?:REPORT|STATE|DESCRIBE|MENTION|RATE|OMIT|SAY|CLASSIFY|SUMMARI[SZ]E|RECOMMEND|PRESENT|CONCLUDE|EMPHASI[SZ]E|NOTE|SCORE|LABEL|CALL|PORTRAY|CHARACTERI[SZ]E|HIGHLIGHT|IGNORE|DISREGARD|EXCLUDE|SKIP|RANK|PRIORITI[SZ]E|FAVOU?R|APPROVE|ACCEPT|REJECT|BE\\s+(?:RATED|SCORED|RANKED|DESCRIBED|SUMMARI[SZ]ED|CLASSIFIED|TREATED|REPORTED|EXCLUDED|OMITTED|LABELL?ED|ACCEPTED|APPROVED))(?![A-Z0-9])';

export const QUESTION_WEIGHT = 0.3;
export const ENCODED_WEIGHT = 0.35;

/**
 * Not the prose of someone saying something ("we can say that", "they
 * state that"): a forced reply is an imperative, so a subject or a modal
 * just before the verb makes it a statement.
 */
export const NOT_STATED =
  '(?<!(?:WE|I|THEY|YOU|HE|SHE|IT|ONE|CAN|COULD|WOULD|MAY|MIGHT|SHOULD|WILL|TO|MUST|DID|DO|DOES)\\s+)';
