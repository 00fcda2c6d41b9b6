/**
 * The tag matcher keeps where runs of separators end once it meets a comment,
 * so that nested comments and tags cost linear time. This holds it to a plain
 * reading of the definition in tags.ts, which keeps nothing and is slow on
 * such input, over views full of brackets, comments, separators and letters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MARKERS } from '../../../src/safety/quoting/datamark.js';
import { TAG_NAMES, tagsInView } from '../../../src/safety/quoting/tags.js';

const SPELLINGS = TAG_NAMES.map((name) => name.replace(/_/g, ''));

function isSeparator(unit: string): boolean {
  return !/[A-Za-z0-9<>]/.test(unit) && !/[\p{L}\p{N}]/u.test(unit);
}

/** The end of the comment at `p`, or `p` when none (with an end) starts there. */
function comment(view: string, p: number): number {
  if (view.startsWith('<!--', p)) {
    const e = view.indexOf('-->', p + 4);
    return e === -1 ? p : e + 3;
  }
  if (view.startsWith('/*', p)) {
    const e = view.indexOf('*/', p + 2);
    return e === -1 ? p : e + 2;
  }
  return p;
}

function run(view: string, p: number, head: boolean): number {
  for (;;) {
    if (p >= view.length) return p;
    const e = comment(view, p);
    if (e > p) {
      p = e;
      continue;
    }
    const unit = view[p]!;
    if (head ? /[\s/\\!?]/.test(unit) : isSeparator(unit)) p++;
    else return p;
  }
}

function gap(view: string, p: number): number {
  let foreign = 0;
  for (;;) {
    p = run(view, p, false);
    if (p < view.length && /[\p{L}\p{N}]/u.test(view[p]!) && !/[A-Za-z0-9]/.test(view[p]!) && foreign < 3) {
      foreign++;
      p++;
    } else return p;
  }
}

/** Leetspeak, as tags.ts defines it: digits in the letter's place, symbols at either end of a gap. */
const DIGITS: Record<string, string> = { O: '0', I: '1', E: '3', S: '5', T: '7' };
const SYMBOLS: Record<string, string> = { S: '$§', T: '+', I: '!|¡', E: '€', C: '(©', H: '#', R: '®', P: '¶' };
const WORD_START: Record<string, number[]> = Object.fromEntries(
  TAG_NAMES.map((n) => {
    const starts: number[] = [];
    let k = 0;
    for (const ch of n) {
      if (ch === '_') starts.push(k);
      else k++;
    }
    return [n.replace(/_/g, ''), starts];
  }),
);
const isSpace = (unit: string): boolean => /\s/.test(unit) || MARKERS.includes(unit as (typeof MARKERS)[number]);

function name(view: string, p: number, spelling: string, strict: boolean): number {
  const symbolOf = (letter: string, unit: string | undefined): boolean =>
    unit !== undefined && (SYMBOLS[letter] ?? '').includes(unit);
  const spaceOnly = (from: number, to: number): boolean => to > from && [...view.slice(from, to)].every(isSpace);
  let at = [p];
  for (let k = 0; k < spelling.length; k++) {
    const letter = spelling[k]!;
    const wordStart = WORD_START[spelling]!.includes(k);
    const allowed = (from: number, to: number): boolean =>
      !strict || (wordStart ? to === from || !spaceOnly(from, to) : to === from);
    const next = new Set<number>();
    for (const from of at) {
      if (k === 0) {
        const unit = view[from];
        if (
          unit !== undefined &&
          (unit === letter || (DIGITS[letter] ?? '').includes(unit) || symbolOf(letter, unit))
        ) {
          next.add(from + 1);
        }
        continue;
      }
      const g = gap(view, from);
      const unit = view[g];
      const reads =
        unit !== undefined && (unit === letter || (DIGITS[letter] ?? '').includes(unit) || symbolOf(letter, unit));
      if (reads && allowed(from, g)) next.add(g + 1);
      if (g > from && symbolOf(letter, view[g - 1]) && allowed(from, g - 1)) next.add(g);
      if (g > from && symbolOf(letter, view[from])) next.add(from + 1);
    }
    if (next.size === 0) return -1;
    at = [...next];
  }
  const ends = at.filter((q) => !(q < view.length && /[A-Za-z0-9]/.test(view[q]!)));
  return ends.length === 0 ? -1 : Math.max(...ends);
}

function anyName(view: string, p: number, phrase: boolean, slash: boolean): number {
  for (const spelling of SPELLINGS) {
    if (phrase && !slash && spelling === 'TEXT') continue;
    const end = name(view, p, spelling, phrase && !slash);
    if (end !== -1) return end;
  }
  return -1;
}

const isOpener = (unit: string): boolean => unit !== '<' && (/\p{Ps}/u.test(unit) || '≺≤⊂⋖'.includes(unit));
const isCloser = (unit: string): boolean => unit === '>' || /\p{Pe}/u.test(unit) || '≻≥⊃⋗'.includes(unit);

function bracketed(view: string, v: number): number {
  const angle = view[v] === '<';
  if (!angle && !isOpener(view[v]!)) return -1;
  const p = run(view, v + 1, true);
  let end = anyName(view, p, !angle, view[p - 1] === '/' && p > v + 1);
  if (end === -1) return -1;
  for (let k = 0; k <= 256 && end + k < view.length; k++) {
    const unit = view[end + k]!;
    if (unit === '<' || (!angle && isOpener(unit))) break;
    if (angle ? unit === '>' : isCloser(unit)) {
      end += k + 1;
      break;
    }
  }
  return end;
}

function alone(view: string, v: number): number {
  let p = v;
  while (
    p - v < 16 &&
    p < view.length &&
    view[p] !== '\n' &&
    view[p] !== '<' &&
    (view[p] === '>' || isSeparator(view[p]!))
  )
    p++;
  const end = anyName(view, p, true, p > v && view[p - 1] === '/');
  if (end === -1) return -1;
  const eol = view.indexOf('\n', end) === -1 ? view.length : view.indexOf('\n', end);
  const rest = view.slice(end, eol);
  return /[\p{L}\p{N}]/u.test(rest) && !/^\s+[A-Z][A-Z0-9_-]*\s*=/.test(rest) ? -1 : eol;
}

function referenceTags(view: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  let v = 0;
  while (v < view.length) {
    let end = bracketed(view, v);
    if (end === -1 && (v === 0 || view[v - 1] === '\n')) end = alone(view, v);
    if (end > v) {
      found.push([v, end]);
      v = end;
    } else v++;
  }
  return found;
}

const unit = fc.constantFrom(
  '<',
  '>',
  '!',
  '-',
  '/',
  '*',
  ' ',
  '_',
  '\n',
  'T',
  'E',
  'X',
  'U',
  'N',
  'D',
  'H',
  'S',
  'A',
  '0',
  '中',
  '<!--',
  '-->',
  '/*',
  '*/',
  'TEXT',
  '</T',
  '<T<!--',
  'UNTRUSTED',
  'SOURCE',
  'HYPOTHESIS',
  '[',
  ']',
  '(',
  ')',
  '≺',
  '≻',
  '5',
  '3',
  '$',
  '+',
  '\t',
  '※',
  'TEXT_END',
  'UNTRUSTED SOURCE',
  '\n/',
);

describe('the tag matcher', () => {
  it('finds what a plain reading of the definition finds', () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 60 }), (parts) => {
        const view = parts.join('');
        expect(tagsInView(view)).toEqual(referenceTags(view));
      }),
      { numRuns: 30_000 },
    );
  });
});
